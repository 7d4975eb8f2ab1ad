"""draw-poker.md "Decks and hands": every five-card hand of both decks, counted by category,
against combinatorics derived here independently of the evaluator."""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
import pytest

from mazziere.poker import Rules, hand_classes
from mazziere.sim.poker_batch import all_hands, evaluate_batch


def expected_counts(ranks: int, straights: int) -> dict[str, int]:
    """Hands per category for a deck of ``ranks`` ranks in four suits with ``straights``
    five-rank sequences (counted from first principles)."""
    suit_patterns = 4**5
    sf = straights * 4
    straight = straights * (suit_patterns - 4)
    flush = 4 * (comb(ranks, 5) - straights)
    quads = ranks * (ranks - 1) * 4
    full = ranks * comb(4, 3) * (ranks - 1) * comb(4, 2)
    trips = ranks * comb(4, 3) * comb(ranks - 1, 2) * 4**2
    two_pair = comb(ranks, 2) * comb(4, 2) ** 2 * (ranks - 2) * 4
    pair = ranks * comb(4, 2) * comb(ranks - 1, 3) * 4**3
    high = (comb(ranks, 5) - straights) * (suit_patterns - 4)
    return {
        "straight_flush": sf,
        "four_of_a_kind": quads,
        "full_house": full,
        "flush": flush,
        "straight": straight,
        "three_of_a_kind": trips,
        "two_pair": two_pair,
        "pair": pair,
        "high_card": high,
    }


def counts(rules: Rules) -> dict[str, int]:
    ranks = evaluate_batch(all_hands(rules.deck), rules)
    classes = hand_classes(rules)
    per_rank = np.bincount(ranks, minlength=len(classes))
    out: Counter[str] = Counter()
    for r, n in enumerate(per_rank):
        if n:
            out[classes[r].category.value] += int(n)
    return dict(out)


def test_textbook_52_card_figures() -> None:
    got = counts(Rules(deck=52))
    assert got == expected_counts(13, 10)
    assert got["straight_flush"] == 40 and got["four_of_a_kind"] == 624
    assert got["full_house"] == 3744 and got["flush"] == 5108 and got["straight"] == 10200
    assert got["three_of_a_kind"] == 54912 and got["two_pair"] == 123552
    assert got["pair"] == 1098240 and got["high_card"] == 1302540
    assert sum(got.values()) == comb(52, 5) == 2598960


def test_32_card_deck_counts_with_ace_low_straight() -> None:
    """Eight ranks 7..A; straights 7-J, 8-Q, 9-K, 10-A and A-7-8-9-10."""
    got = counts(Rules(deck=32))
    assert got == expected_counts(8, 5)
    assert sum(got.values()) == comb(32, 5) == 201376
    assert got["flush"] < got["full_house"]  # why many 32-card books rank the flush higher


@pytest.mark.parametrize(("deck", "ranks", "straights"), [(52, 13, 9), (32, 8, 4)])
def test_counts_without_ace_low_straight(deck: int, ranks: int, straights: int) -> None:
    assert counts(Rules(deck=deck, ace_low_straight=False)) == expected_counts(ranks, straights)


def test_flush_beats_full_house_changes_order_not_counts() -> None:
    rules = Rules(deck=32, flush_beats_full_house=True)
    assert counts(rules) == expected_counts(8, 5)
