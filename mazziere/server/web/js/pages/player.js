// A player's page (GET /api/players/{name}): matches played and won by game, UNO's victory
// points, poker's chips won, and the recent matches with a link to each one's replay.
import { get } from '../api.js';
import { dateTime, num, t } from '../i18n.js';
import { fill, h } from '../ui.js';

function gameCard(game, g) {
  const facts = [
    [t('board.matches'), num(g.matches)],
    [t('board.wins'), num(g.wins)],
  ];
  if (game === 'uno') facts.push([t('board.points'), num(g.points ?? 0)]);
  if (game === 'poker') facts.push([t('board.chips'), num(g.chips ?? 0)]);
  return h(
    'section',
    { class: 'panel player-game', 'data-testid': `player-${game}` },
    h('h2', { class: 'panel-title' }, t(`game.${game}`)),
    h(
      'dl',
      { class: 'facts' },
      facts.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
    ),
  );
}

function recentRow(m) {
  const result = m.left ? t('player.left') : m.won ? t('player.won') : t('player.rank_n', { n: m.rank ?? '—' });
  const worth =
    m.game === 'uno' ? t('uno.points_n', { n: m.points ?? 0 }) : m.chips !== null && m.chips !== undefined ? t('poker.chips', { n: m.chips }) : '';
  return h(
    'tr',
    {},
    h('td', {}, dateTime(m.ended_at)),
    h('td', {}, t(`game.${m.game}`), m.humans_only === false ? h('span', { class: 'muted' }, ` · ${t('player.with_computer')}`) : ''),
    h('td', {}, result),
    h('td', { class: 'num' }, worth),
    h(
      'td',
      {},
      h('a', { class: 'btn btn-small', href: `#/history/${m.hand}`, 'data-testid': `player-replay-${m.hand}` }, t('history.replay')),
    ),
  );
}

export default {
  mount(root, { name }) {
    root.className = 'page page-player';
    const body = h('div', { 'data-testid': 'player-page' }, h('p', { class: 'loading' }, t('board.loading')));
    root.append(
      h(
        'div',
        { class: 'section-head' },
        h('h1', {}, name),
        h('a', { class: 'btn btn-ghost btn-small', href: '#/leaderboards' }, `← ${t('board.title')}`),
      ),
      body,
    );
    get(`/api/players/${encodeURIComponent(name)}`).then(
      (p) => {
        const games = Object.entries(p.games || {});
        fill(
          body,
          games.length
            ? h('div', { class: 'player-games' }, games.map(([g, x]) => gameCard(g, x)))
            : h('p', { class: 'empty' }, t('player.no_matches')),
          h('h2', {}, t('player.recent')),
          p.recent?.length
            ? h(
                'div',
                { class: 'table-wrap' },
                h(
                  'table',
                  { class: 'data-table', 'data-testid': 'player-recent' },
                  h(
                    'thead',
                    {},
                    h(
                      'tr',
                      {},
                      [t('player.when'), t('create.game'), t('player.result'), '', ''].map((x) => h('th', { scope: 'col' }, x)),
                    ),
                  ),
                  h('tbody', {}, p.recent.map(recentRow)),
                ),
              )
            : h('p', { class: 'muted' }, t('player.no_matches')),
        );
      },
      (e) => fill(body, h('p', { class: 'empty' }, e.code === 'no_player' ? t('player.unknown') : t('board.unavailable'))),
    );
  },
};
