// The player's own display settings, kept in this browser: a colour-blind
// mode (each UNO colour also has its own symbol and pattern) and sounds made in the browser
// (Web Audio, no files), off by default, with a mute toggle.
import { t } from './i18n.js';
import { h } from './ui.js';

const CB = 'mazziere.colorblind';
const SOUND = 'mazziere.sound';

export const colorBlind = () => localStorage.getItem(CB) === '1';
export const soundOn = () => localStorage.getItem(SOUND) === '1';

/** Put the colour-blind mode on the page (a class on <html> the CSS reads). */
export function applyPrefs() {
  document.documentElement.classList.toggle('cb', colorBlind());
}

function toggle(key, on) {
  localStorage.setItem(key, on ? '1' : '0');
  applyPrefs();
}

/** The two switches, as pressed/unpressed buttons. */
export function prefButtons() {
  const cb = h('button', {
    type: 'button',
    class: 'btn btn-ghost btn-small pref-btn',
    'data-testid': 'colorblind',
    'aria-pressed': String(colorBlind()),
    title: t('prefs.colorblind_hint'),
  });
  const snd = h('button', {
    type: 'button',
    class: 'btn btn-ghost btn-small pref-btn',
    'data-testid': 'sound',
    'aria-pressed': String(soundOn()),
  });
  const label = () => {
    cb.textContent = t('prefs.colorblind');
    cb.setAttribute('aria-pressed', String(colorBlind()));
    snd.textContent = `♪ ${soundOn() ? t('prefs.sound_on') : t('prefs.sound_off')}`;
    snd.setAttribute('aria-pressed', String(soundOn()));
    snd.title = soundOn() ? t('prefs.mute') : t('prefs.unmute');
  };
  cb.addEventListener('click', () => {
    toggle(CB, !colorBlind());
    label();
  });
  snd.addEventListener('click', () => {
    toggle(SOUND, !soundOn());
    label();
    if (soundOn()) sound('turn'); // a first sound says it works (and unlocks audio)
  });
  label();
  return [cb, snd];
}

// ---------------------------------------------------------------------------------- sounds
let audio = null;

/** Notes of each sound: [frequency Hz, start s, length s, wave]. */
const TUNES = {
  card: [[520, 0, 0.07, 'triangle']],
  draw: [[330, 0, 0.06, 'sine'], [392, 0.05, 0.06, 'sine']],
  turn: [[660, 0, 0.12, 'sine'], [880, 0.12, 0.16, 'sine']],
  win: [[523, 0, 0.12, 'triangle'], [659, 0.12, 0.12, 'triangle'], [784, 0.24, 0.22, 'triangle']],
};

/** Play a short sound made here (nothing when sounds are off). */
export function sound(kind) {
  if (!soundOn() || !TUNES[kind]) return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [f, at, len, wave] of TUNES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.12, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.02);
    }
    const played = document.documentElement.dataset;
    played.sounds = String(Number(played.sounds || 0) + 1); // tests (and the curious) can count them
  } catch {
    // no audio here: the game goes on silently
  }
}

/** The sounds an update makes: a card played or drawn, a decision that became this player's. */
export function soundsFor(msg, previous) {
  if (!soundOn()) return;
  const types = new Set((msg.events || []).map((e) => e.type));
  if (types.has('played') || types.has('opened') || types.has('raised')) sound('card');
  else if (types.has('drew') || types.has('dealt')) sound('draw');
  const mine = (m) => Boolean(m?.legal?.length);
  if (mine(msg) && !mine(previous)) setTimeout(() => sound('turn'), 150);
}
