"""The UNO game state: one mutable object holding everything, hidden parts included, and the
effects every rule shares (seats, drawing, advancing the turn, skips, pending +2/+4 draws).

Only :func:`mazziere.uno.view` output may leave the server; a ``GameData`` holds the draw pile
order, every hand and the random source, so it is for the engine, storage and replays.

The playable object is :class:`mazziere.uno.game.Game` (this class plus legal actions and
``push``); dealing (:mod:`mazziere.uno.dealing`) and scoring (:mod:`mazziere.uno.scoring`) are
functions over a ``GameData``. A state changes in place, action by action, like python-chess's
``Board``: ``copy()`` gives an independent one (the pure :func:`mazziere.uno.apply` copies
first). The hot parts are lists changed in place (draw pile, discards, ``last_draw``, the list
of hands); hands and everything else are tuples replaced when they change.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Self

from mazziere.cards.uno import Card, Color
from mazziere.rng import Rng
from mazziere.uno import events as E
from mazziere.uno.events import Drew, HandStarted, drew_one, skipped
from mazziere.uno.options import Rules


class Phase(StrEnum):
    """What the game waits for."""

    PLAY = "play"
    """The current player plays or draws."""
    DRAWN = "drawn"
    """The current player drew a playable card: play it, or pass (``may_play``)."""
    PENDING = "pending"
    """The current player owes +2/+4 cards: accept, stack, or challenge a +4."""
    COLOR = "color"
    """The first turned card is a Wild: the first player chooses the colour."""
    OVER = "over"
    """The match has ended."""


PLAY, DRAWN, PENDING, COLOR, OVER = Phase.PLAY, Phase.DRAWN, Phase.PENDING, Phase.COLOR, Phase.OVER


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended. Sides are seats, or teams 0 (seats 0+2) and 1 (seats 1+3)."""

    winner: int
    ranking: tuple[int, ...]
    scores: tuple[int, ...]
    match_points: tuple[int, ...]
    victory_points: tuple[int, ...]
    reason: str


FIELDS: tuple[str, ...] = (
    "rules",
    "players",
    "match_rng",
    "rng",
    "commitment",
    "hand_no",
    "dealer",
    "hands",
    "draw_pile",
    "discard",
    "removed",
    "color",
    "direction",
    "current",
    "phase",
    "pending",
    "stack_w4",
    "stack_color",
    "w4_by",
    "w4_legal",
    "drawn",
    "uno_seat",
    "uno_called",
    "uno_ready",
    "active",
    "in_hand",
    "scores",
    "seat_points",
    "hands_won",
    "last_draw",
    "last_hand_cards",
    "eliminated_order",
    "tiebreak",
    "passes",
    "turns",
    "total_turns",
    "clock",
    "result",
)
"""Every field of the game, in order; ``events`` and the legal-action cache are not state."""


_LISTS = frozenset({"draw_pile", "discard", "last_draw"})
_TUPLES = frozenset(
    {
        "removed",
        "active",
        "in_hand",
        "scores",
        "seat_points",
        "hands_won",
        "last_hand_cards",
        "eliminated_order",
        "tiebreak",
    }
)


class GameData:
    """Everything about a match in progress (see module docstring). Change it only through
    :meth:`mazziere.uno.game.Game.push`; read any field freely."""

    __slots__ = (
        *FIELDS,
        "_legal",
        "_legal_seat",
        "events",
        "halt",
        "log",
        "log_hand",
        "_seen",
        "_seen_n",
    )

    rules: Rules
    players: int
    match_rng: Rng
    rng: Rng
    commitment: str
    hand_no: int
    dealer: int
    hands: list[tuple[Card, ...]]
    """Each seat's hand; a hand is a tuple, rebuilt when it changes."""
    draw_pile: list[Card]
    """The pile to draw from; the next card drawn is the last."""
    discard: list[Card]
    """The discard pile; the top card is the last."""
    removed: tuple[Card, ...]
    color: Color | None
    direction: int
    current: int
    phase: Phase
    pending: int
    stack_w4: bool
    stack_color: Color | None
    w4_by: int | None
    w4_legal: bool
    drawn: Card | None
    uno_seat: int | None
    uno_called: bool
    uno_ready: int | None
    active: tuple[bool, ...]
    in_hand: tuple[bool, ...]
    scores: tuple[int, ...]
    seat_points: tuple[int, ...]
    hands_won: tuple[int, ...]
    last_draw: list[int]
    """The ``clock`` at each seat's latest draw (-1: never): "whoever drew last loses"."""
    last_hand_cards: tuple[int, ...]
    eliminated_order: tuple[int, ...]
    tiebreak: tuple[int, ...]
    passes: int
    turns: int
    total_turns: int
    clock: int
    result: MatchResult | None
    events: list[E.Event]
    """The events of the action being applied (the last ``push``'s)."""
    log: list[list[E.Event]]
    """The events of the hand being played, one list per action (each ``push``'s, as it
    returned them; the first may start with the end of the hand before), for
    :meth:`public_log`. Not part of the position (a parsed game starts it empty); a search's
    playout (``halt``) does not extend it. Kept per action so that a ``push`` adds one
    reference: the public forms are made only when a view asks (:meth:`public_log`)."""
    log_hand: int
    """The hand :attr:`log` is of."""
    _seen: tuple[E.Event, ...]
    _seen_n: int
    _legal: tuple[Any, ...]
    _legal_seat: int
    halt: bool
    """A search's playout (:func:`mazziere.uno.bots.rollouts.rollout`): the hand's end stops the
    game there, scored (its ``HandEnded`` event) but with nothing after it (phase ``over``, no
    next hand dealt, no result). Not part of the position: false in every new, parsed or
    copied game until the playout sets it."""

    # ------------------------------------------------------------------ values
    def copy(self) -> Self:
        """An independent copy: lists and the random sources are copied, tuples shared."""
        c = type(self)()
        for name in FIELDS:
            setattr(c, name, getattr(self, name))
        c.match_rng, c.rng = self.match_rng.copy(), self.rng.copy()
        c.hands = list(self.hands)
        c.draw_pile, c.discard = list(self.draw_pile), list(self.discard)
        c.last_draw = list(self.last_draw)
        c.events = []
        c.log, c.log_hand = list(self.log), self.log_hand
        c._seen, c._seen_n = self._seen, self._seen_n
        c._legal, c._legal_seat = self._legal, self._legal_seat
        c.halt = False
        return c

    def note(self, ev: list[E.Event]) -> None:
        """Keep an action's events for the hand's :meth:`public_log` (a new hand starts the
        log again)."""
        if self.hand_no != self.log_hand:
            self.log, self.log_hand = [ev], self.hand_no
            self._seen, self._seen_n = (), 0
        else:
            self.log.append(ev)

    def public_log(self) -> tuple[E.Event, ...]:
        """The hand's public history (``View.log``): its events from its ``HandStarted`` on, as
        a seat that does not own them sees them (:func:`mazziere.uno.events.public`). Made
        from the actions not yet seen by an earlier call, and kept."""
        n = len(self.log)
        if self._seen_n == n:
            return self._seen
        add: list[E.Event] = []
        log = self.log
        for i in range(self._seen_n, n):
            for e in log[i]:
                if e.private_fields:  # E.public, inlined: this loop runs for every update
                    e = e.for_seat(None)
                elif i == 0 and type(e) is HandStarted:
                    add = []  # the first action's events from the hand's start on
                add.append(e)
        self._seen = self._seen + tuple(add) if self._seen else tuple(add)
        self._seen_n = n
        return self._seen

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (for tests and tools that set up a position; the
        result is not checked: :func:`mazziere.uno.parse_position` is)."""
        unknown = set(changes) - set(FIELDS)
        if unknown:
            raise TypeError(f"a UNO state has no field {sorted(unknown)[0]!r}")
        c = self.copy()
        for name, value in changes.items():
            if name == "hands":
                value = [tuple(h) for h in value]
            elif name in _LISTS:
                value = list(value)
            elif name in _TUPLES:
                value = tuple(value)
            setattr(c, name, value)
        c._legal_seat = -1
        return c

    def _assign(self, other: GameData) -> None:
        """Take every field of ``other`` (a worked-on copy of this state)."""
        for name in FIELDS:
            setattr(self, name, getattr(other, name))
        self.events = other.events
        self.log, self.log_hand = other.log, other.log_hand
        self._seen, self._seen_n = other._seen, other._seen_n
        self._legal_seat = -1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameData):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} hand {self.hand_no} seat {self.current} to act, "
            f"phase {self.phase.value}, top {self.discard[-1] if self.discard else '-'}>"
        )

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 with teams, else one per seat."""
        return 2 if self.rules.teams else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.teams else seat

    # ------------------------------------------------------------------ seats
    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The ``steps``-th seat after ``seat`` in the direction of play, among seats in hand."""
        n, d, in_hand = self.players, self.direction, self.in_hand
        for _ in range(steps):
            seat = (seat + d) % n
            while not in_hand[seat]:
                seat = (seat + d) % n
        return seat

    def seats_in_hand(self) -> int:
        return sum(self.in_hand)

    # ------------------------------------------------------------------ drawing
    def draw_cards(self, seat: int, count: int, reason: str) -> list[Card]:
        """Draw ``count`` cards, reshuffling the discards but the top card when the pile is
        empty (uno.md "A hand" 7); with both exhausted, fewer (or no) cards come."""
        pile = self.draw_pile
        if count == 1 and pile:
            c = pile.pop()
            self.hands[seat] += (c,)
            self.last_draw[seat] = self.clock
            self.events.append(drew_one(seat, c, reason))
            return [c]
        if len(pile) >= count:
            got = pile[-count:] if count else []
            del pile[len(pile) - count :]
            got.reverse()
        else:
            got = []
            for _ in range(count):
                if not self.draw_pile and not (self.rules.reshuffle and self.reshuffle()):
                    break
                got.append(self.draw_pile.pop())
        if got:
            self.hands[seat] += tuple(got)
            self.last_draw[seat] = self.clock
            self.events.append(
                drew_one(seat, got[0], reason)
                if len(got) == 1
                else Drew(seat, tuple(got), len(got), reason)
            )
        return got

    def reshuffle(self) -> bool:
        """The discards but the top card become the draw pile, shuffled (uno.md 7)."""
        if len(self.discard) <= 1:
            return False
        pile = self.discard
        self.discard = [pile.pop()]
        self.rng.shuffle(pile)
        self.draw_pile = pile
        self.events.append(E.Reshuffled(len(pile)))
        return True

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or (self.rules.reshuffle and len(self.discard) > 1)

    # ------------------------------------------------------------------ turn effects
    def advance(self, seat: int) -> None:
        """The turn passes from ``seat`` to the next seat in hand."""
        n, d, in_hand = self.players, self.direction, self.in_hand
        seat = (seat + d) % n
        while not in_hand[seat]:
            seat = (seat + d) % n
        self.current = seat
        self.phase = PLAY
        self.turns += 1
        self.total_turns += 1

    def skip_next(self, seat: int) -> None:
        victim = self.next_seat(seat)
        self.events.append(skipped(victim))
        self.advance(victim)

    def hit_with_draw2(self, victim: int, stacked: bool = False) -> None:
        """+2 (uno.md 6): the victim draws 2 and loses the turn (``draw2_skips``); with
        stacking the victim may answer first (PENDING)."""
        self.turns += 1
        self.total_turns += 1
        self.pending += 2
        if not stacked:
            self.stack_w4, self.stack_color = False, None
        if self.rules.stacking != "none":
            self.current, self.phase, self.w4_by = victim, PENDING, None
            return
        self.take_pending(victim)

    def hit_with_wild4(
        self, seat: int, color_before: Color | None, legal: bool, stacked: bool
    ) -> None:
        """+4 (uno.md "Wild Draw Four"): the victim may challenge, stack, or draw 4 and lose
        the turn."""
        rules = self.rules
        victim = self.next_seat(seat)
        self.turns += 1
        self.total_turns += 1
        if not stacked:
            self.stack_w4, self.stack_color = False, None
        if not self.stack_w4:
            self.stack_color = color_before
        self.stack_w4 = True
        self.pending += 4
        self.w4_legal = legal
        self.w4_by = seat if rules.challenge else None
        if rules.challenge or rules.stacking == "all" or stacked:
            self.current, self.phase = victim, PENDING
            return
        self.take_pending(victim)

    def take_pending(self, victim: int) -> None:
        """The victim draws everything pending; it loses the turn unless only +2s were
        stacked and ``draw2_skips`` is off (001 var. 5)."""
        count, skip = self.pending, self.stack_w4 or self.rules.draw2_skips
        reason = "draw4" if self.stack_w4 else "draw2"
        self.clear_pending()
        self.draw_cards(victim, count, reason)
        if skip:
            self.events.append(skipped(victim))
            self.advance(victim)
        else:
            self.current, self.phase = victim, PLAY

    def clear_pending(self) -> None:
        self.pending, self.stack_w4, self.stack_color = 0, False, None
        self.w4_by, self.w4_legal = None, True
