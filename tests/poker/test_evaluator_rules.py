"""draw-poker.md "Decks and hands": parsing, categories, ties by kickers, the 32-card
A-7-8-9-10 straight, ``ace_low_straight`` and ``flush_beats_full_house``, the batch API."""

from __future__ import annotations

import numpy as np
import pytest

from mazziere.errors import MalformedAction, OptionError
from mazziere.poker import Category, Rules, evaluate, parse_cards
from mazziere.sim.poker_batch import all_hands, evaluate_batch

R32 = Rules(deck=32)


def test_text_and_card_forms_agree() -> None:
    a = evaluate("Ah Kh Qh Jh Th")
    assert a == evaluate("AhKhQhJhTh") == evaluate(parse_cards("ah kh qh jh 10h"))
    assert a == evaluate([int(c) for c in parse_cards("AhKhQhJhTh")])
    assert a.category is Category.STRAIGHT_FLUSH and hash(a) == hash(evaluate("ThJhQhKhAh"))


@pytest.mark.parametrize(
    ("text", "category", "description"),
    [
        ("Kc Kd 7h 7s Ac", "two_pair", "two pair, kings and sevens, ace kicker"),
        ("2c 2d 9h 5s Ac", "pair", "pair of twos, ace, nine and five kickers"),
        ("Ac 2d 3h 4s 5c", "straight", "straight, five high (ace low)"),
        ("9c 9d 9h 4s 4c", "full_house", "full house, nines full of fours"),
        ("Qc Qd Qh Qs 3c", "four_of_a_kind", "four of a kind, queens, three kicker"),
        ("Ac Jc 8c 5c 2c", "flush", "flush, ace high, then jack, eight, five and two"),
        ("7c 7d 7h Ks 2c", "three_of_a_kind", "three of a kind, sevens, king and two kickers"),
        ("Ac Qd 9h 5s 3c", "high_card", "high card ace, then queen, nine, five and three"),
    ],
)
def test_categories_and_descriptions(text: str, category: str, description: str) -> None:
    r = evaluate(text)
    assert r.category.value == category and r.description == description


def test_seed_ranking_low_to_high() -> None:
    hands = [
        "Ac Qd 9h 5s 3c",
        "2c 2d 9h 5s Ac",
        "Kc Kd 7h 7s Ac",
        "7c 7d 7h Ks 2c",
        "9c Td Jh Qs Kc",
        "Ac Jc 8c 5c 2c",
        "9c 9d 9h 4s 4c",
        "Qc Qd Qh Qs 3c",
        "9h Th Jh Qh Kh",
    ]
    ranks = [evaluate(h) for h in hands]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


def test_ties_decided_by_kickers_from_the_highest_down() -> None:
    assert evaluate("Kc Kd 7h 7s Ac") > evaluate("Kh Ks 7c 7d Qc")  # kicker
    assert evaluate("Kc Kd 8h 8s 2c") > evaluate("Kh Ks 7c 7d Ac")  # second pair first
    assert evaluate("9c 9d Ah 8s 3c") > evaluate("9h 9s Ac 8d 2c")  # last kicker
    assert evaluate("Ac Kd 9h 5s 3c") > evaluate("Ah Kc 9d 5c 2h")
    assert evaluate("Ac Kd 9h 5s 3c") == evaluate("Ah Kc 9d 5c 3h")  # equal hands tie
    assert evaluate("Ac Jc 8c 5c 2c") == evaluate("Ad Jd 8d 5d 2d")  # suits have no rank


def test_32_card_deck_a_7_8_9_10_is_the_lowest_straight() -> None:
    low = evaluate("Ac 7d 8h 9s Tc", R32)
    assert low.category is Category.STRAIGHT
    assert low < evaluate("7c 8d 9h Ts Jc", R32) and low > evaluate("Ac Ad Ah Ks Qc", R32)
    assert evaluate("Ac 7c 8c 9c Tc", R32).category is Category.STRAIGHT_FLUSH
    assert evaluate("Ac 2d 3h 4s 5c").category is Category.STRAIGHT  # 52: A-2-3-4-5
    assert evaluate("Ac 7d 8h 9s Tc").category is Category.HIGH_CARD  # not with 52 cards


def test_ace_low_straight_option_off() -> None:
    rules = Rules(ace_low_straight=False)
    assert evaluate("Ac 2d 3h 4s 5c", rules).category is Category.HIGH_CARD
    assert evaluate("Ac 7d 8h 9s Tc", R32.with_options(ace_low_straight=False)).category is (
        Category.HIGH_CARD
    )


def test_flush_beats_full_house_option() -> None:
    flush, full = "Ac Jc 9c 8c 7c", "Ad Ah As Kd Kh"
    assert evaluate(flush, R32) < evaluate(full, R32)  # the seed's order
    swapped = R32.with_options(flush_beats_full_house=True)
    assert evaluate(flush, swapped) > evaluate(full, swapped)
    assert evaluate(full, swapped) > evaluate("Ad Kh Qs Jd Th", swapped)


def test_bad_hands_are_refused() -> None:
    with pytest.raises(MalformedAction):
        evaluate("Ah Kh Qh Jh")
    with pytest.raises(MalformedAction):
        evaluate("Ah Ah Qh Jh Th")
    with pytest.raises(MalformedAction):
        evaluate("2h 7h Qh Jh Th", R32)  # no twos in the 32-card deck
    with pytest.raises(MalformedAction):
        evaluate("Xh 7h Qh Jh Th")
    with pytest.raises(OptionError):
        Rules(deck=36)


def test_batch_equals_single_calls_and_checks_rows() -> None:
    rng = np.random.default_rng(5)
    for rules in (Rules(), R32, R32.with_options(flush_beats_full_house=True)):
        hands = all_hands(rules.deck)[rng.choice(len(all_hands(rules.deck)), 2000)]
        batch = evaluate_batch(hands, rules)
        assert [int(x) for x in batch] == [evaluate(tuple(h), rules).value for h in hands]
        assert np.array_equal(evaluate_batch(hands, rules, check=False), batch)
    with pytest.raises(MalformedAction):
        evaluate_batch(np.array([[0, 0, 1, 2, 3]]))
    with pytest.raises(MalformedAction):
        evaluate_batch(np.array([[0, 4, 8, 12, 40]]), R32)
    with pytest.raises(MalformedAction):
        evaluate_batch(np.array([[1, 2, 3]]))
