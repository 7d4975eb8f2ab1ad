"""The fixed encodings of the UNO environment (:mod:`mazziere.rl.uno_env`): one action space
for every preset and option, and one observation vector, both written once here.

Seats are **relative** to the agent: offset 0 is the agent itself, 1 the next seat in seat
order, and so on (so a policy learned in one seat plays in any other). Faces are the engine's
card faces 0-53 (``colour * 13 + rank`` for the 52 coloured faces, rank 10/11/12 = Skip,
Reverse, +2; 52 = Wild, 53 = Wild +4) and colours 0-3 = red, yellow, green, blue.

Actions (``Discrete(action_count(rules))``, masked by the legal ones). An index means the
same action in every environment; rules that allow several cards at once (``multi_play``,
``burn``) append the indices from :data:`MULTI` on, the others stop at :data:`BASE_ACTIONS`
(151), so a random agent does not scan 9,000 masked-out entries a step:

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
151-2742      several number cards of one rank at once (``multi_play``, bruciata pairs),
              ranks 1-6, 8, 9: ``151 + (r * 81 + m) * 4 + last``, ``r`` the rank's index in
              (1, 2, 3, 4, 5, 6, 8, 9), ``m`` = sum over colours of count * 3**colour (0-2
              cards of each colour), ``last`` the colour of the last card (it sets the colour
              and the effect)
2743-9222     the same for ranks 0 and 7, with a target: ``2743 + ((z * 81 + m) * 4 + last) *
              10 + slot``, ``z`` = 0 for rank 0 and 1 for rank 7, ``slot`` 0 = no seat named,
              1-9 = the seat at that offset
============  =============================================================================

Which matching card goes first in a several-card play and the order of the middle ones change
nothing but the order of cards under the top of the pile (the cards leaving the hand, the last
card and the target are the same), so (rank, colour counts, last colour, target) names the
outcome; where the engine lists several first cards for one outcome, the index plays one of
them.

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

Everything in it is what the agent's :class:`~mazziere.uno.View` shows, and the public plays: no
other seat's card and no card of the deck (tests/rl/test_uno_env.py swaps them and compares).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from mazziere.cards.uno import WILD_FACE
from mazziere.uno import Action, Game, Phase, Rules
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
BASE_ACTIONS = MULTI
"""Size of the action space without several-card plays."""
_MULTI_RANKS = (1, 2, 3, 4, 5, 6, 8, 9)
_MULTI_INDEX = {r: i for i, r in enumerate(_MULTI_RANKS)}
MULTI_TARGET = MULTI + len(_MULTI_RANKS) * 81 * 4
ACTIONS = MULTI_TARGET + 2 * 81 * 4 * 10
"""Size of the action space with several-card plays (9,223)."""


def action_count(rules: Rules) -> int:
    """The size of the action space under ``rules`` (module table)."""
    return ACTIONS if rules.multi_play or rules.burn else BASE_ACTIONS


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
    lastc = last // 13
    if rank in (0, 7):
        z = 0 if rank == 0 else 1
        return MULTI_TARGET + ((z * 81 + m) * 4 + lastc) * 10 + offset
    return MULTI + (_MULTI_INDEX[rank] * 81 + m) * 4 + lastc


def history_entry(seat: int, face: int, colour: int) -> tuple[int, int, int]:
    """A public play as :func:`encode` reads it: the seat, then where its face and the colour
    it set go inside a history slot."""
    return seat, MAX_SEATS + face, MAX_SEATS + FACES + colour


def encode(g: Game, me: int, history: Sequence[tuple[int, int, int]]) -> npt.NDArray[np.float32]:
    """The observation of seat ``me`` (module table); ``history`` holds the public plays as
    (seat, :func:`history_entry`), oldest first. It reads from the game exactly what
    :func:`mazziere.uno.view` shows that seat (its own hand and drawn card, the public counts
    and state), without building the view."""
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    n = g.players
    hands = g.hands
    for c in hands[me]:
        o[c] += 1
    o[O_TOP + g.discard[-1]] = 1
    color = g.color
    if color is not None:
        o[O_COLOR + int(color)] = 1
    o[O_DIR] = 1 if g.direction > 0 else 0
    in_hand, active, scores = g.in_hand, g.active, g.scores
    ns = len(scores)
    for k in range(n):
        s = (me + k) % n
        o[O_COUNTS + k] = len(hands[s])
        o[O_IN_HAND + k] = in_hand[s]
        o[O_ACTIVE + k] = active[s]
        o[O_SCORES + k] = scores[s % ns]  # per seat, or per team (seat % 2)
    current = g.current
    o[O_CURRENT + (current - me) % n] = 1
    o[O_PENDING] = g.pending
    o[O_PHASE + _PHASE_INDEX[g.phase]] = 1
    drawn = g.drawn
    if drawn is not None and current == me:
        o[O_DRAWN + drawn] = 1
    uno_seat = g.uno_seat
    if uno_seat is not None:
        o[O_UNO_SEAT + (uno_seat - me) % n] = 1
        o[O_UNO_CALLED] = g.uno_called
    w4_by = g.w4_by
    if w4_by is not None:
        o[O_CHALLENGEABLE] = 1
        o[O_W4_BY + (w4_by - me) % n] = 1
    o[O_DRAW_PILE] = len(g.draw_pile)
    o[O_DISCARD] = len(g.discard)
    at = O_HISTORY
    for seat, face_at, colour_at in reversed(history[-HISTORY:]):
        o[at + (seat - me) % n] = 1
        o[at + face_at] = 1
        o[at + colour_at] = 1
        at += HISTORY_WIDTH
    return o
