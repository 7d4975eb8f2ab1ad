// The audit log: every back-office action and every login (who, when, from where, what, before
// and after), newest first, page by page, and the whole log as a CSV file.
import { get } from '../api.js';
import { dateTime, t } from '../i18n.js';
import { add, h, toast } from '../ui.js';
import { downloadCsv, errorWords, isoDay, pagedTable } from './common.js';

/** A before or after value: a short JSON text, whole when opened. */
function state(v) {
  if (v === null || v === undefined || v === '') return h('span', { class: 'muted' }, '—');
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  if (text.length <= 32) return h('code', { class: 'audit-state' }, text);
  return h(
    'details',
    { class: 'audit-more' },
    h('summary', {}, h('code', { class: 'audit-state', title: text }, text)),
    h('pre', { class: 'audit-full' }, typeof v === 'string' ? v : JSON.stringify(v, null, 2)),
  );
}

export default {
  mount(root) {
    root.className = 'page admin-page';
    const exportBtn = h(
      'button',
      {
        type: 'button',
        class: 'btn btn-small',
        'data-testid': 'audit-csv',
        onclick: async () => {
          exportBtn.disabled = true;
          try {
            await downloadCsv('/api/admin/audit?format=csv&limit=10000', `mazziere-audit-${isoDay(new Date())}.csv`);
          } catch (e) {
            toast(errorWords(e), 'error');
          } finally {
            exportBtn.disabled = false;
          }
        },
      },
      t('admin.download_csv'),
    );
    add(
      root,
      h('div', { class: 'section-head' }, h('h1', {}, t('admin.nav.audit')), exportBtn),
      h('p', { class: 'hint' }, t('admin.audit_hint')),
      h('div', { class: 'panel' }, auditTable()),
    );
  },
};

/** What a line is about, a link to it when the console has a page for it. */
export function targetLink(target) {
  const m = /^(account|hand):(\d+)$/.exec(target || '');
  if (!m) return target ?? '—';
  return h('a', { href: `#/${m[1] === 'account' ? 'players' : 'hands'}/${m[2]}` }, target);
}

/** The audit log's lines, newest first, page by page; only those on `target` when given. */
export function auditTable(target = null) {
  return pagedTable(
    [
      { label: 'admin.col.id', cls: 'num', cell: (e) => `#${e.id}` },
      { label: 'admin.col.when', cell: (e) => dateTime(e.at) },
      { label: 'admin.col.actor', cell: (e) => e.actor ?? '—' },
      { label: 'admin.col.address', cell: (e) => e.address || '—' },
      { label: 'admin.col.action', cell: (e) => h('code', {}, e.action) },
      { label: 'admin.col.target', cell: (e) => targetLink(e.target) },
      { label: 'admin.col.before', cls: 'wrap', cell: (e) => state(e.before) },
      { label: 'admin.col.after', cls: 'wrap', cell: (e) => state(e.after) },
    ],
    async (before) => {
      const params = new URLSearchParams({ limit: '50' });
      if (before !== null) params.set('before', String(before));
      if (target) params.set('target', target);
      const r = await get(`/api/admin/audit?${params}`);
      return { items: r.entries, next: r.next };
    },
    { testid: target ? 'account-audit' : 'audit', empty: target ? t('admin.account_audit_none') : t('admin.audit_none') },
  );
}
