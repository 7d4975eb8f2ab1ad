// Log in / sign up.
import { ApiError, post } from '../api.js';
import { PASSWORD_LENGTH, USERNAME_LENGTH, loadLimits } from '../config.js';
import { t } from '../i18n.js';
import { errorText, field, fill, h } from '../ui.js';
import { exclusionRefusal } from './exclusion.js';
import { askForLimits } from './limits.js';

// log in or sign up: the choice survives a language switch (the page is redrawn)
const formState = { mode: 'login' };

export default {
  mount(root, _params, app) {
    root.className = 'page page-auth';
    const user = h('input', {
      name: 'username',
      autocomplete: 'username',
      required: true,
      'data-testid': 'auth-username',
    });
    const pass = h('input', {
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      required: true,
      'data-testid': 'auth-password',
    });
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'auth-error' });
    const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-wide', 'data-testid': 'auth-submit' });
    const hint = h('small', { class: 'hint' });
    const tabs = h('div', { class: 'tabs', role: 'tablist' });
    const form = h('form', { class: 'card-panel auth-form', novalidate: true });

    const draw = () => {
      fill(
        tabs,
        ...['login', 'signup'].map((m) =>
          h(
            'button',
            {
              type: 'button',
              role: 'tab',
              class: 'tab',
              'aria-selected': String(formState.mode === m),
              'data-testid': `tab-${m}`,
              onclick: () => {
                formState.mode = m;
                draw();
              },
            },
            t(`auth.${m}`),
          ),
        ),
      );
      submit.textContent = t(formState.mode === 'login' ? 'auth.login' : 'auth.signup');
      pass.autocomplete = formState.mode === 'login' ? 'current-password' : 'new-password';
      hint.textContent = formState.mode === 'signup' ? t('auth.password_hint', PASSWORD_LENGTH) : '';
      error.textContent = '';
    };

    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      if (!user.value.trim() || !pass.value) {
        error.textContent = t('auth.fill_in');
        return;
      }
      if (formState.mode === 'signup' && pass.value.length < PASSWORD_LENGTH.min) {
        error.textContent = t('auth.password_hint', PASSWORD_LENGTH);
        return;
      }
      submit.disabled = true;
      try {
        const res = await post(formState.mode === 'login' ? '/api/login' : '/api/signup', {
          username: user.value.trim(),
          password: pass.value,
        });
        formState.mode = 'login'; // the next time, after logging out: logging in
        await app.login(res);
        await askForLimits(); // until the player set limits or skipped them
        const next = sessionStorage.getItem('mazziere.after_login');
        sessionStorage.removeItem('mazziere.after_login');
        if (next && next !== '/login') app.go(next);
        else {
          // seated at a live table: back to it
          const live = await app.liveTable();
          app.go(live !== null ? `/table/${live}` : '/lobby');
        }
      } catch (err) {
        error.textContent =
          err instanceof ApiError
            ? exclusionRefusal(err) ?? errorText(err.code, err.message, PASSWORD_LENGTH)
            : String(err);
      } finally {
        submit.disabled = false;
      }
    });

    form.append(tabs, field(t('auth.username'), user), field(t('auth.password'), pass), hint, error, submit);
    root.append(
      h(
        'section',
        { class: 'auth-wrap' },
        h(
          'div',
          { class: 'auth-intro' },
          h('h1', {}, t('auth.title')),
          h('p', { class: 'lead' }, t('auth.lead')),
          h(
            'ul',
            { class: 'game-list' },
            h('li', {}, h('strong', {}, 'UNO'), ' — ', t('auth.game_uno')),
            h('li', {}, h('strong', {}, 'UNO CASINO'), ' — ', t('auth.game_casino')),
            h('li', {}, h('strong', {}, t('nav.poker')), ' — ', t('auth.game_poker')),
          ),
          h('p', { class: 'hint' }, h('a', { href: '#/exclusion', 'data-testid': 'exclusion-link' }, t('exclusion.title'))),
        ),
        form,
      ),
    );
    draw();
    user.focus();
    loadLimits().then(() => {
      user.maxLength = USERNAME_LENGTH.max;
      pass.maxLength = PASSWORD_LENGTH.max;
      draw();
    }, () => {});
  },
};
