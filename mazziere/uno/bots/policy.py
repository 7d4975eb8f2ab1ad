"""Greedy's rules of thumb, written once and compiled with mypyc alongside the engine
(:mod:`mazziere._compiled`): the ``greedy`` bot decides with :func:`decide` from a view, and the
``strong`` bot's rollouts (:func:`mazziere.uno.bots.rollouts.rollout`) with the very same
function from a game being played out in its head, greedy in every seat (docs/bots.md "UNO
strong").

A :class:`Sight` is what the rules of thumb read of one seat's situation: its hand, the public
counts, the top card and colour, the direction, whether a +4 may be challenged, and the seat's
legal actions. :meth:`Sight.of_view` takes it from a :class:`~mazziere.uno.View` (or anything
shaped like one, :class:`~mazziere.uno.bots.base.Seen`), :meth:`Sight.of_game` from a game's own
fields (only the rollouts do that, on determinized games, never the real one).

The rules of thumb (the ``greedy`` bot's docstring): always call UNO when due and catch an
opponent who did not; jump in and stack whenever possible; play rather than draw; keep wilds for
later; dump high-point cards first and play several cards when allowed; hit a player close to
going out with Skip, +2 or +4; declare the colour held most. Never bluff a +4 when another play
exists; challenge a +4 only when its player probably held a matching card (a big hand) or is
about to go out anyway.
"""

from __future__ import annotations

from typing import Final

from mazziere.cards.uno import COLORS, FACE_COLOR, FACE_POINTS, WILD4_FACE, WILD_FACE, Card, Color
from mazziere.uno import Phase
from mazziere.uno.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from mazziere.uno.bots.base import Seen
from mazziere.uno.game import Game
from mazziere.uno.matching import wild4_legal, without_one
from mazziere.uno.options import Rules

THREAT_CARDS: Final = 2
"""An opponent holding this many cards or fewer is about to go out: hit them."""
GUILTY_HAND_COLOR: Final = 7
"""A +4 player left holding this many cards probably had one of the colour (``wild4_rule``
``color``: a hand of 7 lacks a given colour about one time in six)."""
GUILTY_HAND_ANY: Final = 4
"""The same threshold under the stricter ``any_playable`` rule (003)."""

PLAY: Final = Phase.PLAY
DRAWN: Final = Phase.DRAWN
PENDING: Final = Phase.PENDING
COLOR: Final = Phase.COLOR
OVER: Final = Phase.OVER

_KIND: Final = tuple(f % 13 if f < WILD_FACE else 13 + f - WILD_FACE for f in range(54))
"""Each face's kind as an int (:class:`~mazziere.cards.uno.Kind`: 0-9, 10 Skip, 11 Reverse,
12 +2, 13 Wild, 14 +4)."""
_SKIP: Final = 10
_REVERSE: Final = 11
_DRAW2: Final = 12
_WILD4: Final = 14
_SEVEN: Final = 7
_ACCEPT: Final = Accept()
_CALLUNO: Final = CallUno()
_CHALLENGE: Final = Challenge()
_CHOOSE: Final = tuple(ChooseColor(c) for c in COLORS)


class Sight:
    """What the rules of thumb read of ``seat``'s situation (module docstring)."""

    seat: int
    rules: Rules
    players: int
    phase: Phase
    current: int
    direction: int
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    top: int
    color: Color | None
    challengeable: bool
    in_hand: tuple[bool, ...]
    legal: tuple[Action, ...]

    def __init__(
        self,
        seat: int,
        rules: Rules,
        players: int,
        phase: Phase,
        current: int,
        direction: int,
        hand: tuple[Card, ...],
        counts: tuple[int, ...],
        top: int,
        color: Color | None,
        challengeable: bool,
        in_hand: tuple[bool, ...],
        legal: tuple[Action, ...],
    ) -> None:
        self.seat, self.rules, self.players, self.phase = seat, rules, players, phase
        self.current, self.direction, self.hand, self.counts = current, direction, hand, counts
        self.top, self.color, self.challengeable = top, color, challengeable
        self.in_hand, self.legal = in_hand, legal

    @staticmethod
    def of_view(v: Seen, seat: int) -> Sight:
        """From a :class:`~mazziere.uno.View` of ``seat`` (or a
        :class:`~mazziere.uno.bots.base.Seen`)."""
        return Sight(
            seat,
            v.rules,
            v.players,
            v.phase,
            v.current,
            v.direction,
            tuple(v.hand),
            tuple(v.hand_counts),
            v.top,
            v.color,
            v.challengeable,
            tuple(v.in_hand),
            tuple(v.legal),
        )

    @staticmethod
    def of_game(g: Game, seat: int) -> Sight:
        """From a game's own fields: what ``seat`` would see of it (its view's fields)."""
        return Sight(
            seat,
            g.rules,
            g.players,
            g.phase,
            g.current,
            g.direction,
            g.hands[seat],
            tuple([len(h) for h in g.hands]),
            g.discard[-1],
            g.color,
            g.w4_by is not None,
            g.in_hand,
            g.legal_actions(seat),
        )

    @property
    def my_turn(self) -> bool:
        return self.seat == self.current and self.phase is not OVER


def decide(s: Sight) -> Action | None:
    """Greedy's choice: one of ``s.legal``; out of turn, an UNO call, a catch, a jump-in, a
    challenge, or ``None`` (play goes on)."""
    legal = s.legal
    if not legal:
        return None
    mine = s.my_turn
    if s.phase is COLOR and mine:
        return _CHOOSE[int(best_color(s.hand))]
    due = call_or_catch(s)
    if due is not None:
        return due
    plays: list[Play] = []
    for a in legal:
        if isinstance(a, Play):
            plays.append(a)
    if not mine:
        if plays:  # jump in whenever possible
            return _best_play(s, plays)
        if has_kind(legal, _CHALLENGE) and _likely_guilty(s):
            return _CHALLENGE
        return None
    choice = _on_turn(s, plays)
    if (
        isinstance(choice, Play)
        and len(s.hand) - len(choice.cards) == 1
        and has_kind(legal, _CALLUNO)
    ):
        return _CALLUNO
    return choice


def has_kind(legal: tuple[Action, ...], word: Action) -> bool:
    """Whether ``legal`` lists a word action (pass, draw, call, challenge...) of its type."""
    t = type(word)
    return any(type(a) is t for a in legal)


def _on_turn(s: Sight, plays: list[Play]) -> Action:
    legal = s.legal
    phase = s.phase
    if phase is PENDING:
        if plays:  # stack whenever possible
            return _best_play(s, plays)
        if has_kind(legal, _CHALLENGE) and _should_challenge(s):
            return _CHALLENGE
        for a in legal:
            if type(a) is Accept:
                return a
        return _ACCEPT
    if phase is DRAWN:
        best = _best_play(s, plays) if plays else None
        keep = best is not None and best.card >= WILD_FACE and not _under_threat(s)
        can_pass = False
        pass_action: Action | None = None
        for a in legal:
            if type(a) is Pass:
                can_pass, pass_action = True, a
        if best is not None and not (keep and can_pass):
            return best
        if pass_action is not None:
            return pass_action
        return legal[0]
    if plays:
        return _best_play(s, plays)
    for a in legal:
        if type(a) is Draw:
            return a
    for a in legal:
        if not isinstance(a, (CallUno, Catch, Challenge)):
            return a
    return legal[0]


def call_or_catch(s: Sight) -> Action | None:
    """Say UNO holding one card; catch any opponent who forgot (never one's partner)."""
    if len(s.hand) == 1 and has_kind(s.legal, _CALLUNO):
        return _CALLUNO
    for a in s.legal:
        if isinstance(a, Catch) and not partner(s.rules, s.seat, a.target):
            return a
    return None


def best_color(hand: tuple[Card, ...] | list[Card]) -> Color:
    """The colour held most (ties: more points in it, then R, Y, G, B order)."""
    count = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for c in hand:
        col = FACE_COLOR[c]
        if col >= 0:
            count[col] += 1
            points[col] += FACE_POINTS[c]
    best = 0
    for i in range(1, 4):
        if count[i] > count[best] or (count[i] == count[best] and points[i] > points[best]):
            best = i
    return COLORS[best]


def partner(rules: Rules, seat: int, other: int) -> bool:
    """Whether ``other`` plays on ``seat``'s side (teams: seats 0+2 and 1+3)."""
    return seat == other or (rules.teams and seat % 2 == other % 2)


def following(s: Sight, seat: int, step: int) -> int:
    """The seat after ``seat`` going ``step`` (+1/-1), among seats still in the hand."""
    n = s.players
    at = seat
    for _ in range(n):
        at = (at + step) % n
        if s.in_hand[at]:
            return at
    return seat


def _opponent_threat(s: Sight, seat: int) -> bool:
    return not partner(s.rules, s.seat, seat) and s.counts[seat] <= THREAT_CARDS


def _under_threat(s: Sight) -> bool:
    """Whether the next player (an opponent) is close to going out."""
    return _opponent_threat(s, following(s, s.seat, s.direction))


def _best_play(s: Sight, plays: list[Play]) -> Play:
    """The play greedy likes most (first of the best, in the engine's stable order)."""
    scorer = _Scorer(s)
    best = plays[0]
    top = scorer.score(best)
    for i in range(1, len(plays)):
        p = plays[i]
        v = scorer.score(p)
        if v > top:
            best, top = p, v
    return best


class _Scorer:
    """Scores plays from one sight; the hand's colour totals are counted once."""

    def __init__(self, s: Sight) -> None:
        self.s = s
        self.threat = _under_threat(s)
        n = 0
        for x in s.in_hand:
            if x:
                n += 1
        self.two = n == 2
        self.counts = [0, 0, 0, 0]
        self.points = [0, 0, 0, 0]
        for c in s.hand:
            col = FACE_COLOR[c]
            if col >= 0:
                self.counts[col] += 1
                self.points[col] += FACE_POINTS[c]
        self.honest_known = False
        self.honest_w4 = False

    def score(self, play: Play) -> float:
        """How much the greedy player likes ``play`` (higher is better)."""
        s = self.s
        cards = play.cards
        left = len(s.hand) - len(cards)
        if left == 0:
            return 10_000.0
        last = cards[-1]
        kind = _KIND[last]
        score = 0.0
        if kind == _WILD4:
            if not self.honest_known:
                self.honest_w4, self.honest_known = _w4_honest(s), True
            if not self.honest_w4:
                score -= 5_000.0  # a bluff: only when nothing else is possible
        if last >= WILD_FACE:
            score -= 100.0  # keep wilds for later
        if self.threat and (kind in (_SKIP, _DRAW2, _WILD4) or (kind == _REVERSE and self.two)):
            score += 300.0
        score += 30.0 * (len(cards) - 1)
        pts = 0
        for c in cards:
            if c < WILD_FACE:
                pts += FACE_POINTS[c]
        score += pts
        color = play.color
        col = int(color) if color is not None else FACE_COLOR[last]
        if col >= 0:  # follow the colour held most (then the most points in it)
            same = 0
            same_pts = 0
            for c in cards:
                if FACE_COLOR[c] == col:
                    same += 1
                    same_pts += FACE_POINTS[c]
            n = self.counts[col] - same
            p = self.points[col] - same_pts
            score += 2.0 * n + p / 100
        target = play.target
        if target is not None:
            score += _target_score(s, kind, target, left)
        return score


def _target_score(s: Sight, kind: int, target: int, left: int) -> float:
    """7 swap: take the smallest hand (a loss if it is bigger than ours); 0 gives four: hit the
    opponent with fewest cards (never a partner)."""
    theirs = s.counts[target]
    mate = partner(s.rules, s.seat, target)
    if kind == _SEVEN:
        return 5.0 * (left - theirs) - (50.0 if mate else 0)
    if mate:
        return -50.0
    return 20.0 - theirs


def _w4_honest(s: Sight) -> bool:
    """Whether playing one +4 from this hand would be legal (``wild4_rule``)."""
    color = s.color
    if color is None:
        return True
    rest = without_one(s.hand, WILD4_FACE) if WILD4_FACE in s.hand else list(s.hand)
    return wild4_legal(rest, s.top, int(color), s.rules)


def _bluff_possible(rules: Rules) -> bool:
    return rules.wild4_bluff and rules.wild4_rule != "none"


def _offender_count(s: Sight) -> int:
    """The cards held by the seat that played the +4 (the one before the victim)."""
    return s.counts[following(s, s.current, -s.direction)]


def _likely_guilty(s: Sight) -> bool:
    """A big hand left after the +4 probably held a card it should have played instead."""
    if not s.challengeable or not _bluff_possible(s.rules):
        return False
    limit = GUILTY_HAND_ANY if s.rules.wild4_rule == "any_playable" else GUILTY_HAND_COLOR
    return _offender_count(s) >= limit


def _should_challenge(s: Sight) -> bool:
    """The victim challenges when guilt is likely, or when the offender is about to go out."""
    if not s.challengeable or not _bluff_possible(s.rules):
        return False
    return _likely_guilty(s) or _offender_count(s) <= 1


def greedy_chose(
    g: Game,
    seat: int,
    top: Card,
    color: Color | None,
    card: Card,
    card_color: Color | None,
    later: tuple[Card, ...] = (),
    counts: tuple[int, ...] | None = None,
    direction: int = 0,
) -> bool:
    """Whether greedy in ``seat``, holding its hand in ``g``, the cards ``later`` and ``card``
    too, with ``top`` in ``color`` on the discard (its turn, nothing pending), ``counts``
    cards in each seat (default: ``g``'s) and play going ``direction`` (default: ``g``'s),
    would play ``card`` (in ``card_color``): the ``strong`` bot keeps the worlds where an
    opponent's plays are greedy's choices (``mazziere.uno.bots.reading.read``). ``g`` is not
    changed."""
    h = g.copy()
    hand = h.hands[seat] + later + (card,)
    h.hands[seat] = hand
    h.discard[-1] = top
    h.color, h.phase, h.current = color, PLAY, seat
    if direction:
        h.direction = direction
    h.pending, h.w4_by, h.drawn = 0, None, None
    h.uno_seat, h.uno_called, h.uno_ready = None, False, None
    h._legal_seat = -1
    legal = tuple([a for a in h.legal_actions(seat) if type(a) is not CallUno])
    a = decide(
        Sight(
            seat,
            h.rules,
            h.players,
            PLAY,
            seat,
            h.direction,
            hand,
            tuple([len(x) for x in h.hands]) if counts is None else counts,
            top,
            color,
            False,
            h.in_hand,
            legal,
        )
    )
    return (
        isinstance(a, Play)
        and len(a.cards) == 1
        and a.cards[0] == card
        and a.color == card_color
        and a.target is None
    )
