"""Draw-poker events: what happened, who may see it, and a text form that round-trips.

Private fields (the cards dealt or drawn) are blanked by :meth:`Event.for_seat` for anyone but
their owner; the draw's count stays public (draw-poker.md "A deal" 4).

>>> from mazziere.poker.cards import parse_cards
>>> e = Drew(seat=1, count=2, discarded=parse_cards("7h 2c"), received=parse_cards("Ks 3d"))
>>> str(e)
'drew seat=1 count=2 discarded=7h,2c received=Ks,3d'
>>> Event.parse(str(e)) == e, str(e.for_seat(0))
(True, 'drew seat=1 count=2 discarded= received=')
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from mazziere.errors import MalformedAction
from mazziere.poker.cards import Card, parse_cards


class Event:
    """Base class. Subclasses are frozen dataclasses with a ``tag``."""

    __slots__ = ()
    tag: ClassVar[str] = ""
    private_fields: ClassVar[tuple[str, ...]] = ()

    def for_seat(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: a spectator)."""
        if not self.private_fields or (seat is not None and getattr(self, "seat") == seat):  # noqa: B009
            return self
        return replace(self, **{name: () for name in self.private_fields})  # type: ignore[type-var]

    def __str__(self) -> str:
        parts = [self.tag]
        for f in fields(self):  # type: ignore[arg-type]
            parts.append(f"{f.name}={_encode(getattr(self, f.name))}")
        return " ".join(parts)

    @staticmethod
    def parse(text: str) -> Event:
        """Read an event from its text form."""
        tag, *pairs = text.strip().split(" ")
        cls = _BY_TAG.get(tag)
        if cls is None:
            raise MalformedAction(f"unknown event {tag!r}")
        types = {f.name: str(f.type) for f in fields(cls)}  # type: ignore[arg-type]
        kwargs: dict[str, Any] = {}
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
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    if isinstance(v, str):
        return v.replace("%", "%25").replace(" ", "%20").replace("=", "%3D")
    return str(v)


def _decode(tp: str, raw: str) -> Any:
    if "None" in tp and raw == "-":
        return None
    base = tp.replace(" | None", "")
    if base == "bool":
        return raw == "1"
    if base == "int":
        return int(raw)
    if base == "str":
        return raw.replace("%20", " ").replace("%3D", "=").replace("%25", "%")
    if base == "tuple[Card, ...]":
        return parse_cards(raw)
    if base == "tuple[int, ...]":
        return tuple(int(x) for x in raw.split(",") if x)
    raise MalformedAction(f"cannot read a value of type {tp}")


_BY_TAG: dict[str, type[Event]] = {}


def _event(cls: type[Any]) -> type[Any]:
    _BY_TAG[cls.tag] = cls
    return cls


@_event
@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """A new deal: its number, the first to act, the seed commitment, the pot carried over."""

    tag: ClassVar[str] = "deal_started"
    deal: int
    first: int
    commitment: str
    carried: int


@_event
@dataclass(frozen=True, slots=True)
class AntePaid(Event):
    tag: ClassVar[str] = "ante"
    seat: int
    amount: int


@_event
@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Five cards dealt to a seat; only that seat sees which."""

    tag: ClassVar[str] = "dealt"
    private_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    cards: tuple[Card, ...]


@_event
@dataclass(frozen=True, slots=True)
class Opened(Event):
    tag: ClassVar[str] = "opened"
    seat: int
    amount: int


@_event
@dataclass(frozen=True, slots=True)
class Waited(Event):
    tag: ClassVar[str] = "waited"
    seat: int


@_event
@dataclass(frozen=True, slots=True)
class Raised(Event):
    """Paid ``call`` (what was owed) and raised by ``amount``."""

    tag: ClassVar[str] = "raised"
    seat: int
    call: int
    amount: int


@_event
@dataclass(frozen=True, slots=True)
class Replaced(Event):
    """REPLACE: paid what was owed (maybe 0); round one is closed."""

    tag: ClassVar[str] = "replaced"
    seat: int
    paid: int


@_event
@dataclass(frozen=True, slots=True)
class Folded(Event):
    tag: ClassVar[str] = "folded"
    seat: int


@_event
@dataclass(frozen=True, slots=True)
class Drew(Event):
    """The draw: everyone sees the count, only the seat the cards."""

    tag: ClassVar[str] = "drew"
    private_fields: ClassVar[tuple[str, ...]] = ("discarded", "received")
    seat: int
    count: int
    discarded: tuple[Card, ...]
    received: tuple[Card, ...]


@_event
@dataclass(frozen=True, slots=True)
class Saw(Event):
    """SEE: paid what was owed (maybe 0); the hands are shown."""

    tag: ClassVar[str] = "saw"
    seat: int
    paid: int


@_event
@dataclass(frozen=True, slots=True)
class Shown(Event):
    """A hand shown at the showdown (public)."""

    tag: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]
    description: str


@_event
@dataclass(frozen=True, slots=True)
class PotWon(Event):
    """``seat`` takes the pot; ``reason`` is ``fold`` or ``showdown``."""

    tag: ClassVar[str] = "pot_won"
    seat: int
    amount: int
    reason: str


@_event
@dataclass(frozen=True, slots=True)
class PotCarried(Event):
    """Equal hands: the pot stays on the table for the next deal."""

    tag: ClassVar[str] = "pot_carried"
    amount: int


@_event
@dataclass(frozen=True, slots=True)
class Pledged(Event):
    """The computer pledged an item and received its appraised value in chips."""

    tag: ClassVar[str] = "pledged"
    seat: int
    item: str
    value: int


@_event
@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    """A pledged item is lost with the deal."""

    tag: ClassVar[str] = "forfeited"
    seat: int
    item: str


@_event
@dataclass(frozen=True, slots=True)
class Redeemed(Event):
    """The computer bought an item back for its value."""

    tag: ClassVar[str] = "redeemed"
    seat: int
    item: str
    value: int


@_event
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    tag: ClassVar[str] = "game_ended"
    winner: int
    reason: str
