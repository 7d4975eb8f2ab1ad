// Events from the server, structured ({type: "played", seat: 1, cards: ["R3"], ...}: the
// game's `events` schema in docs/protocol.schema.json), turned into sentences for the table log
// and the replay, in the current language. Nothing here parses text. This is the shared
// machinery: each game's folder (games/<game>/events.js) registers its own sentences and its
// actions in words; the table's own events (a hand recorded, a time-out, a session closed) are
// worded here, for every game.
import { has, money, t, tNodes } from './i18n.js';
import { h } from './ui.js';

/** Each game's event sentences: game -> describe(e, who, node, ctx). */
const DESCRIBERS = {};
/** Each game's actions in words: game -> words(action, nameOf). */
const ACTION_WORDS = {};

/**
 * Let a game describe its events: `describe(e, who, node, ctx)` returns a node, null when the
 * event says nothing to this player, or undefined for an event it does not know.
 */
export function registerDescriber(game, describe) {
  DESCRIBERS[game] = describe;
}

/** Let a game put its structured actions ({text, kind, ...fields}) in words. */
export function registerActionWords(game, words) {
  ACTION_WORDS[game] = words;
}

/** A structured action of `game` in words (a node or a string); its text if the game has none. */
export function actionWords(game, action, nameOf) {
  const words = ACTION_WORDS[game];
  return (words && words(action, nameOf)) ?? action.text;
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

/**
 * Capitalise the first letter of a sentence node ("the bank plays" -> "The bank plays"), unless
 * the sentence starts with a player's name: a name is shown as its player typed it, here as in
 * every dialog ("dino plays").
 */
function capitalised(node) {
  if (!node) return node;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const i = n.data.search(/\S/);
    if (i < 0) continue;
    if (n.parentElement?.closest('.who')) break;
    n.data = n.data.slice(0, i) + n.data[i].toLocaleUpperCase() + n.data.slice(i + 1);
    break;
  }
  return node;
}

/**
 * One event as a DOM node, or null when it says nothing new to this player.
 * ctx: {game, me (seat), name(seat) -> string, person(seat) -> whether it is a player's name}
 */
export function describeEvent(event, ctx) {
  return capitalised(describe(event, ctx));
}

/** The table's own events, the same at every game (undefined: not one of them). */
function describeTable(e, who, node) {
  switch (e.tag) {
    case 'hand_started':
      return 'id' in e ? node('ev.record', { id: e.id }, 'ev-muted') : undefined;
    case 'auto_played':
      return node('ev.auto_played', { who: who(e.seat) }, 'ev-warn');
    case 'session_closed':
      return node(
        'ev.session_closed',
        { amount: money(Number(e.credited)), why: reasonText('close', e.reason) },
        'ev-strong',
      );
    default:
      return undefined;
  }
}

function describe(event, ctx) {
  const e = eventOf(event);
  // a player's name is marked as one (it keeps its case); "you", the bank, a computer player not
  const who = (s) => {
    if (Number(s) === ctx.me) return t('common.you');
    const name = ctx.name(Number(s));
    return ctx.person?.(Number(s)) ? h('span', { class: 'who' }, name) : name;
  };
  // the acting seat's sentence; "_me" variants read right when it is this player ("You play")
  const node = (key, params = {}, cls = '', actor = e.seat ?? e.by) => {
    const own = actor !== undefined && actor !== null && Number(actor) === ctx.me && has(`${key}_me`);
    return h('span', { class: `ev ev-${e.tag} ${cls}` }, tNodes(own ? `${key}_me` : key, params));
  };
  const table = describeTable(e, who, node);
  if (table !== undefined) return table;
  const byGame = DESCRIBERS[ctx.game];
  const said = byGame ? byGame(e, who, node, ctx) : undefined;
  return said === undefined ? h('span', { class: 'ev ev-raw' }, e.tag) : said;
}
