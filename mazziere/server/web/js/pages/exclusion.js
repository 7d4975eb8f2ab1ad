// Self-exclusion (docs/rules/platform.md "Self-exclusion"). Logged in: what it does, the period
// (the server's list), the password again, a confirmation, then the server puts the player out
// of play everywhere. Logged out: the lift of an exclusion without end, asked with the username
// and password (an excluded player cannot log in).
import { ApiError, get, post, session } from '../api.js';
import { dateTime, t } from '../i18n.js';
import { add, errorText, field, fill, h, modal } from '../ui.js';

/** A refused login or request because of an exclusion, in words, with its end date; null for
 * any other refusal. */
export function exclusionRefusal(err) {
  const until = err?.data?.until;
  const date = until ? dateTime(until) : null;
  switch (err?.code) {
    case 'self_excluded':
      return date ? t('err.self_excluded', { until: date }) : t('err.self_excluded_forever');
    case 'register_excluded':
      return date ? t('err.register_excluded_until', { until: date }) : t('err.register_excluded');
    case 'lift_too_early':
      return t('err.lift_too_early', { date: dateTime(err.data?.lift_from) });
    case 'exclusion_timed':
    case 'lift_already_asked':
      return t(`err.${err.code}`, { until: date ?? '—' });
    default:
      return null;
  }
}

function refusalText(err) {
  if (!(err instanceof ApiError)) return String(err);
  return exclusionRefusal(err) ?? errorText(err.code, err.message);
}

function periodLabel(days) {
  return days === null ? t('exclusion.forever') : t('exclusion.days', { n: days });
}

function effects() {
  return h(
    'ul',
    { class: 'exclusion-effects', 'data-testid': 'exclusion-effects' },
    ['login', 'tables', 'money', 'final'].map((k) => h('li', {}, t(`exclusion.effect_${k}`))),
  );
}

export default {
  async mount(root, _params, app) {
    root.className = 'page page-exclusion';
    add(root, h('h1', {}, t('exclusion.title')), h('p', { class: 'lead' }, t('exclusion.lead')), effects());
    if (session.get()) await this.excludeForm(root, app);
    else this.liftForm(root);
  },

  async excludeForm(root, app) {
    const box = h('form', { class: 'card-panel exclusion-form', novalidate: true, 'data-testid': 'exclusion-form' });
    add(root, box);
    let mine;
    try {
      mine = await get('/api/self-exclusion');
    } catch (e) {
      add(box, h('p', { class: 'form-error' }, refusalText(e)));
      return;
    }
    const pick = h(
      'fieldset',
      { class: 'segmented' },
      h('legend', {}, t('exclusion.period')),
      mine.periods.map((days) =>
        h(
          'label',
          { class: 'seg' },
          h('input', { type: 'radio', name: 'period', value: String(days), 'data-testid': `period-${days ?? 'forever'}` }),
          h('span', {}, periodLabel(days)),
        ),
      ),
    );
    const pass = h('input', {
      type: 'password',
      name: 'password',
      autocomplete: 'current-password',
      required: true,
      'data-testid': 'exclusion-password',
    });
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'exclusion-error' });
    const submit = h('button', { type: 'submit', class: 'btn btn-warn', 'data-testid': 'exclusion-submit' }, t('exclusion.submit'));
    add(box, pick, field(t('exclusion.password'), pass), error, submit);
    if (mine.exclusions.length) add(root, this.past(mine.exclusions));

    box.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      const chosen = box.querySelector('input[name=period]:checked');
      if (!chosen) {
        error.textContent = t('exclusion.pick');
        return;
      }
      if (!pass.value) {
        error.textContent = t('auth.fill_in');
        return;
      }
      const days = chosen.value === 'null' ? null : Number(chosen.value);
      const end = days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
      const yes = await modal({
        title: t('exclusion.confirm_title'),
        body: h(
          'p',
          { 'data-testid': 'exclusion-confirm-text' },
          days === null ? t('exclusion.confirm_forever') : t('exclusion.confirm_until', { date: dateTime(end) }),
        ),
        choices: [{ label: t('exclusion.confirm'), value: true, class: 'btn btn-warn', attrs: { 'data-action': 'confirm-exclusion' } }],
      });
      if (!yes) return;
      submit.disabled = true;
      try {
        const res = await post('/api/self-exclusion', { days, password: pass.value });
        app.selfExcluded(res.exclusion.ends_at);
      } catch (err) {
        error.textContent = refusalText(err);
        submit.disabled = false;
      }
    });
  },

  past(rows) {
    return h(
      'section',
      { class: 'panel' },
      h('h2', { class: 'panel-title' }, t('exclusion.past')),
      h(
        'ul',
        { class: 'exclusion-past', 'data-testid': 'exclusion-past' },
        rows.map((x) => h('li', {}, `${periodLabel(x.period_days)}: ${dateTime(x.started_at)} → ${dateTime(x.ends_at)}`)),
      ),
    );
  },

  liftForm(root) {
    const user = h('input', { name: 'username', autocomplete: 'username', required: true, 'data-testid': 'lift-username' });
    const pass = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true, 'data-testid': 'lift-password' });
    const out = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'lift-result' });
    const form = h(
      'form',
      { class: 'card-panel exclusion-form', novalidate: true, 'data-testid': 'lift-form' },
      h('h2', { class: 'panel-title' }, t('exclusion.lift_title')),
      h('p', { class: 'hint' }, t('exclusion.lift_lead')),
      field(t('auth.username'), user),
      field(t('auth.password'), pass),
      out,
      h('button', { type: 'submit', class: 'btn' }, t('exclusion.lift_submit')),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      out.className = 'form-error';
      if (!user.value.trim() || !pass.value) {
        out.textContent = t('auth.fill_in');
        return;
      }
      try {
        const res = await post('/api/self-exclusion/lift', { username: user.value.trim(), password: pass.value });
        out.className = 'form-ok';
        fill(out, t('exclusion.lift_done', { date: dateTime(res.exclusion.ends_at) }));
      } catch (err) {
        out.textContent = refusalText(err);
      }
    });
    add(root, form);
  },
};
