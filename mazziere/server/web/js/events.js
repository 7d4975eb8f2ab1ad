// Events from the server, structured ({type: "played", seat: 1, cards: ["R3"], ...}: the
// game's `events` schema in docs/protocol.schema.json), turned into sentences for the table log
// and the replay, in the current language. Nothing here parses text.
import { colorDot, miniUnoList } from './cards.js';
import { has, money, t, tNodes } from './i18n.js';
import { h } from './ui.js';

/** A game's own event sentences (games/<game>/events.js registers them): game -> (e, who, node). */
const DESCRIBERS = {};

/** Let a game describe its events; `describe(e, who, node)` returns a node or null. */
export function registerDescriber(game, describe) {
  DESCRIBERS[game] = describe;
}

/** An event as the server sent it, with its type also under `tag`. */
export function eventOf(e) {
  return e && typeof e === 'object' ? { ...e, tag: e.type } : { tag: 'unknown' };
}

export const list = (v) => (Array.isArray(v) ? v : []);
export const hands = (v) => (Array.isArray(v) ? v.map(list) : []);

/** A reason word from the server in words (falls back to the word itself). */
export function reasonText(group, r) {
  if (!r) return '';
  const key = `reason.${group}.${r}`;
  return has(key) ? t(key) : r.replaceAll('_', ' ');
}

/** Capitalise the first letter of a sentence node ("the bank plays" -> "The bank plays"). */
function capitalised(node) {
  if (!node) return node;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const i = n.data.search(/\S/);
    if (i < 0) continue;
    n.data = n.data.slice(0, i) + n.data[i].toLocaleUpperCase() + n.data.slice(i + 1);
    break;
  }
  return node;
}

/**
 * One event as a DOM node, or null when it says nothing new to this player.
 * ctx: {game, me (seat), name(seat) -> string}
 */
export function describeEvent(event, ctx) {
  return capitalised(describe(event, ctx));
}

function describe(event, ctx) {
  const e = eventOf(event);
  const who = (s) => (Number(s) === ctx.me ? t('common.you') : ctx.name(Number(s)));
  // the acting seat's sentence; "_me" variants read right when it is this player ("You play")
  const node = (key, params = {}, cls = '', actor = e.seat ?? e.by) => {
    const own = actor !== undefined && actor !== null && Number(actor) === ctx.me && has(`${key}_me`);
    return h('span', { class: `ev ev-${e.tag} ${cls}` }, tNodes(own ? `${key}_me` : key, params));
  };
  const byGame = DESCRIBERS[ctx.game];
  if (byGame) return byGame(e, who, node);
  switch (e.tag) {
    case 'hand_started':
      if ('id' in e) return node('ev.record', { id: e.id }, 'ev-muted');
      return node('ev.hand_started', { hand: Number(e.hand) + 1, dealer: who(e.dealer) }, 'ev-strong', e.dealer);
    case 'dealer_card':
      return node('ev.dealer_card', { who: who(e.seat), card: miniUnoList([e.card]) }, 'ev-muted');
    case 'dealer_chosen':
      return node('ev.dealer_chosen', { who: who(e.seat) });
    case 'dealt':
      if (list(e.cards).length) return node('ev.dealt_own', { cards: miniUnoList(list(e.cards)) });
      return node('ev.dealt', { who: who(e.seat), n: e.count }, 'ev-muted');
    case 'turned':
      return node('ev.turned', { card: miniUnoList([e.card]) });
    case 'returned':
      return node('ev.returned', { card: miniUnoList([e.card]) }, 'ev-muted');
    case 'played': {
      const frag = node('ev.played', { who: who(e.seat), cards: miniUnoList(list(e.cards)) });
      if (e.color)
        frag.append(
          ' ',
          tNodes('ev.played_color', { color: h('span', {}, colorDot(e.color), ' ', t(`color.${e.color}`)) }),
        );
      if (e.target !== null && e.target !== undefined)
        frag.append(
          ' ',
          Number(e.target) === ctx.me ? t('ev.played_target_you') : tNodes('ev.played_target', { who: who(e.target) }),
        );
      if (e.jump_in) frag.append(' ', t('ev.jump_in'));
      return frag;
    }
    case 'drew': {
      const cards = list(e.cards);
      const why =
        e.reason && e.reason !== 'choice' && e.reason !== 'no_play' ? ` (${reasonText('draw', e.reason)})` : '';
      if (cards.length) return node('ev.drew_own', { cards: miniUnoList(cards), why });
      return node('ev.drew', { who: who(e.seat), n: e.count, why });
    }
    case 'skipped':
      return node('ev.skipped', { who: who(e.seat) });
    case 'reversed':
      return node('ev.reversed');
    case 'color_chosen':
      return node('ev.color_chosen', {
        who: who(e.seat),
        color: h('span', {}, colorDot(e.color), ' ', t(`color.${e.color}`)),
      });
    case 'passed':
      return node('ev.passed', { who: who(e.seat) }, 'ev-muted');
    case 'reshuffled':
      return node('ev.reshuffled', { n: e.count }, 'ev-muted');
    case 'uno_called':
      return node('ev.uno_called', { who: who(e.seat) }, 'ev-strong');
    case 'uno_missed':
      return node('ev.uno_missed', { who: who(e.seat) });
    case 'caught':
      if (Number(e.seat) === ctx.me) return node('ev.caught_you', { by: who(e.by) }, '', null);
      return node('ev.caught', { by: who(e.by), who: who(e.seat) }, '', e.by);
    case 'challenged':
      if (Number(e.seat) === ctx.me)
        return node(
          e.guilty ? 'ev.challenged_you_guilty' : 'ev.challenged_you_innocent',
          { by: who(e.by) },
          '',
          null,
        );
      return node(
        e.guilty ? 'ev.challenged_guilty' : 'ev.challenged_innocent',
        { by: who(e.by), who: who(e.seat) },
        '',
        e.by,
      );
    case 'swapped':
      if (Number(e.other) === ctx.me) return node('ev.swapped_you', { who: who(e.seat) }, '', null);
      return node('ev.swapped', { who: who(e.seat), other: who(e.other) });
    case 'rotated':
      return node('ev.rotated');
    case 'auto_played':
      return node('ev.auto_played', { who: who(e.seat) }, 'ev-warn');
    case 'left':
      return node('ev.left', { who: who(e.seat) }, 'ev-warn');
    case 'eliminated':
      return node('ev.eliminated', { who: who(e.seat) }, 'ev-warn');
    case 'hand_ended': {
      if (e.winner === null) return node('ev.hand_ended_none', { why: reasonText('hand', e.reason) }, 'ev-strong');
      // the card points left in the other hands (what the hand is worth)
      const pts = list(e.points).map(Number);
      const won = pts.reduce((a, b, i) => (i === Number(e.winner) ? a : a + b), 0);
      return node('ev.hand_ended', { who: who(e.winner), points: won }, 'ev-strong', e.winner);
    }
    case 'match_ended':
      return node('ev.match_ended', { who: who(e.winner) }, 'ev-strong', e.winner);
    case 'multiplier':
      return node('ev.multiplier', { m: e.multiplier, why: reasonText('mult', e.reason) }, 'ev-mult');
    case 'round_ended':
      if (e.winner === 'player')
        return node('ev.round_won', { m: e.multiplier, payout: money(Number(e.payout)) }, 'ev-good');
      return node('ev.round_lost', { stake: money(Number(e.stake)), why: reasonText('round', e.reason) }, 'ev-bad');
    case 'session_closed':
      return node(
        'ev.session_closed',
        { amount: money(Number(e.credited)), why: reasonText('close', e.reason) },
        'ev-strong',
      );
    default:
      return h('span', { class: 'ev ev-raw' }, e.tag);
  }
}
