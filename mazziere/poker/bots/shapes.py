"""Hand shapes the heuristic bots reason with: groups, four-card flushes and straights
(draw-poker.md "The computer opponent": with 32 cards an open straight beats a flush draw).
"""

from __future__ import annotations

from collections import Counter

from mazziere.poker.cards import ACE, Card
from mazziere.poker.options import Rules
from mazziere.poker.tables import straights


def group_mask(hand: tuple[Card, ...]) -> int:
    """Positions of the cards that are not part of a pair, trips or quads."""
    counts = Counter(c.rank for c in hand)
    return sum(1 << i for i, c in enumerate(hand) if counts[c.rank] == 1)


def flush_draw_mask(hand: tuple[Card, ...]) -> int | None:
    """The position of the odd card of a four-card flush, if any."""
    counts = Counter(c.suit for c in hand)
    suit, n = counts.most_common(1)[0]
    if n != 4:
        return None
    return next(1 << i for i, c in enumerate(hand) if c.suit != suit)


def straight_draw_mask(hand: tuple[Card, ...], rules: Rules, open_only: bool) -> int | None:
    """The position of the odd card of a four-card straight (open-ended only, if asked)."""
    runs = straights(rules.deck, rules.ace_low_straight)
    best: int | None = None
    for i in range(5):
        rest = {c.rank for j, c in enumerate(hand) if j != i}
        if len(rest) != 4:
            continue
        bits = sum(1 << r for r in rest)
        fits = [m for m in runs if bits & m == bits]
        if len(fits) >= 2 or (fits and not open_only):
            best = 1 << i
            if len(fits) >= 2:
                return best
    return None if open_only else best


def high_card_mask(hand: tuple[Card, ...], keep: int) -> int:
    """Discard all but the ``keep`` highest cards."""
    order = sorted(range(5), key=lambda i: -hand[i].rank)
    return sum(1 << i for i in order[keep:])


def has_ace(hand: tuple[Card, ...]) -> bool:
    return any(c.rank == ACE for c in hand)
