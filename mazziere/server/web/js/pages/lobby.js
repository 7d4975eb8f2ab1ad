// The lobby: open tables with their seats, and the form that creates a table.
import { ApiError, get, post, session } from '../api.js';
import { byName, catalogNow, gameInfo, loadCatalog, presetInfo, tableName } from '../catalog.js';
import { itemCode, itemName } from '../games/poker/events.js';
import { has, money, t } from '../i18n.js';
import { clear, errorText, field, fill, h, showError } from '../ui.js';

const REFRESH_MS = 4000;
// the create form's choices survive a language switch (the page is redrawn)
const formState = { game: 'uno' };
// the list's filter by game ('all' or a game's name), kept across redraws
const listState = { game: 'all' };

// Words of the catalog's names, by game, in the games' messages files: a preset
// `<game>.preset.<name>` (and `.desc`), an option `<game>.opt.<name>`, a choice of a setting
// `<game>.<setting>.<value>` or of an option `<game>.opt.<option>.<value>`; the catalog's own
// name (or one-line doc) where a language has no words for it.

/** A catalog doc as a tooltip: without its marks of code (``name``). */
function tip(doc) {
  return String(doc || '').replaceAll('``', '');
}

/** A preset's name in the current language. */
function presetName(game, name) {
  return has(`${game}.preset.${name}`) ? t(`${game}.preset.${name}`) : String(name);
}

/** An option's label in the current language. */
function optionLabel(game, name) {
  return has(`${game}.opt.${name}`) ? t(`${game}.opt.${name}`) : name.replaceAll('_', ' ');
}

/** The label of a setting's or option's choice `v` (game `game`, name `name`). */
function choiceLabel(game, name, v) {
  if (name === 'bots') return has(`bot.${v}`) ? t(`bot.${v}`) : String(v);
  const key = [`${game}.${name}.${v}`, `${game}.opt.${name}.${v}`].find(has);
  return key ? t(key) : String(v);
}

/** A preset's one-line description: ours when the language has one, else the catalog's. */
function presetDoc(game, p) {
  const key = `${game}.preset.${p.name}.desc`;
  return has(key) ? t(key) : p.doc;
}

/** A short description of a table's rules for the list. */
function configSummary(tb) {
  const c = tb.config || {};
  const o = c.options || {};
  if (tb.game === 'uno') {
    const bits = [presetName('uno', c.preset)];
    const preset = presetInfo(catalogNow(), 'uno', c.preset);
    const match = o.match || preset?.match;
    if (match === 'single_hand') bits.push(choiceLabel('uno', 'match', match));
    else if (match === 'fixed_hands')
      bits.push(t('uno.match.fixed_hands_n', { n: o.fixed_hands || preset?.fixed_hands }));
    else if (match) bits.push(t('uno.match.target_points_n', { n: o.target || preset?.target }));
    for (const k of ['multi_play', 'burn', 'jump_in', 'seven_swap', 'zero_rotate', 'zero_gives_four'])
      if (o[k]) bits.push(optionLabel('uno', k));
    if (o.stacking && o.stacking !== 'none')
      bits.push(`${optionLabel('uno', 'stacking')}: ${choiceLabel('uno', 'stacking', o.stacking)}`);
    bits.push(t('lobby.bots_kind', { kind: choiceLabel('uno', 'bots', c.bots) }));
    return bits.join(' · ');
  }
  if (tb.game === 'casino') return t('lobby.stakes', { min: money(c.min_stake), max: money(c.max_stake) });
  if (tb.game === 'poker') {
    // a table stored before presets names only its deck
    const bits = c.preset ? [presetName('poker', c.preset)] : c.deck ? [t('poker.deck_n', { n: c.deck })] : [];
    if (o.deck) bits.push(t('poker.deck_n', { n: o.deck }));
    if (o.ante !== undefined) bits.push(t('poker.ante_n', { n: o.ante }));
    if (o.bankroll !== undefined) bits.push(t('poker.bankroll_n', { n: o.bankroll }));
    if (c.level) bits.push(choiceLabel('poker', 'level', c.level));
    return bits.join(' · ');
  }
  return '';
}

function gameName(game) {
  return t(`game.${game}`);
}

// --------------------------------------------------------------------------- the create form
// Which options the form features is a choice of the page; their values, choices, defaults
// and docs all come from the catalog.
const FEATURED_FLAGS = ['multi_play', 'burn', 'jump_in', 'seven_swap', 'zero_rotate'];
const FEATURED_CHOICES = ['stacking', 'uno_call', 'drawn_card'];

/** A setting's label: ours when the language files have one, else its name. */
function settingLabel(name) {
  return has(`create.${name}`) ? t(`create.${name}`) : name.replaceAll('_', ' ');
}

/**
 * The input of one catalog setting {name, type, choices, default, min, max, unit, doc}:
 * a select for a choice, a number input otherwise (cents shown as euros).
 */
function settingInput(game, s, testid = s.name.replaceAll('_', '-')) {
  const attrs = { name: s.name, title: tip(s.doc), 'data-testid': testid };
  if (s.type === 'choice') {
    const el = h(
      'select',
      attrs,
      s.choices.map((v) => h('option', { value: String(v), selected: v === s.default }, choiceLabel(game, s.name, v))),
    );
    el.readValue = () => s.choices.find((v) => String(v) === el.value);
    return el;
  }
  const cents = s.unit === 'cents';
  let min = s.min;
  if (min === undefined && s.exclusive_min !== undefined) min = Math.floor(s.exclusive_min) + 1;
  const scale = cents ? 100 : 1;
  const el = h('input', {
    ...attrs,
    type: 'number',
    step: cents ? 0.01 : s.type === 'float' ? 'any' : 1,
    min: min === undefined ? null : min / scale,
    max: s.max === undefined ? null : s.max / scale,
    value: cents ? (s.default / 100).toFixed(2) : s.default,
  });
  el.readValue = () => {
    const n = Number(el.value);
    if (el.value === '' || Number.isNaN(n)) return s.default;
    if (cents) return Math.round(n * 100);
    return s.type === 'int' ? Math.round(n) : n;
  };
  return el;
}

function readSetting(el) {
  return el.readValue();
}

/** A number input for a catalog option {name, type, doc, ge?, gt?, le?}; empty reads null. */
function optionInput(o, testid) {
  const whole = o.type === 'int';
  let min = o.ge;
  if (min === undefined && o.gt !== undefined && whole) min = Math.floor(o.gt) + 1;
  const el = h('input', {
    type: 'number',
    name: o.name,
    step: whole ? 1 : 'any',
    min: min ?? null,
    max: o.le ?? null,
    title: tip(o.doc),
    'data-testid': testid,
  });
  el.readValue = () => {
    const n = Number(el.value);
    if (el.value === '' || Number.isNaN(n)) return null;
    return whole ? Math.round(n) : n;
  };
  return el;
}

/**
 * Any option of the catalog as a form field set to a preset's value: a checkbox (bool), a list
 * (choice), a number (int, float; empty when nullable), or text for a tuple (numbers separated
 * by commas; groups of numbers by spaces within a group: "0 2, 1 3"). `read()` gives the value
 * in the catalog's type, `set(v)` shows a value.
 */
function optionField(game, o) {
  let el;
  const attrs = { name: o.name, title: tip(o.doc), 'data-testid': `opt-${o.name}` };
  if (o.type === 'bool') {
    el = h('input', { type: 'checkbox', ...attrs });
    el.read = () => el.checked;
    el.set = (v) => (el.checked = Boolean(v));
    const label = h('label', { class: 'check', title: tip(o.doc) }, el, h('span', {}, optionLabel(game, o.name)));
    return { o, el, label };
  }
  if (o.type === 'choice') {
    el = h('select', attrs, o.choices.map((v) => h('option', { value: String(v) }, choiceLabel(game, o.name, v))));
    el.read = () => o.choices.find((v) => String(v) === el.value);
    el.set = (v) => (el.value = String(v));
  } else if (o.type === 'int' || o.type === 'float') {
    el = optionInput(o, attrs['data-testid']);
    el.read = () => el.readValue();
    el.set = (v) => (el.value = v === null || v === undefined ? '' : String(v));
    if (o.nullable) el.placeholder = t('create.none');
  } else {
    const nested = o.item?.type === 'tuple';
    el = h('input', { type: 'text', spellcheck: 'false', ...attrs });
    const nums = (text) => text.trim().split(/\s+/).filter(Boolean).map(Number);
    el.read = () => {
      const parts = el.value.split(',').filter((x) => x.trim());
      return nested ? parts.map(nums) : parts.map((x) => Number(x.trim()));
    };
    el.set = (v) => (el.value = (v || []).map((x) => (Array.isArray(x) ? x.join(' ') : String(x))).join(', '));
  }
  return { o, el, label: field(optionLabel(game, o.name), el) };
}

const sameValue = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Say why a field is refused, under it (empty text: nothing to say). */
function fieldError(input, text) {
  const box = input.closest('.field') || input.parentElement;
  let note = box.querySelector(':scope > .field-error');
  if (!note) {
    note = h('small', { class: 'field-error', role: 'alert', 'data-testid': `field-error-${input.name}` });
    box.append(note);
  }
  note.textContent = text;
  note.hidden = !text;
  input.setAttribute('aria-invalid', String(Boolean(text)));
}

function clearFieldErrors(form) {
  form.querySelectorAll('.field-error').forEach((n) => {
    n.textContent = '';
    n.hidden = true;
  });
  form.querySelectorAll('[aria-invalid=true]').forEach((i) => i.setAttribute('aria-invalid', 'false'));
}

/**
 * Check the visible fields against their limits (the catalog's, set as min/max on each input);
 * say what is wrong under each refused one. Returns the first refused input, or null.
 */
function checkFields(form) {
  let first = null;
  for (const input of form.querySelectorAll('input, select, textarea')) {
    if (input.closest('[hidden]') || input.checkValidity()) continue;
    const v = input.validity;
    let text = input.validationMessage;
    if (v.rangeUnderflow) text = t('create.err_min', { min: input.min });
    else if (v.rangeOverflow) text = t('create.err_max', { max: input.max });
    else if (v.stepMismatch && input.step === '0.01') text = t('create.err_cents');
    else if (v.badInput || v.stepMismatch) text = t('create.err_number');
    else if (v.valueMissing) text = t('create.err_missing');
    fieldError(input, text);
    first ??= input;
  }
  return first;
}

/** A refusal from the server that names a field (an option's name): said under that field too. */
function placeServerError(form, message) {
  for (const input of form.querySelectorAll('[name]')) {
    if (input.closest('[hidden]')) continue;
    if (new RegExp(`\\b${input.name}\\b`).test(message || '')) {
      input.closest('details')?.setAttribute('open', '');
      fieldError(input, message);
      return;
    }
  }
}

/** Inputs side by side, two a row. */
function rows(fields) {
  const out = [];
  for (let i = 0; i < fields.length; i += 2) out.push(h('div', { class: 'field-row' }, fields.slice(i, i + 2)));
  return out;
}

/** A game whose settings are plain inputs (casino stakes, poker level and deck...). */
function plainSection(g) {
  const inputs = g.settings.filter((s) => s.type !== 'options').map((s) => ({ s, el: settingInput(g.name, s) }));
  const hint = has(`create.${g.name}_hint`) ? h('p', { class: 'hint' }, t(`create.${g.name}_hint`)) : null;
  const el = h(
    'div',
    { class: 'form-section', 'data-game': g.name },
    rows(inputs.map(({ s, el: input }) => field(settingLabel(s.name), input))),
    hint,
  );
  const body = () => Object.fromEntries(inputs.map(({ s, el: input }) => [s.name, readSetting(input)]));
  return { game: g.name, el, body };
}

/** UNO: preset, seats, computer players, match, and the featured options over the preset. */
function unoSection(g) {
  const settings = Object.fromEntries(g.settings.map((s) => [s.name, s]));
  const opts = Object.fromEntries(g.options.map((o) => [o.name, o]));
  const preset = settingInput('uno', settings.preset);
  const seats = settingInput('uno', settings.seats);
  const bots = settingInput('uno', settings.bots);
  const current = () => byName(g.presets, preset.value);
  const presetDesc = h('small', { class: 'hint' });
  const match = h(
    'select',
    { name: 'match', title: opts.match.doc, 'data-testid': 'match' },
    h('option', { value: '' }, t('create.preset_default')),
    opts.match.choices.map((m) => h('option', { value: m }, choiceLabel('uno', 'match', m))),
  );
  const target = h('input', { type: 'number', name: 'target', step: 1, title: opts.target.doc });
  const hands = h('input', { type: 'number', name: 'fixed_hands', step: 1, title: opts.fixed_hands.doc });
  // every other option of the catalog, as form fields under "More options": the featured ones
  // first, then the rest (the players, dealing, the +4, scoring, timers...)
  const SHOWN = new Set(['match', 'target', 'fixed_hands', 'min_players', 'max_players']);
  const order = [...FEATURED_FLAGS, ...FEATURED_CHOICES];
  const more = [...g.options]
    .filter((o) => !SHOWN.has(o.name))
    .sort((a, b) => (order.includes(b.name) ? 1 : 0) - (order.includes(a.name) ? 1 : 0))
    .map((o) => optionField('uno', o));
  const targetField = field(t('create.target'), target);
  const handsField = field(t('create.fixed_hands'), hands);
  const syncMatch = () => {
    const m = match.value || current().match;
    targetField.hidden = m !== 'target_points';
    handsField.hidden = m !== 'fixed_hands';
  };
  const syncPreset = () => {
    const p = current();
    seats.min = p.min_players;
    seats.max = p.max_players;
    seats.value = Math.min(p.max_players, Math.max(p.min_players, Number(seats.value) || settings.seats.default));
    presetDesc.textContent = presetDoc('uno', p);
    target.value = p.target;
    hands.value = p.fixed_hands;
    for (const { o, el } of more) el.set(p.values[o.name]);
    syncMatch();
  };
  preset.addEventListener('change', syncPreset);
  match.addEventListener('change', syncMatch);
  const el = h(
    'div',
    { class: 'form-section', 'data-game': 'uno' },
    h(
      'div',
      { class: 'field-row' },
      field(settingLabel('preset'), preset),
      field(settingLabel('seats'), seats, t('create.seats_hint')),
    ),
    presetDesc,
    h('div', { class: 'field-row' }, field(settingLabel('bots'), bots), field(t('create.match'), match)),
    h('div', { class: 'field-row' }, targetField, handsField),
    h(
      'details',
      { class: 'options' },
      h('summary', {}, t('create.options')),
      h(
        'div',
        { class: 'checks' },
        more.filter((x) => x.o.type === 'bool').map((x) => x.label),
      ),
      h('div', { class: 'options-grid' }, more.filter((x) => x.o.type !== 'bool').map((x) => x.label)),
    ),
  );
  const body = () => {
    const p = current();
    const out = { preset: p.name, seats: readSetting(seats), bots: readSetting(bots) };
    const options = {};
    if (match.value) options.match = match.value;
    const m = match.value || p.match;
    if (m === 'target_points' && Number(target.value) !== p.target) options.target = Number(target.value);
    if (m === 'fixed_hands' && Number(hands.value) !== p.fixed_hands) options.fixed_hands = Number(hands.value);
    // only what differs from the preset travels
    for (const { o, el } of more) {
      const v = el.read();
      if (!sameValue(v, p.values[o.name])) options[o.name] = v;
    }
    if (Object.keys(options).length) out.options = options;
    return out;
  };
  syncPreset();
  return { game: 'uno', el, body };
}

/** Draw poker: preset, computer level, and the featured options over the preset. */
const POKER_FEATURED = ['ante', 'bankroll', 'max_raises', 'item_value'];

/** The computer's items as a list field: names separated by commas ("hat, scarf, watch"). */
function itemsInput(o) {
  const el = h('input', { type: 'text', name: o.name, title: o.doc, 'data-testid': 'poker-items', spellcheck: 'false' });
  // the default items in the player's language; one of them typed back travels as its code
  el.readValue = () =>
    el.value
      .split(',')
      .map((x) => itemCode(x.trim()))
      .filter(Boolean);
  el.setValue = (names) => (el.value = (names || []).map((n) => itemName(n)).join(', '));
  return el;
}

function pokerSection(g) {
  const settings = Object.fromEntries(g.settings.map((s) => [s.name, s]));
  const opts = Object.fromEntries(g.options.map((o) => [o.name, o]));
  const preset = settingInput('poker', settings.preset, 'poker-preset');
  const level = settingInput('poker', settings.level, 'poker-level');
  const current = () => byName(g.presets, preset.value);
  const presetDesc = h('small', { class: 'hint' });
  const numbers = POKER_FEATURED.filter((k) => opts[k]?.type === 'int').map((k) => ({
    k,
    el: optionInput(opts[k], `poker-${k.replaceAll('_', '-')}`),
  }));
  const items = opts.items ? itemsInput(opts.items) : null;
  const syncPreset = () => {
    const p = current();
    presetDesc.textContent = presetDoc('poker', p);
    for (const { k, el } of numbers) el.value = p.values[k];
    items?.setValue(p.values.items);
  };
  preset.addEventListener('change', syncPreset);
  const el = h(
    'div',
    { class: 'form-section', 'data-game': 'poker' },
    h('div', { class: 'field-row' }, field(settingLabel('preset'), preset), field(settingLabel('level'), level)),
    presetDesc,
    rows(numbers.map(({ k, el: input }) => field(optionLabel('poker', k), input))),
    items ? field(optionLabel('poker', 'items'), items, t('poker.items_hint')) : null,
    has('create.poker_hint') ? h('p', { class: 'hint' }, t('create.poker_hint')) : null,
  );
  // only what differs from the preset travels, as UNO's options do
  const body = () => {
    const p = current();
    const out = { preset: p.name, level: readSetting(level) };
    const options = {};
    for (const { k, el: input } of numbers) {
      const v = input.readValue();
      if (v !== null && v !== p.values[k]) options[k] = v;
    }
    if (items) {
      const names = items.readValue();
      if (names.join(',') !== (p.values.items || []).join(',')) options.items = names;
    }
    if (Object.keys(options).length) out.options = options;
    return out;
  };
  syncPreset();
  return { game: 'poker', el, body };
}

export default {
  mount(root, _params, app) {
    root.className = 'page page-lobby';
    this.app = app;
    // quick play: a button per game (per preset for UNO) that seats the player at once
    this.quickBox = h('div', { class: 'quick-play', role: 'group', 'aria-label': t('lobby.quick') });
    const cat = catalogNow();
    if (cat) this.drawQuick(cat);
    else loadCatalog().then((c) => this.drawQuick(c), () => {});
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

    let lastTables = [];
    // one filter per game with tables in the list, and "all"
    const filters = h('div', { class: 'lobby-filters', role: 'group', 'aria-label': t('lobby.filter') });
    const drawFilters = (tables) => {
      const games = [...new Set(tables.map((tb) => tb.game))];
      if (listState.game !== 'all' && !games.includes(listState.game)) listState.game = 'all';
      fill(
        filters,
        ['all', ...games].map((g) =>
          h(
            'button',
            {
              type: 'button',
              class: 'btn btn-small filter-btn',
              'aria-pressed': String(listState.game === g),
              'data-testid': `filter-${g}`,
              onclick: () => {
                listState.game = g;
                drawList(lastTables);
              },
            },
            g === 'all' ? t('lobby.all_games') : gameName(g),
            ' ',
            h('span', { class: 'muted' }, String(g === 'all' ? tables.length : tables.filter((tb) => tb.game === g).length)),
          ),
        ),
      );
      filters.hidden = games.length < 2;
    };
    const drawList = (all) => {
      lastTables = all;
      drawFilters(all);
      const tables = listState.game === 'all' ? all : all.filter((tb) => tb.game === listState.game);
      clear(listBox);
      if (!tables.length) {
        listBox.append(h('p', { class: 'empty' }, t('lobby.no_tables')));
        return;
      }
      for (const tb of tables) {
        const mine = tb.seats.some((s) => !s.bot && s.name === me.username);
        const free = tb.seats.filter((s) => s.free).length;
        // a game that seats nobody once it runs (UNO) shows no Join while it plays
        const later = gameInfo(catalogNow(), tb.game)?.table_rules.seat_after_start ?? true;
        const canJoin = !mine && free > 0 && !(tb.status === 'playing' && !later);
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
        // a table being played may be watched (no seat needed)
        if (!mine && tb.status === 'playing')
          actions.append(
            h(
              'button',
              {
                type: 'button',
                class: 'btn btn-ghost btn-small',
                'data-testid': `watch-${tb.id}`,
                onclick: () => this.watch(tb.id),
              },
              t('lobby.watch'),
            ),
          );
        listBox.append(
          h(
            'article',
            { class: `table-row game-${tb.game}`, 'data-table': tb.id },
            h(
              'div',
              { class: 'table-head' },
              h('span', { class: `badge badge-${tb.game}` }, gameName(tb.game)),
              h('h3', {}, tableName(tb), h('span', { class: 'muted' }, ` #${tb.id}`)),
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
          this.quickBox,
          filters,
          listBox,
        ),
        this.createForm(app),
      ),
    );
    refresh();
    loadCatalog().then(refresh, () => {}); // the list's summaries read the presets
    this.timer = setInterval(refresh, REFRESH_MS);
  },

  unmount() {
    clearInterval(this.timer);
  },

  /** The quick-play buttons from the catalog: UNO's presets (the casino's own aside), poker,
   * the casino. */
  drawQuick(cat) {
    const buttons = [];
    for (const g of cat.games) {
      if (g.name === 'uno') {
        for (const p of g.presets.filter((x) => x.name !== 'casino'))
          buttons.push(this.quickButton('uno', p.name, `${gameName('uno')} · ${presetName('uno', p.name)}`));
      } else buttons.push(this.quickButton(g.name, null, gameName(g.name)));
    }
    fill(this.quickBox, h('span', { class: 'quick-label' }, t('lobby.quick')), ...buttons);
  },

  quickButton(game, preset, label) {
    return h(
      'button',
      {
        type: 'button',
        class: 'btn btn-small quick-btn',
        'data-testid': `quick-${game}${preset ? `-${preset}` : ''}`,
        onclick: () => this.quick(game, preset),
      },
      label,
    );
  },

  /** Sit at the fullest quick table of the game (and preset), or at a new one. */
  async quick(game, preset) {
    try {
      const row = await post('/api/quickplay', preset ? { game, preset } : { game });
      this.app.go(`/table/${row.id}`);
    } catch (e) {
      showError(e.code, e.message);
    }
  },

  /** Watch a table being played: its page opens as a spectator's (#/watch/<id>). */
  watch(id) {
    this.app.go(`/watch/${id}`);
  },

  async join(id) {
    try {
      await post(`/api/tables/${id}/join`);
      this.app.go(`/table/${id}`);
    } catch (e) {
      showError(e.code, e.message);
    }
  },

  /** The create-table form, built from the catalog (GET /api/catalog) once it is here. */
  createForm(app) {
    const aside = h('aside', { class: 'lobby-create' });
    const build = (cat) => fill(aside, this.buildForm(app, cat));
    const cat = catalogNow();
    if (cat) build(cat);
    else {
      aside.append(h('p', { class: 'card-panel muted' }, t('create.loading')));
      loadCatalog().then(build, (e) =>
        fill(
          aside,
          h('p', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' }, errorText(e.code, e.message)),
        ),
      );
    }
    return aside;
  },

  /** The form itself: game, name, the game's settings and options, time limit. */
  buildForm(app, cat) {
    const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'create-error' });
    const games = cat.games.map((g) => g.name);
    if (!games.includes(formState.game)) formState.game = games[0];
    const gamePick = h(
      'fieldset',
      { class: 'segmented' },
      h('legend', {}, t('create.game')),
      games.map((g) =>
        h(
          'label',
          { class: 'seg', title: gameInfo(cat, g).doc },
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
    const nameSetting = byName(cat.table, 'name');
    const name = h('input', {
      name: 'name',
      maxlength: nameSetting.max_length,
      placeholder: t('create.name_placeholder'),
      title: nameSetting.doc,
      'data-testid': 'table-name',
    });
    const seconds = settingInput('table', byName(cat.table, 'decision_seconds'), 'decision-seconds');
    // how long each computer player thinks before a move (the server paces the table)
    const pace = settingInput('table', byName(cat.table, 'bot_delay'), 'bot-delay');

    const builders = { uno: unoSection, poker: pokerSection };
    const sections = cat.games.map((g) => (builders[g.name] || plainSection)(g));
    const showSection = () => sections.forEach((s) => (s.el.hidden = s.game !== formState.game));

    const body = () => {
      const g = formState.game;
      const out = { game: g, name: name.value.trim(), decision_seconds: readSetting(seconds), bot_delay: readSetting(pace) };
      Object.assign(out, sections.find((s) => s.game === g).body());
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
      ...sections.map((sec) => sec.el),
      field(t('create.time_limit'), seconds, t('create.time_limit_hint')),
      field(t('create.bot_delay'), pace, t('create.bot_delay_hint')),
      error,
      submit,
    );
    form.noValidate = true; // refusals are said in words, next to their fields
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      clearFieldErrors(form);
      const wrong = checkFields(form);
      if (wrong) {
        error.textContent = t('create.fix_fields');
        wrong.closest('details')?.setAttribute('open', '');
        wrong.focus();
        return;
      }
      const req = body();
      submit.disabled = true;
      try {
        const tb = await post('/api/tables', req);
        await post(`/api/tables/${tb.id}/join`);
        app.go(`/table/${tb.id}`);
      } catch (err) {
        if (err instanceof ApiError) placeServerError(form, err.message);
        error.textContent =
          err instanceof ApiError
            ? `${errorText(err.code, err.message)}${err.message && errorText(err.code, err.message) !== err.message ? ` — ${err.message}` : ''}`
            : String(err);
      } finally {
        submit.disabled = false;
      }
    });
    showSection();
    return form;
  },
};
