"""UNO events: what happened, who may see it, and a text form that round-trips.

An event names its ``private_to`` fields: for any seat but the owner those fields are blanked by
:meth:`Event.for_seat` (a drawn card becomes just a count). Every other field is public.

>>> e = Drew(seat=1, cards=(parse_card("R7"),), count=1, reason="choice")
>>> str(e)
'drew seat=1 cards=R7 count=1 reason=choice'
>>> Event.parse(str(e)) == e, str(e.for_seat(0))
(True, 'drew seat=1 cards= count=1 reason=choice')
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from mazziere.cards.uno import Card, Color, parse_card, parse_cards
from mazziere.errors import MalformedAction

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


class Event:
    """Base class. Subclasses are frozen dataclasses with a ``tag``."""

    __slots__ = ()
    tag: ClassVar[str] = ""
    owner_field: ClassVar[str | None] = None
    private_fields: ClassVar[tuple[str, ...]] = ()

    def for_seat(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: a spectator who sees no hand)."""
        if not self.private_fields:
            return self
        owner = getattr(self, self.owner_field) if self.owner_field else None
        if seat is not None and owner == seat:
            return self
        blank: dict[str, Any] = {name: () for name in self.private_fields}
        return replace(self, **blank)  # type: ignore[type-var]

    def __str__(self) -> str:
        parts = [self.tag]
        for f in fields(self):  # type: ignore[arg-type]
            parts.append(f"{f.name}={_encode(getattr(self, f.name))}")
        return " ".join(parts)

    @staticmethod
    def parse(text: str) -> Event:
        tag, *pairs = text.split(" ")
        cls = _BY_TAG.get(tag)
        if cls is None:
            raise MalformedAction(f"unknown event {tag!r}")
        kwargs: dict[str, Any] = {}
        types = {f.name: str(f.type) for f in fields(cls)}  # type: ignore[arg-type]
        for pair in pairs:
            name, _, raw = pair.partition("=")
            if name not in types:
                raise MalformedAction(f"event {tag} has no field {name!r}")
            kwargs[name] = _decode(types[name], raw)
        return cls(**kwargs)


def _encode(v: object) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, Color):
        return v.letter
    if isinstance(v, tuple):
        if v and isinstance(v[0], tuple):
            return "/".join(_encode(x) for x in v)
        return ",".join(str(x) for x in v)
    return str(v)


def _decode(tp: str, raw: str) -> Any:
    optional = "None" in tp
    if optional and raw == "-":
        return None
    base = tp.replace(" | None", "")
    if base == "bool":
        return raw == "1"
    if base == "int":
        return int(raw)
    if base == "str":
        return raw
    if base == "Color":
        return Color.parse(raw)
    if base == "Card":
        return parse_card(raw)
    if base == "tuple[Card, ...]":
        return parse_cards(raw)
    if base == "tuple[int, ...]":
        return tuple(int(x) for x in raw.split(",") if x != "")
    if base == "tuple[tuple[Card, ...], ...]":
        return tuple(parse_cards(h) for h in raw.split("/"))
    raise MalformedAction(f"cannot read a value of type {tp}")


_BY_TAG: dict[str, type[Event]] = {}


def register_event(cls: type[Any]) -> type[Any]:
    """Class decorator: make an event type readable by :meth:`Event.parse`."""
    _BY_TAG[cls.tag] = cls
    return cls


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
    """Cards drawn; others learn only how many. ``reason`` says why."""

    tag: ClassVar[str] = "drew"
    owner_field: ClassVar[str | None] = "seat"
    private_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    cards: tuple[Card, ...]
    count: int
    reason: str


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
