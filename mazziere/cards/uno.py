"""The 108-card UNO deck: faces, point values and text forms (uno.md "Cards").

A card is an ``int`` subclass numbering its face (0-53), so hands are tuples of small ints that
compare, hash and pickle fast, while ``str(card)`` gives the text form:

>>> parse_card("R7"), parse_card("gd2"), parse_card("W4")
(R7, GD2, W4)
>>> str(parse_card("BS")), parse_card("YR").kind.name, parse_card("W").points
('BS', 'REVERSE', 50)

Text forms: a colour letter (R, Y, G, B) followed by the number (0-9), ``S`` (Skip), ``R``
(Reverse) or ``D2`` (Draw Two); ``W`` is the Wild and ``W4`` the Wild Draw Four.
"""

from __future__ import annotations

from enum import IntEnum

from mazziere.errors import MalformedAction


class Color(IntEnum):
    """The four card colours, in a fixed order (red, yellow, green, blue)."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3

    @property
    def letter(self) -> str:
        return "RYGB"[self]

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read a colour from its letter or English name (case-insensitive)."""
        t = text.strip().upper()
        for c in cls:
            if t in (c.letter, c.name):
                return c
        raise MalformedAction(f"unknown colour {text!r}: use R, Y, G or B", "bad_color")

    def __str__(self) -> str:
        return self.letter


COLORS: tuple[Color, ...] = tuple(Color)


class Kind(IntEnum):
    """What a face does. Values 0-9 are the number cards' numbers."""

    N0 = 0
    N1 = 1
    N2 = 2
    N3 = 3
    N4 = 4
    N5 = 5
    N6 = 6
    N7 = 7
    N8 = 8
    N9 = 9
    SKIP = 10
    REVERSE = 11
    DRAW2 = 12
    WILD = 13
    WILD4 = 14


_KIND_TEXT = {Kind.SKIP: "S", Kind.REVERSE: "R", Kind.DRAW2: "D2"}

# Face numbering: colour * 13 + rank for the 52 coloured faces (rank 0-9, 10 S, 11 R, 12 D2),
# then 52 = Wild and 53 = Wild Draw Four.
FACE_COLOR: tuple[int, ...] = tuple([f // 13 for f in range(52)] + [-1, -1])
FACE_KIND: tuple[Kind, ...] = tuple([Kind(f % 13) for f in range(52)] + [Kind.WILD, Kind.WILD4])
FACE_POINTS: tuple[int, ...] = tuple(
    k if k <= 9 else (20 if k <= Kind.DRAW2 else 50) for k in FACE_KIND
)
FACE_TEXT: tuple[str, ...] = tuple(
    [
        Color(f // 13).letter + (str(f % 13) if f % 13 <= 9 else _KIND_TEXT[Kind(f % 13)])
        for f in range(52)
    ]
    + ["W", "W4"]
)
WILD_FACE = 52
WILD4_FACE = 53


_FACE_COLOR_OBJ: tuple[Color | None, ...] = tuple(None if c < 0 else Color(c) for c in FACE_COLOR)


class Card(int):
    """One UNO face. Instances are interned: ``Card(7) is Card(7)`` after :func:`card`."""

    __slots__ = ()

    @property
    def color(self) -> Color | None:
        """The printed colour, or ``None`` for Wild and Wild Draw Four."""
        return _FACE_COLOR_OBJ[self]

    @property
    def kind(self) -> Kind:
        return FACE_KIND[self]

    @property
    def number(self) -> int | None:
        """The number 0-9 of a number card, else ``None``."""
        k = FACE_KIND[self]
        return int(k) if k <= 9 else None

    @property
    def points(self) -> int:
        """Scoring value: face value, 20 for Skip/Reverse/+2, 50 for Wild/+4."""
        return FACE_POINTS[self]

    @property
    def is_wild(self) -> bool:
        return self >= WILD_FACE

    @property
    def is_number(self) -> bool:
        return self < WILD_FACE and self % 13 <= 9

    @property
    def is_action(self) -> bool:
        """Skip, Reverse, +2, Wild or +4: anything that is not a number card."""
        return not self.is_number

    def __repr__(self) -> str:
        return FACE_TEXT[self]

    __str__ = __repr__

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card, (int(self),))


_CARDS: tuple[Card, ...] = tuple(Card(f) for f in range(54))
_BY_TEXT: dict[str, Card] = {FACE_TEXT[f]: _CARDS[f] for f in range(54)}
_BY_TEXT.update({"WD4": _CARDS[WILD4_FACE], "+4": _CARDS[WILD4_FACE]})


def card(face: int) -> Card:
    """The interned card of a face number 0-53."""
    if not 0 <= face < 54:
        raise MalformedAction(f"no UNO face numbered {face}", "bad_card")
    return _CARDS[face]


def parse_card(text: str) -> Card:
    """Read one card from its text form (case-insensitive), e.g. ``R7``, ``GD2``, ``W4``."""
    c = _BY_TEXT.get(text.strip().upper())
    if c is None:
        raise MalformedAction(
            f"unknown card {text!r}: write a colour letter R/Y/G/B and 0-9, S, R or D2; or W, W4",
            "bad_card",
        )
    return c


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by commas, '+' or spaces."""
    parts = text.replace(",", " ").replace("+", " ").split()
    return tuple(parse_card(p) for p in parts)


def card_points(cards: tuple[Card, ...] | list[Card]) -> int:
    """Total scoring points of some cards (uno.md "Cards")."""
    return sum(FACE_POINTS[c] for c in cards)


def _full_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for col in range(4):
        base = col * 13
        deck.append(_CARDS[base])  # one 0
        for rank in range(1, 13):  # two each of 1-9, Skip, Reverse, +2
            deck.extend((_CARDS[base + rank], _CARDS[base + rank]))
    deck.extend([_CARDS[WILD_FACE]] * 4 + [_CARDS[WILD4_FACE]] * 4)
    return tuple(deck)


FULL_DECK: tuple[Card, ...] = _full_deck()
"""The 108 cards in a fixed, unshuffled order."""

NUMBER_OF_CARDS = 108
