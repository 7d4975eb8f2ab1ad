// UNO CASINO's events in words: the payout multiplier and the round's end; every other event
// is UNO's (games/uno/events.js), and so are its actions.
import { money } from '../../i18n.js';
import { reasonText, registerActionWords, registerDescriber } from '../../events.js';
import { describeUno, unoActionWords } from '../uno/events.js';
import './messages.js';

function describeCasino(e, who, node, ctx) {
  switch (e.tag) {
    case 'multiplier':
      return node('ev.multiplier', { m: e.multiplier, why: reasonText('mult', e.reason) }, 'ev-mult');
    case 'round_ended':
      if (e.winner === 'player')
        return node('ev.round_won', { m: e.multiplier, payout: money(Number(e.payout)) }, 'ev-good');
      return node('ev.round_lost', { stake: money(Number(e.stake)), why: reasonText('round', e.reason) }, 'ev-bad');
    case 'hand_ended':
    case 'match_ended':
      // the round's end (round_ended) says it in the casino's words: rounds, stakes, the bank
      return null;
    default:
      return describeUno(e, who, node, ctx);
  }
}

registerDescriber('casino', describeCasino);
registerActionWords('casino', unoActionWords);
