"""What one seat may see: the only thing bots and clients ever receive (docs/architecture.md
"Views").

A view holds the seat's own hand, public counts, the discard top, scores, the seat's legal
actions and the hand's public history (``log``); never another hand, the draw pile order, the
random source or whether a +4 was legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.cards.uno import Card, Color
from mazziere.uno.actions import Action
from mazziere.uno.events import Event
from mazziere.uno.options import Rules
from mazziere.uno.state import MatchResult, Phase


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    rules: Rules
    players: int
    hand_no: int
    dealer: int
    phase: Phase
    current: int
    direction: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    top: Card
    color: Color | None
    draw_pile_count: int
    discard_count: int
    pending: int
    challengeable: bool
    w4_by: int | None
    """The seat whose +4 may be challenged now (public: everybody saw it played)."""
    drawn: Card | None
    uno_seat: int | None
    uno_called: bool
    in_hand: tuple[bool, ...]
    active: tuple[bool, ...]
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    turns: int
    total_turns: int
    result: MatchResult | None
    legal: tuple[Action, ...]
    log: tuple[Event, ...] = ()
    """The hand's public history: every event since its ``HandStarted``, as a seat that does
    not own it sees it (no drawn card; a draw in one's turn has the reason ``turn``). The
    same for every seat; the seat's own cards are in ``hand``. A game rebuilt from a position
    (its text form) has only what happened since."""

    @property
    def my_turn(self) -> bool:
        return self.seat == self.current and self.phase is not Phase.OVER
