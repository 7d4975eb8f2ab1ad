"""draw-poker.md "Decks and hands": on all 2,598,960 hands of the 52-card deck our order agrees
with treys exactly (same classes, same order, same ties).

treys is slow per call, so its ranks for every hand are computed with its own algorithm and its
own lookup tables, vectorised (flush test on the suit bits, product of the rank primes, then
its flush/unsuited tables); a sample of hands checks that this equals ``Evaluator.evaluate``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from mazziere.poker import Rules
from mazziere.poker.cards import RANK_CHARS, SUIT_CHARS
from mazziere.sim.poker_batch import all_hands, evaluate_batch

treys = pytest.importorskip("treys")


def _treys_card_ints() -> npt.NDArray[np.int64]:
    return np.array(
        [treys.Card.new(RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3]) for c in range(52)],
        dtype=np.int64,
    )


def treys_ranks(hands: npt.NDArray[np.uint8], evaluator: object) -> npt.NDArray[np.int64]:
    """treys' rank (1 best .. 7462 worst) of every hand, vectorised."""
    cards = _treys_card_ints()[hands]
    suited = np.bitwise_and.reduce(cards, axis=1) & 0xF000
    primes = np.prod(cards & 0xFF, axis=1)
    out = np.empty(len(hands), dtype=np.int64)
    table = evaluator.table  # type: ignore[attr-defined]
    for mask, lookup in ((suited != 0, table.flush_lookup), (suited == 0, table.unsuited_lookup)):
        keys, inverse = np.unique(primes[mask], return_inverse=True)
        out[mask] = np.array([lookup[int(k)] for k in keys], dtype=np.int64)[inverse]
    return out


def test_vectorised_treys_equals_treys_evaluate() -> None:
    ev = treys.Evaluator()
    rng = np.random.default_rng(4)
    hands = np.argpartition(rng.random((3000, 52)), 5, axis=1)[:, :5].astype(np.uint8)
    ints = _treys_card_ints()
    direct = [
        ev.evaluate([int(ints[c]) for c in h[:2]], [int(ints[c]) for c in h[2:]]) for h in hands
    ]
    assert treys_ranks(hands, ev).tolist() == direct


def test_order_agrees_with_treys_on_every_52_card_hand() -> None:
    hands = all_hands(52)
    assert len(hands) == 2598960
    ours = evaluate_batch(hands, Rules()).astype(np.int64)
    theirs = treys_ranks(hands, treys.Evaluator())
    pairs = np.unique(ours * 10_000 + theirs)
    assert len(pairs) == len(np.unique(ours)) == len(np.unique(theirs)) == 7462
    by_ours = pairs // 10_000
    by_theirs = pairs % 10_000
    assert np.all(np.diff(by_ours) > 0)
    assert np.all(np.diff(by_theirs) < 0)  # our stronger = treys' smaller, class for class
