// The running log of a table: what this player saw happen (events) and the table's notes.
import { describeEvent } from '../events.js';
import { t } from '../i18n.js';
import { clear, h } from '../ui.js';

const MAX = 250;

/** Table notes from the server (English sentences) in the current language, when we know them. */
const NOTES = [
  [/^hand (\d+) starts \(seed commitment (\w+)\)$/, (m) => t('slog.hand_starts', { id: m[1], c: m[2] })],
  [/^hand (\d+) over: /, (m) => t('slog.hand_over', { id: m[1] })],
  [/^(.+) sits at seat (\d+)$/, (m) => t('slog.sits', { who: m[1], seat: m[2] })],
  [/^(.+) left seat (\d+)$/, (m) => t('slog.left', { who: m[1] || '—', seat: m[2] })],
  [/^(.+) lost the connection; seat (\d+) held$/, (m) => t('slog.lost', { who: m[1], seat: m[2] })],
  [
    /^time ran out: the server played '(.+)' for seat (\d+)$/,
    (m, ctx) => t('slog.timeout', { action: m[1], who: ctx.name(Number(m[2])) }),
  ],
  [/^(.+) left; a computer player takes seat (\d+)$/, (m) => t('slog.replaced_by_bot', { who: m[1], seat: m[2] })],
  [
    /^casino session closed \((\w+)\); (-?\d+) cents credited to the wallet$/,
    (m, ctx) => t('slog.session_closed', { amount: ctx.money(Number(m[2])) }),
  ],
];

export function translateNote(text, ctx) {
  for (const [re, fn] of NOTES) {
    const m = re.exec(text);
    if (m) return fn(m, ctx);
  }
  return text;
}

/** The lines of `next` that were not already at the end of `prev` (a rolling window). */
export function newLines(prev, next) {
  for (let k = Math.min(prev.length, next.length); k > 0; k--) {
    let ok = true;
    for (let i = 0; i < k; i++) {
      if (prev[prev.length - k + i] !== next[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return next.slice(k);
  }
  return next;
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

  add(kind, texts) {
    for (const text of texts) this.entries.push({ kind, text });
    if (this.entries.length > MAX) this.entries.splice(0, this.entries.length - MAX);
    this.render();
  }

  render() {
    clear(this.list);
    const items = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      const body =
        e.kind === 'event'
          ? describeEvent(e.text, this.ctx)
          : h('span', { class: 'ev ev-note' }, translateNote(e.text, this.ctx));
      if (body) items.push(h('li', { class: `log-${e.kind}` }, body));
    }
    if (!items.length) items.push(h('li', { class: 'muted' }, t('table.log_empty')));
    this.list.append(...items);
  }
}
