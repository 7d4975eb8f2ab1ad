// The RTP monitor: for each game with a published return, the realised return over the last
// 1,000 / 10,000 / 100,000 rounds and all time against the theoretical figure and the 99%
// band its volatility gives that many rounds; a figure outside its band is an alert. Below,
// the players whose own return over enough rounds lies above the band.
import { money, num, t } from '../i18n.js';
import { add, fill, h } from '../ui.js';
import { dataTable, liveHead, liveLoad, percent } from './common.js';

const REFRESH_MS = 30_000;
// a return is never below 0%: a band of few rounds is shown from there

export default {
  mount(root) {
    root.className = 'page admin-page admin-rtp';
    this.box = h('div', {}, h('p', { class: 'loading' }, t('common.loading')));
    this.stamp = h('span', { class: 'muted' });
    add(
      root,
      ...liveHead(this, 'admin.nav.rtp', 'admin.rtp_hint', REFRESH_MS),
      this.box,
    );
    this.load();
  },

  unmount() {
    clearInterval(this.timer);
  },

  async load() {
    const data = await liveLoad(this, '/api/admin/rtp');
    if (!data) return;
    if (!data.games.length) {
      fill(this.box, h('p', { class: 'empty' }, t('admin.rtp_none')));
      return;
    }
    fill(this.box, data.games.map((g) => this.game(g)));
  },

  game(g) {
    const alerts = g.windows.filter((w) => w.out_of_band).length;
    const confidence = Math.round((g.confidence ?? 0.99) * 100);
    return h(
      'section',
      { class: `panel admin-section rtp-game ${alerts ? 'rtp-alert' : ''}`, 'data-testid': `rtp-${g.game}` },
      h(
        'div',
        { class: 'rtp-head' },
        h('span', { class: `badge badge-${g.game}` }, t(`game.${g.game}`)),
        h('span', {}, t('admin.rtp_theoretical', { rtp: percent(g.theoretical), c: confidence })),
        alerts
          ? h('strong', { class: 'alert-flag', role: 'alert', 'data-testid': 'rtp-alert' }, t('admin.rtp_alerts', { n: alerts }))
          : g.windows.some((w) => w.realised !== null && w.realised !== undefined)
            ? h('span', { class: 'ok-flag' }, t('admin.rtp_all_in_band'))
            : h('span', { class: 'muted' }, t('admin.rtp_no_rounds')),
      ),
      dataTable(
        [
          {
            label: 'admin.col.window',
            cell: (w) => (w.window === null || w.window === undefined ? t('admin.rtp_all_time') : t('admin.rtp_last', { n: num(w.window) })),
          },
          { label: 'admin.col.rounds_played', cls: 'num', cell: (w) => num(w.rounds ?? 0) },
          { label: 'admin.col.stakes', cls: 'num', cell: (w) => money(w.staked_cents ?? 0) },
          { label: 'admin.col.payouts', cls: 'num', cell: (w) => money(w.paid_cents ?? 0) },
          { label: 'admin.col.realised', cls: 'num', cell: (w) => h('strong', {}, percent(w.realised)) },
          { label: 'admin.col.band', cls: 'num', cell: (w) => (w.low === null || w.low === undefined ? '—' : `${percent(Math.max(0, w.low))} – ${percent(w.high)}`) },
          {
            label: 'admin.col.status',
            cell: (w) =>
              w.realised === null || w.realised === undefined
                ? h('span', { class: 'muted' }, t('admin.rtp_no_rounds'))
                : w.out_of_band
                  ? h('span', { class: 'status-badge status-suspended' }, t(w.realised > w.high ? 'admin.rtp_above' : 'admin.rtp_below'))
                  : h('span', { class: 'status-badge status-active' }, t('admin.rtp_in_band')),
          },
        ],
        g.windows.map((w) => ({ ...w, attrs: { class: w.out_of_band ? 'out-of-band' : null } })),
        { 'data-testid': `rtp-windows-${g.game}` },
      ),
      h('h3', { class: 'panel-title rtp-players-title' }, t('admin.rtp_players_above')),
      g.players_above?.length
        ? dataTable(
            [
              { label: 'admin.col.username', cell: (p) => h('a', { href: `#/players/${p.account}` }, p.username) },
              { label: 'admin.col.rounds', cls: 'num', cell: (p) => num(p.rounds) },
              { label: 'admin.col.realised', cls: 'num', cell: (p) => h('strong', { class: 'minus' }, percent(p.realised)) },
              { label: 'admin.col.band_high', cls: 'num', cell: (p) => percent(p.high) },
            ],
            g.players_above,
            { 'data-testid': `rtp-players-${g.game}` },
          )
        : h('p', { class: 'empty' }, t('admin.rtp_players_none')),
    );
  },
};
