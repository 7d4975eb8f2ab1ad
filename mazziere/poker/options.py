"""Every rule option of draw-poker.md as one frozen value, checked at construction.

The deck and the hand-ranking options belong here, so the evaluator, the engine and the bots
read one ``Rules`` value. Table limits the seed leaves open are options with documented
defaults.

>>> Rules(deck=32).lowest_rank, Rules().min_bet_amount, Rules().max_bet
(5, 5, 50)
>>> from mazziere.errors import UnknownOption
>>> try:
...     Rules().with_options(max_raise=2)
... except UnknownOption as e:
...     print(e.code, e.message)
unknown_option unknown poker option 'max_raise' (did you mean 'max_raises'?)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from mazziere.errors import OptionError, unknown_name
from mazziere.fields import check_limits, option
from mazziere.poker.cards import DECK_SIZES, lowest_rank

DEFAULT_ITEMS = ("hat", "scarf", "jacket", "gloves", "watch", "boots")


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete choice of five-card draw rules (draw-poker.md; seed 002)."""

    # --- decks and hands -----------------------------------------------------------------
    deck: int = option(52, "52 cards (2..A) or 32 cards (7..A), no jokers.")
    ace_low_straight: bool = option(
        True,
        "The ace also plays low: A-2-3-4-5 (52) or A-7-8-9-10 (32), the lowest straight.",
    )
    flush_beats_full_house: bool = option(
        False,
        "The classic rules rank the full house above the flush; many 32-card rule books swap them.",
    )

    # --- money -----------------------------------------------------------------------------
    ante: int = option(5, "Paid by both into the pot before each deal (seed: $5).", ge=1)
    bankroll: int = option(
        500,
        "Both sides start with the same bankroll (draw-poker.md default 500).",
        ge=0,
    )
    min_bet: int | None = option(
        None,
        "Smallest OPEN bet and smallest RAISE increment; ``None``: the ante (seed silent).",
        ge=1,
    )
    max_bet: int | None = option(
        50,
        "Largest OPEN bet and RAISE increment (table limit, seed silent: 10 antes); ``None``: only "
        "what the other side can cover limits a bet.",
        ge=1,
    )
    max_raises: int = option(
        3,
        "RAISEs allowed per betting round; the OPEN bet is not a raise (draw-poker.md).",
        ge=0,
    )
    max_replace: int = option(
        5,
        "Most cards one player may replace in the draw (draw-poker.md: 0-5).",
        ge=0,
        le=5,
    )

    # --- pledges (the computer opponent, seat 1) ------------------------------------------
    items: tuple[str, ...] = option(
        DEFAULT_ITEMS,
        "The computer's named items, pledged in this order (draw-poker.md).",
    )
    item_value: int = option(
        100,
        "What each item is appraised at, in chips (draw-poker.md default 100).",
        ge=1,
    )

    def __post_init__(self) -> None:
        if self.deck not in DECK_SIZES or isinstance(self.deck, bool):
            raise OptionError(f"option deck={self.deck!r} is not 52 or 32", "bad_option_value")
        for name in ("ace_low_straight", "flush_beats_full_house"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"option {name} is true or false", "bad_option_value")
        self._check_numbers()

    def _check_numbers(self) -> None:
        check_limits(self)  # the bounds written on each option (ante, bankroll, bets...)
        if self.max_bet is not None and self.max_bet < self.min_bet_amount:
            raise OptionError(
                f"max_bet {self.max_bet} is below min_bet {self.min_bet_amount}",
                "bad_combination",
            )
        if not isinstance(self.items, tuple) or not all(
            isinstance(i, str) and i.strip() for i in self.items
        ):
            raise OptionError("option items is a tuple of non-empty names", "bad_option_value")
        if len(set(self.items)) != len(self.items):
            raise OptionError("item names must be distinct", "bad_option_value")

    @property
    def min_bet_amount(self) -> int:
        """The smallest bet or raise: ``min_bet``, or the ante when unset."""
        return self.ante if self.min_bet is None else self.min_bet

    @property
    def lowest_rank(self) -> int:
        """The lowest rank in the deck (0 = two, 5 = seven)."""
        return lowest_rank(self.deck)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed; unknown names raise :class:`UnknownOption`."""
        names = self.option_names()
        for key in changes:
            if key not in names:
                raise unknown_name("poker option", key, names)
        if "items" in changes and not isinstance(changes["items"], tuple):
            changes["items"] = tuple(changes["items"])
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
