"""The bots' shipped best-discard tables (mazziere/poker/bots/data/draw*.npz) give exactly what
the computation they replace gives (drawcalc._compute_best), for every deck's default rules;
other rules fall back to the computation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mazziere.poker.bots import drawcalc
from mazziere.poker.cards import deck
from mazziere.poker.options import Rules


def _table(rules: Rules) -> drawcalc.BestTable:
    table = drawcalc.best_table(
        rules.deck, rules.ace_low_straight, rules.flush_beats_full_house, rules.max_replace
    )
    assert table is not None, f"{drawcalc.table_name(rules)} is not shipped"
    return table


@pytest.mark.parametrize("size", [32, 52])
def test_the_default_rules_of_each_deck_have_a_shipped_table(size: int) -> None:
    table = _table(Rules(deck=size))
    assert np.all(np.diff(table.codes) > 0)  # sorted, no duplicates: the binary search holds
    assert len(table.codes) == len(table.masks) == len(table.values)
    assert len(table.codes) == {32: 20_216, 52: 204_087}[size]


def test_the_32_card_table_holds_every_canonical_hand() -> None:
    keys = drawcalc.canonical_keys(32)
    table = _table(Rules(deck=32))
    assert table.codes.tolist() == [drawcalc.key_code(k) for k in keys]


@pytest.mark.parametrize("size", [32, 52])
def test_a_tabled_best_discard_equals_the_computed_one(size: int) -> None:
    rules = Rules(deck=size)
    rnd = random.Random(size)
    cards = deck(size)
    for _ in range(150):
        hand = tuple(rnd.sample(cards, 5))
        key, _order = drawcalc.canonical(hand)
        assert drawcalc._best(key, rules) == drawcalc._compute_best(key, rules)


def test_rules_without_a_table_are_computed() -> None:
    rules = Rules(deck=52, flush_beats_full_house=True)
    assert not drawcalc.shipped(rules)
    hand = tuple(deck(52)[:5])
    key, _ = drawcalc.canonical(hand)
    assert drawcalc._best(key, rules) == drawcalc._compute_best(key, rules)
