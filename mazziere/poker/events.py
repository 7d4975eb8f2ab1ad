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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from mazziere.poker.cards import Card, parse_cards
from mazziere.textevents import TextEvent


class Event(TextEvent):
    """Base of the draw-poker events; private fields belong to the event's ``seat``."""

    __slots__ = ()
    registry: ClassVar[dict[str, type[TextEvent]]] = {}
    decoders: ClassVar[dict[str, Callable[[str], Any]]] = {"tuple[Card, ...]": parse_cards}


_event = Event.register


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
    """A hand shown at the showdown (public): its cards, its class in English for the terminal
    and the records (``description``), and the same class structured for a client to word in
    its own language: ``category`` (a :class:`~mazziere.poker.eval_tables.Category` code) and
    ``ranks``, the ranks that decide ties (0 = two .. 12 = ace), most significant first. A
    record kept without them reads back with ``""`` and ``()``."""

    tag: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]
    description: str
    category: str = ""
    ranks: tuple[int, ...] = ()


@_event
@dataclass(frozen=True, slots=True)
class PotWon(Event):
    """``seat`` takes the pot; ``reason`` is ``fold``, ``showdown``, or ``no_ante``: the other
    side cannot pay the ante of the deal a tied pot was carried into, and the game ends
    (draw-poker.md "Money and pledges")."""

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
