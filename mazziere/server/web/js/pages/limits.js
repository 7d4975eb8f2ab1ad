// Responsible gaming: the player's limits (with the raises still waiting), the reality-check
// rhythm, the question asked after sign-up (set limits, or skip them) and the reality check
// itself, which covers the page until the player answers (docs/rules/platform.md "Limits and
// reality checks"). The server enforces every limit; this page only sets and shows them. Its
// words are in messages.js (limits.*, reality.*).
import { ApiError, api, get, post, session } from '../api.js';
import { dateTime, money, t } from '../i18n.js';
import { add, clear, errorText, field, h, modal, showError, toast } from '../ui.js';

/** A limit's value as shown: euros, or minutes for the play time. */
function shown(kind, value) {
  if (value === null || value === undefined) return t('limits.none');
  return kind === 'session_minutes' ? t('reality.minutes', { n: value }) : money(value);
}

/** The words of a `limit_exceeded` refusal's placeholders: the limit's name, what is left. */
export function limitWords(msg) {
  if (!msg || !msg.limit) return {};
  return { name: t(`limits.name.${msg.limit}`), left: shown(msg.limit, msg.left) };
}

/** A duration in seconds, as minutes or hours and minutes. */
function duration(seconds) {
  const m = Math.floor(seconds / 60);
  return m < 60 ? t('reality.minutes', { n: m }) : t('reality.hours', { h: Math.floor(m / 60), m: m % 60 });
}

/** An input for one limit: euros (cents on the wire) or minutes; empty is no limit. */
function input(kind, value) {
  const minutes = kind === 'session_minutes';
  return h('input', {
    name: kind,
    inputmode: minutes ? 'numeric' : 'decimal',
    placeholder: t('limits.none'),
    'data-testid': `limit-${kind}`,
    value: value === null || value === undefined ? '' : minutes ? String(value) : (value / 100).toFixed(2),
  });
}

/** What the inputs say: kind -> cents (or minutes), null for an empty one. */
function read(inputs) {
  const out = {};
  for (const [kind, el] of Object.entries(inputs)) {
    const text = el.value.trim().replace(',', '.');
    if (!text) out[kind] = null;
    else out[kind] = kind === 'session_minutes' ? Math.round(Number(text)) : Math.round(Number(text) * 100);
  }
  return out;
}

/** The form of every limit (used by the page and by the sign-up question). */
function limitsForm(data) {
  const inputs = {};
  const row = (kind, label) => {
    const limit = data?.limits?.[kind];
    inputs[kind] = input(kind, limit?.amount);
    let pending = null;
    if (limit?.pending_set) {
      pending = h(
        'small',
        { class: 'limit-pending', 'data-testid': `pending-${kind}` },
        limit.pending === null
          ? t('limits.pending_removal', { date: dateTime(limit.pending_from) })
          : t('limits.pending', { value: shown(kind, limit.pending), date: dateTime(limit.pending_from) }),
      );
    }
    return h('div', { class: 'limit-row', 'data-kind': kind }, field(label, inputs[kind]), pending);
  };
  const group = (what) =>
    h(
      'fieldset',
      { class: 'limit-group' },
      h('legend', {}, `${t(`limits.${what}`)} — ${t('limits.euros')}`),
      h('div', { class: 'limit-cols' }, ['day', 'week', 'month'].map((w) => row(`${what}_${w}`, t(`limits.${w}`)))),
    );
  const reality = h('input', {
    name: 'reality_minutes',
    inputmode: 'numeric',
    'data-testid': 'limit-reality_minutes',
    value: String(data?.reality_minutes ?? 60),
  });
  const body = h(
    'div',
    { class: 'limits-form' },
    group('topup'),
    group('loss'),
    h(
      'div',
      { class: 'limit-pair' },
      row('session_minutes', t('limits.session_minutes')),
      field(t('limits.reality_minutes'), reality),
    ),
  );
  return {
    body,
    /** The body of `PUT /api/me/limits`: only what changed. */
    changes() {
      const wanted = read(inputs);
      const limits = {};
      for (const [kind, value] of Object.entries(wanted)) {
        const now = data?.limits?.[kind];
        const current = now ? (now.pending_set ? now.pending : now.amount) : null;
        if (value !== current) limits[kind] = value;
      }
      const out = { limits };
      const minutes = Math.round(Number(reality.value.trim()));
      if (minutes !== data?.reality_minutes) out.reality_minutes = minutes;
      return out;
    },
  };
}

async function save(body) {
  return api('PUT', '/api/me/limits', body);
}

/**
 * After a sign-up or a login: if the player has not yet answered whether to set limits, ask
 * (until they set limits or skip them; a dialog closed unanswered asks again next time).
 */
export async function askForLimits() {
  let data;
  try {
    data = await get('/api/me/limits');
  } catch {
    return;
  }
  while (!data.chosen) {
    const form = limitsForm(data);
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'limits-error' });
    const choice = await modal({
      title: t('limits.ask_title'),
      className: 'modal-limits',
      cancel: false,
      body: h('div', {}, h('p', { class: 'lead' }, t('limits.ask_lead')), form.body, error),
      choices: [
        { label: t('limits.save'), value: 'set', class: 'btn btn-primary', attrs: { 'data-action': 'set-limits' } },
        { label: t('limits.skip'), value: 'skip', class: 'btn', attrs: { 'data-action': 'skip-limits' } },
      ],
    });
    if (choice === null) return; // left the page: asked again at the next login
    try {
      const body = choice === 'skip' ? { skip: true } : form.changes();
      if (choice === 'set' && !Object.keys(body.limits).length) body.skip = true;
      if (body.skip) delete body.limits;
      data = await save(body);
    } catch (e) {
      toast(e instanceof ApiError ? errorText(e.code, e.message) : String(e), 'error');
    }
  }
}

/** The reality check the server pushed: the page is covered until the player answers. */
let asking = false;
export async function realityCheck(msg, app) {
  if (asking) return;
  asking = true;
  try {
    const choice = await modal({
      title: t('reality.title'),
      className: 'modal-reality',
      cancel: false,
      body: h(
        'div',
        { 'data-testid': 'reality-check' },
        h('p', {}, t('reality.played', { time: duration(msg.played_seconds) })),
        h('p', { 'data-testid': 'reality-net' }, t('reality.net', { net: money(msg.net) })),
      ),
      choices: [
        { label: t('reality.continue'), value: 'continue', class: 'btn btn-primary', attrs: { 'data-action': 'reality-continue' } },
        { label: t('reality.leave'), value: 'leave', class: 'btn', attrs: { 'data-action': 'reality-leave' } },
      ],
    });
    if (choice === null) {
      // the page changed under the dialog: the check is still due, ask again at once
      asking = false;
      realityCheck(msg, app);
      return;
    }
    await post('/api/me/reality-check', { choice });
    if (choice === 'leave') {
      app.socket.stop();
      session.clear();
      app.me = null;
      app.go('/login');
    }
  } catch (e) {
    showError(e.code, e.message);
  } finally {
    asking = false;
  }
}

export default {
  async mount(root) {
    root.className = 'page page-limits';
    const box = h('div', { class: 'panel' }, h('p', { class: 'loading' }, t('common.loading')));
    const lead = h('p', { class: 'lead' });
    add(
      root,
      h('h1', {}, t('limits.title')),
      lead,
      box,
      h('p', {}, h('a', { class: 'exclusion-link', href: '#/exclusion', 'data-testid': 'exclusion-link' }, t('limits.exclusion'))),
    );
    const draw = (data) => {
      lead.textContent = t('limits.lead', { hours: data.raise_hours });
      clear(box);
      const form = limitsForm(data);
      const submit = h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'limits-save' }, t('limits.save'));
      const el = h('form', { class: 'limits-page-form', novalidate: true }, form.body, submit);
      el.addEventListener('submit', async (e) => {
        e.preventDefault();
        submit.disabled = true;
        try {
          draw(await save(form.changes()));
          toast(t('limits.saved'), 'ok');
        } catch (err) {
          showError(err.code, err.message);
          submit.disabled = false;
        }
      });
      const r = data.reality;
      add(
        box,
        r ? h('p', { class: 'hint', 'data-testid': 'reality-now' }, t('reality.now', { time: duration(r.played_seconds), net: money(r.net) })) : null,
        el,
      );
    };
    try {
      draw(await get('/api/me/limits'));
    } catch (e) {
      showError(e.code, e.message);
    }
  },
};
