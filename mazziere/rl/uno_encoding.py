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

This module documents both encodings; :mod:`mazziere.uno.vector` writes them (compiled with
mypyc with the engine, standard library only): it indexes the legal actions and writes an
observation straight into the NumPy array's buffer, value by value.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from mazziere.uno import Game, Rules
from mazziere.uno import vector as V

MAX_SEATS = V.MAX_SEATS
FACES = V.FACES
HISTORY = V.HISTORY

PLAY_WILD = V.PLAY_WILD
PLAY_WILD4 = V.PLAY_WILD4
PLAY_TARGET = V.PLAY_TARGET
DRAW = V.DRAW
PASS = V.PASS
ACCEPT = V.ACCEPT
CHALLENGE = V.CHALLENGE
UNO = V.UNO
CATCH = V.CATCH
COLOR = V.COLOR_CHOICE
WAIT = V.WAIT
MULTI = V.MULTI
BASE_ACTIONS = V.BASE_ACTIONS
"""Size of the action space without several-card plays."""
MULTI_TARGET = V.MULTI_TARGET
ACTIONS = V.ACTIONS
"""Size of the action space with several-card plays (9,223)."""


def action_count(rules: Rules) -> int:
    """The size of the action space under ``rules`` (module table)."""
    return ACTIONS if rules.multi_play or rules.burn else BASE_ACTIONS


O_HAND, O_TOP, O_COLOR, O_DIR = V.O_HAND, V.O_TOP, V.O_COLOR, V.O_DIR
O_COUNTS, O_IN_HAND, O_ACTIVE, O_CURRENT = V.O_COUNTS, V.O_IN_HAND, V.O_ACTIVE, V.O_CURRENT
O_PENDING, O_PHASE, O_DRAWN = V.O_PENDING, V.O_PHASE, V.O_DRAWN
O_UNO_SEAT, O_UNO_CALLED, O_CHALLENGEABLE, O_W4_BY = (
    V.O_UNO_SEAT,
    V.O_UNO_CALLED,
    V.O_CHALLENGEABLE,
    V.O_W4_BY,
)
O_SCORES, O_DRAW_PILE, O_DISCARD, O_HISTORY = V.O_SCORES, V.O_DRAW_PILE, V.O_DISCARD, V.O_HISTORY
HISTORY_WIDTH = V.HISTORY_WIDTH
OBS_SIZE = V.OBS_SIZE
"""Size of the observation vector (791)."""

action_index = V.action_index
"""The index of ``seat``'s legal ``action`` in the fixed action space (module table):
``action_index(action, seat, players)``."""

history_entry = V.history_entry
"""A public play as :func:`encode` reads it: ``history_entry(seat, face, colour)`` gives the
seat, then where its face and the colour it set go inside a history slot."""


def encode(g: Game, me: int, history: Sequence[tuple[int, int, int]]) -> npt.NDArray[np.float32]:
    """The observation of seat ``me`` (module table); ``history`` holds the public plays as
    (seat, :func:`history_entry`), oldest first. It reads from the game exactly what
    :func:`mazziere.uno.view` shows that seat (its own hand and drawn card, the public counts
    and state), without building the view."""
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    V.observe_into(o.data, g, me, history if isinstance(history, list) else list(history))
    return o
