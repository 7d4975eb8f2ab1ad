// The UNO CASINO table (seed 000): one player against the bank, for money. Session credit and
// top-up, a stake within the table's limits, the payout multiplier (x3/x2/x1) and the draws
// left, the bank's card count, the result and the payout, and the session's time limits.
import { colorDot, miniUnoList, unoBack, unoCard, unoName } from '../../cards.js';
import { reasonText } from '../../events.js';
import { UnoHand, parseLegal } from '../../hand.js';
import { money, t } from '../../i18n.js';
import { add, clear, Countdown, field, fill, h, icon } from '../../ui.js';
import { TableView } from '../table-view.js';
import { animateUno, sortUno } from '../uno/view.js';
import './events.js';
import './messages.js';

/**
 * An amount typed in euros (a dot or a comma before the cents) in cents: `null` when it is not
 * euros and cents, `'cents'` when it has more than two decimals (1.234 is not rounded to 1.23).
 */
export function euroCents(text) {
  const m = /^\s*(\d+)(?:[.,](\d*))?\s*$/.exec(String(text ?? ''));
  if (!m) return null;
  const decimals = m[2] || '';
  if (decimals.length > 2) return 'cents';
  return Number(m[1]) * 100 + Number(decimals.padEnd(2, '0'));
}

export class CasinoView extends TableView {
  constructor(root, ctx) {
    super(root, ctx);
    this.hand = this.own(
      new UnoHand({
        onPlay: (text) => this.send(text),
        nameOf: (s) => ctx.nameOf(s),
        label: t('uno.your_hand'),
      }),
    );
    this.hand.onSelectionChange = () => this.drawButtons();
    this.countdown = this.own(new Countdown(''));

    this.bank = h('div', { class: 'bank-area', 'data-testid': 'bank' });
    this.drawPile = h('button', {
      type: 'button',
      class: 'pile draw-pile',
      'data-action': 'draw-pile',
      onclick: () => this.word('draw'),
    });
    this.discard = h('div', { class: 'pile discard', 'data-testid': 'discard' });
    this.hand.dropZones.push(this.discard);
    this.colorLabel = h('div', { class: 'current-color', 'data-testid': 'current-color' });
    this.multiplier = h('div', { class: 'multiplier', 'data-testid': 'multiplier' });
    this.turnLine = h('p', { class: 'turn-line', 'aria-live': 'polite', 'data-testid': 'turn-line' });
    this.buttons = h('div', { class: 'actions', 'data-testid': 'actions' });
    this.meBar = h('div', { class: 'me-bar' });
    this.result = h('div', {
      class: 'casino-result',
      hidden: true,
      'data-testid': 'casino-result',
      'aria-live': 'polite',
    });
    this.stakeBox = h('section', { class: 'panel stake-panel', 'aria-label': t('casino.stake') });
    this.session = h('section', {
      class: 'panel session-panel',
      'aria-label': t('casino.session'),
      'data-testid': 'session',
    });
    this.warning = h('p', { class: 'inactivity', hidden: true, role: 'alert' });

    // the stake and top-up inputs keep what was typed across updates
    this.stakeInput = h('input', {
      type: 'number',
      min: 0.01,
      step: 0.01,
      inputmode: 'decimal',
      'data-testid': 'stake-input',
    });
    this.topupInput = h('input', {
      type: 'number',
      min: 0.01,
      step: 0.01,
      inputmode: 'decimal',
      value: '50.00',
      'data-testid': 'topup-input',
    });
    this.stakeError = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'stake-error' });

    const felt = h(
      'div',
      { class: 'felt casino-felt' },
      this.bank,
      h(
        'div',
        { class: 'center casino-center' },
        h(
          'div',
          { class: 'piles' },
          h('div', { class: 'pile-col' }, this.drawPile, h('span', { class: 'pile-label' }, t('uno.draw_pile'))),
          h(
            'div',
            { class: 'pile-col' },
            h('div', { class: 'discard-slot' }, this.discard, this.hand.ghost),
            this.colorLabel,
          ),
        ),
        this.multiplier,
      ),
    );
    this.play = h('div', { class: 'me-area' }, this.meBar, this.turnLine, this.hand.el, this.buttons);
    root.append(
      h(
        'div',
        { class: 'table-layout casino-layout' },
        // the result of a round sits by the stake of the next one, both in view
        h('div', { class: 'table-main' }, felt, this.play, this.result, this.stakeBox),
        h('div', { class: 'table-side' }, this.session, ctx.log.el),
      ),
    );
  }

  readLegal(legal) {
    return parseLegal(legal);
  }

  /** The player's and the bank's cards travel as the events tell. */
  animate(msg, previous) {
    animateUno(msg, { hand: this.hand.el, seat: () => this.bank, pile: this.discard, deck: this.drawPile }, previous);
  }

  lockChanged() {
    if (this.locked) this.hand.lock();
    else this.hand.unlock();
    this.drawButtons();
  }

  notice(msg) {
    if (msg.kind === 'inactivity_warning') {
      this.warning.hidden = false;
      this.warning.textContent = t('casino.inactivity_warning');
    }
  }

  limits() {
    const c = this.ctx.summary()?.config || {};
    return { min: c.min_stake ?? 10, max: c.max_stake ?? 10000 };
  }

  draw(msg) {
    this.warning.hidden = true;
    const v = msg.view || {};
    const watching = msg.watching === true; // a spectator: no hand, no stake
    const inRound = Boolean(v.hand) && !v.result && msg.status === 'playing' && !watching;
    const hasRound = Boolean(v.hand);

    // ---- the bank: the server paces its moves; lit and "thinking" while it is to move
    const bankTurn = hasRound && !v.result && v.current === 1 && msg.status === 'playing';
    clear(this.bank);
    this.bank.classList.toggle('turn', bankTurn);
    const fan = h('div', { class: 'opp-fan bank-fan', 'aria-hidden': 'true' });
    for (let i = 0; i < Math.min(v.bank_cards ?? 0, 12); i++) fan.append(unoBack({ small: true }));
    add(
      this.bank,
      h(
        'div',
        { class: 'opp-name' },
        h('span', { class: 'avatar', 'aria-hidden': 'true' }, icon('bank')),
        h('span', {}, t('casino.bank')),
        bankTurn ? h('span', { class: 'thinking', 'data-testid': 'thinking' }, t('motion.thinking')) : null,
      ),
      fan,
      h(
        'div',
        { class: 'opp-meta', 'data-testid': 'bank-count' },
        hasRound ? t('casino.bank_cards', { n: v.bank_cards }) : t('casino.no_round'),
      ),
    );

    // ---- piles and the multiplier
    clear(this.discard);
    clear(this.drawPile);
    if (hasRound) {
      this.discard.append(unoCard(v.top));
      this.discard.dataset.color = v.color || '';
      this.discard.setAttribute('aria-label', t('uno.discard_is', { card: unoName(v.top) }));
      fill(this.colorLabel, colorDot(v.color), ' ', v.color ? t(`color.${v.color}`) : '—');
      this.drawPile.append(unoBack(), h('span', { class: 'pile-count' }, String(v.draw_pile_count)));
    } else {
      this.discard.append(h('div', { class: 'card placeholder' }));
      fill(this.colorLabel);
      this.drawPile.append(unoBack());
    }
    const canDraw = this.legal.words.has('draw');
    this.drawPile.disabled = !canDraw;
    this.drawPile.classList.toggle('can-draw', canDraw);
    const m = v.multiplier ?? 3;
    fill(
      this.multiplier,
      h('div', { class: 'mult-label' }, t('casino.multiplier')),
      h(
        'div',
        { class: 'mult-steps' },
        [3, 2, 1].map((x) =>
          h('span', { class: `mult-step${x === m ? ' on' : ''}${x > m ? ' past' : ''}`, 'data-mult': x }, `x${x}`),
        ),
      ),
      h(
        'div',
        { class: 'mult-draws', 'data-testid': 'draws-left' },
        hasRound
          ? m <= 1
            ? t('casino.no_draws_at_x1')
            : t('casino.draws_left', { n: v.draws_left })
          : t('casino.starts_at_x3'),
      ),
    );
    this.multiplier.dataset.mult = String(m);

    // ---- the result of the round just played
    if (v.result) {
      const r = v.result;
      const bankLeft = this.ctx.lastHands()?.[1];
      const won = r.winner === 'player';
      this.result.hidden = false;
      // in its place at once (nothing moves), in sight once the last card has landed
      this.result.className = `casino-result ${won ? 'won' : 'lost'} before-landing`;
      this.afterMotion(msg, () => this.result.classList.remove('before-landing'));
      this.result.dataset.payout = String(r.payout);
      this.result.dataset.multiplier = String(r.multiplier);
      fill(
        this.result,
        h(
          'h2',
          {},
          won
            ? watching
              ? t('casino.player_wins', { who: this.ctx.nameOf(0), m: r.multiplier })
              : t('casino.you_win', { m: r.multiplier })
            : t('casino.bank_wins'),
        ),
        h(
          'p',
          { class: 'big' },
          won
            ? t('casino.paid', { payout: money(r.payout), stake: money(r.stake) })
            : t('casino.stake_lost', { stake: money(r.stake) }),
        ),
        h('p', { class: 'muted' }, reasonText('round', r.reason)),
        v.hand?.length && !watching ? h('p', { class: 'left-cards' }, t('casino.cards_left'), ' ', miniUnoList(sortUno(v.hand))) : null,
        // the bank's cards, shown once the round is over (the hand's end reveals them)
        bankLeft?.length
          ? h('p', { class: 'left-cards', 'data-testid': 'bank-left' }, t('casino.bank_left'), ' ', miniUnoList(sortUno(bankLeft)))
          : null,
      );
    } else {
      this.result.hidden = true;
    }

    // ---- the player's hand and controls
    // between rounds the stake form takes the player's place (the cards left are in the result)
    // a spectator sees the player's place by name with a card count, no hand or controls
    const seen = watching && hasRound && !v.result;
    this.play.hidden = !inRound && !seen;
    this.hand.el.hidden = watching;
    this.buttons.hidden = watching;
    this.session.hidden = watching;
    const sorted = sortUno(v.hand || []);
    this.hand.update(sorted, inRound ? this.legal.plays : []);
    const playerTurn = (inRound || seen) && v.phase !== 'over' && msg.status === 'playing';
    fill(
      this.meBar,
      h(
        'span',
        { class: `me-name${playerTurn && (v.my_turn || watching) ? ' turn' : ''}`, 'data-testid': 'me-name' },
        watching ? this.ctx.nameOf(0) : t('common.you_cap'),
      ),
      h(
        'span',
        { class: 'me-meta' },
        t('uno.cards_n', { n: watching ? (v.player_cards ?? 0) : sorted.length }),
        hasRound ? ` · ${t('casino.stake_is', { stake: money(v.stake) })}` : '',
      ),
      // the session's credit, never cut short (the cards and the stake give way first)
      watching
        ? null
        : h('span', { class: 'credit-now', 'data-testid': 'credit-now' }, t('casino.credit_is', { credit: money(v.credit ?? 0) })),
      this.clock(this.countdown, inRound || seen),
    );
    this.turnLine.textContent = inRound ? this.prompt(v) : '';
    this.turnLine.classList.toggle('my-turn', inRound);
    this.drawButtons();
    this.drawStake(v, inRound);
    this.drawSession(v);
  }

  prompt(v) {
    if (v.current === 1) return t('casino.prompt.bank');
    if (v.phase === 'drawn') return t('uno.prompt.drawn', { card: unoName(v.drawn) });
    if (!this.legal.plays.length && !this.legal.words.has('draw')) return t('casino.prompt.stuck');
    if (!this.legal.plays.length) return t('uno.prompt.must_draw');
    if ((v.multiplier ?? 3) <= 1) return t('casino.prompt.x1');
    return t('casino.prompt.play');
  }

  drawButtons() {
    if (!this.msg) return;
    const L = this.legal;
    const btn = (action, label, cls, onclick) => this.button(action, label, cls, onclick, this.hand.locked);
    const out = [];
    // always there when a card can be played (greyed until one is raised): raising a card
    // must not move the hand under the mouse (see the UNO view)
    if (L.plays?.length)
      out.push(
        this.button(
          'play',
          t('uno.play_selected'),
          'btn-primary',
          () => this.hand.playSelection(),
          this.hand.locked || !this.hand.selectionPlayable(),
        ),
      );
    if (L.words.has('draw')) out.push(btn('draw', t('casino.draw_costs'), '', () => this.word('draw')));
    if (L.words.has('pass')) out.push(btn('pass', t('uno.pass'), '', () => this.word('pass')));
    fill(this.buttons, ...out);
  }

  /** The stake and top-up forms: built once (typing is never interrupted by an update). */
  buildStakeForms() {
    this.stakeTitle = h('h2', { class: 'panel-title' });
    this.stakeNote = h('p', { class: 'hint' });
    this.stakeLimits = h('small', { class: 'hint' });
    this.chips = h('div', { class: 'chips-row' });
    this.dealBtn = h('button', { type: 'submit', class: 'btn btn-primary', 'data-action': 'deal' });
    this.walletHint = h('small', { class: 'hint' });
    const stakeField = field(t('casino.stake_eur'), this.stakeInput);
    stakeField.append(this.stakeLimits);
    const topupField = field(t('casino.topup_eur'), this.topupInput);
    topupField.append(this.walletHint);
    const stakeForm = h('form', { class: 'stake-form', novalidate: true }, stakeField, this.chips, this.dealBtn);
    stakeForm.addEventListener('submit', (e) => {
      e.preventDefault();
      this.deal();
    });
    const topupForm = h(
      'form',
      { class: 'topup-form', novalidate: true },
      topupField,
      h('button', { type: 'submit', class: 'btn', 'data-action': 'topup' }, t('casino.topup')),
    );
    topupForm.addEventListener('submit', (e) => {
      e.preventDefault();
      this.topup();
    });
    fill(
      this.stakeBox,
      this.stakeTitle,
      this.stakeNote,
      (this.stakeForms = h('div', { class: 'stake-forms' }, stakeForm, topupForm)),
      this.stakeError,
    );
  }

  /** Check the stake against the limits and the credit, then send it. */
  deal() {
    const { min, max } = this.limits();
    const credit = this.msg?.view?.credit;
    this.stakeError.textContent = '';
    const amount = euroCents(this.stakeInput.value);
    if (amount === 'cents') this.stakeError.textContent = t('casino.cents_only');
    else if (amount === null || amount <= 0) this.stakeError.textContent = t('err.stake_not_positive');
    else if (amount < min) this.stakeError.textContent = t('casino.stake_min', { min: money(min) });
    else if (amount > max) this.stakeError.textContent = t('casino.stake_max', { max: money(max) });
    else if (credit === null || credit === undefined || amount > credit)
      this.stakeError.textContent = t('casino.stake_credit', { credit: money(credit ?? 0) });
    else this.ctx.stake(amount);
  }

  /** Move money from the wallet into the session credit. */
  topup() {
    this.stakeError.textContent = '';
    const amount = euroCents(this.topupInput.value);
    const wallet = this.ctx.me()?.balance;
    if (amount === 'cents') this.stakeError.textContent = t('casino.cents_only');
    else if (amount === null || amount <= 0) this.stakeError.textContent = t('err.bad_amount');
    else if (wallet !== undefined && wallet !== null && amount > wallet)
      this.stakeError.textContent = t('err.insufficient_funds');
    else this.ctx.topup(amount);
  }

  drawStake(v, inRound) {
    const { min, max } = this.limits();
    const credit = v.credit;
    this.stakeBox.hidden = inRound || this.msg?.watching === true;
    if (inRound || this.msg?.watching) return;
    if (!this.stakeTitle) this.buildStakeForms();
    if (!this.stakeInput.value) this.stakeInput.value = (Math.min(Math.max(min, 100), max) / 100).toFixed(2);
    this.stakeInput.min = (min / 100).toFixed(2);
    this.stakeInput.max = (max / 100).toFixed(2);
    const noCredit = credit === null || credit === undefined || credit < min;
    fill(
      this.stakeTitle,
      noCredit ? t('casino.open_session') : t('casino.next_round'),
      ' · ',
      h('span', { class: 'credit-now', 'data-testid': 'credit-now' }, t('casino.credit_is', { credit: money(credit ?? 0) })),
    );
    // the first visit's order: money in first, then the stake
    this.stakeForms.classList.toggle('topup-first', noCredit);
    this.stakeNote.textContent = noCredit ? t('casino.topup_first') : '';
    this.stakeNote.hidden = !noCredit;
    this.stakeLimits.textContent = t('casino.limits', { min: money(min), max: money(max) });
    this.walletHint.textContent = t('casino.wallet_has', { amount: money(this.ctx.me()?.balance) });
    this.dealBtn.disabled = noCredit;
    this.dealBtn.textContent = v.result ? t('casino.deal_again') : t('casino.deal');
    // quick stakes: the limits, a few round amounts, and all the credit (capped at the maximum)
    const quick = [min, 100, 500, 1000, Math.min(max, credit ?? max)]
      .filter((x, i, a) => x >= min && x <= max && a.indexOf(x) === i)
      .sort((a, b) => a - b);
    if (this.chips.dataset.values !== quick.join(',')) {
      this.chips.dataset.values = quick.join(',');
      fill(
        this.chips,
        quick.map((c) =>
          h(
            'button',
            { type: 'button', class: 'chip-btn', onclick: () => (this.stakeInput.value = (c / 100).toFixed(2)) },
            money(c),
          ),
        ),
      );
    }
  }

  /** The wallet balance changed (after a top-up or a payout): redraw where it shows. */
  meChanged() {
    if (!this.msg) return;
    if (this.walletHint)
      this.walletHint.textContent = t('casino.wallet_has', { amount: money(this.ctx.me()?.balance) });
    this.drawSession(this.msg.view || {});
  }

  drawSession(v) {
    const { min, max } = this.limits();
    const s = this.ctx.summary();
    fill(
      this.session,
      h('h2', { class: 'panel-title' }, t('casino.session')),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, t('casino.credit')),
        h('dd', { class: 'credit', 'data-testid': 'credit' }, money(v.credit ?? 0)),
        h('dt', {}, t('wallet.balance')),
        h('dd', {}, money(this.ctx.me()?.balance)),
        h('dt', {}, t('casino.stakes')),
        h('dd', {}, `${money(min)} – ${money(max)}`),
        h('dt', {}, t('casino.decision_time')),
        h('dd', {}, t('casino.seconds', { s: s?.decision_seconds ?? 30 })),
      ),
      h('p', { class: 'hint time-rules' }, t('casino.time_rules')),
      this.warning,
    );
  }
}
