"""The fixed encodings of the UNO environment (:mod:`mazziere.rl.uno_env`): one action space
for every preset and option, and one observation vector, both written once here.

Seats are **relative** to the agent: offset 0 is the agent itself, 1 the next seat in seat
order, and so on (so a policy learned in one seat plays in any other). Faces are the engine's
card faces 0-53 (``colour * 13 + rank`` for the 52 coloured faces, rank 10/11/12 = Skip,
Reverse, +2; 52 = Wild, 53 = Wild +4) and colours 0-3 = red, yellow, green, blue.

Actions (``Discrete(ACTIONS)``, masked by the legal ones):

============  =============================================================================
index         action
============  =============================================================================
0-51          play one coloured card (its face); a 0 with ``zero_gives_four`` and no target
52-55         play a Wild and choose colour 0-3
56-59         play a Wild +4 and choose colour 0-3
60-131        play one 0 or 7 naming a seat: ``60 + k * 9 + (offset - 1)``, ``k`` = colour for
              the 0s, 4 + colour for the 7s, ``offset`` 1-9 (``seven_swap``, ``zero_gives_four``)
132-136       draw, pass (keep the drawn card), accept the pending draw, challenge a +4, UNO
137-145       catch the seat at offset 1-9 that did not call UNO
146-149       choose colour 0-3 (a Wild turned as the first card)
150           wait: decline an out-of-turn offer (a catch, a jump-in, a challenge by anyone)
151-10518     several number cards of one rank at once (``multi_play``; bruciata pairs too),
              ranks 1-6, 8, 9: ``151 + ((r * 81 + m) * 4 + first) * 4 + last``, ``r`` the
              rank's index in (1, 2, 3, 4, 5, 6, 8, 9), ``m`` = sum over colours of
              count * 3**colour (0-2 cards of each colour), ``first``/``last`` the colours of
              the first card (it must match) and the last (it sets colour and effect)
10519-36438   the same for ranks 0 and 7, with a target: ``10519 + (((z * 81 + m) * 4 +
              first) * 4 + last) * 10 + slot``, ``z`` = 0 for rank 0 and 1 for rank 7, ``slot``
              0 = no seat named, 1-9 = the seat at that offset
============  =============================================================================

The order of the middle cards of a several-card play changes nothing (the engine lists one
canonical order), so (rank, colour counts, first, last, target) names every play it offers.

Observation (``float32``, :data:`OBS_SIZE` values, all >= 0), in this order:

====  ======  ===============================================================================
size  start   meaning
====  ======  ===============================================================================
54    0       own hand: count of each face
54    54      the top card of the discard pile (one-hot face)
4     108     the colour in force (one-hot; all 0 when none is chosen yet)
1     112     direction: 1 in seat order, 0 reversed
10    113     cards held by the seat at each offset (0 for seats beyond the table)
10    123     the seat at each offset is still in the hand
10    133     the seat at each offset is still in the match (elimination)
10    143     the seat to act, by offset (one-hot)
1     153     cards pending (+2/+4 to take)
5     154     phase: play, drawn, pending, colour, over (one-hot)
54    159     the card the agent just drew and may play (one-hot; drawn phase only)
10    213     the seat that owes an UNO call, by offset (one-hot), and
1     223     whether it called
1     224     a +4 may be challenged now
10    225     the seat whose +4 may be challenged, by offset (one-hot)
10    235     match score of the seat at each offset (or of its team)
1     245     cards in the draw pile
1     246     cards in the discard pile
544   247     the last :data:`HISTORY` plays, most recent first, 68 values each: the seat by
              offset (10, one-hot), the last card's face (54, one-hot), the colour it set (4)
====  ======  ===============================================================================

Everything in it comes from the agent's :class:`~mazziere.uno.View` and the public plays: no
other seat's card and no card of the deck (tests/rl/test_uno_env.py swaps them and compares).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from mazziere.cards.uno import WILD_FACE
from mazziere.uno import Action, Phase, View
from mazziere.uno import actions as A

MAX_SEATS = 10
FACES = 54
HISTORY = 8

PLAY_WILD = 52
PLAY_WILD4 = 56
PLAY_TARGET = 60
DRAW = 132
PASS = 133
ACCEPT = 134
CHALLENGE = 135
UNO = 136
CATCH = 137
COLOR = 146
WAIT = 150
MULTI = 151
_MULTI_RANKS = (1, 2, 3, 4, 5, 6, 8, 9)
_MULTI_INDEX = {r: i for i, r in enumerate(_MULTI_RANKS)}
MULTI_TARGET = MULTI + len(_MULTI_RANKS) * 81 * 16
ACTIONS = MULTI_TARGET + 2 * 81 * 16 * 10
"""Size of the action space (36,439)."""

_PHASES = (Phase.PLAY, Phase.DRAWN, Phase.PENDING, Phase.COLOR, Phase.OVER)
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}

O_HAND, O_TOP, O_COLOR, O_DIR = 0, 54, 108, 112
O_COUNTS, O_IN_HAND, O_ACTIVE, O_CURRENT = 113, 123, 133, 143
O_PENDING, O_PHASE, O_DRAWN = 153, 154, 159
O_UNO_SEAT, O_UNO_CALLED, O_CHALLENGEABLE, O_W4_BY = 213, 223, 224, 225
O_SCORES, O_DRAW_PILE, O_DISCARD, O_HISTORY = 235, 245, 246, 247
HISTORY_WIDTH = MAX_SEATS + FACES + 4
OBS_SIZE = O_HISTORY + HISTORY * HISTORY_WIDTH
"""Size of the observation vector (791)."""


def action_index(action: Action, seat: int, players: int) -> int:
    """The index of ``seat``'s legal ``action`` in the fixed action space (module table)."""
    if isinstance(action, A.Play):
        return _play_index(action, seat, players)
    if isinstance(action, A.Draw):
        return DRAW
    if isinstance(action, A.Pass):
        return PASS
    if isinstance(action, A.Accept):
        return ACCEPT
    if isinstance(action, A.Challenge):
        return CHALLENGE
    if isinstance(action, A.CallUno):
        return UNO
    if isinstance(action, A.Catch):
        return CATCH + (action.target - seat) % players - 1
    if isinstance(action, A.ChooseColor):
        return COLOR + int(action.color)
    raise ValueError(f"{action!r} is not an action an agent takes")


def _play_index(p: A.Play, seat: int, players: int) -> int:
    cards = p.cards
    last = int(cards[-1])
    offset = 0 if p.target is None else (p.target - seat) % players
    if len(cards) == 1:
        if last >= WILD_FACE:
            assert p.color is not None
            return (PLAY_WILD if last == WILD_FACE else PLAY_WILD4) + int(p.color)
        if offset:
            rank, colour = last % 13, last // 13
            k = colour if rank == 0 else 4 + colour
            return PLAY_TARGET + k * 9 + offset - 1
        return last
    rank = int(cards[0]) % 13
    m = 0
    for c in cards:
        m += 3 ** (int(c) // 13)
    first, lastc = int(cards[0]) // 13, last // 13
    if rank in (0, 7):
        z = 0 if rank == 0 else 1
        return MULTI_TARGET + (((z * 81 + m) * 4 + first) * 4 + lastc) * 10 + offset
    return MULTI + ((_MULTI_INDEX[rank] * 81 + m) * 4 + first) * 4 + lastc


def encode(
    v: View,
    history: Sequence[tuple[int, int, int]],
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """The observation of the agent whose view is ``v`` (module table); ``history`` holds the
    public plays as (seat, face, colour set), oldest first."""
    assert v.seat is not None
    o = np.zeros(OBS_SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        o[:] = 0
    me, n = v.seat, v.players
    for c in v.hand:
        o[O_HAND + c] += 1
    o[O_TOP + v.top] = 1
    if v.color is not None:
        o[O_COLOR + int(v.color)] = 1
    o[O_DIR] = 1 if v.direction > 0 else 0
    for s in range(n):
        k = (s - me) % n
        o[O_COUNTS + k] = v.hand_counts[s]
        o[O_IN_HAND + k] = v.in_hand[s]
        o[O_ACTIVE + k] = v.active[s]
    scores = v.scores
    for k in range(n):
        s = (me + k) % n
        o[O_SCORES + k] = scores[s % len(scores)]  # per seat, or per team (seat % 2)
    o[O_CURRENT + (v.current - me) % n] = 1
    o[O_PENDING] = v.pending
    o[O_PHASE + _PHASE_INDEX[v.phase]] = 1
    if v.drawn is not None and v.current == me:
        o[O_DRAWN + v.drawn] = 1
    if v.uno_seat is not None:
        o[O_UNO_SEAT + (v.uno_seat - me) % n] = 1
        o[O_UNO_CALLED] = v.uno_called
    o[O_CHALLENGEABLE] = v.challengeable
    if v.w4_by is not None:
        o[O_W4_BY + (v.w4_by - me) % n] = 1
    o[O_DRAW_PILE] = v.draw_pile_count
    o[O_DISCARD] = v.discard_count
    at = O_HISTORY
    for seat, face, colour in reversed(history[-HISTORY:]):
        o[at + (seat - me) % n] = 1
        o[at + MAX_SEATS + face] = 1
        if colour >= 0:
            o[at + MAX_SEATS + FACES + colour] = 1
        at += HISTORY_WIDTH
    return o
