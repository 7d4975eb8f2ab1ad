// A five-card hand's class (its category and the ranks that decide ties, most significant
// first, as the server's evaluator ranks them: draw-poker.md "Hands") and its name in the
// player's language: "Pair of sixes, king, nine and four kickers", "Coppia di sei, kicker re,
// nove e quattro". The server's structured class of a shown hand is used when it sends one;
// the player's own hand during play is classed here from its cards.
import { cap, t } from '../../i18n.js';
import './messages.js';

const RANKS = '23456789TJQKA';
const ACE = 12;
const SEVEN = 5;

/** The rank index (0 = two .. 12 = ace) of a card's code ("Ah", "Td", "7c"). */
const rankOf = (code) => RANKS.indexOf(String(code)[0] === '1' ? 'T' : String(code)[0]);

/**
 * The class of five cards: {category, ranks}. `deck` (52 or 32) sets the lowest straight when
 * the ace plays low (A-2-3-4-5, or A-7-8-9-10 with 32 cards).
 */
export function classify(cards, deck = 52, aceLow = true) {
  if (!Array.isArray(cards) || cards.length !== 5) return null;
  const ranks = cards.map(rankOf);
  if (ranks.some((r) => r < 0)) return null;
  const flush = new Set(cards.map((c) => String(c).slice(-1))).size === 1;
  const count = new Map();
  for (const r of ranks) count.set(r, (count.get(r) || 0) + 1);
  // ranks by how many, then by rank: the order ties are decided in
  const groups = [...count.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const byGroup = groups.map(([r]) => r);
  const shape = groups.map(([, n]) => n).join('');
  let top = null;
  if (count.size === 5) {
    const desc = [...count.keys()].sort((a, b) => b - a);
    if (desc[0] - desc[4] === 4) top = desc[0];
    const lowest = deck === 32 ? SEVEN : 0;
    const rest = desc.slice(1);
    if (aceLow && desc[0] === ACE && rest[3] === lowest && rest[0] - rest[3] === 3) top = rest[0];
  }
  if (top !== null) return { category: flush ? 'straight_flush' : 'straight', ranks: [top] };
  if (shape === '41') return { category: 'four_of_a_kind', ranks: byGroup };
  if (shape === '32') return { category: 'full_house', ranks: byGroup };
  if (flush) return { category: 'flush', ranks: byGroup };
  if (shape === '311') return { category: 'three_of_a_kind', ranks: byGroup };
  if (shape === '221') return { category: 'two_pair', ranks: byGroup };
  if (shape === '2111') return { category: 'pair', ranks: byGroup };
  return { category: 'high_card', ranks: byGroup };
}

/** A rank's name, one or many ("king", "kings"), in the current language. */
const KEYS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const one = (r) => t(`poker.rank.${KEYS[r]}`);
const many = (r) => t(`poker.ranks.${KEYS[r]}`);

/** Ranks named in a row: "king, nine and four". */
function names(ranks) {
  const words = ranks.map(one);
  return words.length > 1 ? t('poker.hand.and', { a: words.slice(0, -1).join(', '), b: words.at(-1) }) : words[0];
}

/**
 * A hand class's name in the current language, capitalised to start a sentence or a label.
 * `cls`: {category, ranks} (ranks as indexes, 0 = two, or as the cards' rank letters).
 */
export function handName(cls, deck = 52) {
  if (!cls?.category) return '';
  const ranks = (cls.ranks || []).map((r) => (typeof r === 'number' ? r : rankOf(r)));
  const [a, b, c] = ranks;
  const kick = ranks.slice(1);
  const k = (key, params) => cap(t(`poker.hand.${key}`, params));
  switch (cls.category) {
    case 'high_card':
      return k('high_card', { r: one(a), rest: names(kick) });
    case 'pair':
      return k('pair', { r: many(a), rest: names(kick) });
    case 'two_pair':
      return k('two_pair', { r: many(a), s: many(b), kick: one(c) });
    case 'three_of_a_kind':
      return k('three_of_a_kind', { r: many(a), rest: names(kick) });
    case 'straight':
    case 'straight_flush': {
      if (cls.category === 'straight_flush' && a === ACE) return k('royal_flush');
      const low = a === (deck === 32 ? SEVEN : 0) + 3;
      return k(low ? `${cls.category}_low` : cls.category, { r: one(a) });
    }
    case 'flush':
      return k('flush', { r: one(a), rest: names(kick) });
    case 'full_house':
      return k('full_house', { r: many(a), s: many(b) });
    case 'four_of_a_kind':
      return k('four_of_a_kind', { r: many(a), kick: one(b) });
    default:
      return cap(String(cls.category).replaceAll('_', ' '));
  }
}

/**
 * The class of a shown hand: the server's structured one when the event carries it (`hand`
 * or `category` with `ranks`), else the cards' own.
 */
export function shownClass(e, deck = 52) {
  const given = e?.hand_class || e?.hand || (e?.category ? { category: e.category, ranks: e.ranks } : null);
  if (given?.category) return given;
  return classify(e?.cards, deck);
}

/**
 * A hand class's short name, for the player's own hand during play ("Pair of sixes"): the
 * category and the ranks that make it, no kickers.
 */
export function shortName(cls, deck = 52) {
  if (!cls?.category) return '';
  const short = ['high_card', 'pair', 'two_pair', 'three_of_a_kind', 'flush', 'four_of_a_kind'];
  if (!short.includes(cls.category)) return handName(cls, deck);
  const ranks = (cls.ranks || []).map((r) => (typeof r === 'number' ? r : rankOf(r)));
  const flat = cls.category === 'high_card' || cls.category === 'flush';
  return cap(t(`poker.short.${cls.category}`, { r: flat ? one(ranks[0]) : many(ranks[0]), s: many(ranks[1]) }));
}
