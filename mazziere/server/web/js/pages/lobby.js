// The lobby: open tables with their seats, and the form that creates a table.
import { ApiError, get, post, session } from '../api.js';
import { POKER_DECKS, POKER_LEVELS, UNO_BOTS, UNO_PRESETS } from '../config.js';
import { money, t } from '../i18n.js';
import { clear, errorText, field, h, showError } from '../ui.js';

const REFRESH_MS = 4000;
// the create form's choices survive a language switch (the page is redrawn)
const formState = { game: 'uno' };

/** A short description of a table's rules for the list. */
function configSummary(tb) {
  const c = tb.config || {};
  if (tb.game === 'uno') {
    const o = c.options || {};
    const bits = [t(`preset.${c.preset}.name`)];
    const match = o.match || UNO_PRESETS[c.preset]?.match;
    if (match === 'single_hand') bits.push(t('match.single_hand'));
    else if (match === 'fixed_hands')
      bits.push(t('match.fixed_hands_n', { n: o.fixed_hands || UNO_PRESETS[c.preset]?.hands || 3 }));
    else if (match) bits.push(t('match.target_points_n', { n: o.target || 500 }));
    for (const k of ['multi_play', 'burn', 'jump_in', 'seven_swap', 'zero_rotate', 'zero_gives_four'])
      if (o[k]) bits.push(t(`opt.${k}`));
    if (o.stacking && o.stacking !== 'none') bits.push(`${t('opt.stacking')}: ${t(`opt.stacking.${o.stacking}`)}`);
    bits.push(t('lobby.bots_kind', { kind: t(`bot.${c.bots}`) }));
    return bits.join(' · ');
  }
  if (tb.game === 'casino') return t('lobby.stakes', { min: money(c.min_stake), max: money(c.max_stake) });
  if (tb.game === 'poker') {
    const bits = [];
    if (c.deck) bits.push(t('poker.deck_n', { n: c.deck }));
    if (c.level) bits.push(t(`poker.level.${c.level}`));
    return bits.join(' · ');
  }
  return '';
}

function gameName(game) {
  return t(`game.${game}`);
}

export default {
  mount(root, _params, app) {
    root.className = 'page page-lobby';
    this.app = app;
    const me = session.get();
    const listBox = h('div', { class: 'table-list', 'data-testid': 'table-list', 'aria-live': 'polite' });
    const refresh = async () => {
      let tables;
      try {
        tables = await get('/api/tables');
      } catch (e) {
        if (e instanceof ApiError && e.code !== 'network') showError(e.code, e.message);
        return;
      }
      drawList(tables);
    };

    const drawList = (tables) => {
      clear(listBox);
      if (!tables.length) {
        listBox.append(h('p', { class: 'empty' }, t('lobby.no_tables')));
        return;
      }
      for (const tb of tables) {
        const mine = tb.seats.some((s) => !s.bot && s.name === me.username);
        const free = tb.seats.filter((s) => s.free).length;
        const canJoin = !mine && free > 0 && !(tb.game === 'uno' && tb.status === 'playing');
        const seats = h(
          'ul',
          { class: 'seat-chips', 'aria-label': t('lobby.seats') },
          tb.seats.map((s, i) =>
            h(
              'li',
              {
                class: `seat-chip${s.free ? ' free' : ''}${s.bot ? ' bot' : ''}${s.name === me.username && !s.bot ? ' me' : ''}`,
              },
              s.free ? t('lobby.free_seat') : s.bot ? t('seat.bot', { n: i }) : s.name,
              !s.free && !s.bot
                ? h('span', {
                    class: `dot ${s.connected ? 'on' : 'off'}`,
                    title: t(s.connected ? 'seat.online' : 'seat.offline'),
                  })
                : null,
            ),
          ),
        );
        const actions = h('div', { class: 'table-actions' });
        if (mine) {
          actions.append(
            h(
              'a',
              { class: 'btn btn-primary', href: `#/table/${tb.id}`, 'data-testid': `open-${tb.id}` },
              t('lobby.open'),
            ),
          );
        } else if (canJoin) {
          actions.append(
            h(
              'button',
              {
                type: 'button',
                class: 'btn btn-primary',
                'data-testid': `join-${tb.id}`,
                onclick: () => this.join(tb.id),
              },
              t('lobby.join'),
            ),
          );
        } else {
          actions.append(
            h('span', { class: 'muted' }, tb.status === 'playing' ? t('lobby.in_progress') : t('lobby.full')),
          );
        }
        listBox.append(
          h(
            'article',
            { class: `table-row game-${tb.game}`, 'data-table': tb.id },
            h(
              'div',
              { class: 'table-head' },
              h('span', { class: `badge badge-${tb.game}` }, gameName(tb.game)),
              h('h3', {}, tb.name, h('span', { class: 'muted' }, ` #${tb.id}`)),
              h('span', { class: `status status-${tb.status}` }, t(`status.${tb.status}`)),
            ),
            h(
              'p',
              { class: 'table-config' },
              configSummary(tb),
              ' · ',
              t('lobby.time_limit', { s: tb.decision_seconds }),
            ),
            seats,
            actions,
          ),
        );
      }
    };

    root.append(
      h(
        'div',
        { class: 'lobby-grid' },
        h(
          'section',
          { class: 'lobby-tables', 'aria-labelledby': 'tables-h' },
          h(
            'div',
            { class: 'section-head' },
            h('h1', { id: 'tables-h' }, t('lobby.tables')),
            h('button', { type: 'button', class: 'btn btn-ghost btn-small', onclick: refresh }, t('lobby.refresh')),
          ),
          listBox,
        ),
        this.createForm(app),
      ),
    );
    refresh();
    this.timer = setInterval(refresh, REFRESH_MS);
  },

  unmount() {
    clearInterval(this.timer);
  },

  async join(id) {
    try {
      await post(`/api/tables/${id}/join`);
      this.app.go(`/table/${id}`);
    } catch (e) {
      showError(e.code, e.message);
    }
  },

  /** The create-table form: game, name, presets and options, seats, bots, time limit. */
  createForm(app) {
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
    const games = ['uno', 'casino', 'poker'];
    const gamePick = h(
      'fieldset',
      { class: 'segmented' },
      h('legend', {}, t('create.game')),
      games.map((g) =>
        h(
          'label',
          { class: 'seg' },
          h('input', {
            type: 'radio',
            name: 'game',
            value: g,
            checked: formState.game === g,
            'data-testid': `game-${g}`,
            onchange: () => {
              formState.game = g;
              showSection();
            },
          }),
          h('span', {}, gameName(g)),
        ),
      ),
    );
    const name = h('input', {
      name: 'name',
      maxlength: 80,
      placeholder: t('create.name_placeholder'),
      'data-testid': 'table-name',
    });
    const seconds = h('input', {
      type: 'number',
      name: 'decision_seconds',
      min: 5,
      max: 3600,
      step: 1,
      value: 30,
      'data-testid': 'decision-seconds',
    });

    // --- UNO
    const preset = h(
      'select',
      { name: 'preset', 'data-testid': 'preset' },
      Object.keys(UNO_PRESETS).map((p) => h('option', { value: p }, t(`preset.${p}.name`))),
    );
    const presetDesc = h('small', { class: 'hint' });
    const seats = h('input', { type: 'number', name: 'seats', min: 2, max: 10, value: 4, 'data-testid': 'seats' });
    const bots = h(
      'select',
      { name: 'bots', 'data-testid': 'bots' },
      UNO_BOTS.map((b) => h('option', { value: b }, t(`bot.${b}`))),
    );
    const match = h(
      'select',
      { name: 'match', 'data-testid': 'match' },
      h('option', { value: '' }, t('create.preset_default')),
      ['single_hand', 'target_points', 'fixed_hands'].map((m) => h('option', { value: m }, t(`match.${m}`))),
    );
    const target = h('input', { type: 'number', name: 'target', min: 1, value: 500 });
    const hands = h('input', { type: 'number', name: 'fixed_hands', min: 1, value: 3 });
    const choice = (nameKey, values) =>
      h(
        'select',
        { name: nameKey },
        h('option', { value: '' }, t('create.preset_default')),
        values.map((v) => h('option', { value: v }, t(`opt.${nameKey}.${v}`))),
      );
    const stacking = choice('stacking', ['none', 'draw2', 'draw2_draw4', 'all']);
    const unoCall = choice('uno_call', ['auto', 'catch', 'off']);
    const drawnCard = choice('drawn_card', ['may_play', 'must_play']);
    const flags = ['multi_play', 'burn', 'jump_in', 'seven_swap', 'zero_rotate'].map((k) => ({
      k,
      el: h('input', { type: 'checkbox', name: k, 'data-testid': `opt-${k}` }),
    }));
    const extra = h('textarea', { name: 'extra', rows: 2, placeholder: '{"hand_size": 5}', spellcheck: 'false' });
    const syncPreset = () => {
      const p = UNO_PRESETS[preset.value];
      seats.min = p.min;
      seats.max = p.max;
      seats.value = Math.min(p.max, Math.max(p.min, Number(seats.value) || 4));
      presetDesc.textContent = t(`preset.${preset.value}.desc`);
    };
    preset.addEventListener('change', syncPreset);
    const targetField = field(t('create.target'), target);
    const handsField = field(t('create.fixed_hands'), hands);
    const syncMatch = () => {
      const m = match.value || UNO_PRESETS[preset.value].match;
      targetField.hidden = m !== 'target_points';
      handsField.hidden = m !== 'fixed_hands';
    };
    match.addEventListener('change', syncMatch);
    preset.addEventListener('change', syncMatch);
    const unoBox = h(
      'div',
      { class: 'form-section', 'data-game': 'uno' },
      h(
        'div',
        { class: 'field-row' },
        field(t('create.preset'), preset),
        field(t('create.seats'), seats, t('create.seats_hint')),
      ),
      presetDesc,
      h('div', { class: 'field-row' }, field(t('create.bots'), bots), field(t('create.match'), match)),
      h('div', { class: 'field-row' }, targetField, handsField),
      h(
        'details',
        { class: 'options' },
        h('summary', {}, t('create.options')),
        h(
          'div',
          { class: 'checks' },
          flags.map(({ k, el }) => h('label', { class: 'check' }, el, h('span', {}, t(`opt.${k}`)))),
        ),
        h(
          'div',
          { class: 'field-row' },
          field(t('opt.stacking'), stacking),
          field(t('opt.uno_call'), unoCall),
          field(t('opt.drawn_card'), drawnCard),
        ),
        field(t('create.extra'), extra, t('create.extra_hint')),
      ),
    );

    // --- casino
    const minStake = h('input', {
      type: 'number',
      name: 'min_stake',
      min: 0.01,
      step: 0.01,
      value: '0.10',
      'data-testid': 'min-stake',
    });
    const maxStake = h('input', {
      type: 'number',
      name: 'max_stake',
      min: 0.01,
      step: 0.01,
      value: '100.00',
      'data-testid': 'max-stake',
    });
    const casinoBox = h(
      'div',
      { class: 'form-section', 'data-game': 'casino' },
      h('div', { class: 'field-row' }, field(t('create.min_stake'), minStake), field(t('create.max_stake'), maxStake)),
      h('p', { class: 'hint' }, t('create.casino_hint')),
    );

    // --- poker
    const deck = h(
      'select',
      { name: 'deck' },
      POKER_DECKS.map((d) => h('option', { value: d }, t('poker.deck_n', { n: d }))),
    );
    const level = h(
      'select',
      { name: 'level' },
      POKER_LEVELS.map((l) => h('option', { value: l, selected: l === 'normal' }, t(`poker.level.${l}`))),
    );
    const ante = h('input', { type: 'number', name: 'ante', min: 1, value: 5 });
    const bankroll = h('input', { type: 'number', name: 'bankroll', min: 10, value: 500 });
    const pokerBox = h(
      'div',
      { class: 'form-section', 'data-game': 'poker' },
      h('div', { class: 'field-row' }, field(t('create.deck'), deck), field(t('create.level'), level)),
      h('div', { class: 'field-row' }, field(t('create.ante'), ante), field(t('create.bankroll'), bankroll)),
      h('p', { class: 'hint' }, t('create.poker_hint')),
    );

    const sections = [unoBox, casinoBox, pokerBox];
    const showSection = () => sections.forEach((s) => (s.hidden = s.dataset.game !== formState.game));

    const body = () => {
      const g = formState.game;
      const out = { game: g, name: name.value.trim(), decision_seconds: Number(seconds.value) || 30 };
      if (g === 'uno') {
        out.preset = preset.value;
        out.seats = Number(seats.value);
        out.bots = bots.value;
        const options = {};
        if (match.value) options.match = match.value;
        const m = match.value || UNO_PRESETS[preset.value].match;
        if (m === 'target_points' && Number(target.value) !== UNO_PRESETS[preset.value].target)
          options.target = Number(target.value);
        if (m === 'fixed_hands' && Number(hands.value) !== UNO_PRESETS[preset.value].hands)
          options.fixed_hands = Number(hands.value);
        for (const { k, el } of flags) if (el.checked) options[k] = true;
        if (stacking.value) options.stacking = stacking.value;
        if (unoCall.value) options.uno_call = unoCall.value;
        if (drawnCard.value) options.drawn_card = drawnCard.value;
        if (extra.value.trim()) Object.assign(options, JSON.parse(extra.value));
        if (Object.keys(options).length) out.options = options;
      } else if (g === 'casino') {
        out.min_stake = Math.round(Number(minStake.value) * 100);
        out.max_stake = Math.round(Number(maxStake.value) * 100);
      } else {
        out.deck = Number(deck.value);
        out.level = level.value;
        out.options = { ante: Number(ante.value), bankroll: Number(bankroll.value) };
      }
      return out;
    };

    const submit = h(
      'button',
      { type: 'submit', class: 'btn btn-primary btn-wide', 'data-testid': 'create-submit' },
      t('create.submit'),
    );
    const form = h(
      'form',
      { class: 'card-panel create-form', 'aria-labelledby': 'create-h' },
      h('h2', { id: 'create-h' }, t('create.title')),
      gamePick,
      field(t('create.name'), name),
      ...sections,
      field(t('create.time_limit'), seconds, t('create.time_limit_hint')),
      error,
      submit,
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      let req;
      try {
        req = body();
      } catch {
        error.textContent = t('create.bad_json');
        return;
      }
      submit.disabled = true;
      try {
        const tb = await post('/api/tables', req);
        await post(`/api/tables/${tb.id}/join`);
        app.go(`/table/${tb.id}`);
      } catch (err) {
        error.textContent =
          err instanceof ApiError
            ? `${errorText(err.code, err.message)}${err.message && errorText(err.code, err.message) !== err.message ? ` — ${err.message}` : ''}`
            : String(err);
      } finally {
        submit.disabled = false;
      }
    });
    syncPreset();
    syncMatch();
    showSection();
    return h('aside', { class: 'lobby-create' }, form);
  },
};
