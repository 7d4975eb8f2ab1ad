// The draw-poker table (seed 002): one player against the computer. The seed's buttons: APRI/OPEN,
// ASPETTA/WAIT, RILANCIA/RAISE, SOSTITUISCI/REPLACE, PASSA/FOLD, VEDI/SEE.
//
// The view this page reads (the server's poker adapter produces it; see docs in the handover):
//   {seat, deal_no, phase: 'bet1'|'draw'|'bet2'|'over', current, first, hand: ['Ah', ...],
//    opponent_cards, deck, deck_count, pot, carried, ante, bankrolls: [me, them] (by seat),
//    committed: [..], owed, raises, max_raises, drawn: [n|-1, n|-1], max_replace,
//    words: ['open', 'wait', ...], bet_range: [min, max] | null,
//    items: [{name, value, state: 'worn'|'pledged'|'forfeited'|'redeemed'}],
//    history: [{seat, word, amount}], level,
//    result: null | {winner, reason}}
// A showdown is told by an update's events (both hands `shown`, then the pot won or carried,
// then, unless the game is over, the next deal): the page holds it for a moment, both hands
// face up in their places and named, before it shows the next deal.
// `legal` lists the action texts ("open 10", "wait", "replace", "draw 7h 2c" or "replace 0 3"...).
import { miniPoker, pokerBack, pokerCard } from '../../cards.js';
import { list, eventOf, reasonText } from '../../events.js';
import { cap, has, t } from '../../i18n.js';
import { add, clear, Countdown, fill, h, icon } from '../../ui.js';
import { fly, momentMs, travelMs } from '../../motion.js';
import { TableView } from '../table-view.js';
import { itemName } from './events.js';
import { classify, handName, shortName, shownClass } from './hands.js';
import './messages.js';

const KNOWN = ['open', 'wait', 'raise', 'replace', 'fold', 'see', 'draw'];

/** What the legal list allows: words, bet ranges and how a draw is written. */
export function parsePokerLegal(view, legal) {
  // structured legal actions ({text, kind, amount?, cards?}) from the server: no parsing here
  const words = new Set(view?.words || []);
  const ranges = { open: null, raise: null };
  let drawForm = null; // 'cards' ("draw 7h 2c") or 'positions' ("replace 0 3")
  for (const a of legal || []) {
    words.add(a.kind);
    if ((a.kind === 'open' || a.kind === 'raise') && typeof a.amount === 'number') {
      const r = ranges[a.kind];
      ranges[a.kind] = r ? [Math.min(r[0], a.amount), Math.max(r[1], a.amount)] : [a.amount, a.amount];
    }
    if (a.kind === 'draw') drawForm = 'cards';
  }
  if (view?.bet_range) {
    if (words.has('open')) ranges.open = view.bet_range;
    if (words.has('raise')) ranges.raise = view.bet_range;
  }
  if (!drawForm && view?.phase === 'draw') drawForm = words.has('draw') ? 'cards' : 'positions';
  return { words, ranges, drawForm };
}

/**
 * The showdown an update's events tell, or null: both hands shown (their cards and classes),
 * who took the pot (null: a tie, carried) and how much, and the deal it ended.
 */
export function showdownOf(events, view) {
  const shown = (events || []).filter((e) => e.type === 'shown');
  if (shown.length < 2) return null;
  const sd = { hands: [[], []], classes: [null, null], winner: null, pot: 0, deal: view?.deal_no ?? 1 };
  for (const e of shown) {
    sd.hands[Number(e.seat)] = list(e.cards);
    sd.classes[Number(e.seat)] = shownClass(e, view?.deck);
  }
  for (const e of events.slice(events.indexOf(shown.at(-1)) + 1)) {
    if (e.type === 'pot_won' || e.type === 'pot_carried') {
      sd.winner = e.type === 'pot_won' ? Number(e.seat) : null;
      sd.pot = Number(e.amount);
    }
    if (e.type === 'deal_started') {
      sd.deal = Number(e.deal) - 1;
      break;
    }
  }
  return sd;
}

/** How long the showdown stays on the table before the next deal, in ms. */
function showdownMs() {
  return momentMs(4400);
}

/** What the last deal_started and ante events said (carried-over pot, ante), if anything. */
function dealFacts(entries) {
  const facts = { carried: null, ante: null };
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].kind !== 'event') continue;
    const e = eventOf(entries[i].text);
    if (e.tag === 'ante' && facts.ante === null) facts.ante = Number(e.amount);
    if (e.tag === 'deal_started') {
      facts.carried = Number(e.carried) || 0;
      break;
    }
  }
  return facts;
}

/** An item's state: `state` in this page's view shape, `status` in the server's first one. */
const itemState = (it) => it.state || it.status || 'worn';

export class PokerView extends TableView {
  constructor(root, ctx) {
    super(root, ctx);
    this.marked = new Set(); // positions chosen for replacement
    this.countdown = this.own(new Countdown(''));
    this.opp = h('div', { class: 'poker-opp', 'data-testid': 'poker-opponent' });
    this.center = h('div', { class: 'poker-center', 'data-testid': 'poker-center' });
    this.showdown = h('div', { class: 'showdown', hidden: true, 'data-testid': 'showdown' });
    this.handEl = h('div', {
      class: 'hand poker-hand',
      role: 'group',
      'aria-label': t('uno.your_hand'),
      'data-testid': 'hand',
    });
    this.meBar = h('div', { class: 'me-bar' });
    this.turnLine = h('p', { class: 'turn-line', 'aria-live': 'polite', 'data-testid': 'turn-line' });
    this.buttons = h('div', { class: 'actions poker-actions', 'data-testid': 'actions' });
    this.amount = h('input', {
      type: 'number',
      min: 1,
      step: 1,
      class: 'amount-input',
      'aria-label': t('poker.amount'),
      'data-testid': 'bet-amount',
    });
    this.slider = h('input', {
      type: 'range',
      min: 1,
      step: 1,
      class: 'amount-slider',
      'aria-label': t('poker.amount'),
    });
    this.slider.addEventListener('input', () => (this.amount.value = this.slider.value));
    this.amount.addEventListener('input', () => (this.slider.value = this.amount.value));
    // an amount outside the range, said in words under the field (nothing is sent)
    this.amountNote = h('small', { class: 'field-error', role: 'alert', hidden: true, 'data-testid': 'bet-note' });
    this.historyBox = h('section', { class: 'panel', 'aria-label': t('poker.this_deal') });
    this.overlay = h('div', { class: 'result-overlay', hidden: true, 'data-testid': 'result' });
    root.append(
      h(
        'div',
        { class: 'table-layout poker-layout' },
        h(
          'div',
          { class: 'table-main' },
          h('div', { class: 'felt poker-felt' }, this.opp, this.center, this.showdown, this.overlay),
          h('div', { class: 'me-area' }, this.meBar, this.turnLine, this.handEl, this.buttons),
        ),
        h('div', { class: 'table-side' }, this.historyBox, ctx.log.el),
      ),
    );
  }

  readLegal(legal, msg) {
    return parsePokerLegal(msg.view, legal);
  }

  /** The deal and the draw: cards travel from the middle to the hands. */
  animate(msg) {
    const step = travelMs() * 0.3;
    if (!step) return;
    let k = 0;
    const place = (s) => (Number(s) === msg.seat ? this.handEl : this.opp);
    for (const e of msg.events || []) {
      const n = e.type === 'dealt' ? 5 : e.type === 'drew' ? Number(e.count) || 0 : 0;
      for (let i = 0; i < Math.min(n, 5); i++) fly(pokerBack(), this.center, place(e.seat), step * k++);
    }
  }

  lockChanged() {
    if (this.locked) this.buttons.querySelectorAll('button').forEach((b) => (b.disabled = true));
    else if (this.msg) this.draw(this.msg, this.msg);
  }

  label(word) {
    return t(`poker.btn.${word}`);
  }

  draw(msg, previous) {
    const prevDeal = previous?.view?.deal_no;
    const v = msg.view;
    if (!v) {
      this.drawStart(msg);
      return;
    }
    if (v.deal_no !== prevDeal || v.phase !== 'draw') this.marked.clear();
    if (v !== previous?.view) this.amountNote.hidden = true;
    const me = msg.seat ?? 0;
    const them = 1 - me;
    // a spectator sees the player's place by name, without a hand or controls
    const watching = msg.watching === true;
    this.watching = watching;
    this.handEl.hidden = watching;
    this.buttons.hidden = watching;
    const L = this.legal;
    const seatTurn = v.current === me && v.phase !== 'over' && !v.result;
    const myTurn = seatTurn && !watching;

    // ---- a showdown: both hands face up in their places for a moment, then the next deal
    const told = previous && previous !== msg && !msg.full ? showdownOf(msg.events, v) : null;
    if (told) this.holdShowdown(told, v);
    else if (this.moment && (msg.full || (previous !== msg && v.deal_no !== this.moment.dealNo))) this.endShowdown();
    const sd = this.moment?.sd ?? null;
    this.ctx.log.ctx.deck = v.deck;

    // ---- the opponent: cards, bankroll, bet, items
    const entries = this.ctx.log.entries;
    const facts = dealFacts(entries);
    const carried = v.carried ?? facts.carried;
    const ante = v.ante ?? facts.ante;
    const oppCards = h('div', { class: 'poker-cards', 'data-testid': 'opp-cards' });
    if (sd) sd.hands[them].forEach((c) => oppCards.append(pokerCard(c)));
    else for (let i = 0; i < (v.opponent_cards ?? 5); i++) oppCards.append(pokerBack());
    const items = h(
      'ul',
      { class: 'items', 'aria-label': t('poker.items'), 'data-testid': 'items' },
      (v.items || []).map((it) =>
        h(
          'li',
          {
            class: `item item-${itemState(it)}`,
            title: `${itemName(it.code || it.name)} — ${t(`poker.item_state.${itemState(it)}`)} (${t('poker.chips', { n: it.value })})`,
            'data-state': itemState(it),
          },
          h('span', { class: 'item-name' }, itemName(it.code || it.name)),
          h('span', { class: 'item-state' }, t(`poker.item_state.${itemState(it)}`)),
        ),
      ),
    );
    clear(this.opp);
    add(
      this.opp,
      h(
        'div',
        { class: `opp-name${v.current === them && v.phase !== 'over' ? ' turn' : ''}` },
        h('span', { class: 'avatar', 'aria-hidden': 'true' }, icon('bot')),
        h('span', {}, this.ctx.nameOf(them)),
        v.level ? h('span', { class: 'tag' }, t(`poker.level.${v.level}`)) : null,
        v.first === them ? h('span', { class: 'tag', title: t('poker.acts_first') }, '1°') : null,
        // "thinking" keeps its place when the computer is not to act: the box keeps its width
        v.current === them && v.phase !== 'over' && !v.result
          ? h('span', { class: 'thinking', 'data-testid': 'thinking' }, t('motion.thinking'))
          : h('span', { class: 'thinking idle', 'aria-hidden': 'true' }, t('motion.thinking')),
      ),
      oppCards,
      h(
        'div',
        { class: 'opp-meta' },
        h('span', { 'data-testid': 'opp-bankroll' }, t('poker.bankroll_n', { n: v.bankrolls?.[them] ?? 0 })),
        v.committed?.[them] ? ` · ${t('poker.bet_n', { n: v.committed[them] })}` : '',
        v.drawn?.[them] >= 0 ? ` · ${t('poker.replaced_n', { n: v.drawn[them] })}` : '',
      ),
      items,
    );

    // ---- the middle: pot, carried over, ante, phase
    clear(this.center);
    add(
      this.center,
      h(
        'div',
        { class: 'pot', 'data-testid': 'pot' },
        h('span', { class: 'pot-label' }, t('poker.pot')),
        h('span', { class: 'pot-amount' }, t('poker.chips', { n: v.pot ?? 0 })),
      ),
      carried ? h('div', { class: 'carried', 'data-testid': 'carried' }, t('poker.carried_n', { n: carried })) : null,
      h(
        'div',
        { class: 'phase', 'data-testid': 'phase' },
        t('poker.deal_n', { n: v.deal_no ?? 1 }),
        ' · ',
        t(`poker.phase.${v.phase}`),
        ante ? ` · ${t('poker.ante_n', { n: ante })}` : '',
      ),
      v.raises ? h('div', { class: 'muted' }, t('poker.raises_n', { n: v.raises, max: v.max_raises ?? 3 })) : null,
    );

    // ---- the showdown: in the felt's middle, in place of the pot it decided
    this.center.hidden = Boolean(sd);
    this.showdown.hidden = !sd;
    if (sd) {
      const line = (s) =>
        h(
          'div',
          { class: `sd-line${sd.winner === s ? ' winner' : ''}` },
          h('strong', {}, this.who(s, me)),
          h(
            'span',
            { class: 'sd-name', 'data-testid': `hand-name-${s === me ? 'me' : 'them'}` },
            handName(sd.classes[s], v.deck),
          ),
        );
      fill(
        this.showdown,
        h('h2', {}, t('poker.showdown_of', { n: sd.deal })),
        line(me),
        line(them),
        h(
          'p',
          { class: 'big' },
          sd.winner === null || sd.winner === undefined
            ? t('poker.tie_carried')
            : sd.winner === me && !watching
              ? t('poker.you_take', { chips: t('poker.chips', { n: sd.pot }) })
              : t('poker.they_take', { who: this.lead(sd.winner), chips: t('poker.chips', { n: sd.pot }) }),
        ),
      );
    }

    // ---- my hand: in the draw, click cards to mark them for replacement
    const drawing = myTurn && v.phase === 'draw' && !sd;
    const shownHand = sd && !watching ? sd.hands[me] : v.hand || [];
    clear(this.handEl);
    this.handEl.classList.toggle('shown', Boolean(sd));
    this.handEl.style.setProperty('--n', String(shownHand.length));
    shownHand.forEach((code, i) => {
      const el = pokerCard(code, { tag: drawing ? 'button' : 'div', attrs: { 'data-index': i } });
      if (this.marked.has(i)) el.classList.add('marked');
      if (drawing) {
        el.setAttribute('aria-pressed', String(this.marked.has(i)));
        el.addEventListener('click', () => {
          if (this.marked.has(i)) this.marked.delete(i);
          else if (this.marked.size < (v.max_replace ?? 5)) this.marked.add(i);
          el.classList.toggle('marked', this.marked.has(i));
          el.setAttribute('aria-pressed', String(this.marked.has(i)));
          this.drawButtons(v, L, me, myTurn);
        });
      }
      this.handEl.append(el);
    });
    fill(
      this.meBar,
      h(
        'span',
        { class: `me-name${seatTurn ? ' turn' : ''}`, 'data-testid': 'me-name' },
        this.who(me, me),
        v.first === me ? h('span', { class: 'tag', title: t('poker.acts_first') }, '1°') : '',
      ),
      h(
        'span',
        { class: 'me-meta' },
        h('span', { 'data-testid': 'my-bankroll' }, t('poker.bankroll_n', { n: v.bankrolls?.[me] ?? 0 })),
        v.committed?.[me] ? ` · ${t('poker.bet_n', { n: v.committed[me] })}` : '',
        v.owed ? ` · ${t('poker.owed_n', { n: v.owed })}` : '',
        v.drawn?.[me] >= 0 ? ` · ${t('poker.replaced_n', { n: v.drawn[me] })}` : '',
      ),
      this.clock(this.countdown, myTurn && !sd),
    );
    fill(
      this.turnLine,
      watching ? '' : sd ? this.showdownPrompt(sd, v) : this.prompt(v, me, myTurn),
      // what the hand in view is worth: the one shown at a showdown, else the one in play
      watching ? null : ' ',
      watching ? null : this.handValue(sd ? sd.classes[me] : classify(v.hand, v.deck), v.deck),
    );
    this.turnLine.classList.toggle('my-turn', myTurn && !sd);
    if (sd) this.drawNext(v);
    else this.drawButtons(v, L, me, myTurn);
    this.drawHistory(v, me);
    this.drawResult(v, me);
  }

  /** Hold a showdown on the table for a moment (a newer one replaces it). */
  holdShowdown(sd, v) {
    clearTimeout(this.moment?.timer);
    this.moment = { sd, dealNo: v.deal_no, timer: setTimeout(() => this.endShowdown(true), showdownMs()) };
  }

  /** The showdown's moment is over: the table shows the game as it is (`redraw`: now). */
  endShowdown(redraw = false) {
    if (!this.moment) return;
    clearTimeout(this.moment.timer);
    this.moment = null;
    if (redraw && this.msg && !this.gone) this.draw(this.msg, this.msg);
  }

  destroy() {
    clearTimeout(this.moment?.timer);
    this.moment = null;
    super.destroy();
  }

  /** The hand's value as a short label ("Pair of sixes"), its full name as a tooltip. */
  handValue(cls, deck) {
    if (!cls) return null;
    return h(
      'span',
      { class: 'hand-value', title: handName(cls, deck), 'data-testid': 'my-hand-value' },
      shortName(cls, deck),
    );
  }

  showdownPrompt(sd, v) {
    return v.phase === 'over' || v.result ? t('poker.prompt.over') : t('poker.next_deal_hint');
  }

  /** During a showdown's moment: one button, to the next deal (none when the game is over). */
  drawNext(v) {
    fill(
      this.buttons,
      v.phase === 'over' || v.result
        ? null
        : this.button('next-deal', t('poker.next_deal'), 'btn-primary', () => this.endShowdown(true)),
    );
  }

  prompt(v, me, myTurn) {
    if (v.result || v.phase === 'over') return t('poker.prompt.over');
    if (!myTurn) return t('poker.prompt.waiting');
    if (v.phase === 'draw') return t('poker.prompt.draw', { n: v.max_replace ?? 5 });
    if (v.owed) return t('poker.prompt.owed', { n: v.owed });
    return t('poker.prompt.bet');
  }

  drawButtons(v, L, me, myTurn) {
    const out = [];
    const btn = (word, label, cls, onclick) =>
      this.button(word, label, cls, onclick, !myTurn, h('small', { class: 'btn-sub' }, t(`poker.help.${word}`)));
    // measured first: the measure borrows the amount's field, which the row below then holds
    this.reserveHeight(btn, v);
    const range = L.ranges.open || L.ranges.raise;
    if (myTurn && range && (L.words.has('open') || L.words.has('raise'))) {
      const [lo, hi] = range;
      for (const el of [this.amount, this.slider]) {
        el.min = lo;
        el.max = hi;
      }
      const cur = Number(this.amount.value);
      if (!cur || cur < lo || cur > hi) this.amount.value = String(Math.min(hi, Math.max(lo, v.ante || lo)));
      this.slider.value = this.amount.value;
      out.push(this.amountBox(lo, hi, v.pot ?? 0));
    }
    if (L.words.has('open'))
      out.push(btn('open', this.label('open'), 'btn-primary', () => this.bet('open', L.ranges.open)));
    if (L.words.has('wait')) out.push(btn('wait', this.label('wait'), '', () => this.send('wait')));
    if (L.words.has('raise'))
      out.push(btn('raise', this.label('raise'), 'btn-primary', () => this.bet('raise', L.ranges.raise)));
    if (v.phase === 'draw' && myTurn) {
      // the draw: CAMBIA/CHANGE the marked cards (none: stand pat); SOSTITUISCI/REPLACE is the
      // call that goes to the draw
      const pos = [...this.marked].sort((a, b) => a - b);
      const text =
        L.drawForm === 'cards'
          ? pos.length
            ? `draw ${pos.map((i) => v.hand[i]).join(' ')}`
            : 'draw'
          : `replace ${pos.join(' ')}`.trim();
      out.push(
        btn(
          'draw',
          pos.length ? t('poker.replace_n', { label: this.label('draw'), n: pos.length }) : t('poker.stand_pat'),
          'btn-primary',
          () => this.send(text),
        ),
      );
    } else if (L.words.has('replace')) {
      out.push(btn('replace', this.label('replace'), '', () => this.send('replace')));
    }
    if (L.words.has('see')) out.push(btn('see', this.label('see'), '', () => this.send('see')));
    if (L.words.has('fold')) out.push(btn('fold', this.label('fold'), 'btn-warn', () => this.send('fold')));
    // anything else the server allows, by its own word
    for (const w of L.words) {
      if (!KNOWN.includes(w)) out.push(btn(w, w, '', () => this.send(w)));
    }
    fill(this.buttons, ...out);
  }

  /** The amount, its range and quick choices (the note under it when one is said). */
  amountBox(lo, hi, pot) {
    return h(
      'div',
      { class: 'amount-box' },
      h('label', {}, h('span', { class: 'amount-label' }, t('poker.amount'), ' '), this.amount),
      this.slider,
      h('small', { class: 'muted amount-range' }, t('poker.range', { lo, hi })),
      this.presets(lo, hi, pot),
      this.amountNote,
    );
  }

  /**
   * The controls' row keeps the height of its tallest form (a bet: the amount and three
   * buttons) at every turn, for this window's size: the player's turn starting, or the draw,
   * moves neither hand nor the pot under the pointer. Measured again when the row's width or
   * the window's height changes.
   */
  reserveHeight(btn, v) {
    // the game over, nothing is to be decided: its result has the room
    if (v.result || v.phase === 'over') {
      this.reserved = null;
      this.buttons.style.minHeight = '';
      return;
    }
    const size = `${this.buttons.clientWidth}x${window.innerHeight}`;
    if (this.reserved === size || !this.buttons.isConnected) return;
    this.reserved = size;
    this.buttons.style.minHeight = '';
    fill(
      this.buttons,
      this.amountBox(v.ante || 5, Math.max(...(v.bankrolls || [500])), v.pot || 10),
      btn('open', this.label('open'), 'btn-primary', null),
      btn('wait', this.label('wait'), '', null),
      btn('fold', this.label('fold'), 'btn-warn', null),
    );
    this.buttons.style.minHeight = `${this.buttons.offsetHeight}px`;
  }

  /** Buttons that put an amount in the field: the least, half the pot, the pot, the most
   * (each brought into the range the server allows now). */
  presets(lo, hi, pot) {
    const put = (n) => {
      this.amount.value = String(Math.min(hi, Math.max(lo, Math.round(n))));
      this.slider.value = this.amount.value;
      this.amountNote.hidden = true;
    };
    const chip = (key, n) =>
      h(
        'button',
        {
          type: 'button',
          class: 'btn btn-ghost btn-small bet-preset',
          'data-action': `bet-${key}`,
          disabled: this.locked,
          title: t('poker.chips', { n: Math.min(hi, Math.max(lo, Math.round(n))) }),
          onclick: () => put(n),
        },
        t(`poker.preset_bet.${key}`),
      );
    return h(
      'div',
      { class: 'bet-presets', role: 'group', 'aria-label': t('poker.amount') },
      chip('min', lo),
      chip('half', pot / 2),
      chip('pot', pot),
      chip('max', hi),
    );
  }

  /**
   * OPEN or RAISE the amount in the field when it is a whole number of chips within the range
   * the server allows now; else put the nearest allowed amount in the field and say why,
   * sending nothing (the player presses again to bet it).
   */
  bet(word, range) {
    const [lo, hi] = range || [1, Infinity];
    const text = String(this.amount.value).trim();
    const n = Number(text);
    let note = null;
    if (text === '' || !Number.isInteger(n)) note = t('poker.bet_whole', { lo, hi });
    else if (n < lo) note = t('poker.bet_min', { n: lo });
    else if (n > hi) note = t('poker.bet_max', { n: hi });
    if (note === null) {
      this.amountNote.hidden = true;
      this.send(`${word} ${n}`);
      return;
    }
    this.amount.value = String(Math.min(hi, Math.max(lo, Math.round(n) || lo)));
    this.slider.value = this.amount.value;
    this.amountNote.textContent = note;
    this.amountNote.hidden = false;
    this.amount.focus();
  }

  /** A seat's name starting a sentence: a player's as typed, the computer's capitalised. */
  lead(s) {
    const name = this.ctx.nameOf(s);
    return this.ctx.isPerson(s) ? name : cap(name);
  }

  /** A seat by name; "You" only for this player's own seat (never for a spectator). */
  who(s, me) {
    return s === me && !this.watching ? t('common.you_cap') : this.ctx.nameOf(s);
  }

  /** Why the game ended, naming the player: "you" only to the player at seat 0. */
  reason(r) {
    if (r === 'seat 0 cannot pay the ante' && this.watching)
      return t('reason.poker.cannot_pay', { who: this.ctx.nameOf(0) });
    return reasonText('poker', r);
  }

  drawHistory(v, me) {
    const rows = (v.history || []).map((m) => {
      // each move by its button's word and its amount (chips; cards changed, none included)
      const amount = m.amount || m.word === 'draw' ? ` ${m.amount || 0}` : '';
      return h(
        'li',
        {},
        h('strong', {}, m.seat === me && !this.watching ? t('common.you_cap') : this.lead(m.seat)),
        ' ',
        KNOWN.includes(m.word) ? this.label(m.word) : m.word,
        amount,
      );
    });
    fill(
      this.historyBox,
      h('h2', { class: 'panel-title' }, t('poker.this_deal')),
      // the table's setup as the server plays it: the create form's values, honoured
      h(
        'p',
        { class: 'hint table-facts', 'data-testid': 'poker-setup' },
        t('poker.setup', {
          ante: v.ante ?? '—',
          raises: v.max_raises ?? '—',
          value: v.items?.[0]?.value ?? '—',
          n: (v.items || []).length,
        }),
      ),
      rows.length ? h('ol', { class: 'deal-history' }, rows) : h('p', { class: 'muted' }, t('poker.no_moves')),
    );
  }

  drawResult(v, me) {
    if (!v.result || this.moment) {
      this.overlay.hidden = true;
      return;
    }
    const won = v.result.winner === me && !this.watching;
    const winner = v.result.winner ?? 1 - me;
    this.overlay.hidden = true;
    this.afterMotion(this.msg, () => (this.overlay.hidden = false));
    fill(
      this.overlay,
      h(
        'div',
        { class: `result-card ${won ? 'won' : 'lost'}` },
        h('h2', {}, won ? t('poker.you_won_game') : t('poker.they_won_game', { who: this.lead(winner) })),
        h('p', { class: 'muted' }, this.reason(v.result.reason)),
        h(
          'div',
          { class: 'result-actions' },
          this.watching
            ? null
            : h(
                'button',
                { type: 'button', class: 'btn btn-primary', 'data-action': 'start', onclick: () => this.ctx.start() },
                t('poker.new_game'),
              ),
          h('a', { class: 'btn', href: '#/lobby' }, t('nav.lobby')),
        ),
      ),
    );
  }

  drawStart(msg) {
    clear(this.opp);
    clear(this.center);
    fill(this.buttons);
    add(
      this.center,
      h(
        'div',
        { class: 'result-card' },
        h('h2', {}, t('poker.ready_title')),
        h('p', { class: 'muted' }, t('poker.ready_text', { who: this.ctx.nameOf(1 - (msg.seat ?? 0)) })),
        h(
          'button',
          {
            type: 'button',
            class: 'btn btn-primary btn-wide',
            'data-action': 'start',
            onclick: () => this.ctx.start(),
          },
          t('poker.start'),
        ),
      ),
    );
  }
}
