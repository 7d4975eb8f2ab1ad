// Players: a search by name or id, and one account's page (balance, open credit sessions, the
// ledger and hands page by page, logins), where a support operator suspends or reinstates it.
import { get, post } from '../api.js';
import { dateTime, has, money, num, t } from '../i18n.js';
import { add, fill, h, toast } from '../ui.js';
import { auditTable, targetLink } from './audit.js';
import { PERM, askReason, dataTable, errorWords, pagedTable, signedMoney } from './common.js';

const PAGE = 25;
/** The roles an admin may give (the server's roles.ROLES). */
const ROLES = ['player', 'support', 'operator', 'auditor', 'admin'];

/** A player's status as a badge (active, suspended). */
export function statusBadge(status) {
  const key = `admin.status.${status}`;
  return h('span', { class: `status-badge status-${status}`, 'data-testid': 'player-status' }, has(key) ? t(key) : status);
}

function roleText(role) {
  const key = `admin.role.${role}`;
  return has(key) ? t(key) : role;
}

const playerColumns = [
  { label: 'admin.col.id', cls: 'num', cell: (p) => `#${p.id}` },
  {
    label: 'admin.col.username',
    cell: (p) => h('a', { href: `#/players/${p.id}`, 'data-testid': `player-${p.id}` }, p.username),
  },
  { label: 'admin.col.role', cell: (p) => roleText(p.role) },
  { label: 'admin.col.status', cell: (p) => statusBadge(p.status) },
  { label: 'admin.col.balance', cls: 'num', cell: (p) => money(p.balance_cents) },
  { label: 'admin.col.created', cell: (p) => dateTime(p.created_at) },
];

/** The search keeps its words across a language switch (the page is redrawn). */
const search = { q: '' };

export const playersPage = {
  mount(root) {
    root.className = 'page admin-page';
    const q = h('input', {
      type: 'search',
      name: 'q',
      value: search.q,
      placeholder: t('admin.players_search_hint'),
      'aria-label': t('admin.players_search'),
      'data-testid': 'player-search',
    });
    const results = h('div', { class: 'panel' });
    const form = h(
      'form',
      {
        class: 'admin-search',
        role: 'search',
        onsubmit: (e) => {
          e.preventDefault();
          search.q = q.value.trim();
          list();
        },
      },
      q,
      h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'player-search-go' }, t('admin.search')),
    );
    const list = () =>
      fill(
        results,
        pagedTable(
          playerColumns,
          async (after) => {
            const params = new URLSearchParams({ q: search.q, limit: String(PAGE) });
            if (after !== null) params.set('after', String(after));
            const r = await get(`/api/admin/players?${params}`);
            return { items: r.players, next: r.next };
          },
          { testid: 'players', empty: t('admin.players_none') },
        ),
      );
    add(root, h('h1', {}, t('admin.nav.players')), form, results);
    list();
    q.focus();
  },
};

export const accountPage = {
  async mount(root, { id }, admin) {
    root.className = 'page admin-page admin-account';
    const head = h('div', { class: 'account-head' }, h('p', { class: 'loading' }, t('common.loading')));
    add(root, h('a', { class: 'back', href: '#/players' }, `← ${t('admin.nav.players')}`), head);
    let p;
    try {
      p = await get(`/api/admin/players/${id}`);
    } catch (e) {
      fill(head, h('p', { class: 'form-error', 'data-testid': 'account-error' }, errorWords(e)));
      return;
    }
    const actions = h('div', { class: 'account-actions' });
    if (admin.can(PERM.suspend)) {
      const suspended = p.status === 'suspended';
      add(
        actions,
        h(
          'button',
          {
            type: 'button',
            class: suspended ? 'btn' : 'btn btn-warn',
            'data-testid': suspended ? 'reinstate' : 'suspend',
            onclick: () => this.suspend(p, !suspended, admin),
          },
          t(suspended ? 'admin.reinstate' : 'admin.suspend'),
        ),
      );
    }
    if (admin.can(PERM.roles)) add(actions, this.roleControl(p, admin));
    if (admin.can(PERM.adjust))
      add(actions, h('a', { class: 'btn', href: `#/money?account=${p.id}`, 'data-testid': 'adjust' }, t('admin.adjust')));
    fill(
      head,
      h(
        'div',
        { class: 'account-title' },
        h('h1', { 'data-testid': 'account-name' }, p.username),
        h('span', { class: 'muted' }, `#${p.id}`),
        statusBadge(p.status),
        h('span', { class: 'muted' }, roleText(p.role)),
      ),
      h(
        'dl',
        { class: 'facts account-facts' },
        h('dt', {}, t('admin.col.balance')),
        h('dd', { 'data-testid': 'account-balance' }, money(p.balance_cents)),
        h('dt', {}, t('admin.hands_played')),
        h('dd', {}, num(p.hands_played ?? 0)),
        h('dt', {}, t('admin.col.created')),
        h('dd', {}, dateTime(p.created_at)),
      ),
      actions,
    );
    add(
      root,
      h(
        'div',
        { class: 'account-grid' },
        section('admin.open_sessions', this.sessions(p)),
        section('admin.logins', this.logins(p)),
        section('admin.limits', this.limits(p)),
        section('admin.exclusions', this.exclusions(p)),
      ),
      section('admin.ledger', this.ledger(p)),
      section('admin.hands', this.hands(p)),
      // what the back office did to this account, for those who may read the audit log
      admin.can(PERM.audit) ? section('admin.account_audit', auditTable(`account:${p.id}`)) : null,
    );
  },

  sessions(p) {
    if (!p.open_sessions?.length) return h('p', { class: 'empty' }, t('admin.sessions_none'));
    return dataTable(
      [
        { label: 'admin.col.session', cls: 'num', cell: (s) => `#${s.id}` },
        { label: 'admin.col.table', cell: (s) => (s.table ? `#${s.table}` : '—') },
        { label: 'admin.col.stake', cls: 'num', cell: (s) => (s.stake_cents ? money(s.stake_cents) : '—') },
        { label: 'admin.col.credit', cls: 'num', cell: (s) => money(s.balance_cents) },
        { label: 'admin.col.opened', cell: (s) => dateTime(s.opened_at) },
      ],
      p.open_sessions,
      { 'data-testid': 'open-sessions' },
    );
  },

  /** The player's limits: each kind in force and a raise or removal waiting, the sign-up
   * answer and the reality-check rhythm (docs/rules/platform.md "Limits and reality checks"). */
  limits(p) {
    const l = p.limits;
    if (!l) return h('p', { class: 'empty' }, t('limits.none'));
    const shown = (kind, v) =>
      v === null || v === undefined ? t('limits.none') : kind === 'session_minutes' ? t('admin.minutes', { n: v }) : money(v);
    const pending = (kind, x) =>
      !x.pending_set ? '—' : `${shown(kind, x.pending)} ${t('admin.limit_from', { date: dateTime(x.pending_from) })}`;
    const answer = t(`admin.limits_choice.${l.choice ?? 'none'}`);
    return h(
      'div',
      {},
      dataTable(
        [
          { label: 'admin.col.limit', cell: (k) => t(`limits.name.${k}`) },
          { label: 'admin.col.in_force', cls: 'num', cell: (k) => shown(k, l.limits[k]?.amount) },
          { label: 'admin.col.pending', cell: (k) => pending(k, l.limits[k] ?? {}) },
        ],
        l.kinds,
        { 'data-testid': 'limits' },
      ),
      h('p', { class: 'hint', 'data-testid': 'limits-answer' }, t('admin.limits_answer', { answer, n: l.reality_minutes })),
    );
  },

  /** Self-exclusions, newest first, and the exclusion register's answer at the last login. */
  exclusions(p) {
    const reg = p.exclusion_register;
    const answer = reg
      ? h(
          'p',
          { class: 'hint', 'data-testid': 'register-answer' },
          t('admin.register_answer', { answer: t(`admin.register.${reg.answer}`), at: dateTime(reg.asked_at) }),
          reg.detail ? ` (${reg.detail})` : '',
        )
      : null;
    if (!p.exclusions?.length) return h('div', {}, h('p', { class: 'empty' }, t('admin.exclusions_none')), answer);
    const period = (x) => (x.period_days === null ? t('exclusion.forever') : t('exclusion.days', { n: x.period_days }));
    return h(
      'div',
      {},
      dataTable(
        [
          { label: 'admin.col.period', cell: period },
          { label: 'admin.col.started', cell: (x) => dateTime(x.started_at) },
          { label: 'admin.col.ends', cell: (x) => (x.ends_at ? dateTime(x.ends_at) : '—') },
          { label: 'admin.col.lift_asked', cell: (x) => (x.lift_asked_at ? dateTime(x.lift_asked_at) : '—') },
          {
            label: 'admin.col.status',
            cell: (x) => h('span', { class: x.in_force ? 'minus' : null }, t(x.in_force ? 'admin.exclusion_in_force' : 'admin.exclusion_over')),
          },
        ],
        p.exclusions,
        { 'data-testid': 'exclusions' },
      ),
      answer,
    );
  },

  logins(p) {
    return pagedTable(
      [
        { label: 'admin.col.when', cell: (l) => dateTime(l.at) },
        { label: 'admin.col.address', cell: (l) => l.address || '—' },
        {
          label: 'admin.col.outcome',
          cell: (l) => h('span', { class: l.ok ? 'plus' : 'minus' }, t(l.ok ? 'admin.login_ok' : 'admin.login_refused')),
        },
      ],
      async (before) => {
        const params = new URLSearchParams({ limit: '10' });
        if (before !== null) params.set('before', String(before));
        const r = await get(`/api/admin/players/${p.id}/logins?${params}`);
        return { items: r.logins, next: r.next };
      },
      { testid: 'logins', empty: t('admin.logins_none') },
    );
  },

  ledger(p) {
    return pagedTable(
      [
        { label: 'admin.col.when', cell: (e) => dateTime(e.at) },
        { label: 'admin.col.kind', cell: (e) => (has(`ledger.${e.kind}`) ? t(`ledger.${e.kind}`) : e.kind) },
        { label: 'admin.col.book', cell: (e) => h('code', {}, e.book) },
        { label: 'admin.col.memo', cell: (e) => (e.memo ? targetLink(e.memo) : '') },
        {
          label: 'admin.col.amount',
          cls: 'num',
          cell: (e) => h('span', { class: e.amount_cents >= 0 ? 'plus' : 'minus' }, signedMoney(e.amount_cents, money)),
        },
      ],
      async (before) => {
        const params = new URLSearchParams({ limit: String(PAGE) });
        if (before !== null) params.set('before', String(before));
        const r = await get(`/api/admin/players/${p.id}/ledger?${params}`);
        return { items: r.entries, next: r.next };
      },
      { testid: 'ledger', empty: t('admin.ledger_none') },
    );
  },

  hands(p) {
    return pagedTable(
      [
        { label: 'admin.col.hand', cell: (x) => h('a', { href: `#/hands/${x.id}` }, `#${x.id}`) },
        { label: 'admin.col.game', cell: (x) => h('span', { class: `badge badge-${x.game}` }, t(`game.${x.game}`)) },
        { label: 'admin.col.table', cell: (x) => `#${x.table}` },
        { label: 'admin.col.started', cell: (x) => dateTime(x.started_at) },
        { label: 'admin.col.ended', cell: (x) => (x.ended_at ? dateTime(x.ended_at) : t('admin.unfinished')) },
      ],
      async (before) => {
        const params = new URLSearchParams({ limit: String(PAGE) });
        if (before !== null) params.set('before', String(before));
        const r = await get(`/api/admin/players/${p.id}/hands?${params}`);
        return { items: r.hands, next: r.next };
      },
      { testid: 'player-hands', empty: t('admin.hands_none') },
    );
  },

  /** An admin gives the account another role (with a reason, in the audit log). */
  roleControl(p, admin) {
    const select = h(
      'select',
      { 'aria-label': t('admin.col.role'), 'data-testid': 'role-select' },
      ROLES.map((r) => h('option', { value: r, selected: r === p.role }, roleText(r))),
    );
    const change = async () => {
      const role = select.value;
      if (role === p.role) return;
      const reason = await askReason({
        title: t('admin.role_title', { name: p.username }),
        text: t('admin.role_text', { from: roleText(p.role), to: roleText(role) }),
        confirm: t('admin.role_change'),
        danger: false,
      });
      if (reason === null) {
        select.value = p.role;
        return;
      }
      try {
        await post(`/api/admin/players/${p.id}/role`, { role, reason });
        toast(t('admin.role_set', { name: p.username, role: roleText(role) }), 'ok');
      } catch (e) {
        toast(errorWords(e), 'error');
      }
      admin.go(`/players/${p.id}`);
    };
    return h(
      'span',
      { class: 'role-control' },
      select,
      h('button', { type: 'button', class: 'btn', 'data-testid': 'role-change', onclick: change }, t('admin.role_change')),
    );
  },

  async suspend(p, suspending, admin) {
    const reason = await askReason({
      title: t(suspending ? 'admin.suspend_title' : 'admin.reinstate_title', { name: p.username }),
      text: t(suspending ? 'admin.suspend_text' : 'admin.reinstate_text'),
      confirm: t(suspending ? 'admin.suspend' : 'admin.reinstate'),
      danger: suspending,
    });
    if (reason === null) return;
    try {
      await post(`/api/admin/players/${p.id}/${suspending ? 'suspend' : 'reinstate'}`, { reason });
      toast(t(suspending ? 'admin.suspended' : 'admin.reinstated', { name: p.username }), 'ok');
    } catch (e) {
      toast(errorWords(e), 'error');
    }
    admin.go(`/players/${p.id}`);
  },
};

function section(title, body) {
  return h('section', { class: 'panel admin-section' }, h('h2', { class: 'panel-title' }, t(title)), body);
}
