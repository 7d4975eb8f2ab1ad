"""What a table actor needs from a game: views, legal actions, applying an action, what the
server does on a time-out, and what bots do. Every adapter is rebuilt exactly from its
``setup`` plus the recorded actions (crash recovery, replays)."""

from __future__ import annotations

import hashlib
import os
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from mazziere.rng import ShakeRng
from mazziere.textevents import TextEvent


def event_rows(events: list[Any]) -> list[tuple[str, int | None, int | None]]:
    """Each event once for everybody, or, if it has private fields, in full for its owner and
    blanked for everybody else (see :class:`Step`)."""
    rows: list[tuple[str, int | None, int | None]] = []
    for e in events:
        assert isinstance(e, TextEvent)
        owner = getattr(e, e.owner_field) if e.private_fields and e.owner_field else None
        if owner is None:
            rows.append((str(e), None, None))
        else:
            rows.append((str(e), owner, None))
            rows.append((str(e.for_seat(None)), None, owner))
    return rows


def new_seed() -> str:
    """A fresh 256-bit hand seed from the OS's cryptographic source (hex)."""
    return os.urandom(32).hex()


def seed_rng(seed_hex: str) -> ShakeRng:
    return ShakeRng(bytes.fromhex(seed_hex))


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed: published when the hand starts, the seed revealed after."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def bot_random(seed_hex: str, seq: int) -> random.Random:
    """A bot's source for one decision, derived from the hand seed (replays decide alike)."""
    return random.Random(f"{seed_hex}:{seq}")


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: who, what (text), by whom (player, bot, server), and its events as
    ``(text, only, hidden_from)``: ``only`` is the one seat that may see that text (``None``:
    anyone but ``hidden_from``), so a drawn card goes to its owner and a count to the rest."""

    seat: int
    action: str
    actor: str
    events: list[tuple[str, int | None, int | None]]


class GameSession(ABC):
    """A game in progress at a table."""

    game: str = ""

    @classmethod
    @abstractmethod
    def from_setup(cls, setup: dict[str, Any], seed: str) -> GameSession:
        """Rebuild the game as it was dealt (then replay its actions)."""

    @staticmethod
    @abstractmethod
    def table_config(body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """Validate a create-table request: (the table's config, number of seats)."""

    @property
    @abstractmethod
    def setup(self) -> dict[str, Any]:
        """Everything besides the actions needed to rebuild this game (seed excluded)."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> dict[str, Any]: ...

    @abstractmethod
    def deciders(self) -> list[int]:
        """Seats with a pending decision (a timer runs for each human one)."""

    @abstractmethod
    def legal(self, seat: int) -> list[str]: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (JSON-ready); ``None`` for a spectator."""

    @abstractmethod
    def apply(self, seat: int, action: str, actor: str) -> Step:
        """Apply an action (raises a typed MazziereError, changing nothing, if refused)."""

    @abstractmethod
    def timeout(self, seat: int) -> Step:
        """The server acts for ``seat`` whose decision time ran out."""

    @abstractmethod
    def bot_move(self, seat: int) -> str | None:
        """What a bot at ``seat`` does now (``None``: nothing now)."""

    def visible(self, step: Step, seat: int | None) -> list[str]:
        """The texts of ``step``'s events that ``seat`` may see."""
        return [
            text
            for text, only, hidden_from in step.events
            if (only is None and (hidden_from is None or hidden_from != seat)) or only == seat
        ]
