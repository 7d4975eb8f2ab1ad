// A game table: joins it over the WebSocket, keeps the latest `table` update and hands it to
// the game's view (UNO, UNO CASINO, poker). An update says what changed: the seat list only when
// it changed (the last one is kept), the table's notes not received yet (added to the log).
// The whole table is redrawn from the merged update, so a reconnection (the server sends a
// full update) restores it as the server sees it.
import { get, post, session } from '../api.js';
import { tableName } from '../catalog.js';
import { hands, eventOf } from '../events.js';
import { VIEWS } from '../games/index.js';
import { FairnessLine } from '../fairness.js';
import { LogPanel, leadsEvents, unseenNotes } from '../games/log.js';
import { money, t } from '../i18n.js';
import { speedPicker } from '../motion.js';
import { prefButtons, soundsFor } from '../prefs.js';
import { clear, errorText, fill, h, modal, showError, toast } from '../ui.js';
import { limitWords } from './limits.js';

/** Whether two sentences have the same words (case and punctuation aside). */
function sameWords(a, b) {
  const words = (x) =>
    String(x)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '');
  return words(a) === words(b);
}

/** The table notes that tell where a seat's player is: a loss of connection is followed by one. */
const SEAT_NOTES = new Set(['held', 'back', 'seated', 'left', 'substituted']);

/**
 * Per-table memory that survives a redraw (language switch): the log, the number of the next
 * table note expected and the last update (merged: it always has the seat list).
 */
const memory = new Map();

export default {
  mount(root, { id, watch = false }, app) {
    this.app = app;
    this.id = id;
    this.watchOnly = watch; // #/watch/<id>: a spectator from the start, never seated
    this.view = null;
    this.summary = null;
    this.left = false;
    this.watching = false; // a spectator, until the table says so (a new page: not yet)
    this.root = root;
    root.className = 'page page-table';
    if (!memory.has(id)) memory.set(id, { log: [], noteNext: null, last: null });
    this.mem = memory.get(id);

    this.title = h('h1', { class: 'table-title' }, t('table.title_n', { n: id }));
    this.badge = h('span', { class: 'badge' });
    this.rulesLink = h('a', { class: 'btn btn-ghost btn-small', href: '#/rules/uno' }, t('table.rules'));
    this.leaveBtn = h(
      'button',
      { type: 'button', class: 'btn btn-ghost btn-small', 'data-action': 'leave', onclick: () => this.leave() },
      t('table.leave'),
    );
    this.errorBox = h('p', { class: 'table-error', role: 'alert', hidden: true, 'data-testid': 'table-error' });
    // a spectator (the table had no free seat): the table without a hand
    this.watchBanner = h('p', { class: 'watching-banner', hidden: true, 'data-testid': 'watching-banner' }, t('table.watching'));
    // in the top bar: the hand's seed commitment while it runs, its seed once over
    this.fair = new FairnessLine(this.mem);
    this.body = h('div', { class: 'table-body' }, h('p', { class: 'loading' }, t('table.joining')));
    root.append(
      h(
        'div',
        { class: 'table-top' },
        h('a', { class: 'back', href: '#/lobby' }, `← ${t('nav.lobby')}`),
        this.badge,
        this.title,
        this.fair.el,
        h('span', { class: 'spacer' }),
        // this player's settings (animations, colour-blind mode, sounds) and the table's link
        h(
          'details',
          { class: 'table-menu' },
          h(
            'summary',
            { class: 'btn btn-ghost btn-small', 'data-testid': 'table-menu', title: t('table.settings') },
            h('span', { 'aria-hidden': 'true' }, '⚙'),
            h('span', { class: 'menu-label' }, ` ${t('table.settings')}`),
          ),
          h(
            'div',
            { class: 'table-menu-body' },
            speedPicker(),
            ...prefButtons(),
            h(
              'button',
              {
                type: 'button',
                class: 'btn btn-ghost btn-small',
                'data-action': 'share',
                title: t('table.share_hint'),
                onclick: () => this.share(),
              },
              t('table.share'),
            ),
          ),
        ),
        this.rulesLink,
        this.leaveBtn,
        // a refusal lies over the page's top bar: the table under the pointer does not move
        this.errorBox,
      ),
      this.watchBanner,
      this.body,
    );

    this.moveFor = null; // the state number a move was sent for, until the table answers
    this.ctx = {
      act: (action) => this.move({ type: 'action', state_no: this.stateNo(), action }),
      stake: (amount) => this.move({ type: 'stake', state_no: this.stateNo(), amount }),
      topup: (amount) => this.move({ type: 'topup', amount }),
      start: () => this.send({ type: 'start' }),
      rematch: () => this.rematch(),
      leave: () => this.leave(),
      summary: () => this.summary,
      nameOf: (s) => this.nameOf(s),
      isPerson: (s) => this.isPerson(s),
      lastHands: () => this.lastHands(),
      me: () => app.me,
      refreshMe: () => app.refreshMe(),
      log: null,
    };
    this.ctx.log = new LogPanel(this.mem.log, {
      game: this.mem.last?.game || 'uno',
      me: this.mem.last?.seat ?? null,
      myName: () => session.get()?.username,
      name: (s) => this.nameOf(s),
      person: (s) => this.isPerson(s),
      money,
    });
    this.logCtx = this.ctx.log.ctx;

    this.onMessage = (ev) => this.handle(ev.detail);
    this.onHello = () => this.join();
    // while the connection is down the table is only a picture of the last state: grey it out
    this.onState = () => this.root.classList.toggle('stale', app.socket.state !== 'open');
    app.socket.addEventListener('message', this.onMessage);
    app.socket.addEventListener('hello', this.onHello);
    app.socket.addEventListener('state', this.onState);
    this.onState();
    // the table fills the window below the page's top: its height follows the window's
    this.onResize = () => this.fit();
    window.addEventListener('resize', this.onResize);
    this.loadSummary();
    if (this.mem.last) this.render(this.mem.last);
    if (app.socket.state === 'open') this.join();
  },

  unmount() {
    this.app.socket.removeEventListener('message', this.onMessage);
    this.app.socket.removeEventListener('hello', this.onHello);
    this.app.socket.removeEventListener('state', this.onState);
    window.removeEventListener('resize', this.onResize);
    this.view?.destroy();
    this.view = null;
  },

  async loadSummary() {
    try {
      const tables = await get('/api/tables');
      this.summary = tables.find((x) => x.id === this.id) || null;
    } catch {
      this.summary = null;
    }
    if (!this.summary) {
      if (!this.mem.last)
        fill(
          this.body,
          h('p', { class: 'empty' }, t('table.not_found')),
          h('a', { class: 'btn', href: '#/lobby' }, t('nav.lobby')),
        );
      return;
    }
    this.title.textContent = `${tableName(this.summary)} #${this.id}`;
    this.setGame(this.summary.game);
    if (this.mem.last) this.render(this.mem.last);
  },

  setGame(game) {
    this.badge.className = `badge badge-${game}`;
    this.badge.textContent = t(`game.${game}`);
    this.rulesLink.href = `#/rules/${game}`;
    this.logCtx.game = game;
  },

  join() {
    this.app.socket.send({ type: this.watchOnly ? 'watch' : 'join', table: this.id });
  },

  /** The state number of the table as last drawn. */
  stateNo() {
    return this.mem.last?.state_no ?? 0;
  },

  /**
   * Send a move (an action, a stake, a top-up): one per state of the table. A second one before
   * the table answers the first (a double-click) is not sent: it would be a duplicate, or be
   * refused as out of date. The table's next state, or a refusal, lets the next move go.
   */
  move(msg) {
    if (this.moveFor === this.stateNo()) return true;
    const ok = this.send(msg);
    if (ok) this.moveFor = this.stateNo();
    return ok;
  },

  /** Send a message for this table; false (and a notice) when not connected. */
  send(msg) {
    const ok = this.app.socket.send({ ...msg, table: this.id });
    if (!ok) toast(t('conn.not_connected'), 'error');
    else if (msg.type !== 'join') this.app.activity();
    return ok;
  },

  nameOf(s) {
    const last = this.mem.last;
    const game = last?.game || this.summary?.game;
    if (game === 'casino' && s === 1) return t('casino.bank');
    if (game === 'poker' && s === 1)
      return this.summary?.seats?.[1]?.name && !this.summary.seats[1].bot
        ? this.summary.seats[1].name
        : t('poker.computer');
    const seat = last?.seats?.[s] || this.summary?.seats?.[s];
    if (!seat) return t('seat.n', { n: s + 1 });
    if (seat.bot) return t('seat.bot', { n: s });
    return seat.name || t('seat.n', { n: s + 1 });
  },

  /** Whether a seat is a person's (its name is theirs, shown as typed): not a computer player,
   * the bank or an empty seat. */
  isPerson(s) {
    const game = this.mem.last?.game || this.summary?.game;
    if (game === 'casino' && s === 1) return false; // the bank
    const seat = this.mem.last?.seats?.[s] || this.summary?.seats?.[s];
    return Boolean(seat && !seat.bot && seat.name);
  },

  /**
   * Say that a player who lost the connection is back: the server notes the loss (its `held`
   * note) but not the return, so when a seat whose last note is `held` is connected again (this
   * page's own seat is, as it receives updates) the log says so after it.
   */
  sayBack(msg) {
    const entries = this.mem.log;
    msg.seats.forEach((seat, s) => {
      if (s !== msg.seat && !seat.connected) return;
      for (let i = entries.length - 1; i >= 0; i--) {
        const note = entries[i].kind === 'note' ? entries[i].text : null;
        if (note?.seat !== s || !SEAT_NOTES.has(note.note)) continue;
        if (note.note === 'held') this.ctx.log.add('note', [{ note: 'back', seat: s, name: note.name }]);
        break;
      }
    });
  },

  /** The hands revealed by the last hand_ended event (the cards left), if any. */
  lastHands() {
    for (let i = this.mem.log.length - 1; i >= 0; i--) {
      const e = this.mem.log[i];
      if (e.kind === 'event' && eventOf(e.text).tag === 'hand_ended') return hands(eventOf(e.text).hands);
    }
    return null;
  },

  handle(msg) {
    if (msg.type === 'table' && msg.table === this.id) {
      // the table moved on (or was sent whole, after a reconnection): a move may go again
      if (msg.full || msg.state_no !== this.moveFor) this.moveFor = null;
      // a refusal stays in view until the table moves on (the server redraws the same state)
      if (this.errorState === undefined || msg.state_no > this.errorState) this.errorBox.hidden = true;
      // one timeline: the notes that lead an update's events (a seat taken, a hand started, a
      // time-out naming the move the server made) come before them, the others (a hand over,
      // a session closed) after them
      const fresh = unseenNotes(this.mem, msg);
      const notes = [...(msg.log || []), ...(msg.recent || []).map((r) => r.note)];
      this.fair.take(notes, msg.seat !== null && msg.seat !== undefined);
      let events = [];
      if (msg.full && Array.isArray(msg.recent)) {
        // the server's play-by-play of this seat, in order (this update's events and notes
        // included): a reload or a second device shows the same log
        this.ctx.log.replace(msg.recent.map((r) => (r.event ? { kind: 'event', text: r.event } : { kind: 'note', text: r.note })));
        fresh.length = 0;
      } else if (msg.events?.length) {
        events = msg.events;
      }
      const leading = fresh.filter(leadsEvents);
      if (leading.length) this.ctx.log.add('note', leading);
      if (events.length) this.ctx.log.add('event', events);
      const trailing = fresh.filter((n) => !leadsEvents(n));
      if (trailing.length) this.ctx.log.add('note', trailing);
      // no seat list: it did not change since the last update
      if (!msg.seats) msg = { ...msg, seats: this.mem.last?.seats ?? this.summary?.seats ?? [] };
      if ((msg.seat === null || msg.seat === undefined) && !msg.watching) {
        this.farewell(msg);
        return;
      }
      this.watching = Boolean(msg.watching);
      this.watchBanner.hidden = !this.watching;
      this.sayBack(msg);
      const credit = this.mem.last?.view?.credit;
      soundsFor(msg, this.mem.last);
      this.mem.last = msg;
      this.render(msg);
      // the casino credit moved (top-up, stake, payout): the wallet balance did too
      if (msg.game === 'casino' && msg.view?.credit !== credit)
        this.app.refreshMe().then(() => this.view?.meChanged?.());
    } else if (msg.type === 'notice') {
      this.view?.notice?.(msg);
    } else if (msg.type === 'error' && (msg.table === this.id || msg.table === null || msg.table === undefined)) {
      if (msg.code === 'table_full' && !this.watching) {
        // no free seat: watch the table instead (a shared link to a full table)
        this.send({ type: 'watch' });
        return;
      }
      this.moveFor = null; // refused: the player may try again
      const text = errorText(msg.code, msg.message, limitWords(msg));
      if (msg.code === 'table_full' || msg.code === 'no_table') {
        // the page has no table to show: it says why, once, in its place
        this.errorBox.hidden = true;
        fill(this.body, h('p', { class: 'empty' }, text), h('a', { class: 'btn', href: '#/lobby' }, t('nav.lobby')));
        return;
      }
      this.errorState = msg.state_no ?? this.mem.last?.state_no ?? 0;
      this.errorBox.hidden = false;
      fill(
        this.errorBox,
        h('strong', {}, text),
        // the server's own words underneath, unless they only say the same
        msg.message && !sameWords(text, msg.message) ? h('span', { class: 'muted' }, ` — ${msg.message}`) : '',
        h(
          'button',
          {
            type: 'button',
            class: 'btn btn-ghost btn-small table-error-close',
            'aria-label': t('common.close'),
            onclick: () => (this.errorBox.hidden = true),
          },
          '×',
        ),
      );
      this.errorBox.dataset.code = msg.code;
      this.view?.unlock();
    }
  },

  render(msg) {
    if (!this.view || this.view.game !== msg.game) {
      this.view?.destroy();
      clear(this.body);
      this.setGame(msg.game);
      const View = VIEWS[msg.game];
      if (!View) {
        this.body.append(h('p', { class: 'empty' }, t('table.unknown_game', { game: msg.game })));
        return;
      }
      this.view = new View(this.body, this.ctx);
      this.view.game = msg.game;
    }
    this.logCtx.me = msg.seat;
    // the state number on the page: tests (and curious people) can tell when the table moved
    this.root.dataset.state = String(msg.state_no);
    this.root.dataset.game = msg.game;
    this.leaveBtn.textContent = this.leaveLabel(msg.game);
    this.view.update(msg);
    this.ctx.log.render();
    this.fit();
  },

  /**
   * The table (its felt, the player's hand and buttons) is as tall as the
   * window below the table's top, so every decision is in view without scrolling; the CSS
   * lays the table out in `--table-h` (what comes after it, a narrow screen's log, scrolls).
   */
  fit() {
    const top = this.body.getBoundingClientRect().top + window.scrollY;
    const bottom = parseFloat(getComputedStyle(document.getElementById('app') ?? document.body).paddingBottom) || 0;
    this.root.style.setProperty('--table-h', `${Math.max(260, Math.floor(window.innerHeight - top - bottom))}px`);
  },

  /** The table's address, to send to a friend: it opens this table (after signing in). */
  shareLink() {
    return `${location.origin}${location.pathname}#/table/${this.id}`;
  },

  async share() {
    const link = this.shareLink();
    this.root.dataset.shared = link;
    try {
      await navigator.clipboard.writeText(link);
      toast(t('table.share_copied'), 'info');
    } catch {
      // no clipboard here (an insecure origin, a refusal): show the link to copy by hand
      await modal({
        title: t('table.share'),
        body: h('input', { type: 'text', readonly: true, value: link, class: 'share-link', 'data-testid': 'share-link' }),
        choices: [],
      });
    }
  },

  /** A rematch: a new table for this match's players, where this player sits down now. */
  async rematch() {
    try {
      const row = await post(`/api/tables/${this.id}/rematch`);
      this.app.go(`/table/${row.id}`);
    } catch (e) {
      showError(e.code, e.message);
    }
  },

  /** The words of the way out: closing a casino session, leaving a table, or stop watching. */
  leaveLabel(game) {
    if (this.watching) return t('table.stop_watching');
    return game === 'casino' ? t('casino.close_session') : t('table.leave');
  },

  async leave() {
    if (this.watching) {
      this.send({ type: 'leave' });
      this.watching = false;
      this.app.go('/lobby');
      return;
    }
    const game = this.mem.last?.game || this.summary?.game;
    const playing = this.mem.last?.view && !this.mem.last.view.result && this.mem.last.status === 'playing';
    const text =
      game === 'casino'
        ? t('casino.leave_confirm')
        : playing
          ? t('table.leave_confirm_playing')
          : t('table.leave_confirm');
    // the dialog asks in the words of the button that opened it
    const words = this.leaveLabel(game);
    const ok = await modal({
      title: words,
      body: h('p', {}, text),
      choices: [{ label: words, value: true, class: 'btn btn-warn', attrs: { 'data-action': 'confirm-leave' } }],
    });
    if (!ok) return;
    if (!this.send({ type: 'leave' })) {
      // not connected: the REST endpoint does the same
      try {
        await post(`/api/tables/${this.id}/leave`);
        this.farewell(null);
      } catch (e) {
        showError(e.code, e.message);
      }
    }
  },

  /** We are no longer seated: say what happened (e.g. the casino credit paid back). */
  farewell(msg) {
    this.left = true;
    this.leaveBtn.hidden = true; // nothing left to leave
    this.view?.destroy();
    this.view = null;
    memory.delete(this.id);
    const closed = (msg?.events || []).map(eventOf).find((e) => e.tag === 'session_closed');
    this.app.refreshMe();
    fill(
      this.body,
      h(
        'div',
        { class: 'result-card farewell', 'data-testid': 'farewell' },
        h('h2', {}, t('table.left_title')),
        closed
          ? h('p', { class: 'big' }, t('casino.session_closed', { amount: money(Number(closed.credited)) }))
          : null,
        h(
          'div',
          { class: 'result-actions' },
          h('a', { class: 'btn btn-primary', href: '#/lobby' }, t('nav.lobby')),
          h('a', { class: 'btn', href: '#/wallet' }, t('nav.wallet')),
        ),
      ),
      this.ctx.log.el,
    );
  },
};
