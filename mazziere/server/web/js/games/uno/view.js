// The UNO table: own hand, the others around the table with their card counts, discard pile and
// current colour, direction, whose turn, the countdown, scores and match status.
import { colorDot, miniUnoList, unoBack, unoCard, unoName } from '../../cards.js';
import { catalogNow, loadCatalog, presetInfo } from '../../catalog.js';
import { describeEvent, list, reasonText } from '../../events.js';
import { UnoHand, parseLegal } from '../../hand.js';
import { t, tt } from '../../i18n.js';
import { celebrate, fly, momentMs, travelMs } from '../../motion.js';
import { clear, Countdown, fill, h, icon } from '../../ui.js';
import { TableView } from '../table-view.js';
import './events.js';
import './messages.js';

const RANK_ORDER = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'S', 'R', 'D2'];
const COLOR_ORDER = ['R', 'Y', 'G', 'B'];

/** Sort a hand by colour then rank, wilds last (the server's order means nothing). */
export function sortUno(codes) {
  const key = (c) => {
    if (c === 'W') return 500;
    if (c === 'W4') return 501;
    return COLOR_ORDER.indexOf(c[0]) * 100 + RANK_ORDER.indexOf(c.slice(1));
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

/**
 * Whether calling UNO can be due now: one card left, or a legal play that leaves exactly one
 * (the engine accepts the call more widely; offering it with two unplayable cards misleads).
 */
export function unoCanBeDue(v, legal) {
  const n = v.hand.length;
  return n === 1 || legal.plays.some((p) => n - p.cards.length === 1);
}

/**
 * The UNO events of an update as cards that travel (the casino's table uses it too): `at`
 * gives the elements: the player's hand, a seat's place (another seat), the pile, the deck.
 * The pile keeps showing the card it had (`previous`'s top) until each played card lands on
 * it; the card the update drew there comes back with the last landing.
 */
export function animateUno(msg, at, previous) {
  const step = travelMs() * 0.35;
  if (!step) return;
  const place = (s) => (Number(s) === msg.seat ? at.hand : at.seat(Number(s)));
  const drawn = at.pile?.firstElementChild;
  let onPile = drawn;
  const show = (code) => {
    // a newer update redrew the pile: its card is the one to show
    if (!drawn || at.pile.firstElementChild !== onPile) return;
    onPile = code === null ? drawn : unoCard(code);
    at.pile.replaceChildren(onPile);
  };
  const before = previous?.view?.top;
  const landings = [];
  let k = 0;
  for (const e of msg.events || []) {
    // the hand is over: its result comes up, and the next hand's deal lies under it unseen
    if (k > 40 || e.type === 'hand_ended') break;
    if (e.type === 'played') {
      for (const c of list(e.cards)) landings.push([fly(unoCard(c), place(e.seat), at.pile, step * k++), c]);
    } else if (e.type === 'drew' || e.type === 'dealt') {
      const n = Math.min(list(e.cards).length || Number(e.count) || 0, e.type === 'dealt' ? 7 : 8);
      const gap = e.type === 'dealt' ? 0.4 : 1;
      for (let i = 0; i < n; i++) fly(unoBack(), at.deck, place(e.seat), step * gap * k++);
    }
  }
  if (!landings.length || !before) return;
  show(before);
  landings.forEach(([flight, c], i) => flight.then(() => show(i === landings.length - 1 ? null : c)));
}

export class UnoView extends TableView {
  constructor(root, ctx) {
    super(root, ctx);
    // the match line reads the preset's match format from the catalog
    loadCatalog().then(
      () => this.msg?.view && this.drawScores(this.msg),
      () => {},
    );
    this.hand = this.own(
      new UnoHand({
        onPlay: (text) => this.send(text),
        nameOf: (s) => ctx.nameOf(s),
        label: t('uno.your_hand'),
      }),
    );
    this.hand.onSelectionChange = () => this.drawButtons();
    this.hand.onUnplayable = (code) => this.banner([this.whyNot(code)], 'why');
    // what matters said at once over the felt's top (a challenge, a catch, a skip, a +2 or +4
    // landing on the player, why a card cannot be played): nothing under it moves
    this.bannerEl = h('div', { class: 'table-banner', role: 'status', hidden: true, 'data-testid': 'banner' });
    this.countdown = this.own(new Countdown(''));
    this.oppCountdown = this.own(new Countdown(''));

    this.opponents = h('div', { class: 'opponents', 'data-testid': 'opponents' });
    this.drawPile = h('button', {
      type: 'button',
      class: 'pile draw-pile',
      'data-action': 'draw-pile',
      onclick: () => this.word('draw'),
    });
    this.discard = h('div', { class: 'pile discard', 'data-testid': 'discard' });
    this.discardSlot = h('div', { class: 'discard-slot' }, this.discard, this.hand.ghost);
    this.hand.dropZones.push(this.discard);
    this.colorLabel = h('div', { class: 'current-color', 'data-testid': 'current-color' });
    this.direction = h('div', { class: 'direction', 'data-testid': 'direction' });
    // the +2/+4 badge keeps its place when there is nothing to take (the piles stay put)
    this.pending = h('div', { class: 'pending-badge off', 'aria-hidden': 'true' });
    this.turnLine = h('p', { class: 'turn-line', 'data-testid': 'turn-line', 'aria-live': 'polite' });
    this.buttons = h('div', { class: 'actions', 'data-testid': 'actions' });
    this.meBar = h('div', { class: 'me-bar' });
    this.scores = h('section', { class: 'panel scores-panel', 'aria-label': t('uno.scores') });
    this.overlay = h('div', { class: 'result-overlay', hidden: true, 'data-testid': 'result' });
    // between two hands of a match: how the hand ended, before the next one is played
    this.between = h('div', { class: 'result-overlay hand-result', hidden: true, 'data-testid': 'hand-result' });
    this.waiting = h('div', { class: 'waiting-room', hidden: true, 'data-testid': 'waiting' });

    const felt = h(
      'div',
      { class: 'felt' },
      this.opponents,
      h(
        'div',
        { class: 'center' },
        this.direction,
        h(
          'div',
          { class: 'piles' },
          h('div', { class: 'pile-col' }, this.drawPile, h('span', { class: 'pile-label' }, t('uno.draw_pile'))),
          h('div', { class: 'pile-col' }, this.discardSlot, this.colorLabel),
        ),
        this.pending,
      ),
      this.waiting,
      this.bannerEl,
      this.between,
      this.overlay,
    );
    const meArea = h('div', { class: 'me-area' }, this.meBar, this.turnLine, this.hand.el, this.buttons);
    this.meArea = meArea;
    root.append(
      h(
        'div',
        { class: 'table-layout uno-layout' },
        h('div', { class: 'table-main' }, felt, meArea),
        h('div', { class: 'table-side' }, this.scores, ctx.log.el),
      ),
    );
  }

  readLegal(legal) {
    return parseLegal(legal);
  }

  lockChanged() {
    if (this.locked) this.hand.lock();
    else this.hand.unlock();
    this.drawButtons();
  }

  draw(msg, previous) {
    const v = msg.view;
    const watching = msg.seat === null || msg.seat === undefined;
    const me = watching ? 0 : msg.seat;
    const seats = msg.seats;
    if (!v) {
      this.drawWaiting(msg);
      return;
    }
    this.waiting.hidden = true;
    this.meArea.hidden = watching; // a spectator has no hand

    // ---- the others around the table, seat order clockwise from me at the bottom
    clear(this.opponents);
    const n = seats.length;
    for (let k = watching ? 0 : 1; k < n; k++) {
      const s = (me + k) % n;
      const angle = ((90 + (k * 360) / n) * Math.PI) / 180;
      const count = v.hand_counts[s] ?? 0;
      const fan = h('div', { class: 'opp-fan', 'aria-hidden': 'true' });
      for (let i = 0; i < Math.min(count, 8); i++) fan.append(unoBack({ small: true }));
      const isTurn = v.current === s && !v.result;
      const chip = h(
        'div',
        {
          class: `opp${isTurn ? ' turn' : ''}${v.in_hand && v.in_hand[s] === false ? ' out' : ''}${seats[s].connected ? '' : ' offline'}`,
          // kept inside the felt: the chips are about 150 px tall
          style: {
            '--x': `${50 + 40 * Math.cos(angle)}%`,
            '--y': `${Math.min(84, Math.max(16, 50 + 40 * Math.sin(angle)))}%`,
          },
          'data-seat': s,
          'data-testid': `opp-${s}`,
        },
        h(
          'div',
          { class: 'opp-name' },
          h(
            'span',
            { class: 'avatar', 'aria-hidden': 'true' },
            seats[s].bot ? icon('bot') : (this.ctx.nameOf(s)[0] || '?').toUpperCase(),
          ),
          h('span', { class: 'opp-label' }, this.ctx.nameOf(s)),
          v.dealer === s ? h('span', { class: 'tag tag-dealer', title: t('uno.dealer') }, 'D') : null,
        ),
        fan,
        h(
          'div',
          { class: 'opp-meta' },
          h('span', { class: 'opp-count', 'data-testid': `count-${s}` }, t('uno.cards_n', { n: count })),
          ' · ',
          t('uno.points_n', { n: v.scores[s] ?? 0 }),
        ),
        count === 1
          ? h('span', { class: `uno-flag${v.uno_seat === s && v.uno_called ? ' called' : ''}` }, 'UNO')
          : null,
      );
      // what the seat is doing now, on a line of its own that is there even when empty: a chip
      // keeps its height as the turn goes round (on a phone the chips sit above the piles)
      const status = h('div', { class: 'opp-status' });
      if (!seats[s].connected) status.append(h('span', { class: 'tag tag-offline' }, t('seat.offline')));
      if (isTurn && !seats[s].bot) status.append(this.clock(this.oppCountdown, true) ?? '');
      if (isTurn && seats[s].bot)
        status.append(h('span', { class: 'thinking', 'data-testid': 'thinking' }, t('motion.thinking')));
      chip.append(status);
      this.opponents.append(chip);
    }
    if (v.current === me || msg.time_left === null) this.clock(this.oppCountdown, false);

    // ---- piles, colour, direction
    clear(this.discard);
    this.discard.append(unoCard(v.top));
    this.discard.dataset.color = v.color || '';
    this.discard.setAttribute('aria-label', t('uno.discard_is', { card: unoName(v.top) }));
    fill(this.colorLabel, colorDot(v.color), ' ', v.color ? t(`color.${v.color}`) : '—');
    this.colorLabel.dataset.color = v.color || '';
    clear(this.drawPile);
    const canDraw = this.legal.words.has('draw') && !v.result;
    this.drawPile.append(unoBack(), h('span', { class: 'pile-count' }, String(v.draw_pile_count)));
    this.drawPile.disabled = !canDraw;
    this.drawPile.classList.toggle('can-draw', canDraw);
    this.drawPile.setAttribute(
      'aria-label',
      canDraw ? t('uno.draw_a_card') : t('uno.draw_pile_n', { n: v.draw_pile_count }),
    );
    const cw = v.direction >= 0;
    this.direction.className = `direction ${cw ? 'cw' : 'ccw'}`;
    fill(
      this.direction,
      h('span', { class: 'dir-arrow', 'aria-hidden': 'true' }, cw ? '↻' : '↺'),
      h('span', { class: 'dir-text' }, t(cw ? 'uno.clockwise' : 'uno.counterclockwise')),
    );
    this.pending.classList.toggle('off', !v.pending);
    this.pending.setAttribute('aria-hidden', String(!v.pending));
    this.pending.textContent = t('uno.pending_n', { n: v.pending || 2 });

    // ---- me
    const myTurn = v.current === me && !v.result;
    const sorted = sortUno(v.hand);
    this.hand.update(sorted, this.legal.plays);
    this.hand.cards.forEach((el, i) =>
      el.classList.toggle('just-drawn', v.drawn !== null && sorted[i] === v.drawn && v.phase === 'drawn' && myTurn),
    );
    fill(
      this.meBar,
      h(
        'span',
        { class: `me-name${myTurn ? ' turn' : ''}` },
        this.ctx.nameOf(me),
        ' ',
        h('span', { class: 'muted' }, `(${t('common.you')})`),
      ),
      h(
        'span',
        { class: 'me-meta' },
        t('uno.cards_n', { n: v.hand.length }),
        ' · ',
        t('uno.points_n', { n: v.scores[me] ?? 0 }),
      ),
      this.clock(this.countdown, myTurn),
    );
    this.turnLine.textContent = this.prompt(v, me);
    this.turnLine.classList.toggle('my-turn', myTurn);
    this.meArea.classList.toggle('my-turn', myTurn);
    this.drawButtons();
    this.drawScores(msg);
    this.drawResult(msg, Boolean(previous && previous !== msg && !msg.full));
    this.drawHandEnd(msg, previous);
    if (previous && previous !== msg && !msg.full) this.tellEvents(msg, previous);
  }

  /** The update's events that matter, in a banner: a challenge, a catch, this player skipped,
   * a +2 or +4 landing on this player. */
  tellEvents(msg, previous) {
    const me = msg.seat;
    const v = msg.view;
    const lines = [];
    for (const e of msg.events || []) {
      const said = (x) => describeEvent(x, this.ctx.log.ctx);
      if (e.type === 'challenged' || e.type === 'caught' || e.type === 'uno_missed') {
        const line = h('span', {}, said(e));
        // the challenged hand, when the server shows it to this player (the challenger)
        const shown = list(e.hand || e.cards);
        if (e.type === 'challenged' && shown.length) line.append(' ', miniUnoList(sortUno(shown)));
        lines.push(line);
      } else if (e.type === 'skipped' && Number(e.seat) === me) {
        lines.push(said(e));
      }
    }
    const was = previous.view;
    const landed = v.phase === 'pending' && v.current === me && !(was?.phase === 'pending' && was?.current === me);
    if (landed && !v.result) lines.push(t('uno.banner.pending', { n: v.pending }));
    if (lines.length) this.banner(lines, 'event');
  }

  /** Show lines in the banner for a few seconds (a newer banner replaces it). */
  banner(lines, kind) {
    clearTimeout(this.bannerTimer);
    fill(this.bannerEl, ...lines.filter(Boolean).map((x) => h('p', {}, x)));
    this.bannerEl.dataset.kind = kind;
    this.bannerEl.hidden = false;
    this.bannerTimer = setTimeout(() => (this.bannerEl.hidden = true), momentMs(3200));
  }

  /** Why a card of the hand cannot be played now, in words. */
  whyNot(code) {
    const v = this.msg?.view;
    const me = this.msg?.seat;
    if (!v || v.result) return t('uno.prompt.over');
    if (v.current !== me) return t('uno.why.not_your_turn', { who: this.ctx.nameOf(v.current) });
    if (v.phase === 'pending') return t('uno.why.pending', { n: v.pending });
    if (v.phase === 'color') return t('uno.prompt.first_color');
    if (v.phase === 'drawn') return t('uno.why.drawn', { card: unoName(v.drawn) });
    if (code === 'W4') return t('uno.why.wild4', { color: t(`color.${v.color}`) });
    return t('uno.why.no_match', { card: unoName(code), top: unoName(v.top), color: t(`color.${v.color}`) });
  }

  /**
   * A hand of a match ended in this update (and the match goes on): once its last card has
   * landed, the hand's result over the felt: who went out, the points of each hand left, the
   * running scores and the match's target, a short celebration when this player won; the next
   * hand is played on "Next hand", or after a pause.
   */
  drawHandEnd(msg, previous) {
    const v = msg.view;
    const ended = previous && previous !== msg && !msg.full ? (msg.events || []).find((e) => e.type === 'hand_ended') : null;
    if (!ended) {
      if (previous !== msg && (msg.full || v.result)) this.endBetween();
      return;
    }
    if (v.result) return; // the match's result says it all
    this.endBetween();
    const me = msg.seat;
    const watching = me === null || me === undefined;
    const teams = (this.ctx.summary()?.config?.options || {}).teams;
    const won = !watching && ended.winner !== null && (teams ? Number(ended.winner) % 2 === me % 2 : Number(ended.winner) === me);
    const points = list(ended.points).map(Number);
    const scores = list(ended.scores).map(Number);
    const left = list(ended.hands);
    const n = (previous?.view?.hand_no ?? v.hand_no - 1) + 1;
    const name = (s) => (s === me && !watching ? t('common.you_cap') : this.ctx.nameOf(s));
    const title =
      ended.winner === null
        ? t('uno.hand_none', { n })
        : won
          ? t('uno.hand_you_won', { n })
          : t('uno.hand_won_by', { n, who: name(Number(ended.winner)) });
    const worth = points.reduce((a, p, s) => (s === Number(ended.winner) ? a : a + p), 0);
    const rows = msg.seats.map((_, s) =>
      h(
        'tr',
        { class: `${s === Number(ended.winner) ? 'winner' : ''}${s === me ? ' me' : ''}`, 'data-seat': s },
        h('th', { scope: 'row' }, name(s)),
        h('td', { class: 'left-cards' }, left[s]?.length ? miniUnoList(sortUno(left[s])) : '—'),
        h('td', { 'data-testid': `hand-points-${s}` }, s === Number(ended.winner) ? `+${worth}` : String(points[s] ?? 0)),
        h('td', { 'data-testid': `hand-score-${s}` }, teams ? '' : String(scores[s] ?? '')),
      ),
    );
    const next = this.button('next-hand', t('uno.next_hand'), 'btn-primary', () => this.endBetween());
    fill(
      this.between,
      h(
        'div',
        { class: `result-card ${won ? 'won' : ''}`, role: 'dialog', 'aria-label': title },
        h('h2', {}, title),
        h('p', { class: 'muted', 'data-testid': 'hand-result-match' }, this.matchLine(v, n + 1)),
        h(
          'table',
          { class: 'score-table hand-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, t('uno.player')),
              h('th', { scope: 'col' }, t('uno.cards_left')),
              h('th', { scope: 'col' }, t('uno.hand_points')),
              h('th', { scope: 'col' }, teams ? '' : t('uno.points')),
            ),
          ),
          h('tbody', {}, rows),
        ),
        teams
          ? h('p', {}, scores.map((sc, i) => `${t('uno.team_n', { n: i + 1 })}: ${t('uno.points_n', { n: sc })}`).join(' · '))
          : null,
        h('div', { class: 'result-actions' }, next),
      ),
    );
    this.afterMotion(msg, () => {
      this.between.hidden = false;
      if (won) celebrate(this.between);
      this.betweenTimer = setTimeout(() => this.endBetween(), momentMs(7000));
    });
  }

  /** The hand's result goes: the next hand is in view. */
  endBetween() {
    clearTimeout(this.betweenTimer);
    this.between.hidden = true;
  }

  destroy() {
    clearTimeout(this.betweenTimer);
    clearTimeout(this.bannerTimer);
    super.destroy();
  }

  /** Cards travel: a play from a hand to the pile, a draw from the deck, the deal round the table. */
  animate(msg, previous) {
    animateUno(
      msg,
      {
        hand: this.hand.el,
        seat: (s) => this.opponents.querySelector(`[data-seat="${s}"]`),
        pile: this.discard,
        deck: this.drawPile,
      },
      previous,
    );
  }

  prompt(v, me) {
    if (v.result) return t('uno.prompt.over');
    if (v.current !== me) {
      if (this.legal.catches.length)
        return t('uno.prompt.can_catch', { who: this.legal.catches.map((a) => this.ctx.nameOf(a.target)).join(', ') });
      return t('uno.prompt.waiting', { who: this.ctx.nameOf(v.current) });
    }
    if (v.phase === 'color') return t('uno.prompt.first_color');
    if (v.phase === 'pending') {
      // only the moves that apply: stacking when a card of the hand can go on the +2 or +4
      const n = v.pending;
      const stack = this.legal.plays.length > 0;
      if (v.challengeable)
        return stack ? t('uno.prompt.pending_challenge_stack', { n }) : t('uno.prompt.pending_challenge', { n });
      return stack ? t('uno.prompt.pending_stack', { n }) : t('uno.prompt.pending', { n });
    }
    if (v.phase === 'drawn') return t('uno.prompt.drawn', { card: unoName(v.drawn) });
    if (!this.legal.plays.length) return t('uno.prompt.must_draw');
    return v.multi_play ? tt('uno.prompt.play_multi') : tt('uno.prompt.play');
  }

  drawButtons() {
    if (!this.msg?.view) return;
    const L = this.legal;
    const btn = (action, label, cls, onclick) => this.button(action, label, cls, onclick, this.hand.locked);
    const out = [];
    // "Play" is there whenever a card can be played (greyed until one is raised): raising a
    // card must not add a row under the hand and move it under the mouse (a double-click's
    // second click would land off the card)
    if (L.plays.length)
      out.push(
        this.button(
          'play',
          t('uno.play_selected'),
          'btn-primary',
          () => this.hand.playSelection(),
          this.hand.locked || !this.hand.selectionPlayable(),
        ),
      );
    if (L.words.has('uno') && unoCanBeDue(this.msg.view, L))
      out.push(btn('uno', t('uno.call_uno'), 'btn-uno', () => this.word('uno')));
    if (L.words.has('draw')) out.push(btn('draw', t('uno.draw'), '', () => this.word('draw')));
    if (L.words.has('pass')) out.push(btn('pass', t('uno.pass'), '', () => this.word('pass')));
    if (L.words.has('accept'))
      out.push(btn('accept', t('uno.accept', { n: this.msg.view.pending }), '', () => this.word('accept')));
    if (L.words.has('challenge'))
      out.push(btn('challenge', t('uno.challenge'), 'btn-warn', () => this.word('challenge')));
    for (const a of L.catches)
      out.push(
        btn(`catch-${a.target}`, t('uno.catch', { who: this.ctx.nameOf(a.target) }), 'btn-warn', () =>
          this.send(a.text),
        ),
      );
    if (L.colorChoices.length) {
      out.push(
        h(
          'div',
          { class: 'color-choices', role: 'group', 'aria-label': t('uno.choose_color') },
          L.colorChoices.map((a) =>
            btn(
              `color-${a.color}`,
              h('span', {}, colorDot(a.color), ' ', t(`color.${a.color}`)),
              `color-btn c-${a.color}`,
              () => this.send(a.text),
            ),
          ),
        ),
      );
    }
    fill(this.buttons, ...out);
  }

  /** The match's format and where it stands at hand `n`: "hand 2 · first to 500 points". */
  matchLine(v, n) {
    const cfg = this.ctx.summary()?.config || {};
    const preset = presetInfo(catalogNow(), 'uno', cfg.preset) || {};
    const o = cfg.options || {};
    const match = o.match || preset.match;
    if (match === 'single_hand') return t('uno.opt.match.single_hand');
    if (match === 'fixed_hands') return t('uno.match_hands', { n, of: o.fixed_hands || preset.fixed_hands });
    return t('uno.match_target', { n, target: o.target || preset.target });
  }

  drawScores(msg) {
    const v = msg.view;
    const n = msg.seats.length;
    const cfg = this.ctx.summary()?.config || {};
    const status = this.matchLine(v, (v.hand_no ?? 0) + 1);
    const rows = [];
    const perSeat = v.scores.length === n;
    for (let s = 0; s < n; s++) {
      rows.push(
        h(
          'tr',
          { class: `${s === v.current && !v.result ? 'turn' : ''}${s === msg.seat ? ' me' : ''}` },
          h('th', { scope: 'row' }, this.ctx.nameOf(s)),
          h('td', {}, String(v.hand_counts[s] ?? 0)),
          h('td', {}, perSeat ? String(v.scores[s]) : '—'),
          h('td', {}, perSeat ? String(v.hands_won?.[s] ?? 0) : '—'),
        ),
      );
    }
    if (!perSeat) {
      v.scores.forEach((sc, i) =>
        rows.push(
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, t('uno.team_n', { n: i + 1 })),
            h('td', {}, ''),
            h('td', {}, String(sc)),
            h('td', {}, String(v.hands_won?.[i] ?? 0)),
          ),
        ),
      );
    }
    fill(
      this.scores,
      h('h2', { class: 'panel-title' }, t('uno.scores')),
      h(
        'p',
        { class: 'match-status', 'data-testid': 'match-status' },
        cfg.preset ? `${t(`uno.preset.${cfg.preset}`)} · ${status}` : status,
      ),
      h(
        'table',
        { class: 'score-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, t('uno.player')),
            h('th', { scope: 'col' }, t('uno.cards')),
            h('th', { scope: 'col' }, t('uno.points')),
            h('th', { scope: 'col' }, t('uno.hands_won')),
          ),
        ),
        h('tbody', {}, rows),
      ),
    );
  }

  drawResult(msg, fresh = false) {
    const r = msg.view.result;
    if (!r) {
      this.overlay.hidden = true;
      return;
    }
    const me = msg.seat;
    const teams = (this.ctx.summary()?.config?.options || {}).teams;
    const side = (s) => (teams ? t('uno.team_n', { n: s + 1 }) : s === me ? t('common.you_cap') : this.ctx.nameOf(s));
    const won = teams ? r.winner === me % 2 : r.winner === me;
    const lastHands = this.ctx.lastHands();
    // the result waits for the last card to land on the pile
    this.overlay.hidden = true;
    this.afterMotion(msg, () => {
      if (!this.overlay.hidden) return;
      this.overlay.hidden = false;
      if (won && fresh) celebrate(this.overlay);
    });
    fill(
      this.overlay,
      h(
        'div',
        { class: `result-card ${won ? 'won' : 'lost'}`, role: 'dialog', 'aria-label': t('uno.match_over') },
        h('h2', {}, won ? t('uno.you_won') : t('uno.winner_is', { who: side(r.winner) })),
        h('p', { class: 'muted' }, t('uno.match_over'), ' · ', reasonText('match', r.reason)),
        h(
          'ol',
          { class: 'ranking' },
          r.ranking.map((s) =>
            h(
              'li',
              {},
              h('strong', {}, side(s)),
              ' — ',
              t('uno.points_n', { n: r.scores[s] ?? 0 }),
              r.victory_points?.length ? ` · ${t('uno.victory_points_n', { n: r.victory_points[s] })}` : '',
              lastHands && lastHands[s]?.length
                ? h('span', { class: 'left-cards' }, ' ', miniUnoList(lastHands[s]))
                : null,
            ),
          ),
        ),
        h(
          'div',
          { class: 'result-actions' },
          h(
            'button',
            { type: 'button', class: 'btn btn-primary', 'data-action': 'play-again', onclick: () => this.ctx.start() },
            t('uno.play_again'),
          ),
          // the same players at a new table (the others are asked to come)
          me === null || me === undefined
            ? null
            : h(
                'button',
                { type: 'button', class: 'btn', 'data-action': 'rematch', onclick: () => this.ctx.rematch() },
                t('uno.rematch'),
              ),
          h('a', { class: 'btn', href: '#/lobby' }, t('nav.lobby')),
          h('a', { class: 'btn btn-ghost', href: '#/history' }, t('table.replay')),
        ),
      ),
    );
  }

  drawWaiting(msg) {
    this.overlay.hidden = true;
    this.waiting.hidden = false;
    clear(this.opponents);
    fill(this.buttons);
    this.hand.update([], []);
    this.turnLine.textContent = '';
    fill(this.meBar);
    const free = msg.seats.filter((s) => s.free).length;
    fill(
      this.waiting,
      h(
        'div',
        { class: 'result-card' },
        h('h2', {}, t('uno.waiting_title')),
        h(
          'ul',
          { class: 'seat-list' },
          msg.seats.map((s, i) =>
            h(
              'li',
              { class: s.free ? 'free' : '' },
              h('span', { class: 'seat-no' }, `${i + 1}`),
              s.free ? t('uno.seat_free_bot') : s.bot ? this.ctx.nameOf(i) : s.name,
              i === msg.seat ? ` (${t('common.you')})` : '',
            ),
          ),
        ),
        h('p', { class: 'muted' }, free ? t('uno.start_hint', { n: free }) : t('uno.start_ready')),
        // a quick-play table or a rematch starts by itself (its note says when)
        this.ctx.summary()?.config?.quick || this.ctx.summary()?.config?.rematch_of
          ? h('p', { class: 'starts-soon', 'data-testid': 'starts-soon' }, t('uno.starts_by_itself'))
          : null,
        h(
          'button',
          {
            type: 'button',
            class: 'btn btn-primary btn-wide',
            'data-action': 'start',
            onclick: () => this.ctx.start(),
          },
          t('uno.start'),
        ),
      ),
    );
  }
}
