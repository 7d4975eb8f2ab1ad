// The back-office console (/admin): its header, hash router, log-in form and the answer to an
// account without a back-office role. It shares the player client's session, REST calls, words
// and styles; every page asks the server, which refuses a player's token on every route.
import { ApiError, get, onUnauthorized, post, session } from '../api.js';
import { LANGS, getLang, setLang, t } from '../i18n.js';
import { add, clear, errorText, field, h, toast } from '../ui.js';
import { PERM, can, onExpired } from './common.js';
import './messages.js';
import auditPage from './audit.js';
import gamesPage from './games.js';
import handsPage from './hands.js';
import moneyPage from './money.js';
import { accountPage, playersPage } from './players.js';
import reportsPage from './reports.js';
import rtpPage from './rtp.js';
import tablesPage from './tables.js';

const any =
  (...perms) =>
  (me) =>
    perms.some((p) => can(me, p));

/** Pages: hash path -> page; `nav` puts it in the header; `allowed(me)` says who may open it. */
const ROUTES = [
  { re: /^\/players$/, page: playersPage, nav: 'players', allowed: any(PERM.players) },
  {
    re: /^\/players\/(\d+)$/,
    page: accountPage,
    allowed: any(PERM.players),
    params: (m) => ({ id: Number(m[1]) }),
  },
  { re: /^\/tables$/, page: tablesPage, nav: 'tables', allowed: any(PERM.tables) },
  {
    re: /^\/hands(?:\/(\d+))?$/,
    page: handsPage,
    nav: 'hands',
    allowed: any(PERM.hands),
    params: (m) => ({ id: m[1] ? Number(m[1]) : null }),
  },
  { re: /^\/money$/, page: moneyPage, nav: 'money', allowed: any(PERM.adjust, PERM.approve, PERM.players) },
  { re: /^\/games$/, page: gamesPage, nav: 'games', allowed: any(PERM.games, PERM.tables) },
  { re: /^\/reports$/, page: reportsPage, nav: 'reports', allowed: any(PERM.reports) },
  { re: /^\/rtp$/, page: rtpPage, nav: 'rtp', allowed: any(PERM.rtp) },
  { re: /^\/audit$/, page: auditPage, nav: 'audit', allowed: any(PERM.audit) },
];

/** Things every page may reach. */
export const admin = {
  me: null, // GET /api/admin/me: {id, username, role, permissions}
  refused: false, // the server said this account has no back-office role
  current: null, // {page, params}
  go(path) {
    if (location.hash === `#${path}`) route();
    else location.hash = path;
  },
  can(perm) {
    return can(this.me, perm);
  },
  async logout() {
    try {
      await post('/api/logout');
    } catch {
      /* the token may already be gone */
    }
    this.forget();
  },
  /** Drop the session and show the log-in form. */
  forget() {
    session.clear();
    this.me = null;
    this.refused = false;
    route();
  },
};
// A handle for people and tests poking at the page from the console.
window.mazziereAdmin = admin;

// ------------------------------------------------------------------------------- header
function renderTopbar() {
  const bar = document.getElementById('topbar');
  clear(bar);
  const path = location.hash.slice(1).split('?')[0] || '/';
  const me = admin.me;
  const nav = me
    ? h(
        'nav',
        { class: 'nav admin-nav', 'aria-label': t('nav.label') },
        ROUTES.filter((r) => r.nav && r.allowed(me)).map((r) =>
          h(
            'a',
            {
              href: `#/${r.nav}`,
              class: path.startsWith(`/${r.nav}`) ? 'active' : null,
              'aria-current': path === `/${r.nav}` ? 'page' : null,
              'data-testid': `nav-${r.nav}`,
            },
            t(`admin.nav.${r.nav}`),
          ),
        ),
      )
    : null;
  const langs = h(
    'div',
    { class: 'lang', role: 'group', 'aria-label': t('nav.language') },
    LANGS.map((l) =>
      h(
        'button',
        {
          type: 'button',
          class: 'lang-btn',
          'aria-pressed': String(getLang() === l),
          'data-lang': l,
          onclick: () => setLang(l),
        },
        l.toUpperCase(),
      ),
    ),
  );
  const s = session.get();
  const user = s
    ? h(
        'div',
        { class: 'user' },
        h('span', { class: 'user-name', 'data-testid': 'username' }, s.username),
        me ? h('span', { class: `role role-${me.role}`, 'data-testid': 'role' }, t(`admin.role.${me.role}`)) : null,
        h(
          'button',
          { type: 'button', class: 'btn btn-ghost btn-small', 'data-testid': 'logout', onclick: () => admin.logout() },
          t('nav.logout'),
        ),
      )
    : null;
  add(
    bar,
    h(
      'a',
      { class: 'brand', href: '#/' },
      h('img', { src: '../img/favicon.svg', alt: '', width: 28, height: 28 }),
      h('span', {}, 'Mazziere'),
      h('span', { class: 'brand-sub' }, t('admin.title')),
    ),
    nav,
    h('div', { class: 'topbar-right' }, user, langs),
  );
}

// ------------------------------------------------------------------------------- log in, refused
const loginPage = {
  mount(root) {
    root.className = 'page admin-login';
    const user = h('input', { name: 'username', autocomplete: 'username', required: true, maxlength: 64, 'data-testid': 'auth-username' });
    const pass = h('input', {
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      required: true,
      maxlength: 256,
      'data-testid': 'auth-password',
    });
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'auth-error' });
    const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-wide', 'data-testid': 'auth-submit' }, t('auth.login'));
    const form = h(
      'form',
      { class: 'card-panel auth-form', novalidate: true },
      h('h1', {}, t('admin.login_title')),
      h('p', { class: 'hint' }, t('admin.login_lead')),
      field(t('auth.username'), user),
      field(t('auth.password'), pass),
      error,
      submit,
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      if (!user.value.trim() || !pass.value) {
        error.textContent = t('auth.fill_in');
        return;
      }
      submit.disabled = true;
      try {
        const res = await post('/api/login', { username: user.value.trim(), password: pass.value });
        session.set({ token: res.token, username: res.username, account: res.account });
        await route();
      } catch (err) {
        error.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
      } finally {
        submit.disabled = false;
      }
    });
    root.append(h('section', { class: 'admin-login-wrap' }, form));
    user.focus();
  },
};

const refusedPage = {
  mount(root) {
    root.className = 'page admin-refused';
    root.append(
      h(
        'section',
        { class: 'card-panel admin-refused-box', 'data-testid': 'not-allowed' },
        h('h1', {}, t('admin.not_allowed')),
        h('p', {}, t('admin.not_allowed_text', { name: session.get()?.username || '' })),
        h(
          'div',
          { class: 'result-actions' },
          h('button', { type: 'button', class: 'btn btn-primary', onclick: () => admin.logout() }, t('admin.other_account')),
          h('a', { class: 'btn', href: '../' }, t('admin.player_site')),
        ),
      ),
    );
  },
};

/** A page the role may not open (a link from someone with more rights). */
const notForRolePage = {
  mount(root) {
    root.className = 'page admin-refused';
    root.append(
      h(
        'section',
        { class: 'card-panel admin-refused-box', 'data-testid': 'not-for-role' },
        h('h1', {}, t('admin.not_allowed')),
        h('p', {}, t('admin.not_for_role', { role: t(`admin.role.${admin.me.role}`) })),
      ),
    );
  },
};

// ------------------------------------------------------------------------------- router
/** Who is logged in, by the server's word: null when the token is gone, else `me` or refused. */
async function loadMe() {
  try {
    admin.me = await get('/api/admin/me');
    admin.refused = false;
  } catch (e) {
    admin.me = null;
    if (e instanceof ApiError && e.status === 403) admin.refused = true;
    else if (e instanceof ApiError && e.status === 401) session.clear();
    else {
      toast(errorText(e.code, e.message), 'error');
      throw e;
    }
  }
}

async function route() {
  if (!session.get()) {
    admin.me = null;
    admin.refused = false;
    mount(loginPage, {});
    return;
  }
  if (!admin.me && !admin.refused) await loadMe();
  if (!session.get()) {
    mount(loginPage, {});
    return;
  }
  if (admin.refused) {
    mount(refusedPage, {});
    return;
  }
  const path = location.hash.slice(1).split('?')[0] || '/';
  let found = null;
  let match = null;
  for (const r of ROUTES) {
    match = r.re.exec(path);
    if (match) {
      found = r;
      break;
    }
  }
  if (!found) {
    const first = ROUTES.find((r) => r.nav && r.allowed(admin.me));
    if (first) admin.go(`/${first.nav}`);
    else mount(notForRolePage, {});
    return;
  }
  if (!found.allowed(admin.me)) {
    mount(notForRolePage, {});
    return;
  }
  mount(found.page, found.params ? found.params(match) : {});
}

function mount(page, params) {
  const root = document.getElementById('app');
  if (admin.current?.page?.unmount) admin.current.page.unmount();
  clear(root);
  root.className = '';
  // the page's path on the page: tests (and curious people) can tell which page is drawn
  root.dataset.path = location.hash.slice(1).split('?')[0] || '/';
  admin.current = { page, params };
  renderTopbar();
  page.mount(root, params, admin);
}

window.addEventListener('hashchange', route);
window.addEventListener('langchange', () => {
  if (admin.current) mount(admin.current.page, admin.current.params);
  else renderTopbar();
});
const ended = () => {
  if (!session.get()) return;
  toast(t('auth.expired'), 'info');
  admin.forget();
};
onUnauthorized(ended);
onExpired(ended);

route();
