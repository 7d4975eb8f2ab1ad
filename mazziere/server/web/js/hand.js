// The player's UNO hand (UNO and UNO CASINO tables) with the controls of seed 004:
//  - double-click a card to play it;
//  - click to select it (it rises), then click the translucent copy shown on the pile;
//  - drag a selected card onto that translucent copy (or the pile);
//  - click a raised card to lower it.
// Keyboard: every card is a button; Space selects/lowers, Enter plays, arrows move between cards.
// Only what the server lists as legal can be played: other cards are dimmed and inert.
import { COLORS, colorDot, unoCard } from './cards.js';
import { t, tt } from './i18n.js';
import { fill, h, modal } from './ui.js';

/**
 * Split the server's legal actions into card plays ({cards, color, target, text}), words (the
 * texts of draw, pass...), catches and colour choices (the actions themselves: {text, target}
 * and {text, color}).
 */
export function parseLegal(legal) {
  // the server sends each legal action structured ({text, kind, ...fields}): no parsing here
  const plays = [];
  const words = new Set();
  const catches = [];
  const colorChoices = [];
  for (const a of legal || []) {
    if (a.kind === 'play') plays.push({ cards: a.cards, color: a.color, target: a.target, text: a.text });
    else if (a.kind === 'catch') catches.push(a);
    else if (a.kind === 'choose_color') colorChoices.push(a);
    else words.add(a.text);
  }
  return { plays, words, catches, colorChoices };
}

const startsWith = (arr, prefix) => prefix.length <= arr.length && prefix.every((c, i) => arr[i] === c);
const same = (a, b) => a.length === b.length && startsWith(a, b);

/** Ask for a colour among `letters` (a wild). Resolves with a letter or null. */
export function pickColor(letters = COLORS) {
  return modal({
    title: t('uno.choose_color'),
    className: 'modal-colors',
    choices: letters.map((c) => ({
      value: c,
      class: `btn color-btn c-${c}`,
      label: h('span', {}, colorDot(c), ' ', t(`color.${c}`)),
      attrs: { 'data-color': c },
    })),
  });
}

/** Ask for a seat among `seats` (7 swap, 0 gives four). */
export function pickTarget(seats, nameOf) {
  return modal({
    title: t('uno.choose_target'),
    choices: seats.map((s) => ({ value: s, label: nameOf(s), attrs: { 'data-target': s } })),
  });
}

export class UnoHand {
  /**
   * onPlay(text): send a play; nameOf(seat): a seat's name (for target choices).
   */
  constructor({ onPlay, nameOf, label }) {
    this.onPlay = onPlay;
    this.nameOf = nameOf;
    this.codes = [];
    this.cards = [];
    this.plays = [];
    this.sel = []; // selected positions, in selection order
    this.locked = false;
    this.drag = null;
    this.suppressClick = false;
    this.el = h('div', { class: 'hand', role: 'group', 'aria-label': label, 'data-testid': 'hand' });
    this.ghost = h('button', {
      type: 'button',
      class: 'ghost',
      hidden: true,
      'data-testid': 'ghost',
      onclick: () => this.playSelection(),
    });
    this.dropZones = [this.ghost];
    this.onSelectionChange = () => {};
    this.onMove = (e) => this.pointerMove(e);
    this.onUp = (e) => this.pointerUp(e);
    document.addEventListener('pointermove', this.onMove);
    document.addEventListener('pointerup', this.onUp);
    document.addEventListener('pointercancel', this.onUp);
  }

  destroy() {
    document.removeEventListener('pointermove', this.onMove);
    document.removeEventListener('pointerup', this.onUp);
    document.removeEventListener('pointercancel', this.onUp);
    this.endDrag();
  }

  /** New hand and legal plays from the server. */
  update(codes, plays) {
    const changed = !same(codes, this.codes);
    const previous = this.sel.map((i) => this.codes[i]);
    this.codes = [...codes];
    this.plays = plays;
    if (changed) {
      this.cards = this.codes.map((code, i) => this.makeCard(code, i));
      fill(this.el, ...this.cards);
      // the CSS overlaps the cards as much as the row needs to hold them all on one line
      this.el.style.setProperty('--n', String(this.cards.length));
      this.sel = [];
    } else if (!this.isPrefix(previous)) {
      this.sel = [];
    }
    this.locked = false;
    this.refresh();
  }

  /** While an action is on its way: no more plays until the answer. */
  lock() {
    this.locked = true;
    this.refresh();
  }

  unlock() {
    this.locked = false;
    this.refresh();
  }

  makeCard(code, i) {
    const el = unoCard(code, { tag: 'button', attrs: { 'data-index': i } });
    el.addEventListener('click', (e) => {
      e.preventDefault();
      if (this.suppressClick) return;
      this.toggle(i);
    });
    el.addEventListener('dblclick', (e) => {
      e.preventDefault();
      this.quickPlay(i);
    });
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        this.quickPlay(i);
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        e.preventDefault();
        const next = this.cards[(i + (e.key === 'ArrowRight' ? 1 : -1) + this.cards.length) % this.cards.length];
        next?.focus();
      } else if (e.key === 'Escape' && this.sel.length) {
        this.sel = [];
        this.refresh();
      }
    });
    el.addEventListener('pointerdown', (e) => this.pointerDown(e, i));
    return el;
  }

  // ---------------------------------------------------------------- legality
  selCodes(sel = this.sel) {
    return sel.map((i) => this.codes[i]);
  }

  isPrefix(codes) {
    return this.plays.some((p) => startsWith(p.cards, codes));
  }

  complete(codes) {
    return this.plays.filter((p) => same(p.cards, codes));
  }

  canStart(i) {
    return this.plays.some((p) => p.cards[0] === this.codes[i]);
  }

  canExtend(i) {
    return this.sel.length > 0 && !this.sel.includes(i) && this.isPrefix([...this.selCodes(), this.codes[i]]);
  }

  enabled(i) {
    return !this.locked && (this.sel.includes(i) || this.canStart(i) || this.canExtend(i));
  }

  /** Whether the current selection can be played as it is. */
  selectionPlayable() {
    return this.sel.length > 0 && this.complete(this.selCodes()).length > 0;
  }

  // ---------------------------------------------------------------- selection
  toggle(i) {
    if (!this.enabled(i)) return;
    if (this.sel.includes(i)) {
      // lower it; keep the rest only if it still starts a legal play
      const rest = this.sel.filter((j) => j !== i);
      this.sel = this.isPrefix(this.selCodes(rest)) ? rest : [];
    } else if (this.canExtend(i)) {
      this.sel = [...this.sel, i];
    } else {
      this.sel = [i];
    }
    this.refresh();
  }

  /** Double-click / Enter: play this card (with the cards already raised, if they go together). */
  quickPlay(i) {
    if (this.locked) return;
    const codes = this.selCodes();
    let pick;
    if (this.sel.includes(i)) pick = this.sel;
    else if (this.sel.length && this.complete([...codes, this.codes[i]]).length) pick = [...this.sel, i];
    else pick = [i];
    if (this.complete(this.selCodes(pick)).length) {
      this.sel = pick;
      this.refresh();
      this.playSelection();
    } else if (this.enabled(i) && !this.sel.includes(i)) {
      this.toggle(i);
    } else if (!this.canStart(i) && !this.canExtend(i)) {
      // a card that cannot be played now: it shakes, and the table says why
      const el = this.cards[i];
      el.classList.remove('shake');
      void el.offsetWidth; // the animation starts again on a second try
      el.classList.add('shake');
      el.addEventListener('animationend', () => el.classList.remove('shake'), { once: true });
      this.onUnplayable?.(this.codes[i]);
    }
  }

  /** Play the raised cards, asking for a colour or a target when the play needs one. */
  async playSelection() {
    if (this.locked || !this.selectionPlayable()) return;
    let options = this.complete(this.selCodes());
    const colors = [...new Set(options.map((p) => p.color).filter(Boolean))];
    if (colors.length > 1) {
      const c = await pickColor(colors);
      if (!c) return;
      options = options.filter((p) => p.color === c);
    }
    const targets = [...new Set(options.map((p) => p.target).filter((x) => x !== null))];
    if (targets.length > 1) {
      const s = await pickTarget(targets, this.nameOf);
      if (s === null) return;
      options = options.filter((p) => p.target === s);
    }
    if (!options.length) return;
    this.lock();
    this.onPlay(options[0].text);
  }

  refresh() {
    this.cards.forEach((el, i) => {
      const on = this.enabled(i);
      el.classList.toggle('raised', this.sel.includes(i));
      el.classList.toggle('dim', !on && !this.locked);
      el.classList.toggle('playable', on);
      el.setAttribute('aria-disabled', String(!on));
      el.setAttribute('aria-pressed', String(this.sel.includes(i)));
    });
    // the translucent copy on the pile: the last raised card, when the raised cards can be played
    const playable = !this.locked && this.selectionPlayable();
    this.ghost.hidden = !playable;
    if (playable) {
      const codes = this.selCodes();
      const face = unoCard(codes[codes.length - 1]);
      fill(this.ghost, face, codes.length > 1 ? h('span', { class: 'ghost-count' }, `×${codes.length}`) : '');
      this.ghost.setAttribute('aria-label', t('uno.play_selected'));
      this.ghost.title = tt('uno.ghost_hint');
    }
    this.onSelectionChange();
  }

  // ---------------------------------------------------------------- dragging
  pointerDown(e, i) {
    if (e.button !== 0 || !this.enabled(i)) return;
    this.drag = { i, x: e.clientX, y: e.clientY, id: e.pointerId, started: false, el: e.currentTarget };
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.started) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
      if (!this.sel.includes(d.i)) this.toggle(d.i); // dragging an unraised card raises it first
      if (!this.sel.includes(d.i) || !this.selectionPlayable()) {
        this.drag = null;
        return;
      }
      d.started = true;
      const r = d.el.getBoundingClientRect();
      d.dx = d.x - r.left;
      d.dy = d.y - r.top;
      d.float = d.el.cloneNode(true);
      d.float.classList.add('drag-float');
      d.float.classList.remove('raised');
      d.float.removeAttribute('data-index');
      d.float.removeAttribute('data-testid');
      d.float.style.width = `${r.width}px`;
      d.float.style.height = `${r.height}px`;
      document.body.append(d.float);
      d.el.classList.add('drag-src');
    }
    d.lastX = e.clientX;
    d.lastY = e.clientY;
    d.float.style.left = `${e.clientX - d.dx}px`;
    d.float.style.top = `${e.clientY - d.dy}px`;
    this.ghost.classList.toggle('drop-hover', this.overDrop(e));
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    if (!d.started) return;
    // a cancelled pointer (the browser took it over) says no position: the last one it had
    const at = e.type === 'pointercancel' ? { clientX: d.lastX, clientY: d.lastY } : e;
    const over = this.overDrop(at);
    this.cleanupDrag(d);
    // the click that follows the drag must not lower the card
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    if (over) this.playSelection();
  }

  overDrop(e) {
    const pad = 16;
    return this.dropZones.some((z) => {
      if (!z || z.hidden) return false;
      const r = z.getBoundingClientRect();
      return (
        r.width > 0 &&
        e.clientX >= r.left - pad &&
        e.clientX <= r.right + pad &&
        e.clientY >= r.top - pad &&
        e.clientY <= r.bottom + pad
      );
    });
  }

  cleanupDrag(d) {
    d.float?.remove();
    d.el?.classList.remove('drag-src');
    this.ghost.classList.remove('drop-hover');
  }

  endDrag() {
    if (this.drag?.started) this.cleanupDrag(this.drag);
    this.drag = null;
  }
}
