// Translations: one dictionary per language; every UI string is looked up here by key. The
// shared words come from messages.js; each game's folder (games/<game>/messages.js) registers its
// own with register() when imported. Values may hold {name} placeholders; a few are arrays (rules
// text).
import * as shared from './messages.js';

export const DICTS = { en: { ...shared.en }, it: { ...shared.it } };
export const LANGS = ['it', 'en'];
const KEY = 'mazziere.lang';

function initialLang() {
  const saved = localStorage.getItem(KEY);
  if (saved && DICTS[saved]) return saved;
  return (navigator.language || 'en').toLowerCase().startsWith('it') ? 'it' : 'en';
}

let lang = initialLang();
document.documentElement.lang = lang;

/** Merge a table of messages ({en: {...}, it: {...}}) into the dictionaries (a game's words). */
export function register(tables) {
  for (const [code, dict] of Object.entries(tables)) Object.assign((DICTS[code] ??= {}), dict);
}

export function getLang() {
  return lang;
}

/** Switch the language; listeners of the 'langchange' window event redraw. */
export function setLang(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  localStorage.setItem(KEY, next);
  document.documentElement.lang = next;
  window.dispatchEvent(new CustomEvent('langchange', { detail: next }));
}

/** Whether a key exists (in the current language or in English). */
export function has(key) {
  return key in DICTS[lang] || key in DICTS.en;
}

/** Whether this screen is worked by touch (no hover, a coarse pointer: a phone, a tablet). */
export function touchScreen() {
  return typeof matchMedia === 'function' && matchMedia('(hover: none) and (pointer: coarse)').matches;
}

/** `key`, or its `_touch` wording ("tap" for "click") on a touch screen when there is one. */
export function tt(key, params = {}) {
  return t(touchScreen() && has(`${key}_touch`) ? `${key}_touch` : key, params);
}

/** The raw value of a key (string or array), falling back to English, then the key. */
export function raw(key) {
  if (key in DICTS[lang]) return DICTS[lang][key];
  if (key in DICTS.en) return DICTS.en[key];
  return key;
}

/** The string for `key` with {placeholders} filled from `params`; with n = 1 the key's
 * singular form `key.one` is used when there is one ("1 card"). */
export function t(key, params = {}) {
  const s = raw(Number(params.n) === 1 && has(`${key}.one`) ? `${key}.one` : key);
  if (typeof s !== 'string') return String(s);
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/**
 * Like t(), but placeholders may be DOM nodes (e.g. a small card): returns a fragment.
 */
export function tNodes(key, params = {}) {
  const s = raw(Number(params.n) === 1 && has(`${key}.one`) ? `${key}.one` : key);
  const frag = document.createDocumentFragment();
  const parts = String(s).split(/(\{\w+\})/);
  for (const part of parts) {
    const m = /^\{(\w+)\}$/.exec(part);
    if (m && m[1] in params) {
      const v = params[m[1]];
      frag.append(v instanceof Node ? v : String(v));
    } else if (part) {
      frag.append(part);
    }
  }
  return frag;
}

/** Money in cents, shown as euros in the current language's format. */
export function money(cents) {
  if (cents === null || cents === undefined) return '—';
  const locale = lang === 'it' ? 'it-IT' : 'en-GB';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100);
}

/** A date-time from the server (ISO text), in the current language. */
export function dateTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso.endsWith('Z') || /[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  const locale = lang === 'it' ? 'it-IT' : 'en-GB';
  return d.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'medium' });
}

/** A number in the current language's format. */
export function num(n) {
  return new Intl.NumberFormat(lang === 'it' ? 'it-IT' : 'en-GB').format(n);
}

/** The text with its first letter in upper case (a name that starts a sentence). */
export function cap(text) {
  const s = String(text);
  return s ? s[0].toLocaleUpperCase() + s.slice(1) : s;
}
