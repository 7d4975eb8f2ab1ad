// Hand history ("game recall"): one's last hands, and a step-by-step replay of any of them
// showing only what this player saw at the time; a finished hand reveals its seed and the
// hands left at the end.
import { get } from '../api.js';
import { colorDot, miniPoker, miniUno, pokerCard, unoBack, unoCard } from '../cards.js';
import { actionWords, describeEvent, eventOf, hands, list } from '../events.js';
import '../games/index.js';
import { handName, shownClass } from '../games/poker/hands.js';
import { cap, dateTime, has, money, t, tNodes } from '../i18n.js';
import { seatNames, verifyButton } from '../fairness.js';
import { add, clear, fill, h, showError } from '../ui.js';

/**
 * What this seat saw after each step of a UNO or casino hand: the server's own view of that
 * step (the replay endpoint sends one per step, rebuilt from the seed and the actions), plus the
 * hands revealed when a hand ended. Nothing is recomputed here.
 */
export function unoFrames(data) {
  const frames = [{ ...viewBoard(data.initial, data.game), revealed: null }];
  let b = frames[0];
  for (const step of data.steps) {
    const ended = step.events.map(eventOf).find((e) => e.tag === 'hand_ended');
    b = { ...b, ...(step.view ? viewBoard(step.view, data.game) : {}), revealed: ended ? hands(ended.hands) : null };
    frames.push(b);
  }
  return frames;
}

function viewBoard(v, game) {
  return {
    hand: v.hand,
    counts: game === 'casino' ? [v.hand.length, v.bank_cards] : v.hand_counts,
    top: v.top,
    color: v.color,
    direction: v.direction ?? 1,
    multiplier: v.multiplier ?? null,
  };
}

/**
 * Poker: the player's own cards and the pot after each step, from the server's views. A step
 * that ends in a showdown shows the showdown (both hands shown, the pot they played for), not
 * the next deal its view has already dealt: that deal shows from the next step on.
 */
export function pokerFrames(data) {
  const start = data.initial || {};
  const deck = start.deck;
  const frames = [{ hand: start.hand || null, pot: start.pot || 0, shown: {} }];
  let b = frames[0];
  for (const step of data.steps) {
    const evs = step.events.map(eventOf);
    const shown = {};
    for (const e of evs)
      if (e.tag === 'shown') shown[e.seat] = { cards: list(e.cards), name: handName(shownClass(e, deck), deck) };
    b = { ...b, shown };
    if (Object.keys(shown).length) {
      const pot = evs.find((e) => e.tag === 'pot_won' || e.tag === 'pot_carried');
      b = { ...b, hand: shown[data.seat]?.cards || b.hand, pot: pot ? Number(pot.amount) : b.pot };
    } else if (step.view) {
      b = { ...b, hand: step.view.hand, pot: step.view.pot };
    }
    frames.push(b);
  }
  return frames;
}

/**
 * Where each hand (UNO) or deal (poker) starts, as [{n, k}]: its number from 1 and the step
 * to show (0: the start), for the replay's "go to hand".
 */
export function handStarts(data) {
  const out = [];
  data.steps.forEach((step, i) => {
    for (const e of step.events.map(eventOf)) {
      if (e.tag === 'hand_started') out.push({ n: Number(e.hand) + 1, k: i + 1 });
      if (e.tag === 'deal_started') out.push({ n: Number(e.deal), k: i + 1 });
    }
  });
  if (!out.length || out[0].n > 1) out.unshift({ n: 1, k: 0 });
  return out;
}

/** The replay's speeds: steps a second at x1 is about one. */
const REPLAY_SPEEDS = [1, 2, 4, 8, 16];
const STEP_MS = 900;

function resultText(row) {
  const r = row.result || {};
  if (row.status !== 'done') return t('history.unfinished');
  if (row.game === 'casino')
    return r.winner === 'player'
      ? t('history.casino_won', { m: r.multiplier, payout: money(r.payout) })
      : t('history.casino_lost', { stake: money(r.stake) });
  if (r.winner === undefined || r.winner === null) return '—';
  return r.winner === row.seat ? t('history.you_won') : t('history.you_lost');
}

export default {
  mount(root, params, app) {
    this.app = app;
    root.className = 'page page-history';
    if (params.hand) this.replay(root, params.hand);
    else this.list(root);
  },

  unmount() {
    clearInterval(this.player);
    document.removeEventListener('keydown', this.onKey);
  },

  async list(root) {
    add(root, h('h1', {}, t('history.title')));
    const box = h('div', { class: 'panel' }, h('p', { class: 'loading' }, t('common.loading')));
    add(root, box);
    let rows;
    try {
      rows = await get('/api/history?limit=50');
    } catch (e) {
      showError(e.code, e.message);
      return;
    }
    clear(box);
    if (!rows.length) {
      add(box, h('p', { class: 'empty' }, t('history.none')));
      return;
    }
    add(
      box,
      h(
        'table',
        { class: 'data-table hands', 'data-testid': 'history-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['history.hand', 'history.game', 'history.table', 'history.started', 'history.result', ''].map((k) =>
              h('th', { scope: 'col' }, k ? t(k) : ''),
            ),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map((r) =>
            h(
              'tr',
              {},
              // a phone shows each hand as a small card: the labels say what the numbers are
              h('td', { class: 'hand-no', 'data-label': t('history.hand') }, `#${r.hand}`),
              h('td', { class: 'game' }, h('span', { class: `badge badge-${r.game}` }, t(`game.${r.game}`))),
              h('td', { class: 'table-no', 'data-label': t('history.table') }, `#${r.table}`),
              h('td', { class: 'when' }, dateTime(r.started_at)),
              h('td', { class: 'result' }, resultText(r)),
              h(
                'td',
                { class: 'replay' },
                h(
                  'a',
                  { class: 'btn btn-small', href: `#/history/${r.hand}`, 'data-testid': `replay-${r.hand}` },
                  t('history.replay'),
                ),
                r.status === 'done' ? [' ', verifyButton(r.hand, seatNames(r))] : null,
              ),
            ),
          ),
        ),
      ),
    );
  },

  async replay(root, handId) {
    let data;
    try {
      data = await get(`/api/history/${handId}`);
    } catch (e) {
      showError(e.code, e.message);
      add(
        root,
        h('p', { class: 'empty' }, t('history.not_found')),
        h('a', { class: 'btn', href: '#/history' }, t('history.back')),
      );
      return;
    }
    const me = data.seat;
    const nameOf = (s) => {
      if (s === me) return t('common.you_cap');
      if (data.game === 'casino' && s === 1) return t('casino.bank');
      if (data.game === 'poker' && s === 1) return t('poker.computer');
      const p = data.players[s];
      if (!p) return t('seat.n', { n: s + 1 });
      return p.bot ? t('seat.bot', { n: s }) : p.name || t('seat.n', { n: s + 1 });
    };
    // a player's name as typed; the computer or the bank capitalised at the start of a line
    const person = (s) =>
      s !== me && !(data.game === 'casino' && s === 1) && Boolean(data.players[s]?.name) && !data.players[s]?.bot;
    const lead = (s) => (person(s) ? nameOf(s) : cap(nameOf(s)));
    const ctx = { game: data.game, me, name: nameOf, person, money, deck: data.initial?.deck };
    const frames = data.game === 'poker' ? pokerFrames(data) : unoFrames(data);
    const N = data.steps.length;
    let k = N; // start at the end: the result first, then step back

    const board = h('div', { class: 'replay-board felt', 'data-testid': 'replay-board' });
    const stepInfo = h('div', { class: 'replay-step', 'aria-live': 'polite', 'data-testid': 'replay-step' });
    const counter = h('span', { class: 'replay-counter', 'data-testid': 'replay-counter' });
    const slider = h('input', {
      type: 'range',
      min: 0,
      max: N,
      value: k,
      'aria-label': t('history.step'),
      oninput: () => go(Number(slider.value)),
    });
    const listEl = h('ol', { class: 'replay-list', start: 1 });
    const playBtn = h(
      'button',
      { type: 'button', class: 'btn btn-small', 'data-action': 'autoplay', onclick: () => toggle() },
      t('history.play'),
    );

    // the server sends each step's action structured (step.act: {text, kind, ...fields}); its
    // game puts it in words (games/<game>/events.js)
    // a time-out names the moves the server made for the player (step.moves), as the log does
    const actionText = (step) => {
      if (step.moves?.length) {
        const list = h('span', { class: 'moves', 'data-testid': 'replay-moves' });
        step.moves.forEach((m, i) => list.append(...(i ? [', '] : []), actionWords(data.game, m, nameOf)));
        return tNodes('history.timed_out', { moves: list });
      }
      if (step.act) return actionWords(data.game, step.act, nameOf);
      if (!step.action) {
        // a move this player did not see (the computer's draw): what its events said of it
        const said = step.events.map((e) => describeEvent(e, ctx)).find(Boolean);
        return said || '…';
      }
      return has(`act.${step.action}`) ? t(`act.${step.action}`) : step.action;
    };

    const drawBoard = () => {
      const f = frames[k];
      if (data.game === 'poker') {
        fill(
          board,
          h(
            'div',
            { class: 'pot' },
            h('span', { class: 'pot-label' }, t('poker.pot')),
            h('span', { class: 'pot-amount' }, t('poker.chips', { n: f.pot })),
          ),
          h(
            'div',
            { class: 'poker-cards' },
            f.hand
              ? f.hand.map((c) => pokerCard(c, { small: true }))
              : h('span', { class: 'muted' }, t('history.unknown_hand')),
          ),
          Object.entries(f.shown).map(([s, x]) =>
            h(
              'p',
              { 'data-testid': 'replay-shown' },
              h('strong', {}, nameOf(Number(s))),
              ': ',
              x.cards.map(miniPoker),
              ' ',
              h('span', { class: 'sd-name' }, x.name || ''),
            ),
          ),
        );
        return;
      }
      const others = h('div', { class: 'replay-others' });
      if (f.counts) {
        f.counts.forEach((c, s) => {
          if (s === me) return;
          others.append(
            h(
              'div',
              { class: 'replay-opp' },
              h('strong', {}, nameOf(s)),
              h('span', { class: 'opp-fan' }, unoBack({ small: true })),
              t('uno.cards_n', { n: c }),
            ),
          );
        });
      }
      fill(
        board,
        others,
        h(
          'div',
          { class: 'replay-center' },
          f.top ? unoCard(f.top) : h('div', { class: 'card placeholder', title: t('history.unknown_top') }, '?'),
          h('div', { class: 'current-color' }, colorDot(f.color), ' ', f.color ? t(`color.${f.color}`) : '—'),
          data.game === 'casino' && f.multiplier
            ? h('div', { class: 'mult-badge' }, `x${f.multiplier}`)
            : h('div', { class: 'direction' }, f.direction >= 0 ? '↻' : '↺'),
        ),
        h(
          'div',
          { class: 'replay-hand' },
          h('div', { class: 'muted' }, t('uno.your_hand')),
          f.hand
            ? h(
                'div',
                { class: 'hand hand-small', 'data-testid': 'replay-hand' },
                f.hand.map((c) =>
                  c === '?' ? unoBack({ small: true, label: t('history.unknown_card') }) : unoCard(c, { small: true }),
                ),
              )
            : h('span', { class: 'muted' }, t('history.unknown_hand')),
        ),
        f.revealed
          ? h(
              'div',
              { class: 'revealed' },
              h('strong', {}, t('history.revealed')),
              f.revealed.map((cards, s) =>
                h(
                  'div',
                  { 'data-seat': s, 'data-cards': cards.join(',') },
                  nameOf(s),
                  ': ',
                  cards.length ? cards.map(miniUno) : t('history.no_cards'),
                ),
              ),
            )
          : null,
      );
    };

    const go = (next) => {
      k = Math.max(0, Math.min(N, next));
      slider.value = k;
      counter.textContent = t('history.step_of', { k, n: N });
      clear(stepInfo);
      if (k === 0) {
        add(stepInfo, h('p', { class: 'muted' }, t('history.start')));
      } else {
        const step = data.steps[k - 1];
        add(
          stepInfo,
          h(
            'p',
            { class: 'step-head' },
            h('strong', {}, lead(step.seat)),
            ': ',
            actionText(step),
            step.actor !== 'player' ? h('span', { class: `tag tag-${step.actor}` }, t(`actor.${step.actor}`)) : '',
          ),
          h(
            'ul',
            { class: 'step-events' },
            step.events
              .map((e) => describeEvent(e, ctx))
              .filter(Boolean)
              .map((n) => h('li', {}, n)),
          ),
        );
      }
      listEl.querySelectorAll('li').forEach((li, i) => li.classList.toggle('current', i === k - 1));
      listEl.querySelector('li.current')?.scrollIntoView({ block: 'nearest' });
      drawBoard();
    };

    let speedNow = 1;
    const tick = () => {
      if (k >= N) toggle();
      else go(k + 1);
    };
    const toggle = () => {
      if (this.player) {
        clearInterval(this.player);
        this.player = null;
        playBtn.textContent = t('history.play');
        return;
      }
      if (k >= N) go(0);
      playBtn.textContent = t('history.pause');
      this.player = setInterval(tick, STEP_MS / speedNow);
    };
    // the speed of play: a long match is reviewed in a minute
    const speedSel = h(
      'select',
      { class: 'replay-speed', 'aria-label': t('history.speed'), title: t('history.speed'), 'data-testid': 'replay-speed' },
      REPLAY_SPEEDS.map((x) => h('option', { value: String(x), selected: x === speedNow }, `×${x}`)),
    );
    speedSel.addEventListener('change', () => {
      speedNow = Number(speedSel.value) || 1;
      if (this.player) {
        clearInterval(this.player);
        this.player = setInterval(tick, STEP_MS / speedNow);
      }
    });
    // straight to the start of a hand (UNO) or a deal (poker)
    const starts = handStarts(data);
    const jump = h(
      'select',
      { class: 'replay-jump', 'aria-label': t('history.jump'), 'data-testid': 'replay-jump' },
      h('option', { value: '' }, t('history.jump')),
      starts.map((x) =>
        h('option', { value: String(x.k) }, t(data.game === 'poker' ? 'history.deal_n' : 'history.hand_n', { n: x.n })),
      ),
    );
    jump.addEventListener('change', () => {
      if (jump.value !== '') go(Number(jump.value));
      jump.value = '';
    });

    // the steps' numbers are the list's own, as wide as the largest (438 is not cut)
    listEl.style.setProperty('--digits', String(String(N).length));
    data.steps.forEach((step, i) => {
      listEl.append(
        h(
          'li',
          {},
          h('span', { class: 'step-no', 'aria-hidden': 'true' }, `${i + 1}.`),
          h(
            'button',
            { type: 'button', class: 'link', onclick: () => go(i + 1) },
            lead(step.seat),
            ': ',
            actionText(step),
          ),
        ),
      );
    });

    const r = data.result || {};
    const summary =
      data.game === 'casino'
        ? r.winner === 'player'
          ? t('history.casino_won', { m: r.multiplier, payout: money(r.payout) })
          : r.winner
            ? t('history.casino_lost', { stake: money(r.stake) })
            : t('history.unfinished')
        : r.winner === undefined
          ? t('history.unfinished')
          : r.winner === me
            ? t('history.you_won')
            : t('history.winner_is', { who: nameOf(r.winner) });
    add(
      root,
      h(
        'div',
        { class: 'section-head' },
        h('h1', {}, t('history.replay_title', { n: data.hand })),
        h('a', { class: 'btn btn-ghost btn-small', href: '#/history' }, `← ${t('history.back')}`),
      ),
      h(
        'p',
        { class: 'replay-meta' },
        h('span', { class: `badge badge-${data.game}` }, t(`game.${data.game}`)),
        ' ',
        h('strong', { 'data-testid': 'replay-result' }, summary),
        ' · ',
        t('history.commitment'),
        ' ',
        h('code', {}, data.commitment.slice(0, 16)),
        data.seed
          ? [
              ' · ',
              t('history.seed'),
              ' ',
              h('code', { class: 'seed', title: data.seed }, `${data.seed.slice(0, 16)}…`),
              ' ',
              verifyButton(data.hand, nameOf),
            ]
          : '',
      ),
      h(
        'div',
        { class: 'replay-layout' },
        h(
          'div',
          {},
          board,
          h(
            'div',
            { class: 'replay-controls', role: 'group', 'aria-label': t('history.controls') },
            h(
              'button',
              {
                type: 'button',
                class: 'btn btn-small',
                'aria-label': t('history.first'),
                'data-action': 'first',
                onclick: () => go(0),
              },
              '«',
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'btn btn-small',
                'aria-label': t('history.prev'),
                'data-action': 'prev',
                onclick: () => go(k - 1),
              },
              '◀',
            ),
            playBtn,
            h(
              'button',
              {
                type: 'button',
                class: 'btn btn-small',
                'aria-label': t('history.next'),
                'data-action': 'next',
                onclick: () => go(k + 1),
              },
              '▶',
            ),
            h(
              'button',
              { type: 'button', class: 'btn btn-small', 'aria-label': t('history.last'), onclick: () => go(N) },
              '»',
            ),
            speedSel,
            starts.length > 1 ? jump : null,
            counter,
            slider,
          ),
          stepInfo,
        ),
        h('section', { class: 'panel' }, h('h2', { class: 'panel-title' }, t('history.steps')), listEl),
      ),
    );
    this.onKey = (e) => {
      if (e.target.closest('input, textarea, select')) return;
      if (e.key === 'ArrowLeft') go(k - 1);
      if (e.key === 'ArrowRight') go(k + 1);
    };
    document.addEventListener('keydown', this.onKey);
    go(k);
  },
};
