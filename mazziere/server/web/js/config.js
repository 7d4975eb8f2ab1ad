// Settings of the client that an operator may need to change.
import { loadCatalog } from './catalog.js';

// ---------------------------------------------------------------------------------------------
// CASINO RTP: the return to player the project MEASURED, shown on the UNO CASINO rules page.
// From `mazziere rtp --rounds 100000000 --json` (seed 1, compiled kernel proven equal to the
// readable engine): rtp 0.96138, 95% CI [0.96113, 0.96164]. Re-run after any rule change and
// update both languages together.
export const CASINO_RTP_TEXT = {
  en: 'RTP measured: 96.14% (95% confidence interval 96.11%-96.16%, 100,000,000 simulated rounds with the published strategies)',
  it: 'RTP misurato: 96,14% (intervallo di confidenza al 95%: 96,11%-96,16%, 100.000.000 round simulati con le strategie pubblicate)',
};
// ---------------------------------------------------------------------------------------------

/**
 * The limits the server enforces and the forms tell before sending: GET /api/catalog publishes
 * them (`limits`) from the server's one definition. `PASSWORD_LENGTH` ({min, max}) and
 * `USERNAME_LENGTH` are filled in when the catalog arrives; `loadLimits()` waits for it.
 */
export const PASSWORD_LENGTH = { min: null, max: null };
export const USERNAME_LENGTH = { min: null, max: null };
export function loadLimits() {
  return loadCatalog().then((c) => {
    Object.assign(PASSWORD_LENGTH, c.limits.password);
    Object.assign(USERNAME_LENGTH, { min: c.limits.username.min, max: c.limits.username.max });
    return c.limits;
  });
}

/** How long the client keeps trying to reconnect after losing the connection (platform.md). */
export const RECONNECT_WINDOW_MS = 120_000;

/** Back-off between reconnection attempts: first delay, growth factor and ceiling. */
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_FACTOR = 1.8;
export const RECONNECT_MAX_MS = 15_000;

/** Keep-alive ping while connected (the protocol's `ping`). */
export const PING_MS = 25_000;
