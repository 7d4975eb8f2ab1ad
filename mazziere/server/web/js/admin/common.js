// What the back-office pages share: the permissions they check, money typed as euros, data
// tables that become cards on a phone, a "load more" pager, the dialog that asks for a reason,
// pages that reload themselves, and CSV downloads (the API wants the bearer token, so a plain
// link cannot fetch them).
import { ApiError, get, session } from '../api.js';
import { dateTime, t } from '../i18n.js';
import { fill, h } from '../ui.js';

/**
 * The permissions of GET /api/admin/me that the console asks about (the server's table of
 * roles is the one source; the console only hides what the role may not do).
 */
export const PERM = {
  players: 'players.read',
  suspend: 'players.suspend',
  tables: 'tables.read',
  closeTable: 'tables.close',
  hands: 'hands.read',
  adjust: 'adjustments.request',
  approve: 'adjustments.approve',
  games: 'games.switch',
  watch: 'tables.watch',
  roles: 'roles.set',
  reports: 'reports.read',
  audit: 'audit.read',
  rtp: 'rtp.read',
  wallet: 'wallet.read',
};

/** Whether the logged-in operator (`me` of /api/admin/me) holds a permission. */
export function can(me, perm) {
  return Boolean(me?.permissions?.includes(perm));
}

/**
 * Euros as typed ("12", "12.5", "-3,75") in integer cents, or null when the text is not an
 * amount with at most two decimals (nothing is rounded: "1.234" is refused, not read as 1.23).
 */
export function parseEuros(text) {
  const s = String(text ?? '')
    .trim()
    .replace(/^−/, '-');
  const m = /^([+-]?)(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] || '').padEnd(2, '0'));
  return m[1] === '-' ? -cents : cents;
}

/** A signed amount of cents with its sign always written (+€5.00, −€5.00). */
export function signedMoney(cents, money) {
  return `${cents >= 0 ? '+' : '−'}${money(Math.abs(cents))}`;
}

/** A date as YYYY-MM-DD (the reports' days), in UTC like the server's. */
export function isoDay(date) {
  return date.toISOString().slice(0, 10);
}

/** Seconds as a short duration: 42 s, 5 min, 3 h 20 min, 2 d 4 h. */
export function duration(seconds) {
  const s = Math.max(0, Math.round(Number(seconds) || 0));
  if (s < 60) return t('admin.dur_s', { s });
  if (s < 3600) return t('admin.dur_m', { m: Math.floor(s / 60) });
  if (s < 86400) return t('admin.dur_h', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return t('admin.dur_d', { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
}

/** A percentage from a fraction (0.9612 -> 96.12%). */
export function percent(x, digits = 2) {
  if (x === null || x === undefined) return '—';
  return `${(Number(x) * 100).toFixed(digits)}%`;
}

/**
 * A data table: `columns` are {label (a message key), cls, cell(row) -> node or text}; each
 * cell carries its column's name, which a phone shows beside the value (one card per row).
 */
export function dataTable(columns, rows, attrs = {}) {
  const labels = columns.map((c) => (c.label ? t(c.label) : ''));
  return h(
    'table',
    { ...attrs, class: `data-table admin-table ${attrs.class || ''}` },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((c, i) => h('th', { scope: 'col', class: c.cls || null }, labels[i])),
      ),
    ),
    h('tbody', {}, rows.map((r) => tableRow(columns, labels, r))),
  );
}

/** One row of a dataTable (to append more rows to its body). */
export function tableRow(columns, labels, row) {
  return h(
    'tr',
    row.attrs ? row.attrs : {},
    columns.map((c, i) =>
      h('td', { class: c.cls || null, 'data-label': labels[i] || null }, c.cell(row)),
    ),
  );
}

/**
 * A list that loads page after page: `load(cursor)` returns {items, next}; `columns` as for
 * dataTable. The first page is loaded at once; "Load more" appears while there is a next page.
 */
export function pagedTable(columns, load, { testid, empty } = {}) {
  const labels = columns.map((c) => (c.label ? t(c.label) : ''));
  const table = dataTable(columns, [], { 'data-testid': testid });
  const body = table.tBodies[0];
  const status = h('p', { class: 'loading' }, t('common.loading'));
  const more = h(
    'button',
    { type: 'button', class: 'btn btn-small', hidden: true, 'data-testid': testid ? `${testid}-more` : null },
    t('admin.more'),
  );
  const box = h('div', { class: 'paged' }, table, status, more);
  let cursor = null;
  let count = 0;
  const next = async () => {
    more.disabled = true;
    try {
      const page = await load(cursor);
      for (const item of page.items) body.append(tableRow(columns, labels, item));
      count += page.items.length;
      cursor = page.next ?? null;
      status.hidden = count > 0;
      table.hidden = count === 0; // no column names over nothing
      status.className = 'empty';
      status.textContent = empty || t('admin.none');
      more.hidden = cursor === null || cursor === undefined;
    } catch (e) {
      status.hidden = false;
      table.hidden = count === 0;
      status.className = 'form-error';
      status.textContent = errorWords(e);
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', next);
  next();
  return box;
}

/** A refusal in words: ours when we know its code, else the server's sentence. */
export function errorWords(e) {
  if (!(e instanceof ApiError)) return String(e?.message || e);
  if (e.status === 403) return t('admin.forbidden');
  const key = `admin.err.${e.code}`;
  const ours = t(key);
  return ours !== key ? ours : e.message || e.code;
}

/**
 * Ask for a reason before an action (suspend, close a table, reject): a dialog with the
 * sentence `text`, a required reason and the confirming button `confirm`. Resolves with the
 * reason, or null when cancelled.
 */
export function askReason({ title, text, confirm, danger = true }) {
  return new Promise((resolve) => {
    const previous = document.activeElement;
    const reason = h('textarea', {
      rows: 3,
      maxlength: 500,
      required: true,
      'data-testid': 'reason',
      'aria-label': t('admin.reason'),
    });
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'reason-error' });
    const done = (value) => {
      document.removeEventListener('keydown', onKey, true);
      window.removeEventListener('hashchange', onLeave);
      back.remove();
      previous?.focus?.();
      resolve(value);
    };
    const onLeave = () => done(null);
    const onKey = (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        done(null);
      }
    };
    const form = h(
      'form',
      {
        class: 'modal admin-dialog',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-label': title,
        novalidate: true,
        onsubmit: (e) => {
          e.preventDefault();
          const r = reason.value.trim();
          if (!r) {
            error.textContent = t('admin.reason_required');
            reason.focus();
            return;
          }
          done(r);
        },
      },
      h('h2', { class: 'modal-title' }, title),
      text ? h('p', {}, text) : null,
      h('label', { class: 'field' }, h('span', {}, t('admin.reason')), reason),
      error,
      h(
        'div',
        { class: 'modal-choices' },
        h(
          'button',
          { type: 'submit', class: danger ? 'btn btn-warn' : 'btn btn-primary', 'data-testid': 'reason-confirm' },
          confirm,
        ),
        h(
          'button',
          { type: 'button', class: 'btn btn-ghost', 'data-testid': 'reason-cancel', onclick: () => done(null) },
          t('common.cancel'),
        ),
      ),
    );
    const back = h('div', { class: 'modal-back', onclick: (e) => e.target === back && done(null) }, form);
    document.body.append(back);
    document.addEventListener('keydown', onKey, true);
    window.addEventListener('hashchange', onLeave);
    reason.focus();
  });
}

/**
 * Fetch a CSV export with the session's token and hand it to the browser as a download named
 * `filename`.
 */
export async function downloadCsv(path, filename) {
  const token = session.get()?.token;
  let res;
  try {
    res = await fetch(path, { headers: { Accept: 'text/csv', Authorization: `Bearer ${token}` } });
  } catch (e) {
    throw new ApiError('network', e.message || 'network error', 0);
  }
  if (!res.ok) {
    let data = {};
    try {
      data = await res.json();
    } catch {
      /* not JSON */
    }
    if (res.status === 401) expired();
    throw new ApiError(data.code || `http_${res.status}`, data.message || res.statusText, res.status);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A 401 outside api(): the same as inside it (the session ended). */
let expired = () => {};
export function onExpired(fn) {
  expired = fn;
}

/** The hash's query (#/money?account=5 -> {account: '5'}). */
export function hashQuery() {
  const q = location.hash.split('?')[1] || '';
  return Object.fromEntries(new URLSearchParams(q));
}

/**
 * The head of a page that reloads itself: its title, the time of its last load
 * (``page.stamp``) with a Refresh button, and a hint; reloads ``page`` every ``everyMs``
 * until its ``unmount`` clears ``page.timer``.
 */
export function liveHead(page, titleKey, hintKey, everyMs) {
  page.timer = setInterval(() => page.load(), everyMs);
  return [
    h(
      'div',
      { class: 'section-head' },
      h('h1', {}, t(titleKey)),
      h(
        'div',
        { class: 'head-tools' },
        page.stamp,
        h('button', { type: 'button', class: 'btn btn-small', onclick: () => page.load() }, t('admin.refresh')),
      ),
    ),
    h('p', { class: 'hint' }, t(hintKey)),
  ];
}

/** GET ``path`` for a page that reloads itself: the answer, its time in ``page.stamp``; or
 * null, the error said in ``page.box``. */
export async function liveLoad(page, path) {
  let data;
  try {
    data = await get(path);
  } catch (e) {
    fill(page.box, h('p', { class: 'form-error' }, errorWords(e)));
    return null;
  }
  page.stamp.textContent = t('admin.as_of', { when: dateTime(new Date().toISOString()) });
  return data;
}
