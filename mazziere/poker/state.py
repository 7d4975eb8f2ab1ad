"""The draw-poker game state: a frozen value holding everything, the deck order included.

Only :func:`mazziere.poker.view` output may leave the server; a ``State`` holds both hands,
the rest of the deck and the random source, so it is for the engine, storage and replays.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from mazziere.poker.cards import Card
from mazziere.poker.options import Rules
from mazziere.rng import Rng

HUMAN = 0
"""The human's seat in play mode (draw-poker.md: one human against the computer)."""
COMPUTER = 1
"""The computer opponent's seat: the only seat that pledges items (draw-poker.md)."""


class Phase(StrEnum):
    """What the game waits for."""

    BET1 = "bet1"
    """First betting round: OPEN, WAIT, RAISE, REPLACE, FOLD."""
    DRAW = "draw"
    """The draw: the first actor, then the other, replace 0..max_replace cards."""
    BET2 = "bet2"
    """Second betting round: OPEN, SEE, RAISE, FOLD."""
    OVER = "over"
    """The game has ended."""


class ItemStatus(StrEnum):
    """Where one of the computer's items is."""

    WORN = "worn"
    """Still the computer's, not pledged: it can be pledged for its value."""
    PLEDGED = "pledged"
    """Pledged for chips; forfeited if the computer loses a deal while it is pledged."""
    FORFEITED = "forfeited"
    """Lost with a deal; bought back when the bankroll allows."""


class Move(NamedTuple):
    """A public action of the current deal: seat, word, and amount (chips, or cards drawn)."""

    seat: int
    word: str
    amount: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """How the game ended: the winning seat and why."""

    winner: int
    reason: str


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game in progress. Treat as immutable; advance with ``apply``."""

    rules: Rules
    rng: Rng
    """The game's random source, as it stands before the next deal spawns its own."""
    commitment: str
    """Hash of the current deal's seed (published before the deal)."""
    deal_no: int
    first: int
    """The seat that acts first in both betting rounds and draws first this deal."""
    phase: Phase
    current: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    deck: tuple[Card, ...]
    """The undealt cards, top first."""
    pot: int
    bankrolls: tuple[int, int]
    committed: tuple[int, int]
    """Chips each seat put in during the current betting round."""
    raises: int
    acts: int
    """Actions taken in the current betting round."""
    drawn: tuple[int, int]
    """Cards each seat replaced this deal (-1: not drawn yet)."""
    items: tuple[ItemStatus, ...]
    pledge_stack: tuple[int, ...]
    """Indices of pledged or forfeited items, most recent last."""
    history: tuple[Move, ...]
    result: GameResult | None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def worn_value(self) -> int:
        """Appraised value of the items the computer still holds unpledged."""
        return self.rules.item_value * sum(1 for s in self.items if s is ItemStatus.WORN)

    @property
    def money(self) -> int:
        """Bankrolls + pot + unpledged items' value: constant through a game."""
        return self.bankrolls[0] + self.bankrolls[1] + self.pot + self.worn_value

    def owed(self, seat: int) -> int:
        """What ``seat`` must pay to match the other's bets this round."""
        return max(0, self.committed[1 - seat] - self.committed[seat])
