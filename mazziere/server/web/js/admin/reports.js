// Reports: per game and day, the stakes, payouts, gross gaming revenue, rounds and players over
// a range of days, with their totals, and the same rows as a CSV file.
import { get } from '../api.js';
import { money, num, t } from '../i18n.js';
import { add, field, fill, h } from '../ui.js';
import { dataTable, downloadCsv, errorWords, isoDay } from './common.js';

const DAY_MS = 86_400_000;
/** The range survives a language switch (the page is redrawn). */
const range = { from: isoDay(new Date(Date.now() - 6 * DAY_MS)), to: isoDay(new Date()) };

const columns = [
  { label: 'admin.col.day', cell: (r) => r.day },
  { label: 'admin.col.game', cell: (r) => (r.game ? h('span', { class: `badge badge-${r.game}` }, t(`game.${r.game}`)) : h('strong', {}, t('admin.total'))) },
  { label: 'admin.col.stakes', cls: 'num', cell: (r) => money(r.stakes_cents) },
  { label: 'admin.col.payouts', cls: 'num', cell: (r) => money(r.payouts_cents) },
  { label: 'admin.col.ggr', cls: 'num', cell: (r) => h('span', { class: r.ggr_cents >= 0 ? '' : 'minus' }, money(r.ggr_cents)) },
  { label: 'admin.col.rounds', cls: 'num', cell: (r) => num(r.rounds) },
  { label: 'admin.col.players', cls: 'num', cell: (r) => num(r.players) },
];

export default {
  mount(root) {
    root.className = 'page admin-page';
    const from = h('input', { type: 'date', value: range.from, required: true, 'data-testid': 'report-from' });
    const to = h('input', { type: 'date', value: range.to, required: true, 'data-testid': 'report-to' });
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'report-error' });
    const box = h('div', { class: 'panel' });
    const read = () => {
      error.textContent = '';
      if (!from.value || !to.value) error.textContent = t('admin.report_bad_range');
      else if (from.value > to.value) error.textContent = t('admin.report_from_after_to');
      if (error.textContent) return null;
      range.from = from.value;
      range.to = to.value;
      return new URLSearchParams({ from: from.value, to: to.value });
    };
    const show = async () => {
      const params = read();
      if (!params) return;
      fill(box, h('p', { class: 'loading' }, t('common.loading')));
      let data;
      try {
        data = await get(`/api/admin/reports/daily?${params}`);
      } catch (e) {
        fill(box, h('p', { class: 'form-error' }, errorWords(e)));
        return;
      }
      if (!data.rows.length) {
        fill(box, h('p', { class: 'empty', 'data-testid': 'report-none' }, t('admin.report_none')));
        return;
      }
      const sum = (k) => data.rows.reduce((a, r) => a + Number(r[k] || 0), 0);
      const total = {
        day: `${range.from} – ${range.to}`,
        game: null,
        stakes_cents: sum('stakes_cents'),
        payouts_cents: sum('payouts_cents'),
        ggr_cents: sum('ggr_cents'),
        rounds: sum('rounds'),
        players: null,
        attrs: { class: 'total-row' },
      };
      const table = dataTable(columns, [...data.rows, total], { 'data-testid': 'report' });
      // players are counted per game and day: their sum over days would count people twice
      table.querySelector('tr.total-row td:last-child').textContent = '—';
      fill(box, table);
    };
    const csv = async () => {
      const params = read();
      if (!params) return;
      params.set('format', 'csv');
      try {
        await downloadCsv(`/api/admin/reports/daily?${params}`, `mazziere-report-${range.from}-${range.to}.csv`);
      } catch (e) {
        error.textContent = errorWords(e);
      }
    };
    const form = h(
      'form',
      {
        class: 'panel admin-section report-form',
        novalidate: true,
        onsubmit: (e) => {
          e.preventDefault();
          show();
        },
      },
      h(
        'div',
        { class: 'field-row' },
        field(t('admin.report_from'), from),
        field(t('admin.report_to'), to),
        h(
          'div',
          { class: 'form-buttons' },
          h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'report-show' }, t('admin.report_show')),
          h('button', { type: 'button', class: 'btn', 'data-testid': 'report-csv', onclick: csv }, t('admin.download_csv')),
        ),
      ),
      error,
    );
    add(root, h('h1', {}, t('admin.nav.reports')), form, box);
    show();
  },
};
