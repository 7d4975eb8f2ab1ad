"""The fixed encodings of the draw-poker environment (:mod:`mazziere.rl.poker_env`): one action
space for both decks and every rule option, and one observation vector, both written once here.

Seats are **relative** to the agent: offset 0 is the agent itself, 1 the other seat (so a policy
learned in one seat plays in the other). Cards are the engine's card numbers 0-51
(``rank * 4 + suit``, rank 0 = two .. 12 = ace, suits c, d, h, s); the 32-card deck uses the
numbers 20-51 (sevens up), so both decks share one encoding.

Actions (``Discrete(ACTIONS)``, masked by the legal ones):

============  =============================================================================
index         action
============  =============================================================================
0             wait (ASPETTA: check, round one's first action only)
1             replace (SOSTITUISCI: pay what is owed and go to the draw; closes round one)
2             see (VEDI: pay what is owed and show down; checks round two's first action)
3             fold (PASSA)
4-35          the draw: ``4 + mask``, bit ``i`` of ``mask`` (0-31) = replace the card in hand
              slot ``i`` (slots as in the observation); ``mask`` 0 = stand pat. Masks with
              more than ``max_replace`` cards are never legal
36-135        open (APRI) with exactly ``1..100`` chips: ``36 + amount - 1``
136, 137      open with the smallest / the largest amount allowed now, when it is above 100
138-237       raise (RILANCIA: pay what is owed, then raise) by exactly ``1..100`` chips:
              ``138 + amount - 1``
238, 239      raise by the smallest / the largest amount allowed now, when it is above 100
============  =============================================================================

**Amounts.** The engine takes any whole amount between the smallest and the largest bet allowed
now (``Open(n)`` and ``Raise(n)`` for every ``n`` in ``View.bet_range``; draw-poker.md). Under
every preset the largest is ``max_bet`` = 50 chips, so every amount the engine allows has its
own index and nothing is bucketed. Only a table whose bets may exceed :data:`MAX_EXACT` chips
(``max_bet=None`` or above 100) is bucketed: amounts above 100 are offered as two indices, the
smallest and the largest allowed (a bet the size of everything the other side can cover); the
amounts strictly between 100 and the largest are not offered. The pledges of seat 1 (the
computer's items) are not actions: the engine pledges an item whenever seat 1 pays more than
its bankroll.

Observation (``float32``, :data:`OBS_SIZE` values, all >= 0; chips are raw chip counts), in this
order:

====  ======  ===============================================================================
size  start   meaning
====  ======  ===============================================================================
260   0       own hand: 5 slots x 52 card numbers (one-hot per slot, engine's hand order)
4     260     phase: bet1, draw, bet2, over (one-hot)
2     264     the seat that acts first this deal (it alternates), by offset (one-hot)
2     266     the seat to act, by offset (one-hot; 0 when the game is over)
2     268     the deck: 52 cards, 32 cards (one-hot)
1     270     the pot (chips, a tied pot carried from earlier deals included)
2     271     bankroll of each seat, by offset
2     273     value of the unpledged items each seat may still pledge (seat 1 only), by offset
2     275     chips each seat bet in the current betting round, by offset
1     277     chips the agent owes now
1     278     raises made in the current betting round
1     279     raises still allowed in the round (``max_raises`` minus raises made)
2     280     smallest and largest bet or raise the agent may make now (0 when none)
14    282     cards each seat changed in the draw, by offset, 7 each (one-hot: not drawn yet,
              0, 1, 2, 3, 4, 5 cards)
1     296     cards left in the deck
1     297     the ante
1     298     the deal number in the game
160   299     the last :data:`HISTORY` public actions of the current deal, most recent first, 10
              values each: the seat by offset (2, one-hot), the word (7, one-hot: open, wait,
              raise, replace, fold, see, draw) and its amount (the bet or raise in chips, the
              chips paid by replace/see, the number of cards drawn)
====  ======  ===============================================================================

Everything in it comes from the agent's :class:`~mazziere.poker.View`: never the other hand
(not even after a showdown: the next deal has started when the agent sees it), the deck's cards
or order, or the random source (tests/rl/test_poker_env.py re-deals them and compares).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mazziere.poker import View
from mazziere.poker import actions as A
from mazziere.poker.cards import Card
from mazziere.poker.state import ItemStatus, Phase

HAND = 5
CARDS = 52
HISTORY = 16
MAX_EXACT = 100
"""Bets and raises up to this many chips each have their own index."""

WAIT, REPLACE, SEE, FOLD = 0, 1, 2, 3
DRAW = 4
OPEN = DRAW + 32
OPEN_MIN = OPEN + MAX_EXACT
OPEN_MAX = OPEN_MIN + 1
RAISE = OPEN_MAX + 1
RAISE_MIN = RAISE + MAX_EXACT
RAISE_MAX = RAISE_MIN + 1
ACTIONS = RAISE_MAX + 1
"""Size of the action space (240)."""

_WORD_INDEX = {"wait": WAIT, "replace": REPLACE, "see": SEE, "fold": FOLD}
WORDS = ("open", "wait", "raise", "replace", "fold", "see", "draw")
_WORD = {w: i for i, w in enumerate(WORDS)}
_PHASES = (Phase.BET1, Phase.DRAW, Phase.BET2, Phase.OVER)
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}

O_HAND, O_PHASE, O_FIRST, O_CURRENT, O_DECK = 0, 260, 264, 266, 268
O_POT, O_BANKROLL, O_ITEMS, O_COMMITTED = 270, 271, 273, 275
O_OWED, O_RAISES, O_RAISES_LEFT, O_BET_RANGE = 277, 278, 279, 280
O_DRAWN, O_DECK_LEFT, O_ANTE, O_DEAL, O_HISTORY = 282, 296, 297, 298, 299
HISTORY_WIDTH = 2 + len(WORDS) + 1
OBS_SIZE = O_HISTORY + HISTORY * HISTORY_WIDTH
"""Size of the observation vector (459)."""


def action_index(
    action: A.Action, hand: tuple[Card, ...], bet_range: tuple[int, int] | None
) -> int | None:
    """The index of a legal ``action`` in the fixed action space (module table), given the
    acting seat's hand and ``View.bet_range``; ``None`` for a bet amount the space does not
    offer (above :data:`MAX_EXACT` and neither the smallest nor the largest allowed)."""
    if isinstance(action, A.Draw):
        mask = 0
        for c in action.cards:
            mask |= 1 << hand.index(c)
        return DRAW + mask
    if isinstance(action, (A.Open, A.Raise)):
        base = OPEN if isinstance(action, A.Open) else RAISE
        n = action.amount
        if n <= MAX_EXACT:
            return base + n - 1
        assert bet_range is not None
        lo, hi = bet_range
        if n == hi:
            return base + MAX_EXACT + 1
        if n == lo:
            return base + MAX_EXACT
        return None
    index = _WORD_INDEX.get(action.word)
    if index is None:
        raise ValueError(f"{action!r} is not an action an agent takes")
    return index


def offered(v: View) -> dict[int, A.Action]:
    """The actions the agent whose view is ``v`` may take now, by index (its action mask)."""
    out: dict[int, A.Action] = {}
    for a in v.legal:
        i = action_index(a, v.hand, v.bet_range)
        if i is not None:
            out[i] = a
    return out


def encode(v: View, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation of the agent whose view is ``v`` (module table)."""
    assert v.seat is not None
    o = np.zeros(OBS_SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        o[:] = 0
    me = v.seat
    for slot, c in enumerate(v.hand):
        o[O_HAND + slot * CARDS + int(c)] = 1
    o[O_PHASE + _PHASE_INDEX[v.phase]] = 1
    o[O_FIRST + (v.first - me) % 2] = 1
    if v.phase is not Phase.OVER:
        o[O_CURRENT + (v.current - me) % 2] = 1
    o[O_DECK + (0 if v.rules.deck == 52 else 1)] = 1
    o[O_POT] = v.pot
    worn = v.rules.item_value * sum(1 for s in v.items if s is ItemStatus.WORN)
    for k in (0, 1):
        s = (me + k) % 2
        o[O_BANKROLL + k] = v.bankrolls[s]
        o[O_ITEMS + k] = worn if s == 1 else 0
        o[O_COMMITTED + k] = v.committed[s]
        o[O_DRAWN + 7 * k + v.drawn[s] + 1] = 1
    o[O_OWED] = v.owed
    o[O_RAISES] = v.raises
    o[O_RAISES_LEFT] = max(0, v.rules.max_raises - v.raises)
    if v.bet_range is not None:
        o[O_BET_RANGE], o[O_BET_RANGE + 1] = v.bet_range
    o[O_DECK_LEFT] = v.deck_count
    o[O_ANTE] = v.rules.ante
    o[O_DEAL] = v.deal_no
    at = O_HISTORY
    for m in reversed(v.history[-HISTORY:]):
        o[at + (m.seat - me) % 2] = 1
        o[at + 2 + _WORD[m.word]] = 1
        o[at + 2 + len(WORDS)] = m.amount
        at += HISTORY_WIDTH
    return o
