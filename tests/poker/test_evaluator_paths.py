"""draw-poker.md "Decks and hands": the checked single call (``evaluate``), the readable path it
falls back on, the engine's unchecked ``rank_of`` and the batch agree on every hand, under every
ranking variant, and all of them refuse what is not five distinct cards of the deck."""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import random

import numpy as np
import numpy.typing as npt
import pytest

from mazziere.errors import MalformedAction
from mazziere.poker import Rules, evaluate, hand_classes
from mazziere.poker.cards import CARDS, Card, deck
from mazziere.poker.eval_tables import CHECK_MASK, KEY_SPACE, check_value
from mazziere.poker.evaluator import _evaluate_slowly, rank_of, tables_for
from mazziere.sim.poker_batch import PARALLEL_FROM, PIECE, all_hands, evaluate_batch

VARIANTS = [
    Rules(deck=d, ace_low_straight=low, flush_beats_full_house=flush)
    for d in (52, 32)
    for low in (True, False)
    for flush in (False, True)
]


def ids(rules: Rules) -> str:
    low, flush = int(rules.ace_low_straight), int(rules.flush_beats_full_house)
    return f"{rules.deck}-acelow{low}-flush{flush}"


def assert_paths_agree(rows: npt.NDArray[np.uint8] | None, rules: Rules) -> None:
    """``evaluate`` returns the very class object of the batch's dense rank, and ``rank_of``
    gives the same dense rank, on every row as a tuple of cards (``None``: every hand)."""
    gc.disable()  # millions of new tuples would start as many needless collections
    try:
        hands: list[tuple[Card, ...]]
        if rows is None:  # all_hands() lists them in the order of combinations()
            hands = list(itertools.combinations(deck(rules.deck), 5))
            rows = all_hands(rules.deck)
            assert len(hands) == len(rows) and hands[-1] == tuple(rows[-1])
        else:
            hands = [tuple(map(CARDS.__getitem__, row)) for row in rows.tolist()]
        classes = hand_classes(rules)
        batch = evaluate_batch(rows, rules).tolist()
        got = list(map(evaluate, hands, itertools.repeat(rules)))
        assert [r.value for r in got] == batch
        assert all(r is classes[v] for r, v in zip(got, batch, strict=True))
        assert list(map(rank_of, hands, itertools.repeat(tables_for(rules)))) == batch
    finally:
        gc.enable()


def test_checked_call_agrees_on_every_52_card_hand() -> None:
    assert len(all_hands(52)) == 2598960
    assert_paths_agree(None, Rules())


@pytest.mark.parametrize("rules", [r for r in VARIANTS if r.deck == 32], ids=ids)
def test_checked_call_agrees_on_every_32_card_hand(rules: Rules) -> None:
    assert_paths_agree(None, rules)


@pytest.mark.parametrize("rules", [r for r in VARIANTS if r.deck == 52][1:], ids=ids)
def test_checked_call_agrees_on_random_52_card_hands_of_each_variant(rules: Rules) -> None:
    rows = all_hands(52)[np.random.default_rng(11).choice(2598960, 300_000, replace=False)]
    assert_paths_agree(rows, rules)


@pytest.mark.parametrize("rules", VARIANTS, ids=ids)
def test_checked_call_equals_the_readable_path(rules: Rules) -> None:
    rng = random.Random(3)
    cards = deck(rules.deck)
    for _ in range(3000):
        hand = tuple(rng.sample(cards, 5))
        assert evaluate(hand, rules) is _evaluate_slowly(hand, rules)


def test_every_form_of_five_cards_gives_the_same_class() -> None:
    hand = (CARDS[51], CARDS[3], CARDS[20], CARDS[33], CARDS[8])
    want = evaluate(hand)
    numbers = [int(c) for c in hand]
    forms: list[object] = [
        numbers,
        tuple(numbers),
        np.array(numbers, dtype=np.uint8),
        np.array(numbers, dtype=np.int64),
        (c for c in hand),
        " ".join(str(c) for c in hand),
        "".join(str(c) for c in hand),
    ]
    for form in forms:
        assert evaluate(form) is want  # type: ignore[arg-type]


def test_switching_rules_between_calls_uses_each_rules_tables() -> None:
    rng = random.Random(8)
    hands = [tuple(rng.sample(deck(32), 5)) for _ in range(200)]
    rules = [Rules(deck=32), Rules(deck=32, flush_beats_full_house=True), Rules(), Rules()]
    want = {id(r): [_evaluate_slowly(h, r) for h in hands] for r in rules}
    for i, h in enumerate(hands):
        for r in rules[i % 4 :] + rules[: i % 4]:
            assert evaluate(h, r) is want[id(r)][i]


def repeated_card_hands(rules: Rules) -> list[tuple[int, ...]]:
    """Hands with a card twice or more: every card five times and four times beside every
    other card, and a sample with three, two, or two pairs."""
    cards = deck(rules.deck)
    out: list[tuple[int, ...]] = [(c,) * 5 for c in cards]
    out += [(c, c, x, c, c) for c in cards for x in cards if x != c]
    rng = random.Random(5)
    for _ in range(3000):
        a, b, c, d = rng.sample(cards, 4)
        out += [(a, b, a, c, a), (a, b, c, d, a), (b, a, c, a, c)]
    return out


@pytest.mark.parametrize("rules", [Rules(), Rules(deck=32)], ids=ids)
def test_a_repeated_card_is_refused_everywhere(rules: Rules) -> None:
    hands = repeated_card_hands(rules)
    for h in hands:
        mixed = tuple(h[i] if i % 2 else int(h[i]) for i in range(5))
        for form in (h, mixed):
            with pytest.raises(MalformedAction) as err:
                evaluate(form, rules)
            assert err.value.code == "bad_hand"
        assert sum(check_value(c) for c in h) & CHECK_MASK >= KEY_SPACE  # no table has it
    arr = np.array(hands, dtype=np.uint8)
    for check_rows in (arr[:100], arr):
        with pytest.raises(MalformedAction, match="row 0 "):
            evaluate_batch(check_rows, rules)


@pytest.mark.parametrize(
    "hand",
    [
        (0, 4, 8, 12, 52),
        (0, 4, 8, 12, 64),
        (0, 4, 8, 12, 255),
        (0, 4, 8, 12, -1),
        (0, 4, 8, 12, -52),
        (0, 4, 8, 12, 4.5),
        (0, 4, 8, 12),
        (0, 4, 8, 12, 16, 20),
        (),
        "Ah Kh Qh Jh",
        "AhKhQ",
        (0, 4, 8, 12, 5.5),
        (0, 4, 8, 12, "5"),
        5,
        "Ah Kh Qh Jh Th 9h",
    ],
)
def test_anything_but_five_cards_of_the_deck_is_refused(hand: object) -> None:
    with pytest.raises(MalformedAction):
        evaluate(hand)  # type: ignore[arg-type]
    if isinstance(hand, (tuple, str)):
        with pytest.raises(MalformedAction):
            evaluate(iter(hand))  # type: ignore[arg-type]


def test_the_32_card_deck_refuses_lower_cards_in_every_path() -> None:
    rules = Rules(deck=32)
    for low in range(20):  # the twos to the sixes
        hand = (low, 20, 24, 28, 32)
        with pytest.raises(MalformedAction):
            evaluate(hand, rules)
        with pytest.raises(MalformedAction, match="row 0 "):
            evaluate_batch(np.array([hand], dtype=np.uint8), rules)
        assert evaluate(hand).value  # the 52-card deck has them


@pytest.mark.parametrize(
    "rows", [1000, PARALLEL_FROM + 5000, 3 * PIECE + 5], ids=["serial", "threads", "pieces"]
)
def test_the_batch_names_the_first_bad_row(rows: int) -> None:
    """Wherever the bad rows fall (one piece or several, in any order of finishing)."""
    hands = all_hands(52)[:: 2598960 // rows][:rows].copy()
    assert evaluate_batch(hands).min() >= 1
    for first, later in ((rows - 700, rows - 3), (rows // 3 - 1, rows - 1), (0, rows // 2)):
        bad = hands.copy()
        bad[later] = (7, 7, 8, 9, 10)
        bad[first] = (1, 2, 3, 4, 200)
        with pytest.raises(MalformedAction, match=f"row {first} "):
            evaluate_batch(bad)
    good = hands[: rows - 700]
    assert np.array_equal(evaluate_batch(good, check=False), evaluate_batch(good))


def _ranks_sum_of_first_hands(rows: int) -> int:
    return int(evaluate_batch(all_hands(52)[:rows]).sum(dtype=np.int64))


def test_a_forked_process_gets_its_own_batch_threads() -> None:
    rows = PARALLEL_FROM + 1000
    want = _ranks_sum_of_first_hands(rows)  # the parent's threads are running now
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_ranks_sum_of_first_hands, (rows,)).get(timeout=120) == want


def test_every_five_cards_of_a_small_deck_are_distinct_or_refused_alike() -> None:
    """All 5-card multisets of the 32-card deck's aces and kings: evaluate, the readable path
    and the batch accept exactly the hands of five distinct cards, with equal ranks."""
    cards = [c for c in deck(32) if c.rank >= 11]
    for combo in itertools.combinations_with_replacement(cards, 5):
        arr = np.array([combo], dtype=np.uint8)
        if len(set(combo)) == 5:
            r = evaluate(combo, Rules(deck=32))
            assert r is _evaluate_slowly(combo, Rules(deck=32))
            assert int(evaluate_batch(arr, Rules(deck=32))[0]) == r.value
        else:
            with pytest.raises(MalformedAction):
                evaluate(combo, Rules(deck=32))
            with pytest.raises(MalformedAction):
                evaluate_batch(arr, Rules(deck=32))
