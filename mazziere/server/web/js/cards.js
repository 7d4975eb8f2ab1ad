// Drawing cards with HTML and CSS only: UNO faces (R7, GS, BR, YD2, W, W4), UNO backs, and
// French cards for draw poker (Ah, Td, 7c).
import { t } from './i18n.js';
import { h } from './ui.js';

export const COLORS = ['R', 'Y', 'G', 'B'];

/** Split a UNO card code: {color: 'R'|'Y'|'G'|'B'|null, rank: '7'|'S'|'R'|'D2'|'W'|'W4'}. */
export function parseUno(code) {
  if (code === 'W' || code === 'W4') return { color: null, rank: code };
  return { color: code[0], rank: code.slice(1) };
}

/** The symbol printed in the middle of a UNO card. */
function unoSymbol(rank) {
  switch (rank) {
    case 'S':
      return '⊘';
    case 'R':
      return '⇄';
    case 'D2':
      return '+2';
    case 'W':
      return '';
    case 'W4':
      return '+4';
    default:
      return rank;
  }
}

/** The card's name in words, e.g. "Red 7", "Blue Skip", "Wild Draw Four". */
export function unoName(code) {
  if (!code) return '—';
  const { color, rank } = parseUno(code);
  const rankName = /^\d$/.test(rank) ? rank : t(`uno.rank.${rank}`);
  if (!color) return rankName;
  return t('uno.card', { color: t(`color.${color}`), rank: rankName });
}

/** A UNO card face. `tag` 'button' for a hand card, 'div' for a shown card. */
export function unoCard(code, { tag = 'div', attrs = {}, small = false } = {}) {
  const { color, rank } = parseUno(code);
  const sym = unoSymbol(rank);
  const wild = color === null;
  const el = h(
    tag,
    {
      class: `card uno ${wild ? 'c-W' : `c-${color}`} r-${rank}${small ? ' card-small' : ''}`,
      'data-code': code,
      'aria-label': unoName(code),
      title: unoName(code),
      ...(tag === 'button' ? { type: 'button' } : {}),
      ...attrs,
    },
    h('span', { class: 'corner tl', 'aria-hidden': 'true' }, sym || 'W'),
    h(
      'span',
      { class: 'oval', 'aria-hidden': 'true' },
      wild ? h('span', { class: 'wheel' }) : null,
      sym ? h('span', { class: 'sym' }, sym) : null,
    ),
    h('span', { class: 'corner br', 'aria-hidden': 'true' }, sym || 'W'),
  );
  return el;
}

/** The back of a UNO card (draw pile, other players' hands). */
export function unoBack({ small = false, label = null } = {}) {
  return h(
    'div',
    { class: `card back${small ? ' card-small' : ''}`, 'aria-hidden': label ? null : 'true', 'aria-label': label },
    h('span', { class: 'back-oval' }, h('span', { class: 'back-text' }, 'M')),
  );
}

/** A UNO card as a small coloured chip, for the log and the replay. */
export function miniUno(code) {
  const { color, rank } = parseUno(code);
  return h(
    'span',
    { class: `mini ${color ? `c-${color}` : 'c-W'}`, title: unoName(code) },
    color ? unoSymbol(rank) || rank : rank === 'W4' ? '+4' : 'W',
  );
}

/** Several UNO codes as chips in one span. */
export function miniUnoList(codes) {
  return h('span', { class: 'mini-list' }, codes.map(miniUno));
}

/** A swatch of one of the four colours. */
export function colorDot(letter) {
  return h('span', { class: `color-dot c-${letter || 'W'}`, title: letter ? t(`color.${letter}`) : '' });
}

// ------------------------------------------------------------------------------------ poker
const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };

export function parsePoker(code) {
  const r = code.slice(0, -1).toUpperCase();
  const s = code.slice(-1).toLowerCase();
  return { rank: r === 'T' ? '10' : r, suit: s };
}

export function pokerName(code) {
  const { rank, suit } = parsePoker(code);
  return t('poker.card', { rank: t(`poker.rank.${rank}`), suit: t(`poker.suit.${suit}`) });
}

/** A French playing card. */
export function pokerCard(code, { tag = 'div', attrs = {}, small = false } = {}) {
  const { rank, suit } = parsePoker(code);
  const red = suit === 'h' || suit === 'd';
  return h(
    tag,
    {
      class: `card poker ${red ? 'suit-red' : 'suit-black'}${small ? ' card-small' : ''}`,
      'data-code': code,
      'aria-label': pokerName(code),
      title: pokerName(code),
      ...(tag === 'button' ? { type: 'button' } : {}),
      ...attrs,
    },
    h('span', { class: 'corner tl', 'aria-hidden': 'true' }, rank, h('br'), SUITS[suit]),
    h('span', { class: 'pip', 'aria-hidden': 'true' }, SUITS[suit]),
    h('span', { class: 'corner br', 'aria-hidden': 'true' }, rank, h('br'), SUITS[suit]),
  );
}

export function pokerBack({ small = false } = {}) {
  return h(
    'div',
    { class: `card back poker-back${small ? ' card-small' : ''}`, 'aria-hidden': 'true' },
    h('span', { class: 'back-oval' }, h('span', { class: 'back-text' }, 'M')),
  );
}

export function miniPoker(code) {
  const { rank, suit } = parsePoker(code);
  const red = suit === 'h' || suit === 'd';
  return h(
    'span',
    { class: `mini mini-poker ${red ? 'suit-red' : 'suit-black'}`, title: pokerName(code) },
    `${rank}${SUITS[suit]}`,
  );
}
