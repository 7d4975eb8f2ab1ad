// Hands: any hand by its number, replayed step by step with every card (the back office sees
// what no seat saw), its seed and its commitment, and whether the seed matches the commitment
// published when the hand started (SHA-256 of the seed's bytes).
import { get } from '../api.js';
import { miniPoker, miniUno } from '../cards.js';
import { actionWords } from '../events.js';
import '../games/index.js';
import { dateTime, has, money, t } from '../i18n.js';
import { add, fill, h } from '../ui.js';
import { errorWords } from './common.js';

/** SHA-256 of the seed's bytes (hex), as the server commits to it; null without WebCrypto. */
async function sha256Hex(seedHex) {
  if (!globalThis.crypto?.subtle || !/^([0-9a-f]{2})+$/i.test(seedHex || '')) return null;
  const bytes = new Uint8Array(seedHex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

export default {
  mount(root, { id }, admin) {
    root.className = 'page admin-page admin-hands';
    const input = h('input', {
      type: 'number',
      min: 1,
      step: 1,
      inputmode: 'numeric',
      value: id ?? '',
      'aria-label': t('admin.hand_number'),
      placeholder: t('admin.hand_number'),
      'data-testid': 'hand-number',
    });
    const form = h(
      'form',
      {
        class: 'admin-search',
        onsubmit: (e) => {
          e.preventDefault();
          const n = Number(input.value);
          if (Number.isInteger(n) && n > 0) admin.go(`/hands/${n}`);
        },
      },
      input,
      h('button', { type: 'submit', class: 'btn btn-primary' }, t('admin.open_hand')),
    );
    add(root, h('h1', {}, t('admin.nav.hands')), form);
    if (id) this.show(root, id);
    else add(root, h('p', { class: 'hint' }, t('admin.hands_hint')));
  },

  async show(root, id) {
    const box = h('div', { class: 'hand-replay' }, h('p', { class: 'loading' }, t('common.loading')));
    add(root, box);
    let hand;
    try {
      hand = await get(`/api/admin/hands/${id}`);
    } catch (e) {
      fill(box, h('p', { class: 'form-error', 'data-testid': 'hand-error' }, errorWords(e)));
      return;
    }
    const players = hand.players || [];
    const nameOf = (s) => {
      if (hand.game === 'casino' && s === 1) return t('casino.bank');
      const p = players[s];
      if (!p) return t('seat.n', { n: Number(s) + 1 });
      return p.bot ? t('seat.bot', { n: s }) : p.name || t('seat.n', { n: Number(s) + 1 });
    };
    const ctx = { game: hand.game, me: null, name: nameOf, person: (s) => Boolean(players[s]?.name && !players[s]?.bot), money };
    const check = h('dd', { 'data-testid': 'seed-check' }, '…');
    fill(
      box,
      h(
        'dl',
        { class: 'facts hand-facts', 'data-testid': 'hand-facts' },
        h('dt', {}, t('admin.col.hand')),
        h('dd', {}, `#${hand.id}`),
        h('dt', {}, t('admin.col.game')),
        h('dd', {}, h('span', { class: `badge badge-${hand.game}` }, t(`game.${hand.game}`))),
        h('dt', {}, t('admin.col.table')),
        h('dd', {}, `#${hand.table}`),
        hand.started_at ? [h('dt', {}, t('admin.col.started')), h('dd', {}, dateTime(hand.started_at))] : null,
        h('dt', {}, t('admin.col.ended')),
        h('dd', {}, hand.ended_at ? dateTime(hand.ended_at) : t('admin.unfinished')),
        players.length
          ? [h('dt', {}, t('admin.col.seats')), h('dd', {}, players.map((_, s) => nameOf(s)).join(', '))]
          : null,
        h('dt', {}, t('admin.seed')),
        h('dd', {}, h('code', { class: 'hex', 'data-testid': 'hand-seed' }, hand.seed || '—')),
        h('dt', {}, t('admin.commitment')),
        h('dd', {}, h('code', { class: 'hex', 'data-testid': 'hand-commitment' }, hand.commitment || '—')),
        h('dt', {}, t('admin.seed_check')),
        check,
      ),
      h(
        'section',
        { class: 'panel admin-section' },
        h('h2', { class: 'panel-title' }, t('admin.steps', { n: hand.steps.length })),
        hand.initial ? h('div', { class: 'deal' }, h('h3', { class: 'panel-title' }, t('admin.dealt')), handsOf(hand.initial, hand.game, ctx)) : null,
        h('ol', { class: 'admin-steps', 'data-testid': 'hand-steps' }, hand.steps.map((s, i) => this.step(s, i, hand, ctx))),
      ),
    );
    const digest = await sha256Hex(hand.seed);
    if (digest === null) check.textContent = '—';
    else if (digest === String(hand.commitment).toLowerCase()) {
      check.className = 'plus';
      check.textContent = t('admin.seed_matches');
    } else {
      check.className = 'minus';
      check.textContent = t('admin.seed_differs');
    }
  },

  /** One step: who acted and how, then each event in words with its cards. */
  step(step, i, hand, ctx) {
    const who = step.seat === null || step.seat === undefined ? t('admin.server') : ctx.name(step.seat);
    const how = step.act
      ? actionWords(hand.game, step.act, ctx.name)
      : has(`act.${step.action}`)
        ? t(`act.${step.action}`)
        : step.action || '';
    const events = (step.events || []).map((e) =>
      h('li', {}, typeof e === 'string' ? h('code', {}, e) : eventLine(e, hand.game, ctx)),
    );
    return h(
      'li',
      { class: 'admin-step', 'data-step': i + 1 },
      h(
        'div',
        { class: 'step-head' },
        h('span', { class: 'step-no' }, `${step.seq ?? i + 1}`),
        h('strong', {}, who),
        step.actor && step.actor !== 'player' ? h('span', { class: 'tag' }, step.actor) : null,
        h('span', { class: 'step-action' }, how),
      ),
      step.moves?.length
        ? h(
            'p',
            { class: 'step-moves' },
            t('admin.moves'),
            ' ',
            step.moves.map((m, k) => [k ? ', ' : '', actionWords(hand.game, m, ctx.name)]),
          )
        : null,
      events.length ? h('ul', { class: 'step-events' }, events) : null,
      step.views ? h('details', { class: 'step-views' }, h('summary', {}, t('admin.hands_after')), handsOf(step.views, hand.game, ctx)) : null,
    );
  },
};

/** The fields of an event that hold cards (a card's code, a list, a list of hands). */
const CARD_FIELDS = new Set(['card', 'cards', 'top', 'hand', 'hands', 'discarded', 'received', 'left']);

/**
 * One event as recorded, every field shown (the back office sees every card): who it is
 * about, its kind, its cards as chips and its other fields as name=value.
 */
function eventLine(e, game, ctx) {
  const mini = game === 'poker' ? miniPoker : miniUno;
  const chips = (v) => {
    if (typeof v === 'string') return mini(v);
    if (Array.isArray(v)) return h('span', { class: 'mini-list' }, v.map(chips));
    return String(v);
  };
  const parts = [];
  // an event shown to one seat only (its own cards): for whom
  if (e.only !== undefined && e.only !== null)
    parts.push(h('span', { class: 'tag', title: t('admin.only_for', { name: ctx.name(Number(e.only)) }) }, `→ ${ctx.name(Number(e.only))}`), ' ');
  if (e.seat !== undefined && e.seat !== null) parts.push(h('strong', {}, ctx.name(Number(e.seat))), ' ');
  parts.push(h('code', { class: 'event-type' }, e.type));
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || k === 'seat' || k === 'only' || v === null || v === undefined || v === false) continue;
    if (CARD_FIELDS.has(k) && (typeof v === 'string' || Array.isArray(v)) && String(v) !== '')
      parts.push(' ', h('span', { class: 'event-field' }, `${k} `, chips(v)));
    else
      parts.push(' ', h('span', { class: 'event-field muted' }, `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`));
  }
  return h('span', { class: 'event-line' }, parts);
}

/** Every seat's cards from its view (a list of views by seat), and the card on the pile. */
function handsOf(views, game, ctx) {
  const mini = game === 'poker' ? miniPoker : miniUno;
  const top = views.find((v) => v?.top)?.top;
  return h(
    'ul',
    { class: 'seat-hands' },
    views.map((v, s) =>
      v && Array.isArray(v.hand)
        ? h('li', {}, h('strong', {}, ctx.name(s)), ' ', h('span', { class: 'mini-list' }, v.hand.map(mini)))
        : null,
    ),
    top && game !== 'poker' ? h('li', { class: 'muted' }, t('admin.on_pile'), ' ', mini(top)) : null,
  );
}
