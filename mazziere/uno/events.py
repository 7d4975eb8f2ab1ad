"""UNO events: what happened, who may see it, and a text form that round-trips.

An event names its ``private_to`` fields: for any seat but the owner those fields are blanked by
:meth:`Event.for_seat` (a drawn card becomes just a count). Every other field is public.

>>> e = Drew(seat=1, cards=(parse_card("R7"),), count=1, reason="choice")
>>> str(e)
'drew seat=1 cards=R7 count=1 reason=choice'
>>> Event.parse(str(e)) == e, str(e.for_seat(0))
(True, 'drew seat=1 cards= count=1 reason=turn')
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from mazziere.cards.uno import Card, Color, parse_card, parse_cards
from mazziere.textevents import TextEvent

__all__ = [
    "AutoPlayed",
    "Caught",
    "Challenged",
    "ColorChosen",
    "DealerCard",
    "DealerChosen",
    "Dealt",
    "Drew",
    "Eliminated",
    "Event",
    "HandEnded",
    "HandStarted",
    "Left",
    "MatchEnded",
    "Passed",
    "Played",
    "Reshuffled",
    "Returned",
    "Reversed",
    "Rotated",
    "Skipped",
    "Swapped",
    "Turned",
    "UnoCalled",
    "UnoMissed",
    "parse_card",
]


class Event(TextEvent):
    """Base of the UNO events (and the casino's, which extend them)."""

    __slots__ = ()
    registry: ClassVar[dict[str, type[TextEvent]]] = {}
    decoders: ClassVar[dict[str, Callable[[str], Any]]] = {
        "Color": Color.parse,
        "Card": parse_card,
        "tuple[Card, ...]": parse_cards,
        "tuple[tuple[Card, ...], ...]": lambda raw: tuple(parse_cards(h) for h in raw.split("/")),
    }


register_event = Event.register
"""Class decorator: make an UNO (or casino) event type readable by :meth:`Event.parse`."""


@register_event
@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A new hand: its number, dealer, the seats in it, and the seed commitment."""

    tag: ClassVar[str] = "hand_started"
    hand: int
    dealer: int
    seats: tuple[int, ...]
    commitment: str


@register_event
@dataclass(frozen=True, slots=True)
class DealerCard(Event):
    """A card drawn to choose the dealer (public)."""

    tag: ClassVar[str] = "dealer_card"
    seat: int
    card: Card


@register_event
@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    tag: ClassVar[str] = "dealer_chosen"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Cards dealt to a seat; only that seat sees which."""

    tag: ClassVar[str] = "dealt"
    owner_field: ClassVar[str | None] = "seat"
    private_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    cards: tuple[Card, ...]
    count: int


@register_event
@dataclass(frozen=True, slots=True)
class Turned(Event):
    """A card turned from the draw pile onto the discard pile."""

    tag: ClassVar[str] = "turned"
    card: Card


@register_event
@dataclass(frozen=True, slots=True)
class Returned(Event):
    """The first turned card went back into the draw pile."""

    tag: ClassVar[str] = "returned"
    card: Card
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class Played(Event):
    tag: ClassVar[str] = "played"
    seat: int
    cards: tuple[Card, ...]
    color: Color | None
    target: int | None
    jump_in: bool


@register_event
@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Cards drawn; others learn only how many. ``reason`` says why.

    For a draw in one's turn the drawer sees ``choice`` (it held a playable card,
    ``voluntary_draw``) or ``no_play``, everybody else ``turn`` (which of the two it was would
    tell them about a hidden hand)."""

    tag: ClassVar[str] = "drew"
    owner_field: ClassVar[str | None] = "seat"
    private_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    cards: tuple[Card, ...]
    count: int
    reason: str

    def for_seat(self, seat: int | None) -> Drew:
        if seat is not None and seat == self.seat:
            return self
        reason = TURN_DRAW if self.reason in _IN_TURN else self.reason
        return _drew_seen(self.seat, self.count, reason)


@register_event
@dataclass(frozen=True, slots=True)
class Skipped(Event):
    tag: ClassVar[str] = "skipped"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class Reversed(Event):
    tag: ClassVar[str] = "reversed"
    direction: int


@register_event
@dataclass(frozen=True, slots=True)
class ColorChosen(Event):
    tag: ClassVar[str] = "color_chosen"
    seat: int
    color: Color


@register_event
@dataclass(frozen=True, slots=True)
class Passed(Event):
    tag: ClassVar[str] = "passed"
    seat: int
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile but its top card became the new draw pile."""

    tag: ClassVar[str] = "reshuffled"
    count: int


@register_event
@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    tag: ClassVar[str] = "uno_called"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class UnoMissed(Event):
    """Automatic UNO penalty (``uno_call='auto'``)."""

    tag: ClassVar[str] = "uno_missed"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class Caught(Event):
    tag: ClassVar[str] = "caught"
    by: int
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class Challenged(Event):
    tag: ClassVar[str] = "challenged"
    by: int
    seat: int
    guilty: bool


@register_event
@dataclass(frozen=True, slots=True)
class Swapped(Event):
    tag: ClassVar[str] = "swapped"
    seat: int
    other: int


@register_event
@dataclass(frozen=True, slots=True)
class Rotated(Event):
    tag: ClassVar[str] = "rotated"
    direction: int


@register_event
@dataclass(frozen=True, slots=True)
class AutoPlayed(Event):
    """The server acted for a seat whose time ran out."""

    tag: ClassVar[str] = "auto_played"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class Left(Event):
    tag: ClassVar[str] = "left"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    tag: ClassVar[str] = "eliminated"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """End of a hand: winner (``None``: nobody went out), points per seat, totals per side,
    and every hand revealed."""

    tag: ClassVar[str] = "hand_ended"
    winner: int | None
    points: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """End of the match: winning side, ranking of sides, match points, victory points."""

    tag: ClassVar[str] = "match_ended"
    winner: int
    ranking: tuple[int, ...]
    match_points: tuple[int, ...]
    victory_points: tuple[int, ...]
    reason: str


# ---------------------------------------------------------------------- shared instances
# Events are frozen values, so the engine's hottest ones are made once per distinct value and
# shared (a dict lookup instead of a frozen dataclass's field-by-field construction).


@functools.cache
def played_one(seat: int, card: Card, color: Color | None) -> Played:
    """``Played`` of one card, no target, not a jump-in."""
    return Played(seat, (card,), color, None, False)


@functools.cache
def drew_one(seat: int, card: Card, reason: str) -> Drew:
    """``Drew`` of one card."""
    return Drew(seat, (card,), 1, reason)


TURN_DRAW = "turn"
"""The reason every seat but the drawer sees for a draw in one's turn (:class:`Drew`)."""
_IN_TURN = frozenset({"choice", "no_play"})


@functools.cache
def _drew_seen(seat: int, count: int, reason: str) -> Drew:
    """``Drew`` as a seat that does not own it sees it: no cards."""
    return Drew(seat, (), count, reason)


def public(e: Event) -> Event:
    """``e`` as a seat that does not own it sees it (the hand's log, ``View.log``)."""
    return e.for_seat(None) if e.private_fields else e


@functools.cache
def skipped(seat: int) -> Skipped:
    return Skipped(seat)


@functools.cache
def passed(seat: int, reason: str) -> Passed:
    return Passed(seat, reason)


@functools.cache
def reversed_to(direction: int) -> Reversed:
    return Reversed(direction)
