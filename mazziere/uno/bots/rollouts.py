"""The ``strong`` bot's rollouts: a game played out in the bot's head to the end of the hand,
greedy in every seat (:func:`mazziere.uno.bots.policy.decide`, read from the game's own fields
with :meth:`~mazziere.uno.bots.policy.Sight.of_game`), and what the hand it ends is worth to
the bot's side (docs/bots.md "UNO strong").

Compiled with mypyc alongside the engine (:mod:`mazziere._compiled`): each decision of the
``strong`` bot plays its whole budget of rollouts.
"""

from __future__ import annotations

from typing import Final

from mazziere.uno import Phase
from mazziere.uno import events as E
from mazziere.uno.actions import CALL_UNO, Action, Play
from mazziere.uno.bots.policy import Sight, decide, has_kind, partner
from mazziere.uno.game import Game

MAX_STEPS: Final = 400
"""Actions a rollout plays at most before the hand is scored by the cards held."""
POINT_WEIGHT: Final = 0.01
"""A point's worth against a hand won or lost (:func:`hand_value`)."""

PENDING: Final = Phase.PENDING
OVER: Final = Phase.OVER
_CALLUNO: Final = CALL_UNO


def next_action(g: Game) -> tuple[int, Action]:
    """Greedy in every seat, out-of-turn offers first (in seat order after the current seat,
    as :mod:`mazziere.sim.uno_sim`). Other seats are asked only when the rules and the
    position can give one of them an out-of-turn action (a jump-in, a third-party challenge,
    an UNO call or a catch); their legal actions are not computed otherwise."""
    current = g.current
    n = g.players
    if out_of_turn_possible(g):
        for k in range(1, n):
            seat = (current + k) % n
            if g.legal_actions(seat):
                a = decide(Sight.of_game(g, seat))
                if a is not None:
                    return seat, a
    a = decide(Sight.of_game(g, current))
    assert a is not None
    return current, a


def out_of_turn_possible(g: Game) -> bool:
    """Whether a seat whose turn it is not may have a legal action now: the rules allow jump-ins,
    a +4 may be challenged by anyone, or an UNO window is open (a call, a catch). When not, no
    other seat's legal actions are computed (:meth:`~mazziere.uno.game.Game.legal_actions`
    gives them none)."""
    rules = g.rules
    return (
        rules.jump_in
        or (g.phase is PENDING and g.w4_by is not None and rules.challenge_by == "any")
        or (rules.uno_call != "off" and g.uno_seat is not None and not g.uno_called)
    )


def hand_value(g: Game, seat: int, winner: int | None, points: tuple[int, ...]) -> float:
    """A finished hand's worth for ``seat``'s side, as the match counts it: 1 for going out,
    -1 for another side going out, 0 for nobody; where points decide the match, plus the
    points won (every other side's cards) or minus those given away (its own side's), a
    hundredth each (:data:`POINT_WEIGHT`)."""
    if winner is None:
        return 0.0
    rules = g.rules
    mine = 0
    total = 0
    for s in range(len(points)):
        total += points[s]
        if partner(rules, seat, s):
            mine += points[s]
    if partner(rules, seat, winner):
        if rules.match == "single_hand" or rules.scoring != "winner":
            return 1.0
        return 1.0 + POINT_WEIGHT * (total - mine)
    if rules.match == "single_hand":
        return -1.0
    return -1.0 - POINT_WEIGHT * mine


def score(g: Game, seat: int) -> float:
    """An unfinished hand's worth for ``seat``'s side (a rollout cut at :data:`MAX_STEPS`):
    a fifth per card fewer than the best opponent holds, within -1 to 1."""
    rules = g.rules
    mine = 1_000
    theirs = -1
    for s in range(g.players):
        n = len(g.hands[s])
        if partner(rules, seat, s):
            mine = min(mine, n)
        elif g.in_hand[s] and (theirs < 0 or n < theirs):
            theirs = n
    if theirs < 0:
        theirs = mine
    return max(-1.0, min(1.0, 0.2 * (theirs - mine)))


def _ended(g: Game, seat: int, events: list[E.Event]) -> float | None:
    for e in events:
        if isinstance(e, E.HandEnded):
            return hand_value(g, seat, e.winner, tuple(e.points))
    return None


def rollout(g: Game, seat: int, first: Action, depth: int = MAX_STEPS) -> float:
    """Play ``first`` for ``seat`` (saying UNO first where greedy would), then greedy in every
    seat to the end of the hand: :func:`hand_value` (a hand still going after ``depth``
    actions: :func:`score`). ``g`` is played in place, and stops at the hand's end
    (:attr:`~mazziere.uno.state.GameData.halt`: the next hand is not dealt)."""
    g.halt = True
    hand_no = g.hand_no
    if (
        isinstance(first, Play)
        and len(g.hands[seat]) - len(first.cards) == 1
        and has_kind(g.legal_actions(seat), _CALLUNO)
    ):
        g.push(_CALLUNO, seat)  # the bot says UNO before such a play (greedy does)
    events = g.push(first, seat)
    steps = 0
    while True:
        if g.hand_no != hand_no or g.result is not None or g.phase is OVER:
            v = _ended(g, seat, events)
            return 0.0 if v is None else v
        if steps >= depth:
            return score(g, seat)
        s, a = next_action(g)
        events = g.push(a, s)
        steps += 1
