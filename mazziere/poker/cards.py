"""French playing cards for draw poker: the 52- and 32-card decks (draw-poker.md "Decks").

A card is an ``int`` subclass numbered ``rank * 4 + suit`` (rank 0-12 for 2..A, suit 0-3 for
c, d, h, s): the numbering phevaluator uses, so arrays of cards are plain ``uint8`` arrays.

>>> parse_cards("Ah Kh Qh Jh Th") == parse_cards("AhKhQhJhTh")
True
>>> str(parse_card("td")), parse_card("7s").rank, len(deck(32)), str(deck(32)[0])
('Td', 5, 32, '7c')

Ranks are written 2-9, T (also 10), J, Q, K, A; suits c, d, h, s (case-insensitive). Suits
have no rank.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from mazziere.errors import MalformedAction

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
ACE = 12
SEVEN = 5
DECK_SIZES = (52, 32)


class Card(int):
    """One French card; ``str(card)`` is its two-letter text, e.g. ``Ah``."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 (two) .. 12 (ace)."""
        return self >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self & 3

    def __repr__(self) -> str:
        return RANK_CHARS[self >> 2] + SUIT_CHARS[self & 3]

    __str__ = __repr__

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card, (int(self),))


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_BY_TEXT: dict[str, Card] = {str(c).lower(): c for c in CARDS}
_BY_TEXT.update({"10" + s: CARDS[8 * 4 + i] for i, s in enumerate(SUIT_CHARS)})


def card(number: int) -> Card:
    """The card numbered ``rank * 4 + suit`` (0-51)."""
    if not 0 <= number < 52:
        raise MalformedAction(f"no card numbered {number} (cards are 0-51)", "bad_card")
    return CARDS[number]


def parse_card(text: str) -> Card:
    """Read one card such as ``Ah``, ``td`` or ``10s``."""
    c = _BY_TEXT.get(text.strip().lower())
    if c is None:
        raise MalformedAction(
            f"unknown card {text!r}: write a rank 2-9, T, J, Q, K, A and a suit c, d, h, s",
            "bad_card",
        )
    return c


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas, or run together (``AhKhQhJhTh``)."""
    out: list[Card] = []
    for part in text.replace(",", " ").split():
        if len(part) > 3 or (len(part) == 3 and not part.startswith("10")):
            i = 0
            while i < len(part):
                step = 3 if part.startswith("10", i) else 2
                out.append(parse_card(part[i : i + step]))
                i += step
        else:
            out.append(parse_card(part))
    return tuple(out)


def as_cards(cards: str | Iterable[int]) -> tuple[Card, ...]:
    """Cards from a text or from card numbers / :class:`Card` values (integers: ``5.5`` or
    ``"5"`` is not a card number)."""
    if isinstance(cards, str):
        return parse_cards(cards)
    try:
        return tuple(card(operator.index(c)) for c in cards)
    except TypeError:
        raise MalformedAction(
            f"cards are a text or card numbers, not {cards!r}", "bad_card"
        ) from None


def deck(size: int) -> tuple[Card, ...]:
    """The unshuffled deck: 52 cards (2..A) or 32 cards (7..A), in card-number order."""
    if size not in DECK_SIZES:
        raise MalformedAction(f"a deck has 52 or 32 cards, not {size}", "bad_deck")
    low = 0 if size == 52 else SEVEN
    return tuple(c for c in CARDS if c.rank >= low)


def lowest_rank(size: int) -> int:
    """The lowest rank in the deck: two (52) or seven (32)."""
    return 0 if size == 52 else SEVEN


def cards_text(cards: Iterable[int]) -> str:
    """Cards as text separated by spaces."""
    return " ".join(str(CARDS[int(c)]) for c in cards)
