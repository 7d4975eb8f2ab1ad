// Leaderboards by game and period (GET /api/leaderboards): UNO by the victory points of the
// matches between people, poker by the chips won against each computer level; each name leads
// to the player's page.
import { get } from '../api.js';
import { num, t } from '../i18n.js';
import { fill, h, showError } from '../ui.js';

const GAMES = ['uno', 'poker'];
const PERIODS = ['week', 'month', 'all'];
// the choice survives a language switch (the page is redrawn)
const state = { game: 'uno', period: 'week' };

/** A link to a player's page. */
export function playerLink(name) {
  return h('a', { href: `#/players/${encodeURIComponent(name)}`, class: 'player-link' }, name);
}

function table(cols, rows, testid) {
  return h(
    'table',
    { class: 'data-table board-table', 'data-testid': testid },
    h('thead', {}, h('tr', {}, cols.map(([label, cls]) => h('th', { scope: 'col', class: cls || null }, label)))),
    h('tbody', {}, rows),
  );
}

function unoBoard(data) {
  if (!data.rows?.length) return h('p', { class: 'empty' }, t('board.empty'));
  return table(
    [['#'], [t('board.player')], [t('board.points'), 'num'], [t('board.wins'), 'num'], [t('board.matches'), 'num']],
    data.rows.map((r) =>
      h(
        'tr',
        { 'data-name': r.name },
        h('td', {}, String(r.rank)),
        h('th', { scope: 'row' }, playerLink(r.name)),
        h('td', { class: 'num' }, num(r.points)),
        h('td', { class: 'num' }, num(r.wins)),
        h('td', { class: 'num' }, num(r.matches)),
      ),
    ),
    'board-uno',
  );
}

function pokerBoard(data) {
  const levels = Object.entries(data.levels || {});
  if (!levels.some(([, rows]) => rows.length)) return h('p', { class: 'empty' }, t('board.empty'));
  return levels.map(([level, rows]) =>
    h(
      'section',
      { class: 'board-level' },
      h('h2', { class: 'panel-title' }, t('board.against', { level: t(`poker.level.${level}`) })),
      rows.length
        ? table(
            [['#'], [t('board.player')], [t('board.chips'), 'num'], [t('board.wins'), 'num'], [t('board.matches'), 'num']],
            rows.map((r) =>
              h(
                'tr',
                { 'data-name': r.name },
                h('td', {}, String(r.rank)),
                h('th', { scope: 'row' }, playerLink(r.name)),
                h('td', { class: 'num' }, num(r.chips)),
                h('td', { class: 'num' }, num(r.wins)),
                h('td', { class: 'num' }, num(r.matches)),
              ),
            ),
            `board-poker-${level}`,
          )
        : h('p', { class: 'muted' }, t('board.empty')),
    ),
  );
}

export default {
  mount(root) {
    root.className = 'page page-boards';
    const body = h('div', { class: 'board-body', 'data-testid': 'leaderboard' }, h('p', { class: 'loading' }, t('board.loading')));
    const pick = (list, key, label) =>
      h(
        'div',
        { class: 'segmented-row', role: 'group', 'aria-label': label },
        list.map((v) =>
          h(
            'button',
            {
              type: 'button',
              class: 'btn btn-small filter-btn',
              'aria-pressed': String(state[key] === v),
              'data-testid': `board-${key}-${v}`,
              onclick: () => {
                state[key] = v;
                this.mount(clearRoot(root));
              },
            },
            key === 'game' ? t(`game.${v}`) : t(`board.period.${v}`),
          ),
        ),
      );
    root.append(
      h('div', { class: 'section-head' }, h('h1', {}, t('board.title'))),
      h('div', { class: 'board-picks' }, pick(GAMES, 'game', t('create.game')), pick(PERIODS, 'period', t('board.period'))),
      h('p', { class: 'hint' }, t(`board.rule.${state.game}`)),
      body,
    );
    get(`/api/leaderboards?game=${state.game}&period=${state.period}`).then(
      (data) => fill(body, state.game === 'uno' ? unoBoard(data) : pokerBoard(data)),
      (e) => {
        fill(body, h('p', { class: 'empty' }, t('board.unavailable')));
        showError(e.code, e.message);
      },
    );
  },
};

function clearRoot(root) {
  root.replaceChildren();
  return root;
}
