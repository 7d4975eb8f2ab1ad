// REST calls to the server (/api/...) with the session token, and the stored session.

const SESSION_KEY = 'mazziere.session';

/** A refused request: the server's typed error (code + sentence). */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export const session = {
  /** {token, username, account} or null */
  get() {
    try {
      return JSON.parse(localStorage.getItem(SESSION_KEY) || 'null');
    } catch {
      return null;
    }
  },
  set(value) {
    localStorage.setItem(SESSION_KEY, JSON.stringify(value));
  },
  clear() {
    localStorage.removeItem(SESSION_KEY);
  },
};

/** Listeners called when the server says the token is no longer valid. */
const unauthorizedListeners = new Set();
export function onUnauthorized(fn) {
  unauthorizedListeners.add(fn);
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  const s = session.get();
  if (s?.token) headers.Authorization = `Bearer ${s.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError('network', e.message || 'network error', 0);
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text };
    }
  }
  if (!res.ok) {
    let code = data?.code || `http_${res.status}`;
    let message = data?.message || res.statusText;
    // FastAPI's request validation: {"detail": [{"loc": [...], "msg": "..."}]}
    if (Array.isArray(data?.detail)) {
      code = 'bad_request';
      message = data.detail.map((d) => `${(d.loc || []).slice(1).join('.')}: ${d.msg}`).join('; ');
    }
    if (res.status === 401) unauthorizedListeners.forEach((fn) => fn());
    const err = new ApiError(code, message, res.status);
    err.data = data; // the refusal's other fields (an exclusion's end: `until`)
    throw err;
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body = {}) => api('POST', path, body);
