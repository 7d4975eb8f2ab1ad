// Games: each game and preset the lobby offers, enabled or not; an operator turns one off (the
// lobby stops offering it, running tables finish) or on again, with a reason.
import { get, post } from '../api.js';
import { t } from '../i18n.js';
import { add, fill, h, toast } from '../ui.js';
import { PERM, askReason, dataTable, errorWords } from './common.js';

export default {
  mount(root, _params, admin) {
    this.admin = admin;
    root.className = 'page admin-page';
    this.box = h('div', { class: 'panel' }, h('p', { class: 'loading' }, t('common.loading')));
    add(root, h('h1', {}, t('admin.nav.games')), h('p', { class: 'hint' }, t('admin.games_hint')), this.box);
    this.load();
  },

  async load() {
    let data;
    try {
      data = await get('/api/admin/games');
    } catch (e) {
      fill(this.box, h('p', { class: 'form-error' }, errorWords(e)));
      return;
    }
    const canWrite = this.admin.can(PERM.games);
    const off = new Set(data.games.filter((g) => !g.preset && !g.enabled).map((g) => g.game));
    const key = (g) => `${g.game}${g.preset ? `-${g.preset}` : ''}`;
    fill(
      this.box,
      dataTable(
        [
          {
            label: 'admin.col.game',
            cell: (g) => h('span', { class: `badge badge-${g.game}` }, t(`game.${g.game}`)),
          },
          { label: 'admin.col.preset', cell: (g) => (g.preset ? h('code', {}, g.preset) : h('span', { class: 'muted' }, t('admin.whole_game'))) },
          {
            label: 'admin.col.status',
            cell: (g) =>
              h(
                'span',
                { class: `status-badge ${g.enabled ? 'status-active' : 'status-suspended'}`, 'data-testid': `game-state-${key(g)}` },
                t(g.enabled ? 'admin.enabled' : 'admin.disabled'),
              ),
          },
          canWrite
            ? {
                label: '',
                cls: 'row-actions',
                cell: (g) =>
                  h(
                    'button',
                    {
                      type: 'button',
                      class: g.enabled ? 'btn btn-small btn-warn' : 'btn btn-small',
                      'data-testid': `game-toggle-${key(g)}`,
                      onclick: () => this.toggle(g),
                    },
                    t(g.enabled ? 'admin.disable' : 'admin.enable'),
                  ),
              }
            : null,
        ].filter(Boolean),
        // a preset of a game switched off is not offered whatever its own switch says
        data.games.map((g) => ({ ...g, attrs: { class: g.preset && off.has(g.game) ? 'under-off' : null } })),
        { 'data-testid': 'games' },
      ),
    );
  },

  async toggle(g) {
    const name = g.preset ? `${t(`game.${g.game}`)} · ${g.preset}` : t(`game.${g.game}`);
    const enabling = !g.enabled;
    const reason = await askReason({
      title: t(enabling ? 'admin.enable_title' : 'admin.disable_title', { name }),
      text: t(enabling ? 'admin.enable_text' : 'admin.disable_text'),
      confirm: t(enabling ? 'admin.enable' : 'admin.disable'),
      danger: !enabling,
    });
    if (reason === null) return;
    try {
      await post('/api/admin/games', { game: g.game, preset: g.preset ?? null, enabled: enabling, reason });
      toast(t(enabling ? 'admin.game_enabled' : 'admin.game_disabled', { name }), 'ok');
    } catch (e) {
      toast(errorWords(e), 'error');
    }
    this.load();
  },
};
