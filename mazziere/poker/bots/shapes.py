"""Hand shapes the heuristic bots reason with: groups, four-card flushes and straights
(draw-poker.md "The computer opponent": with 32 cards an open straight beats a flush draw).
"""

from __future__ import annotations

from collections import Counter

from mazziere.poker.cards import ACE, Card
from mazziere.poker.eval_tables import straights
from mazziere.poker.options import Rules


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


def draw_first_mask(hand: tuple[Card, ...], rules: Rules) -> int | None:
    """The odd card of the better one-card draw for the deck, if the hand has one: with 32
    cards an open straight (8 outs of 27) before a four-card flush (4 outs, the other cards of
    the suit being in the hand); with 52 a four-card flush (9 outs of 47) before an open
    straight (8)."""
    straight = straight_draw_mask(hand, rules, open_only=True)
    flush = flush_draw_mask(hand)
    if rules.deck == 32:
        return straight if straight is not None else flush
    return flush if flush is not None else straight


def sensible_draw_mask(hand: tuple[Card, ...], rules: Rules, made: bool, grouped: bool) -> int:
    """A plain player's discard: stand pat on a straight or better (``made``), keep groups
    (``grouped``), draw one to the better four-card draw of the deck, else keep the two
    highest cards."""
    if made:
        return 0
    if grouped:
        return group_mask(hand)
    draw = draw_first_mask(hand, rules)
    return draw if draw is not None else high_card_mask(hand, 2)
