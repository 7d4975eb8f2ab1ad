// The games and what a table of each may be created with: GET /api/catalog, which the server
// generates from the rules (mazziere.catalog). Fetched once per page load and kept; the client
// copies no rule facts (presets, seat limits, choices, levels, decks, stakes).
import { get } from './api.js';
import { t } from './i18n.js';

let data = null;
let pending = null;

/** The catalog (a promise; one request however many callers). */
export function loadCatalog() {
  if (data) return Promise.resolve(data);
  if (!pending) {
    pending = get('/api/catalog')
      .then((c) => (data = c))
      .finally(() => (pending = null));
  }
  return pending;
}

/** The catalog if it has arrived, else null. */
export function catalogNow() {
  return data;
}

/** The entry called `name` of a list of {name, ...} (null if none). */
export function byName(list, name) {
  return (list || []).find((x) => x.name === name) || null;
}

/** One game of the catalog. */
export function gameInfo(cat, game) {
  return byName(cat?.games, game);
}

/** One preset of a game ({name, doc, min_players, max_players, match, values, ...}). */
export function presetInfo(cat, game, preset) {
  return byName(gameInfo(cat, game)?.presets, preset);
}

/**
 * A table's name as the lobby and the table's page show it: as its creator typed it, or, for
 * a table created without one, the game's table in the player's language ("Tavolo UNO"). The
 * server's own default name of a table kept before ("uno table") counts as none.
 */
export function tableName(row) {
  const name = String(row?.name ?? '').trim();
  if (name && name !== `${row.game} table`) return name;
  return t('table.unnamed', { game: t(`game.${row?.game}`) });
}
