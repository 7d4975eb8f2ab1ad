"""The working copy of a UNO state: fields, copying in and out, seats, drawing, and the
effects shared by every action (advancing the turn, skips, pending +2/+4 draws).

The rules are split over a short chain of classes, each a few hundred lines with one concern:
``Core`` (this module) <- ``Dealing`` (dealer, deal, first card) <- ``Scoring`` (end of a hand,
matches, tie-breaks, victory points) <- ``Machine`` (legal actions and applying them).
"""

from __future__ import annotations

from typing import Self, cast

from mazziere.cards.uno import (
    Card,
    Color,
)
from mazziere.rng import Rng
from mazziere.uno import events as E
from mazziere.uno.options import Rules
from mazziere.uno.state import MatchResult, Phase, State

VP_SINGLE = (12, 6, 2, 0)
VP_PAIRS = (10, 6, 4, 0)


class Core:
    """A mutable working copy of a :class:`State` (see mazziere.uno.machine)."""

    __slots__ = (
        "active",
        "clock",
        "color",
        "commitment",
        "current",
        "dealer",
        "direction",
        "discard",
        "draw_pile",
        "drawn",
        "eliminated_order",
        "events",
        "hand_no",
        "hands",
        "hands_won",
        "in_hand",
        "last_draw",
        "last_hand_cards",
        "match_rng",
        "n",
        "passes",
        "pending",
        "phase",
        "removed",
        "result",
        "rng",
        "rules",
        "scores",
        "seat_points",
        "stack_color",
        "stack_w4",
        "tiebreak",
        "total_turns",
        "turns",
        "uno_called",
        "uno_ready",
        "uno_seat",
        "w4_by",
        "w4_legal",
    )

    rules: Rules
    n: int
    match_rng: Rng
    rng: Rng
    commitment: str
    hand_no: int
    dealer: int
    hands: list[list[Card]]
    draw_pile: list[Card]
    discard: list[Card]
    removed: list[Card]
    color: int
    direction: int
    current: int
    phase: Phase
    pending: int
    stack_w4: bool
    stack_color: int
    w4_by: int | None
    w4_legal: bool
    drawn: Card | None
    uno_seat: int | None
    uno_called: bool
    uno_ready: int | None
    active: list[bool]
    in_hand: list[bool]
    scores: list[int]
    seat_points: list[int]
    hands_won: list[int]
    last_draw: list[int]
    last_hand_cards: list[int]
    eliminated_order: list[int]
    tiebreak: tuple[int, ...]
    passes: int
    turns: int
    total_turns: int
    clock: int
    result: MatchResult | None
    events: list[E.Event]

    @classmethod
    def thaw(cls, s: State, readonly: bool = False) -> Self:
        """A working copy of ``s``. ``readonly=True`` shares the state's tuples and random
        sources instead of copying them: only for reading (legal actions), never for acting."""
        m = cls()
        m.rules, m.n = s.rules, s.players
        m.commitment, m.hand_no, m.dealer = s.commitment, s.hand_no, s.dealer
        if readonly:
            m.match_rng, m.rng = s.match_rng, s.rng
            m.hands = cast("list[list[Card]]", s.hands)
            m.draw_pile = cast("list[Card]", s.draw_pile)
            m.discard = cast("list[Card]", s.discard)
            m.removed = cast("list[Card]", s.removed)
        else:
            m.match_rng, m.rng = s.match_rng.copy(), s.rng.copy()
            m.hands = [list(h) for h in s.hands]
            m.draw_pile, m.discard = list(s.draw_pile), list(s.discard)
            m.removed = list(s.removed)
        m.color = -1 if s.color is None else int(s.color)
        m.direction, m.current, m.phase = s.direction, s.current, s.phase
        m.pending, m.stack_w4 = s.pending, s.stack_w4
        m.stack_color = -1 if s.stack_color is None else int(s.stack_color)
        m.w4_by, m.w4_legal, m.drawn = s.w4_by, s.w4_legal, s.drawn
        m.uno_seat, m.uno_called, m.uno_ready = s.uno_seat, s.uno_called, s.uno_ready
        m.active, m.in_hand = list(s.active), list(s.in_hand)
        m.scores, m.seat_points = list(s.scores), list(s.seat_points)
        m.hands_won, m.last_draw = list(s.hands_won), list(s.last_draw)
        m.last_hand_cards, m.eliminated_order = list(s.last_hand_cards), list(s.eliminated_order)
        m.tiebreak, m.passes, m.turns = s.tiebreak, s.passes, s.turns
        m.total_turns, m.clock, m.result = s.total_turns, s.clock, s.result
        m.events = []
        return m

    def freeze(self) -> State:
        return State(
            rules=self.rules,
            players=self.n,
            match_rng=self.match_rng,
            rng=self.rng,
            commitment=self.commitment,
            hand_no=self.hand_no,
            dealer=self.dealer,
            hands=tuple(tuple(h) for h in self.hands),
            draw_pile=tuple(self.draw_pile),
            discard=tuple(self.discard),
            removed=tuple(self.removed),
            color=None if self.color < 0 else Color(self.color),
            direction=self.direction,
            current=self.current,
            phase=self.phase,
            pending=self.pending,
            stack_w4=self.stack_w4,
            stack_color=None if self.stack_color < 0 else Color(self.stack_color),
            w4_by=self.w4_by,
            w4_legal=self.w4_legal,
            drawn=self.drawn,
            uno_seat=self.uno_seat,
            uno_called=self.uno_called,
            uno_ready=self.uno_ready,
            active=tuple(self.active),
            in_hand=tuple(self.in_hand),
            scores=tuple(self.scores),
            seat_points=tuple(self.seat_points),
            hands_won=tuple(self.hands_won),
            last_draw=tuple(self.last_draw),
            last_hand_cards=tuple(self.last_hand_cards),
            eliminated_order=tuple(self.eliminated_order),
            tiebreak=self.tiebreak,
            passes=self.passes,
            turns=self.turns,
            total_turns=self.total_turns,
            clock=self.clock,
            result=self.result,
        )

    # ------------------------------------------------------------------ seats
    def side(self, seat: int) -> int:
        return seat % 2 if self.rules.teams else seat

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The ``steps``-th seat after ``seat`` in the direction of play, among seats in hand."""
        n, d, in_hand = self.n, self.direction, self.in_hand
        for _ in range(steps):
            seat = (seat + d) % n
            while not in_hand[seat]:
                seat = (seat + d) % n
        return seat

    def seats_in_hand(self) -> int:
        return sum(self.in_hand)

    # ------------------------------------------------------------------ drawing
    def _draw_cards(self, seat: int, count: int, reason: str) -> list[Card]:
        """Draw ``count`` cards, reshuffling the discards but the top card when the pile is
        empty (uno.md "A hand" 7); with both exhausted, fewer (or no) cards come."""
        got: list[Card] = []
        for _ in range(count):
            if not self.draw_pile and not (self.rules.reshuffle and self._reshuffle()):
                break
            got.append(self.draw_pile.pop())
        if got:
            self.hands[seat].extend(got)
            self.last_draw[seat] = self.clock
            self.events.append(E.Drew(seat, tuple(got), len(got), reason))
        return got

    def _reshuffle(self) -> bool:
        if len(self.discard) <= 1:
            return False
        top = self.discard[-1]
        pile = self.discard[:-1]
        self.discard = [top]
        self.rng.shuffle(pile)
        self.draw_pile = pile
        self.events.append(E.Reshuffled(len(pile)))
        return True

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or (self.rules.reshuffle and len(self.discard) > 1)

    def _advance(self, seat: int) -> None:
        self.current = self.next_seat(seat)
        self.phase = Phase.PLAY
        self.turns += 1
        self.total_turns += 1

    def _skip_next(self, seat: int) -> None:
        victim = self.next_seat(seat)
        self.events.append(E.Skipped(victim))
        self._advance(victim)

    def _hit_with_draw2(self, victim: int, stacked: bool = False) -> None:
        """+2 (uno.md 6): the victim draws 2 and loses the turn (``draw2_skips``); with
        stacking the victim may answer first (PENDING)."""
        self.turns += 1
        self.total_turns += 1
        self.pending += 2
        if not stacked:
            self.stack_w4, self.stack_color = False, -1
        if self.rules.stacking != "none":
            self.current, self.phase, self.w4_by = victim, Phase.PENDING, None
            return
        self._take_pending(victim)

    def _hit_with_wild4(self, seat: int, color_before: int, legal: bool, stacked: bool) -> None:
        """+4 (uno.md "Wild Draw Four"): the victim may challenge, stack, or draw 4 and lose
        the turn."""
        rules = self.rules
        victim = self.next_seat(seat)
        self.turns += 1
        self.total_turns += 1
        if not stacked:
            self.stack_w4, self.stack_color = False, -1
        if not self.stack_w4:
            self.stack_color = color_before
        self.stack_w4 = True
        self.pending += 4
        self.w4_legal = legal
        self.w4_by = seat if rules.challenge else None
        if rules.challenge or rules.stacking == "all" or stacked:
            self.current, self.phase = victim, Phase.PENDING
            return
        self._take_pending(victim)

    def _take_pending(self, victim: int) -> None:
        """The victim draws everything pending; it loses the turn unless only +2s were
        stacked and ``draw2_skips`` is off (001 var. 5)."""
        count, skip = self.pending, self.stack_w4 or self.rules.draw2_skips
        reason = "draw4" if self.stack_w4 else "draw2"
        self._clear_pending()
        self._draw_cards(victim, count, reason)
        if skip:
            self.events.append(E.Skipped(victim))
            self._advance(victim)
        else:
            self.current, self.phase = victim, Phase.PLAY

    def _clear_pending(self) -> None:
        self.pending, self.stack_w4, self.stack_color = 0, False, -1
        self.w4_by, self.w4_legal = None, True
