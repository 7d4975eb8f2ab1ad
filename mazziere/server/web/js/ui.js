// Small DOM helpers shared by every page: element builder, toasts, modal dialogs.
import { has, t } from './i18n.js';

/**
 * Build an element: h('button', {class: 'btn', onclick: fn, 'aria-label': 'x'}, 'text', child).
 * Attributes starting with "on" are listeners; `dataset` sets data-*; null/false are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className = v;
    else if (k === 'style' && typeof v === 'object') {
      // custom properties (--x) need setProperty
      for (const [name, value] of Object.entries(v))
        el.style.setProperty(
          name.startsWith('--') ? name : name.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`),
          value,
        );
    } else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'hidden' || k === 'selected') el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

/** Append children (null/false skipped, arrays flattened), unlike the DOM's own append. */
export function add(el, ...children) {
  append(el, children);
  return el;
}

/** Replace an element's children (null/false children are skipped, arrays flattened). */
export function fill(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/**
 * The sentence for a server error: ours in the current language when the code is known (with
 * `params` for its placeholders, as a limit), else the server's own.
 */
export function errorText(code, message, params = {}) {
  const key = `err.${code}`;
  return has(key) ? t(key, params) : message || code;
}

/** A short message in the corner; kind: 'error' | 'info' | 'ok'. */
export function toast(text, kind = 'info', detail = '', ms = 6000) {
  const box = document.getElementById('toasts');
  const el = h(
    'div',
    { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    h('div', { class: 'toast-text' }, text),
    detail ? h('div', { class: 'toast-detail' }, detail) : null,
  );
  box.append(el);
  setTimeout(() => el.classList.add('toast-out'), ms);
  setTimeout(() => el.remove(), ms + 400);
  return el;
}

/** Show a server error: translated sentence, the server's own words underneath. */
export function showError(code, message) {
  const text = errorText(code, message);
  return toast(text, 'error', text !== message ? message : '');
}

/**
 * A modal dialog. `choices`: [{label, value, class, attrs}]. Resolves with the chosen value,
 * or null when dismissed (Escape, backdrop, the close button).
 */
export function modal({ title, body = null, choices = [], cancel = true, className = '' }) {
  return new Promise((resolve) => {
    const previous = document.activeElement;
    const done = (value) => {
      document.removeEventListener('keydown', onKey, true);
      window.removeEventListener('hashchange', onLeave);
      back.remove();
      if (previous && previous.focus) previous.focus();
      resolve(value);
    };
    // a dialog belongs to the page that opened it: going to another page closes it, unanswered
    const onLeave = () => done(null);
    const onKey = (e) => {
      if (e.key === 'Escape' && cancel) {
        e.preventDefault();
        done(null);
      }
    };
    const buttons = choices.map((c) =>
      h(
        'button',
        { type: 'button', class: c.class || 'btn', onclick: () => done(c.value), ...(c.attrs || {}) },
        c.label,
      ),
    );
    const dialog = h(
      'div',
      { class: `modal ${className}`, role: 'dialog', 'aria-modal': 'true', 'aria-label': title },
      h('h2', { class: 'modal-title' }, title),
      body,
      h('div', { class: 'modal-choices' }, buttons),
      cancel
        ? h(
            'button',
            { type: 'button', class: 'btn btn-ghost modal-cancel', onclick: () => done(null) },
            t('common.cancel'),
          )
        : null,
    );
    const back = h('div', { class: 'modal-back', onclick: (e) => e.target === back && cancel && done(null) }, dialog);
    document.body.append(back);
    document.addEventListener('keydown', onKey, true);
    window.addEventListener('hashchange', onLeave);
    (buttons[0] || dialog).focus();
  });
}

/** A countdown shown as seconds and a shrinking bar; call set(seconds|null) on each update. */
export class Countdown {
  constructor(label) {
    this.label = label;
    this.deadline = null;
    this.total = 1;
    this.el = h('div', { class: 'countdown', hidden: true, role: 'timer', 'aria-live': 'off' });
    this.text = h('span', { class: 'countdown-text' });
    this.bar = h('span', { class: 'countdown-bar' }, h('span', { class: 'countdown-fill' }));
    this.el.append(this.text, this.bar);
    this.timer = setInterval(() => this.tick(), 250);
  }

  set(seconds, total = null) {
    if (seconds === null || seconds === undefined) {
      this.deadline = null;
      this.el.hidden = true;
      return;
    }
    this.deadline = Date.now() + seconds * 1000;
    this.total = Math.max(total || seconds, 1);
    this.el.hidden = false;
    this.tick();
  }

  tick() {
    if (this.deadline === null) return;
    const left = Math.max(0, (this.deadline - Date.now()) / 1000);
    this.text.textContent = `${this.label ? `${this.label} ` : ''}${Math.ceil(left)} s`;
    this.bar.firstChild.style.width = `${Math.min(100, (left / this.total) * 100)}%`;
    this.el.classList.toggle('countdown-low', left <= 10);
  }

  destroy() {
    clearInterval(this.timer);
  }
}

/** A labelled form field. */
export function field(label, input, hint = null) {
  const id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    input,
    hint ? h('small', { class: 'hint' }, hint) : null,
  );
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A small line icon drawn with SVG (no emoji font needed): 'bot', 'bank', 'person'. */
export function icon(name) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', `icon icon-${name}`);
  const paths = {
    bot: 'M12 2v3M7 8h10a3 3 0 0 1 3 3v6a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3v-6a3 3 0 0 1 3-3zM9 13h.01M15 13h.01M9 17h6M2 13v2M22 13v2',
    bank: 'M3 10 12 4l9 6M5 10v8M9 10v8M15 10v8M19 10v8M3 20h18',
    person: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0',
  };
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', paths[name] || paths.person);
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '2');
  path.setAttribute('stroke-linecap', 'round');
  path.setAttribute('stroke-linejoin', 'round');
  svg.append(path);
  return svg;
}
