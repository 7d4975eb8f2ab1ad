// Cards that move: a card travels from a hand to the pile, from the deck to
// a hand, the deal goes round the table. The server paces the computer players (one move per
// update), so each update's events are animated as they come. The player picks the speed
// (normal, fast, instant); a system asking for reduced motion gets instant.
import { t } from './i18n.js';
import { h } from './ui.js';

const KEY = 'mazziere.speed';
export const SPEEDS = { normal: 1, fast: 0.45, instant: 0 };
const BASE_MS = 420;

export function speed() {
  const s = localStorage.getItem(KEY);
  return s in SPEEDS ? s : 'normal';
}

export function setSpeed(s) {
  if (s in SPEEDS) localStorage.setItem(KEY, s);
}

/** How long one card's travel lasts now, in ms (0: no animation at all). */
export function travelMs() {
  if (matchMedia('(prefers-reduced-motion: reduce)').matches) return 0;
  return Math.round(BASE_MS * SPEEDS[speed()]);
}

/** The speed setting as a small select (data-testid "speed"). */
export function speedPicker() {
  const sel = h(
    'select',
    { class: 'speed-picker', 'aria-label': t('motion.speed'), title: t('motion.speed'), 'data-testid': 'speed' },
    Object.keys(SPEEDS).map((s) => h('option', { value: s, selected: s === speed() }, t(`motion.speed.${s}`))),
  );
  sel.addEventListener('change', () => setSpeed(sel.value));
  return sel;
}

const center = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** The flights under way (or waiting for their delay): a result waits until they land. */
const flights = new Set();

/**
 * A promise that resolves once no card is in flight: the flights this task starts count too
 * (it waits for the task to end first). A result, a hand's end, a celebration wait for it, so
 * nothing flies across them.
 */
export function motionDone() {
  const settle = () => (flights.size ? Promise.all([...flights]).then(settle) : Promise.resolve());
  return new Promise((resolve) => setTimeout(resolve, 0)).then(settle);
}

/**
 * A card (a node: a face or a back) travels from `from` to `to` (elements), starting after
 * `delay` ms. Nothing happens when an end is missing or motion is off. Returns a promise.
 */
export function fly(node, from, to, delay = 0) {
  const ms = travelMs();
  if (!ms || !from || !to || !node) return Promise.resolve();
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return Promise.resolve();
  const ghost = h('div', { class: 'flying-card', 'aria-hidden': 'true', 'data-testid': 'flying-card' }, node);
  document.body.append(ghost);
  const gr = ghost.getBoundingClientRect();
  const p = center(a);
  const q = center(b);
  const x0 = p.x - gr.width / 2;
  const y0 = p.y - gr.height / 2;
  ghost.style.left = `${x0}px`;
  ghost.style.top = `${y0}px`;
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const anim = ghost.animate(
    [
      { transform: 'translate(0, 0) rotate(0deg) scale(1)', opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) rotate(8deg) scale(1)`, opacity: 1 },
    ],
    { duration: ms, delay, easing: 'cubic-bezier(.2,.7,.3,1)', fill: 'both' },
  );
  const done = anim.finished.then(
    () => ghost.remove(),
    () => ghost.remove(),
  );
  flights.add(done);
  done.then(() => flights.delete(done));
  return done;
}

/**
 * How long a moment stays (a showdown, a hand's result) before the game goes on, in ms: `base`
 * at the normal speed, shorter when faster; or as stored under `mazziere.moment_ms` (a player
 * who reads slowly, a test that looks at it at leisure).
 */
export function momentMs(base) {
  const stored = Number(localStorage.getItem('mazziere.moment_ms'));
  if (stored > 0) return stored;
  return Math.round(base * (0.5 + 0.5 * Math.min(1, SPEEDS[speed()] / SPEEDS.normal)));
}

const COLORS = ['#e53935', '#fdd835', '#43a047', '#1e88e5', '#f4c04e'];

/** A short burst of confetti over `el` (a won hand, a won match); none without motion. */
export function celebrate(el) {
  if (!travelMs() || !el) return;
  const burst = h('div', { class: 'celebration', 'aria-hidden': 'true', 'data-testid': 'celebration' });
  for (let i = 0; i < 28; i++) {
    const angle = (i / 28) * Math.PI * 2;
    const reach = 120 + ((i * 37) % 90);
    const piece = h('span', {
      class: 'confetti',
      style: {
        '--dx': `${Math.round(Math.cos(angle) * reach)}px`,
        '--dy': `${Math.round(Math.sin(angle) * reach - 60)}px`,
        '--turn': `${(i * 53) % 360}deg`,
        background: COLORS[i % COLORS.length],
        animationDelay: `${(i % 5) * 40}ms`,
      },
    });
    burst.append(piece);
  }
  el.append(burst);
  setTimeout(() => burst.remove(), 2200);
}
