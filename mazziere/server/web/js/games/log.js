// The running log of a table: what this player saw happen (events) and the table's notes (the
// protocol's typed `log`: {note: 'seated', seat, name}, {note: 'timed_out', seat, name,
// actions}...), both put in words here in the current language, players by their names.
import { actionWords, describeEvent, eventOf, reasonText } from '../events.js';
import { t, tNodes } from '../i18n.js';
import { clear, h } from '../ui.js';

const MAX = 250;
/**
 * A table event a note already says (one line per thing that happened): a time-out, the moves
 * the server made for it (marked `auto`: the time-out's note names them), and the table's
 * hand_started (with the hand's record `id`; a game's own hand_started has no id).
 */
const saidByNotes = (e) =>
  e.tag === 'auto_played' || e.auto === true || (e.tag === 'hand_started' && 'id' in e);

/**
 * A table note in words (a node), or null for a note this client does not know.
 * ctx: {game, me (seat), myName(), name(seat), money(cents)}
 */
export function describeNote(n, ctx) {
  // a note names the player as the server knew them; "you" when it is this player
  const mine = Boolean(n.name) && n.name === ctx.myName?.();
  const who = n.name || (n.seat !== undefined ? ctx.name(n.seat) : '');
  const say = (key, params = {}) => tNodes(mine ? `${key}_me` : key, { who, ...params });
  switch (n.note) {
    case 'seated':
    case 'left':
    case 'substituted':
    case 'held':
    case 'back': // said by this page when a held seat's player is connected again (table.js)
      return say(`slog.${n.note}`);
    case 'hand_started':
      return t('slog.hand_started', { id: n.hand, c: `${String(n.commitment).slice(0, 12)}…` });
    case 'hand_over':
      return t('slog.hand_over', { id: n.hand });
    case 'timed_out': {
      const moves = (n.actions || []).map((a) => actionWords(ctx.game, a, ctx.name));
      if (!moves.length) return say('slog.timed_out_none');
      const list = h('span', { class: 'moves' });
      moves.forEach((m, i) => list.append(...(i ? [', ', m] : [m])));
      return say('slog.timed_out', { moves: list });
    }
    case 'session_closed':
      return t('slog.session_closed', { amount: ctx.money(n.credited), why: reasonText('close', n.reason) });
    case 'starts_soon':
      return t('slog.starts_soon', { s: Math.max(0, Math.round(Number(n.seconds) || 0)) });
    case 'closed':
      return t(n.reason === 'abandoned' ? 'slog.closed_abandoned' : 'slog.closed');
    case 'rematch':
      return t('slog.rematch', { who: n.by || '', table: n.table });
    default:
      return null;
  }
}

/** Notes that come before the events of the update that carries them (what caused them). */
const LEADING = new Set(['seated', 'held', 'substituted', 'left', 'hand_started', 'timed_out']);

/** Whether a table note goes before its update's events in the log (see table.js). */
export function leadsEvents(n) {
  return LEADING.has(n?.note);
}

/**
 * The notes of a `table` update this page has not shown yet. The server numbers a table's
 * notes: `msg.log[i]` is note `msg.log_from + i`. `mem.noteNext` is the number of the next
 * note the page expects (null: it has shown none); an update carries the notes from there on,
 * a full one the table's last notes, some of which the page may have shown already. A full
 * update whose notes end before `mem.noteNext` comes from a server that started counting
 * again (a restart): its notes are all new. A page that has shown none waits for the full
 * update its join brings (an update sent before it goes on from notes this page never had).
 */
export function unseenNotes(mem, msg) {
  const log = msg.log || [];
  const from = msg.log_from ?? 0;
  const end = from + log.length;
  if (mem.noteNext == null && !msg.full) return [];
  let next = mem.noteNext ?? from;
  if (msg.full && end < next) next = from;
  mem.noteNext = Math.max(next, end);
  return log.slice(Math.max(0, next - from));
}

export class LogPanel {
  /** entries: the table's stored log ({kind: 'event'|'note', text}) kept across redraws. */
  constructor(entries, ctx) {
    this.entries = entries;
    this.ctx = ctx;
    this.list = h('ol', { class: 'log-list', 'data-testid': 'log', reversed: true });
    this.el = h(
      'section',
      { class: 'panel log-panel', 'aria-label': t('table.log') },
      h('h2', { class: 'panel-title' }, t('table.log')),
      this.list,
    );
    this.render();
  }

  add(kind, items) {
    for (const text of items) this.entries.push({ kind, text });
    if (this.entries.length > MAX) this.entries.splice(0, this.entries.length - MAX);
    this.render();
  }

  /** Take these entries in place of the log's (the server's play-by-play of this seat). */
  replace(items) {
    this.entries.splice(0, this.entries.length, ...items.filter((x) => x.text));
    this.render();
  }

  render() {
    clear(this.list);
    const items = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      // a time-out's note says it, naming the moves, and a hand's start note says it started:
      // their bare events would say it twice
      if (e.kind === 'event' && saidByNotes(eventOf(e.text))) continue;
      const words = e.kind === 'event' ? describeEvent(e.text, this.ctx) : describeNote(e.text, this.ctx);
      const body = e.kind === 'event' || !words ? words : h('span', { class: `ev ev-note note-${e.text.note}` }, words);
      if (body) items.push(h('li', { class: `log-${e.kind}` }, body));
    }
    if (!items.length) items.push(h('li', { class: 'muted' }, t('table.log_empty')));
    this.list.append(...items);
  }
}
