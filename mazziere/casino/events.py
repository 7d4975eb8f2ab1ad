"""Events of a UNO CASINO round beyond the UNO events (seed 000 "PAGAMENTI")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from mazziere.uno.events import Event, register_event


@register_event
@dataclass(frozen=True, slots=True)
class MultiplierChanged(Event):
    """The payout multiplier moved: ``player_drew`` (down) or ``bank_drew`` (up)."""

    tag: ClassVar[str] = "multiplier"
    multiplier: int
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The round is over: who won, at which multiplier, what is paid (cents)."""

    tag: ClassVar[str] = "round_ended"
    winner: str
    multiplier: int
    stake: int
    payout: int
    reason: str
    turns: int
