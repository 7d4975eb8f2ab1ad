"""The ``greedy`` bot: the rules of thumb a casual player follows, one decision at a time.

Always call UNO when due and catch an opponent who did not; jump in and stack whenever
possible; play rather than draw; keep wilds for later; dump high-point cards first and play
several cards when allowed; hit a player close to going out with Skip, +2 or +4; declare the
colour held most. It never bluffs a +4 when another play exists, and challenges a +4 only when
the player who played it probably held a matching card (a big hand) or is about to go out
anyway (then the 2 extra cards of an innocent verdict matter little).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mazziere.cards.uno import (
    FACE_COLOR,
    FACE_KIND,
    FACE_POINTS,
    WILD4_FACE,
    WILD_FACE,
    Card,
    Color,
    Kind,
)
from mazziere.uno import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Phase,
    Play,
)
from mazziere.uno.bots.base import Seen, is_partner, next_seat
from mazziere.uno.matching import wild4_legal, without_one

THREAT_CARDS = 2
"""An opponent holding this many cards or fewer is about to go out: hit them."""
GUILTY_HAND_COLOR = 7
"""A +4 player left holding this many cards probably had one of the colour (``wild4_rule``
``color``: a hand of 7 lacks a given colour about one time in six)."""
GUILTY_HAND_ANY = 4
"""The same threshold under the stricter ``any_playable`` rule (003)."""
_ATTACK = (Kind.SKIP, Kind.DRAW2, Kind.WILD4)
_ACCEPT, _CALLUNO, _CHALLENGE, _DRAW, _PASS = Accept(), CallUno(), Challenge(), Draw(), Pass()


@dataclass(frozen=True, slots=True)
class GreedyBot:
    """A simple heuristic player (see the module docstring for its rules of thumb)."""

    name: str = "greedy"

    def act(self, view: Seen, rng: random.Random) -> Action | None:
        """The heuristic choice; out of turn: UNO call, catch, jump-in, else ``None``."""
        legal = view.legal
        if not legal or view.seat is None:
            return None
        if view.phase is Phase.COLOR and view.my_turn:
            return ChooseColor(best_color(view.hand))
        due = _call_or_catch(view)
        if due is not None:
            return due
        plays = [a for a in legal if isinstance(a, Play)]
        if not view.my_turn:
            if plays:  # jump in whenever possible
                return _best_play(view, plays)
            if _CHALLENGE in legal and _likely_guilty(view):
                return _CHALLENGE
            return None
        choice = self._on_turn(view, plays)
        if (
            isinstance(choice, Play)
            and len(view.hand) - len(choice.cards) == 1
            and _CALLUNO in legal
        ):
            return _CALLUNO
        return choice

    def _on_turn(self, view: Seen, plays: list[Play]) -> Action:
        legal = view.legal
        if view.phase is Phase.PENDING:
            if plays:  # stack whenever possible
                return _best_play(view, plays)
            if _CHALLENGE in legal and _should_challenge(view):
                return _CHALLENGE
            return _ACCEPT
        if view.phase is Phase.DRAWN:
            best = _best_play(view, plays) if plays else None
            keep = best is not None and best.card.is_wild and not _under_threat(view)
            if best is not None and not (keep and _PASS in legal):
                return best
            return _PASS if _PASS in legal else legal[0]
        if plays:
            return _best_play(view, plays)
        if _DRAW in legal:
            return _DRAW
        rest = [a for a in legal if not isinstance(a, (CallUno, Catch, Challenge))]
        return (rest or list(legal))[0]


def _call_or_catch(view: Seen) -> Action | None:
    """Say UNO holding one card; catch any opponent who forgot (never one's partner)."""
    assert view.seat is not None
    if len(view.hand) == 1 and _CALLUNO in view.legal:
        return _CALLUNO
    for a in view.legal:
        if isinstance(a, Catch) and not is_partner(view, view.seat, a.target):
            return a
    return None


def best_color(hand: Sequence[Card]) -> Color:
    """The colour held most (ties: more points in it, then R, Y, G, B order)."""
    count = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for c in hand:
        col = c.color
        if col is not None:
            count[col] += 1
            points[col] += c.points
    return Color(max(range(4), key=lambda i: (count[i], points[i], -i)))


def _opponent_threat(view: Seen, seat: int) -> bool:
    assert view.seat is not None
    return not is_partner(view, view.seat, seat) and view.hand_counts[seat] <= THREAT_CARDS


def _under_threat(view: Seen) -> bool:
    """Whether the next player (an opponent) is close to going out."""
    assert view.seat is not None
    return _opponent_threat(view, next_seat(view, view.seat))


def _best_play(view: Seen, plays: Sequence[Play]) -> Play:
    """The play greedy likes most (first of the best, in the engine's stable order)."""
    return max(plays, key=_Scorer(view).score)


class _Scorer:
    """Scores plays from one view; the hand's colour totals are counted once."""

    __slots__ = ("counts", "honest_w4", "points", "threat", "two", "view")

    def __init__(self, view: Seen) -> None:
        self.view = view
        self.threat = _under_threat(view)
        self.two = sum(view.in_hand) == 2
        self.counts = [0, 0, 0, 0]
        self.points = [0, 0, 0, 0]
        for c in view.hand:
            col = FACE_COLOR[c]
            if col >= 0:
                self.counts[col] += 1
                self.points[col] += FACE_POINTS[c]
        self.honest_w4: bool | None = None

    def score(self, play: Play) -> float:
        """How much the greedy player likes ``play`` (higher is better)."""
        view = self.view
        left = len(view.hand) - len(play.cards)
        if left == 0:
            return 10_000.0
        card = play.cards[-1]
        kind = FACE_KIND[card]
        score = 0.0
        if kind is Kind.WILD4:
            if self.honest_w4 is None:
                self.honest_w4 = _w4_honest(view)
            if not self.honest_w4:
                score -= 5_000.0  # a bluff: only when nothing else is possible
        if card >= WILD_FACE:
            score -= 100.0  # keep wilds for later
        if self.threat and (kind in _ATTACK or (kind is Kind.REVERSE and self.two)):
            score += 300.0
        score += 30.0 * (len(play.cards) - 1)
        score += sum(FACE_POINTS[c] for c in play.cards if c < WILD_FACE)
        col = int(play.color) if play.color is not None else FACE_COLOR[card]
        if col >= 0:  # follow the colour held most (then the most points in it)
            same = [c for c in play.cards if FACE_COLOR[c] == col]
            n = self.counts[col] - len(same)
            pts = self.points[col] - sum(FACE_POINTS[c] for c in same)
            score += 2.0 * n + pts / 100
        if play.target is not None:
            score += _target_score(view, play, left)
        return score


def _target_score(view: Seen, play: Play, left: int) -> float:
    """7 swap: take the smallest hand (a loss if it is bigger than ours); 0 gives four: hit the
    opponent with fewest cards (never a partner)."""
    assert view.seat is not None and play.target is not None
    theirs = view.hand_counts[play.target]
    if play.card.kind is Kind.N7:
        return 5.0 * (left - theirs) - (50.0 if is_partner(view, view.seat, play.target) else 0)
    if is_partner(view, view.seat, play.target):
        return -50.0
    return 20.0 - theirs


def _w4_honest(view: Seen) -> bool:
    """Whether playing one +4 from this hand would be legal (``wild4_rule``)."""
    if view.color is None:
        return True
    rest = without_one(view.hand, WILD4_FACE) if WILD4_FACE in view.hand else list(view.hand)
    return wild4_legal(rest, view.top, int(view.color), view.rules)


def _offender(view: Seen) -> int:
    """The seat that played the +4: the one before the victim in the direction of play."""
    return next_seat(view, view.current, -view.direction)


def _bluff_possible(view: Seen) -> bool:
    return view.rules.wild4_bluff and view.rules.wild4_rule != "none"


def _likely_guilty(view: Seen) -> bool:
    """A big hand left after the +4 probably held a card it should have played instead."""
    if not view.challengeable or not _bluff_possible(view):
        return False
    limit = GUILTY_HAND_ANY if view.rules.wild4_rule == "any_playable" else GUILTY_HAND_COLOR
    return view.hand_counts[_offender(view)] >= limit


def _should_challenge(view: Seen) -> bool:
    """The victim challenges when guilt is likely, or when the offender is about to go out."""
    if not view.challengeable or not _bluff_possible(view):
        return False
    return _likely_guilty(view) or view.hand_counts[_offender(view)] <= 1
