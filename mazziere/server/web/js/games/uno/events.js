// UNO's events in words for the table log and the replay (ev.* in messages.js), and its
// actions in words; the shared part (events.js) hands every UNO event here.
import { colorDot, miniUnoList } from '../../cards.js';
import { list, reasonText, registerActionWords, registerDescriber } from '../../events.js';
import { has, t, tNodes } from '../../i18n.js';
import { h } from '../../ui.js';
import './messages.js';

/** A colour code as a dot and its name ("● red"). */
const colorName = (c) => h('span', {}, colorDot(c), ' ', t(`color.${c}`));

/** One UNO event (also the casino's UNO events) as a node; undefined if unknown. */
export function describeUno(e, who, node, ctx) {
  switch (e.tag) {
    case 'hand_started':
      return node('ev.hand_started', { hand: Number(e.hand) + 1, dealer: who(e.dealer) }, 'ev-strong', e.dealer);
    case 'dealer_card':
      return node('ev.dealer_card', { who: who(e.seat), card: miniUnoList([e.card]) }, 'ev-muted');
    case 'dealer_chosen':
      return node('ev.dealer_chosen', { who: who(e.seat) });
    case 'dealt':
      if (list(e.cards).length) return node('ev.dealt_own', { cards: miniUnoList(list(e.cards)) });
      return node('ev.dealt', { who: who(e.seat), n: e.count }, 'ev-muted');
    case 'turned':
      return node('ev.turned', { card: miniUnoList([e.card]) });
    case 'returned':
      return node('ev.returned', { card: miniUnoList([e.card]) }, 'ev-muted');
    case 'played': {
      const frag = node('ev.played', { who: who(e.seat), cards: miniUnoList(list(e.cards)) });
      const mine = Number(e.seat) === ctx.me;
      if (e.color) frag.append(' ', tNodes(mine ? 'ev.played_color_me' : 'ev.played_color', { color: colorName(e.color) }));
      if (e.target !== null && e.target !== undefined)
        frag.append(
          ' ',
          Number(e.target) === ctx.me ? t('ev.played_target_you') : tNodes('ev.played_target', { who: who(e.target) }),
        );
      if (e.jump_in) frag.append(' ', t('ev.jump_in'));
      return frag;
    }
    case 'drew': {
      const cards = list(e.cards);
      const why =
        e.reason && !['choice', 'no_play', 'turn'].includes(e.reason) ? ` (${reasonText('draw', e.reason)})` : '';
      if (cards.length) return node('ev.drew_own', { cards: miniUnoList(cards), why });
      return node('ev.drew', { who: who(e.seat), n: e.count, why });
    }
    case 'skipped':
      return node('ev.skipped', { who: who(e.seat) });
    case 'reversed':
      return node('ev.reversed');
    case 'color_chosen':
      return node('ev.color_chosen', { who: who(e.seat), color: colorName(e.color) });
    case 'passed':
      return node('ev.passed', { who: who(e.seat) }, 'ev-muted');
    case 'reshuffled':
      return node('ev.reshuffled', { n: e.count }, 'ev-muted');
    case 'uno_called':
      return node('ev.uno_called', { who: who(e.seat) }, 'ev-strong');
    case 'uno_missed':
      return node('ev.uno_missed', { who: who(e.seat) });
    case 'caught':
      if (Number(e.seat) === ctx.me) return node('ev.caught_you', { by: who(e.by) }, '', null);
      return node('ev.caught', { by: who(e.by), who: who(e.seat) }, '', e.by);
    case 'challenged':
      if (Number(e.seat) === ctx.me)
        return node(
          e.guilty ? 'ev.challenged_you_guilty' : 'ev.challenged_you_innocent',
          { by: who(e.by) },
          '',
          null,
        );
      return node(
        e.guilty ? 'ev.challenged_guilty' : 'ev.challenged_innocent',
        { by: who(e.by), who: who(e.seat) },
        '',
        e.by,
      );
    case 'swapped':
      if (Number(e.other) === ctx.me) return node('ev.swapped_you', { who: who(e.seat) }, '', null);
      return node('ev.swapped', { who: who(e.seat), other: who(e.other) });
    case 'rotated':
      return node('ev.rotated');
    case 'left':
      return node('ev.left', { who: who(e.seat) }, 'ev-warn');
    case 'eliminated':
      return node('ev.eliminated', { who: who(e.seat) }, 'ev-warn');
    case 'hand_ended': {
      if (e.winner === null) return node('ev.hand_ended_none', { why: reasonText('hand', e.reason) }, 'ev-strong');
      // the card points left in the other hands (what the hand is worth)
      const pts = list(e.points).map(Number);
      const won = pts.reduce((a, b, i) => (i === Number(e.winner) ? a : a + b), 0);
      return node('ev.hand_ended', { who: who(e.winner), points: won }, 'ev-strong', e.winner);
    }
    case 'match_ended':
      return node('ev.match_ended', { who: who(e.winner) }, 'ev-strong', e.winner);
    default:
      return undefined;
  }
}

/** A structured UNO action ({text, kind, cards, color, target}) in words ("plays R7"). */
export function unoActionWords(a, nameOf) {
  if (a.kind === 'catch') return t('act.catch', { who: nameOf(a.target) });
  if (a.kind === 'choose_color') return tNodes('act.color', { color: colorName(a.color) });
  if (a.kind === 'play') {
    const words = h('span', {}, t('act.play'), ' ', miniUnoList(list(a.cards)));
    if (a.color) words.append(' ', tNodes('ev.played_color', { color: colorName(a.color) }));
    return words;
  }
  return has(`act.${a.text}`) ? t(`act.${a.text}`) : a.text;
}

registerDescriber('uno', describeUno);
registerActionWords('uno', unoActionWords);
