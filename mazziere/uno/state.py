"""The UNO game state: a frozen value holding everything, hidden parts included.

Only :func:`mazziere.uno.view` output may leave the server; a ``State`` holds the draw pile
order, every hand and the random source, so it is for the engine, storage and replays.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mazziere.cards.uno import Card, Color
from mazziere.rng import Rng
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


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended. Sides are seats, or teams 0 (seats 0+2) and 1 (seats 1+3)."""

    winner: int
    ranking: tuple[int, ...]
    scores: tuple[int, ...]
    match_points: tuple[int, ...]
    victory_points: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a match in progress. Treat as immutable; advance with ``apply``."""

    rules: Rules
    players: int
    match_rng: Rng
    rng: Rng
    commitment: str
    hand_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    discard: tuple[Card, ...]
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
    last_draw: tuple[int, ...]
    last_hand_cards: tuple[int, ...]
    eliminated_order: tuple[int, ...]
    tiebreak: tuple[int, ...]
    passes: int
    turns: int
    total_turns: int
    clock: int
    result: MatchResult | None

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 with teams, else one per seat."""
        return 2 if self.rules.teams else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.teams else seat
