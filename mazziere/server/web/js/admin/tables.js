// Tables: every open table of every server process, refreshed while the page is open; a table
// is watched in the player client as a spectator, and an operator closes one with a reason
// (its seats get their money back as on an ordinary close).
import { post } from '../api.js';
import { dateTime, has, t } from '../i18n.js';
import { add, fill, h, icon, toast } from '../ui.js';
import { PERM, askReason, dataTable, duration, errorWords, liveHead, liveLoad } from './common.js';

const REFRESH_MS = 5000;

/** A person's seat whose player is not connected now. */
const offline = (s) => Boolean(s.name && !s.bot && s.connected === false);

function seatsCell(table) {
  if (!table.seats?.length) return h('span', { class: 'muted' }, '—');
  return h(
    'span',
    { class: 'seat-chips' },
    table.seats.map((s) =>
      h(
        'span',
        { class: `seat-chip ${s.bot ? 'bot' : ''} ${s.name ? '' : 'free'} ${offline(s) ? 'offline' : ''}` },
        s.bot ? icon('bot') : null,
        s.bot ? t('seat.bot', { n: s.seat }) : s.name || t('admin.free_seat'),
        offline(s) ? h('span', { class: 'muted' }, ` ${t('admin.offline')}`) : null,
      ),
    ),
  );
}

export default {
  mount(root, _params, admin) {
    this.admin = admin;
    root.className = 'page admin-page';
    this.box = h('div', { class: 'panel' }, h('p', { class: 'loading' }, t('common.loading')));
    this.stamp = h('span', { class: 'muted', 'data-testid': 'tables-stamp' });
    add(
      root,
      ...liveHead(this, 'admin.nav.tables', 'admin.tables_hint', REFRESH_MS),
      this.box,
    );
    this.load();
  },

  unmount() {
    clearInterval(this.timer);
  },

  async load() {
    const data = await liveLoad(this, '/api/admin/tables');
    if (!data) return;
    if (!data.tables.length) {
      fill(this.box, h('p', { class: 'empty', 'data-testid': 'tables-none' }, t('admin.tables_none')));
      return;
    }
    const canClose = this.admin.can(PERM.closeTable);
    fill(
      this.box,
      dataTable(
        [
          { label: 'admin.col.table', cell: (x) => h('span', {}, `#${x.id}`, x.name ? h('span', { class: 'muted table-name' }, ` ${x.name}`) : null) },
          {
            label: 'admin.col.game',
            cell: (x) =>
              h(
                'span',
                {},
                h('span', { class: `badge badge-${x.game}` }, t(`game.${x.game}`)),
                x.preset ? h('span', { class: 'muted preset' }, ` ${x.preset}`) : null,
              ),
          },
          { label: 'admin.col.seats', cell: seatsCell },
          { label: 'admin.col.owner', cell: (x) => h('code', {}, x.owner ?? '—') },
          { label: 'admin.col.age', cls: 'num', cell: (x) => (x.age_s === null || x.age_s === undefined ? '—' : duration(x.age_s)) },
          { label: 'admin.col.last_action', cell: (x) => (x.last_action_at ? dateTime(x.last_action_at) : '—') },
          {
            label: 'admin.col.status',
            cell: (x) => (has(`admin.table_status.${x.status}`) ? t(`admin.table_status.${x.status}`) : x.status),
          },
          {
            label: '',
            cls: 'row-actions',
            cell: (x) =>
              h(
                'span',
                { class: 'row-buttons' },
                // the player client's own table page, as a spectator, in a tab of its own
                h(
                  'a',
                  {
                    class: 'btn btn-small',
                    href: `../#/watch/${x.id}`,
                    target: '_blank',
                    rel: 'noopener',
                    'data-testid': `watch-${x.id}`,
                  },
                  t('admin.watch'),
                ),
                canClose
                  ? h(
                      'button',
                      {
                        type: 'button',
                        class: 'btn btn-small btn-warn',
                        'data-testid': `close-${x.id}`,
                        onclick: () => this.close(x),
                      },
                      t('admin.close_table'),
                    )
                  : null,
              ),
          },
        ],
        data.tables.map((x) => ({ ...x, attrs: { 'data-table': x.id } })),
        { 'data-testid': 'tables' },
      ),
    );
  },

  async close(table) {
    const reason = await askReason({
      title: t('admin.close_title', { n: table.id }),
      text: t('admin.close_text'),
      confirm: t('admin.close_table'),
    });
    if (reason === null) return;
    try {
      await post(`/api/admin/tables/${table.id}/close`, { reason });
      toast(t('admin.closed', { n: table.id }), 'ok');
    } catch (e) {
      toast(errorWords(e), 'error');
    }
    this.load();
  },
};
