"""What one seat may see: the only thing bots and clients receive (docs/architecture.md
"Views").

A view holds the seat's own hand, the public counts (cards each side replaced, never which),
money, items and this deal's public actions; never the other hand before the showdown, the
deck order or the random source.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from mazziere.poker import actions as A
from mazziere.poker.cards import Card
from mazziere.poker.options import Rules
from mazziere.poker.state import GameResult, ItemStatus, Move, Phase


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view of the game (``seat=None``: a spectator, who sees no hand)."""

    seat: int | None
    rules: Rules
    deal_no: int
    first: int
    phase: Phase
    current: int
    hand: tuple[Card, ...]
    deck_count: int
    pot: int
    bankrolls: tuple[int, int]
    committed: tuple[int, int]
    owed: int
    """What this seat must pay to match the other's bets this round."""
    raises: int
    drawn: tuple[int, int]
    """Cards each seat replaced this deal (-1: not drawn yet)."""
    items: tuple[ItemStatus, ...]
    history: tuple[Move, ...]
    words: tuple[str, ...]
    """The kinds of action this seat may take now (``open``, ``wait``, ...)."""
    bet_range: tuple[int, int] | None
    """Smallest and largest OPEN bet or RAISE increment now, if any."""
    result: GameResult | None

    @property
    def my_turn(self) -> bool:
        return self.seat == self.current and self.phase is not Phase.OVER

    @property
    def is_first(self) -> bool:
        """Whether this seat acts first this deal."""
        return self.seat == self.first

    @property
    def legal(self) -> tuple[A.Action, ...]:
        """Every action this seat may take now, in the order of
        :func:`~mazziere.poker.legal_actions` (bets by amount, draws by card subset)."""
        out: list[A.Action] = []
        for word in self.words:
            if word in ("open", "raise") and self.bet_range is not None:
                kind = A.Open if word == "open" else A.Raise
                out.extend(kind(a) for a in range(self.bet_range[0], self.bet_range[1] + 1))
            elif word == "draw":
                for n in range(self.rules.max_replace + 1):
                    out.extend(A.Draw(c) for c in itertools.combinations(self.hand, n))
            else:
                out.append(A.Action.parse(word))
        return tuple(out)
