// The one WebSocket per player (docs/protocol.md): connects, logs in with its first message (the
// session token never goes in the URL), retries with back-off for about two minutes after a loss,
// and reports its state to the page.
import { PING_MS, RECONNECT_FACTOR, RECONNECT_FIRST_MS, RECONNECT_MAX_MS, RECONNECT_WINDOW_MS } from './config.js';

/** Close codes of the protocol (4000-4999 are the application's). */
export const CLOSE = {
  REPLACED: 4001,
  INACTIVE: 4002,
  UNAUTHORIZED: 4003,
  SHUTDOWN: 4004,
  LOGGED_OUT: 4005,
  EXPIRED: 4006,
  SILENT: 4007,
  SUSPENDED: 4008,
  SELF_EXCLUDED: 4009,
};

/**
 * States: 'idle' (not started), 'connecting', 'open', 'reconnecting' (lost, retrying),
 * 'disconnected' (gave up after the retry window), 'replaced' (another login took over),
 * 'inactive' (closed for inactivity), 'unauthorized' (token refused), 'self_excluded' (the
 * player excluded themselves: closingWords holds the server's notice).
 *
 * Events (EventTarget): 'message' (detail: the parsed message), 'state' (detail: the state),
 * 'hello' (detail: the hello message; on every (re)connection).
 */
export class GameSocket extends EventTarget {
  constructor(getToken) {
    super();
    this.getToken = getToken;
    this.ws = null;
    this.state = 'idle';
    this.attempt = 0;
    this.lostAt = null;
    this.nextRetryAt = null;
    this.retryTimer = null;
    this.pingTimer = null;
    this.opened = false;
    this.closingFor = null;
    /** The retry window; tests may shorten it (window.mazziere.socket.retryWindowMs). */
    this.retryWindowMs = RECONNECT_WINDOW_MS;
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return new URL('ws', `${proto}//${location.host}${location.pathname}`).toString();
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatchEvent(new CustomEvent('state', { detail: state }));
  }

  /** Connect (again); a no-op while a connection is open or being made. */
  start() {
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) {
      return;
    }
    clearTimeout(this.retryTimer);
    if (this.state !== 'reconnecting') this.setState('connecting');
    this.opened = false;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.lost();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.opened = true;
      ws.send(JSON.stringify({ v: 1, type: 'auth', token: this.getToken() || '' }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      // the notice comes just before the close: remember why, in case a proxy loses the code
      if (msg.type === 'notice' && (msg.kind === 'replaced' || msg.kind === 'inactivity')) this.closingFor = msg.kind;
      if (msg.type === 'notice' && msg.kind === 'self_excluded') {
        this.closingFor = msg.kind;
        this.closingWords = msg.message; // the server's words, naming the end
      }
      if (msg.type === 'hello') {
        // accepted: the connection is good again
        this.attempt = 0;
        this.lostAt = null;
        this.setState('open');
        this.startPing();
        this.dispatchEvent(new CustomEvent('hello', { detail: msg }));
      }
      this.dispatchEvent(new CustomEvent('message', { detail: msg }));
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return; // an old socket we replaced
      this.ws = null;
      this.stopPing();
      const why = this.closingFor;
      this.closingFor = null;
      if (ev.code === CLOSE.REPLACED || why === 'replaced') this.setState('replaced');
      else if (ev.code === CLOSE.INACTIVE || why === 'inactivity') this.setState('inactive');
      else if (ev.code === CLOSE.SELF_EXCLUDED || why === 'self_excluded') this.setState('self_excluded');
      else if (ev.code === CLOSE.UNAUTHORIZED || ev.code === CLOSE.EXPIRED || ev.code === CLOSE.LOGGED_OUT)
        this.setState('unauthorized');
      else if (this.state === 'stopped') return;
      else this.lost();
    };
  }

  /** The connection dropped (or could not be made): retry with back-off within the window. */
  lost() {
    const now = Date.now();
    if (this.lostAt === null) this.lostAt = now;
    if (now - this.lostAt >= this.retryWindowMs) {
      this.nextRetryAt = null;
      this.setState('disconnected');
      return;
    }
    const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * RECONNECT_FACTOR ** this.attempt);
    const jitter = 0.85 + Math.random() * 0.3;
    // never wait past the end of the window: the last try happens at its edge
    const delay = Math.max(200, Math.min(base * jitter, this.lostAt + this.retryWindowMs - now));
    this.attempt += 1;
    this.nextRetryAt = now + delay;
    const was = this.state;
    this.setState('reconnecting');
    // already reconnecting: tell listeners anyway (the attempt number and the delay changed)
    if (was === 'reconnecting') this.dispatchEvent(new CustomEvent('state', { detail: this.state }));
    this.retryTimer = setTimeout(() => this.start(), delay);
  }

  /** Try again now (the "reconnect" button after a final notice). */
  retryNow() {
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.lostAt = null;
    this.setState('connecting');
    this.start();
  }

  /** Close on purpose (log out): no retries. */
  stop() {
    clearTimeout(this.retryTimer);
    this.stopPing();
    this.setState('stopped');
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000, 'bye');
    }
  }

  /** Send a message (the protocol version is added); false when not connected. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.state !== 'open') return false;
    this.ws.send(JSON.stringify({ v: 1, ...msg }));
    return true;
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), PING_MS);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}
