// Draw poker's events in words for the table log and the replay (pev.* in messages.js), and its
// actions by the seed's button names; the shared part (events.js) hands every poker event here.
import { miniPoker } from '../../cards.js';
import { list, registerActionWords, registerDescriber } from '../../events.js';
import { has, t } from '../../i18n.js';
import { h } from '../../ui.js';
import { handName, shownClass } from './hands.js';
import './messages.js';

function chips(n) {
  return t('poker.chips', { n });
}

function describePoker(e, who, node, ctx) {
  const cards = (v) => h('span', { class: 'mini-list' }, list(v).map(miniPoker));
  switch (e.tag) {
    case 'deal_started':
      return node(
        Number(e.carried) ? 'pev.deal_started_carried' : 'pev.deal_started',
        { deal: e.deal, who: who(e.first), carried: chips(e.carried) },
        'ev-strong',
        e.first,
      );
    case 'ante':
      return node('pev.ante', { who: who(e.seat), amount: chips(e.amount) }, 'ev-muted');
    case 'dealt':
      return list(e.cards).length ? node('pev.dealt_own', { cards: cards(e.cards) }) : null;
    case 'opened':
      return node('pev.opened', { who: who(e.seat), amount: chips(e.amount) });
    case 'waited':
      return node('pev.waited', { who: who(e.seat) });
    case 'raised':
      return node('pev.raised', { who: who(e.seat), call: chips(e.call), amount: chips(e.amount) });
    case 'replaced':
      return node(Number(e.paid) ? 'pev.replaced' : 'pev.replaced_free', { who: who(e.seat), paid: chips(e.paid) });
    case 'folded':
      return node('pev.folded', { who: who(e.seat) }, 'ev-warn');
    case 'drew':
      if (!Number(e.count)) return node('pev.stood_pat', { who: who(e.seat) });
      if (list(e.received).length)
        return node('pev.drew_own', { n: e.count, out: cards(e.discarded), in: cards(e.received) });
      return node('pev.drew', { who: who(e.seat), n: e.count });
    case 'saw':
      return node(Number(e.paid) ? 'pev.saw' : 'pev.saw_free', { who: who(e.seat), paid: chips(e.paid) });
    case 'shown':
      return node('pev.shown', {
        who: who(e.seat),
        cards: cards(e.cards),
        // the hand's name in the player's language, from its class (never the server's words)
        name: handName(shownClass(e, ctx?.deck), ctx?.deck) || e.description || '',
      });
    case 'pot_won':
      return node('pev.pot_won', { who: who(e.seat), amount: chips(e.amount) }, 'ev-strong');
    case 'pot_carried':
      return node('pev.pot_carried', { amount: chips(e.amount) }, 'ev-strong');
    case 'pledged':
      return node('pev.pledged', { who: who(e.seat), item: itemName(e.item), value: chips(e.value) }, 'ev-warn');
    case 'forfeited':
      return node('pev.forfeited', { who: who(e.seat), item: itemName(e.item) }, 'ev-bad');
    case 'redeemed':
      return node('pev.redeemed', { who: who(e.seat), item: itemName(e.item), value: chips(e.value) }, 'ev-good');
    case 'game_ended':
      return node('pev.game_ended', { who: who(e.winner) }, 'ev-strong', e.winner);
    default:
      return h(
        'span',
        { class: 'ev ev-raw' },
        `${e.tag} ${Object.entries(e)
          .filter(([k]) => k !== 'tag')
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
      );
  }
}

/** The default items' codes (their words are poker.item.<code>). */
const ITEM_CODES = ['hat', 'scarf', 'jacket', 'gloves', 'watch', 'boots'];

/** A pledgeable item's name: a default item's (by its code) in the player's language, else as
 * its table's creator typed it. */
export function itemName(name) {
  const key = `poker.item.${name}`;
  return has(key) ? t(key) : String(name || '').replaceAll('_', ' ');
}

/** An item's name as typed in the player's language, back to a default item's code when it
 * names one ("cappello" -> "hat"); any other name as typed. */
export function itemCode(typed) {
  const low = String(typed).toLocaleLowerCase();
  return ITEM_CODES.find((c) => itemName(c).toLocaleLowerCase() === low) ?? typed;
}

/** A structured poker action ({text, kind, amount?, cards?}) by the seed's button names. */
export function pokerActionWords(a) {
  const label = has(`poker.btn.${a.kind}`) ? t(`poker.btn.${a.kind}`) : a.kind;
  if (typeof a.amount === 'number') return `${label} ${a.amount}`;
  if (a.kind === 'draw')
    return list(a.cards).length
      ? h('span', {}, label, ' ', h('span', { class: 'mini-list' }, list(a.cards).map(miniPoker)))
      : t('poker.stand_pat');
  return label;
}

registerDescriber('poker', describePoker);
registerActionWords('poker', pokerActionWords);
