// The single-page client: header, hash router, the shared WebSocket and its notices.
import { get, onUnauthorized, post, session } from './api.js';
import { LANGS, dateTime, getLang, money, setLang, t } from './i18n.js';
import authPage from './pages/auth.js';
import exclusionPage from './pages/exclusion.js';
import historyPage from './pages/history.js';
import leaderboardsPage from './pages/leaderboards.js';
import limitsPage, { askForLimits, realityCheck } from './pages/limits.js';
import lobbyPage from './pages/lobby.js';
import playerPage from './pages/player.js';
import rulesPage from './pages/rules.js';
import tablePage from './pages/table.js';
import walletPage from './pages/wallet.js';
import { applyPrefs } from './prefs.js';
import { GameSocket } from './socket.js';
import { add, clear, h, modal, showError, toast } from './ui.js';

/** Routes: hash path -> page; `auth: true` pages need a logged-in player. */
const ROUTES = [
  { re: /^\/?$/, page: authPage, auth: false },
  { re: /^\/login$/, page: authPage, auth: false },
  { re: /^\/lobby$/, page: lobbyPage, auth: true },
  { re: /^\/table\/(\d+)$/, page: tablePage, auth: true, params: (m) => ({ id: Number(m[1]) }) },
  // a table watched without taking a seat (the back office's link to a live table)
  { re: /^\/watch\/(\d+)$/, page: tablePage, auth: true, params: (m) => ({ id: Number(m[1]), watch: true }) },
  { re: /^\/history$/, page: historyPage, auth: true, params: () => ({}) },
  { re: /^\/history\/(\d+)$/, page: historyPage, auth: true, params: (m) => ({ hand: Number(m[1]) }) },
  { re: /^\/wallet$/, page: walletPage, auth: true },
  { re: /^\/limits$/, page: limitsPage, auth: true },
  // self-exclusion when logged in; the lift of an endless one when not
  { re: /^\/exclusion$/, page: exclusionPage, auth: false },
  { re: /^\/rules\/(uno|casino|poker)$/, page: rulesPage, auth: false, params: (m) => ({ game: m[1] }) },
  { re: /^\/leaderboards$/, page: leaderboardsPage, auth: false },
  { re: /^\/players\/([^/]+)$/, page: playerPage, auth: false, params: (m) => ({ name: decodeURIComponent(m[1]) }) },
];

/** Things every page may reach. */
export const app = {
  socket: new GameSocket(() => session.get()?.token),
  me: null, // {account, username, balance}
  current: null, // {page, params}
  go(path) {
    if (location.hash === `#${path}`) route();
    else location.hash = path;
  },
  async refreshMe() {
    if (!session.get()) return null;
    try {
      this.me = await get('/api/me');
    } catch {
      this.me = null;
    }
    renderTopbar();
    return this.me;
  },
  async login(result) {
    excluded = null;
    session.set({ token: result.token, username: result.username, account: result.account });
    this.socket.retryNow();
    await this.refreshMe();
  },
  /**
   * The table this player sits at where a game is going on (a UNO match or a poker game being
   * played, a casino session), if any: the site opens there.
   */
  async liveTable() {
    const me = session.get()?.username;
    if (!me) return null;
    let tables;
    try {
      tables = await get('/api/tables');
    } catch {
      return null;
    }
    const mine = tables.filter((tb) => tb.seats.some((s) => !s.bot && s.name === me));
    const live = mine.find((tb) => tb.status === 'playing') || mine.find((tb) => tb.game === 'casino');
    return live ? live.id : null;
  },
  /**
   * The player excluded themselves (here, `until` from the server's answer: null is without
   * end; or in another window, `words` from the socket's notice): logged out, the end named.
   */
  selfExcluded(until = undefined, words = '') {
    excluded = { until, words: words || excluded?.words || '' };
    this.socket.stop();
    session.clear();
    this.me = null;
    renderTopbar();
    renderConnection();
    this.go('/login');
  },
  async logout() {
    try {
      await post('/api/logout');
    } catch {
      /* the token may already be gone */
    }
    this.socket.stop();
    session.clear();
    this.me = null;
    renderTopbar();
    this.go('/login');
  },
};
// A handle for people and tests poking at the page from the console.
window.mazziere = app;
applyPrefs();

// ------------------------------------------------------------------------------- header
function renderTopbar() {
  const bar = document.getElementById('topbar');
  clear(bar);
  const s = session.get();
  const path = location.hash.slice(1) || '/';
  const link = (href, label, extra = {}) =>
    h(
      'a',
      {
        href: `#${href}`,
        class: path.startsWith(href) ? 'active' : null,
        'aria-current': path === href ? 'page' : null,
        ...extra,
      },
      label,
    );
  const nav = h(
    'nav',
    { class: 'nav', 'aria-label': t('nav.label') },
    s ? link('/lobby', t('nav.lobby')) : null,
    s ? link('/history', t('nav.history')) : null,
    s ? link('/wallet', t('nav.wallet'), { 'data-testid': 'nav-wallet' }) : null,
    s ? link('/limits', t('limits.nav'), { 'data-testid': 'nav-limits' }) : null,
    link('/leaderboards', t('nav.leaderboards'), { 'data-testid': 'nav-leaderboards' }),
    h(
      'span',
      { class: 'nav-rules' },
      h('span', { class: 'nav-rules-label' }, `${t('nav.rules')}:`),
      link('/rules/uno', 'UNO'),
      link('/rules/casino', 'CASINO'),
      link('/rules/poker', t('nav.poker')),
    ),
  );
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
  const user = s
    ? h(
        'div',
        { class: 'user' },
        h('span', { class: 'user-name', 'data-testid': 'username' }, s.username),
        app.me
          ? h(
              'span',
              { class: 'user-balance', title: t('wallet.balance'), 'data-testid': 'balance' },
              money(app.me.balance),
            )
          : null,
        h('button', { type: 'button', class: 'btn btn-ghost btn-small', onclick: () => app.logout() }, t('nav.logout')),
      )
    : null;
  add(
    bar,
    h(
      'a',
      { class: 'brand', href: s ? '#/lobby' : '#/login' },
      h('img', { src: 'img/favicon.svg', alt: '', width: 28, height: 28 }),
      h('span', {}, 'Mazziere'),
    ),
    nav,
    h('div', { class: 'topbar-right' }, user, langs),
  );
}

// ------------------------------------------------------------------------------- connection notice
let connTicker = null;
/** Set once the player excluded themselves: {until, words}; the notice stays until a login. */
let excluded = null;
function excludedText() {
  if (excluded.until) return t('conn.self_excluded', { date: dateTime(excluded.until) });
  if (excluded.until === null) return t('conn.self_excluded_forever');
  return t('conn.self_excluded_other');
}
function renderConnection() {
  const box = document.getElementById('conn');
  const sock = app.socket;
  clearInterval(connTicker);
  clear(box);
  box.className = 'conn';
  const show = (kind, text, button = null) => {
    box.hidden = false;
    box.dataset.state = kind;
    box.classList.add(`conn-${kind}`);
    add(box, h('span', { class: 'conn-text', 'data-testid': 'conn-text' }, text));
    if (button) add(box, button);
  };
  const retry = h(
    'button',
    { type: 'button', class: 'btn btn-small', onclick: () => sock.retryNow() },
    t('conn.retry'),
  );
  if (excluded) {
    show('self_excluded', excludedText());
    if (excluded.words && excluded.until === undefined) add(box, h('small', { class: 'conn-detail' }, excluded.words));
    return;
  }
  switch (sock.state) {
    case 'self_excluded':
      app.selfExcluded(undefined, sock.closingWords);
      break;
    case 'reconnecting': {
      const text = () => {
        const secs = Math.max(0, Math.ceil(((sock.nextRetryAt || Date.now()) - Date.now()) / 1000));
        return t('conn.reconnecting', { n: sock.attempt, s: secs });
      };
      show('reconnecting', text(), retry);
      connTicker = setInterval(() => {
        const el = box.querySelector('.conn-text');
        if (el) el.textContent = text();
      }, 500);
      break;
    }
    case 'disconnected':
      show('disconnected', t('conn.disconnected'), retry);
      break;
    case 'replaced':
      show(
        'replaced',
        t('conn.replaced'),
        h('button', { type: 'button', class: 'btn btn-small', onclick: () => sock.retryNow() }, t('conn.take_back')),
      );
      break;
    case 'inactive':
      show('inactive', t('conn.inactive'), retry);
      break;
    case 'unauthorized':
      session.clear();
      app.me = null;
      renderTopbar();
      box.hidden = true;
      app.go('/login');
      break;
    default:
      box.hidden = true;
      delete box.dataset.state;
  }
}

app.socket.addEventListener('state', renderConnection);
app.socket.addEventListener('message', (ev) => {
  const msg = ev.detail;
  if (msg.type === 'reality_check') realityCheck(msg, app);
  else if (msg.type === 'notice') {
    if (msg.kind === 'rematch') rematchAsked(msg);
    else if (msg.kind === 'inactivity_warning') inactivityWarning();
    // replaced, inactivity and self_excluded have their own notice (renderConnection)
    else if (!['replaced', 'inactivity', 'self_excluded'].includes(msg.kind)) toast(msg.message, 'info');
  }
});

/** Another player of a match asked for its rematch: sit at the new table, or not. */
async function rematchAsked(msg) {
  const go = await modal({
    title: t('rematch.title'),
    body: h('p', {}, t('rematch.asked', { who: msg.by || t('rematch.someone') })),
    choices: [{ label: t('rematch.join'), value: true, class: 'btn btn-primary', attrs: { 'data-action': 'join-rematch' } }],
  });
  if (!go) return;
  try {
    await post(`/api/tables/${msg.table}/join`);
    app.go(`/table/${msg.table}`);
  } catch (e) {
    showError(e.code, e.message);
  }
}

/** 000: a minute before the 20-minute disconnection; any game action clears it. */
function inactivityWarning() {
  const box = document.getElementById('conn');
  clear(box);
  box.hidden = false;
  box.className = 'conn conn-warning';
  box.dataset.state = 'inactivity_warning';
  const until = Date.now() + 60_000;
  const text = h('span', { class: 'conn-text', 'data-testid': 'conn-text' });
  const tick = () => {
    text.textContent = t('conn.inactivity_warning', { s: Math.max(0, Math.ceil((until - Date.now()) / 1000)) });
  };
  tick();
  clearInterval(connTicker);
  connTicker = setInterval(tick, 1000);
  add(
    box,
    text,
    h('button', { type: 'button', class: 'btn btn-small', onclick: () => renderConnection() }, t('common.ok')),
  );
}
/** Pages call this after a game action: the server restarted its inactivity clock. */
app.activity = () => {
  if (document.getElementById('conn').dataset.state === 'inactivity_warning') renderConnection();
};

// ------------------------------------------------------------------------------- router
async function route() {
  const path = location.hash.slice(1) || '/';
  let match = null;
  let found = null;
  for (const r of ROUTES) {
    match = r.re.exec(path);
    if (match) {
      found = r;
      break;
    }
  }
  if (!found) {
    app.go(session.get() ? '/lobby' : '/login');
    return;
  }
  if (found.auth && !session.get()) {
    sessionStorage.setItem('mazziere.after_login', path);
    app.go('/login');
    return;
  }
  if (found.page === authPage && session.get()) {
    app.go('/lobby');
    return;
  }
  mount(found.page, found.params ? found.params(match) : {});
}

function mount(page, params) {
  const root = document.getElementById('app');
  if (app.current?.page?.unmount) app.current.page.unmount();
  clear(root);
  root.className = '';
  app.current = { page, params };
  renderTopbar();
  page.mount(root, params, app);
}

window.addEventListener('hashchange', route);
window.addEventListener('langchange', () => {
  // redraw everything in the new language; pages keep their own state across a remount
  renderTopbar();
  renderConnection();
  if (app.current) mount(app.current.page, app.current.params);
});
onUnauthorized(() => {
  if (!session.get()) return;
  session.clear();
  app.socket.stop();
  app.me = null;
  toast(t('auth.expired'), 'info');
  app.go('/login');
});

// boot
if (session.get()) {
  app.socket.start();
  app.refreshMe();
  askForLimits(); // a page reloaded before the limits question was answered asks it again
}
renderTopbar();
route();
// opening the site while seated at a live table goes straight back to it
if (session.get() && ['', '/', '/lobby', '/login'].includes(location.hash.slice(1))) {
  app.liveTable().then((id) => {
    const path = location.hash.slice(1);
    if (id !== null && ['', '/', '/lobby', '/login'].includes(path)) app.go(`/table/${id}`);
  });
}
