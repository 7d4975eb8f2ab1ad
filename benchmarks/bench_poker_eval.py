"""Five-card evaluations per second: ours (single call and batch) against treys, eval7 and
phevaluator's direct C call, in one run on the same random hands.

    python benchmarks/bench_poker_eval.py [--hands N] [--batch N] [--repeat R]

Single-call figures loop in Python over the same hands for every library (ours: ``evaluate``
on a tuple of cards, returning a ``HandRank``; treys: ``Evaluator.evaluate``; eval7:
``eval7.evaluate``; phevaluator: ``_pheval.evaluate_5cards`` on card numbers, its C entry
point). The batch figure is ``evaluate_batch`` over a NumPy array, with the input check on
(the default) and off. The best of ``--repeat`` runs is reported. The last line is
``batch_vs_phevaluator=X.XX``: our checked batch rate over phevaluator's direct-call rate.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import eval7  # type: ignore[import-untyped]
import numpy as np
from phevaluator import _pheval  # type: ignore[import-untyped]
from treys import Card as TreysCard  # type: ignore[import-untyped]
from treys import Evaluator as TreysEvaluator

from mazziere.poker.cards import CARDS, RANK_CHARS, SUIT_CHARS
from mazziere.poker.evaluator import evaluate
from mazziere.sim.poker_batch import evaluate_batch


def random_hands(n: int, seed: int = 1) -> np.ndarray:
    """``n`` random five-card hands (distinct cards within a hand) as a uint8 array."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    return np.argpartition(keys, 5, axis=1)[:, :5].astype(np.uint8)


def best_rate(fn: Callable[[], int], repeat: int) -> float:
    """Evaluations per second of the best of ``repeat`` runs of ``fn`` (which returns how
    many it evaluated)."""
    best = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        n = fn()
        best = max(best, n / (time.perf_counter() - t0))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands for single calls")
    parser.add_argument("--batch", type=int, default=20_000_000, help="hands for the batch")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    arr = random_hands(args.hands)
    ours = [tuple(CARDS[c] for c in row) for row in arr.tolist()]
    text = [[RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3] for c in row] for row in arr.tolist()]
    treys_hands = [[TreysCard.new(t) for t in row] for row in text]
    eval7_hands = [[eval7.Card(t) for t in row] for row in text]
    ints = arr.tolist()
    treys_eval = TreysEvaluator()
    ph = _pheval.evaluate_5cards

    def run_ours() -> int:
        for h in ours:
            evaluate(h)
        return len(ours)

    def run_treys() -> int:
        ev = treys_eval.evaluate
        for h in treys_hands:
            ev(h[:2], h[2:])
        return len(treys_hands)

    def run_eval7() -> int:
        ev = eval7.evaluate
        for h in eval7_hands:
            ev(h)
        return len(eval7_hands)

    def run_ph() -> int:
        for a, b, c, d, e in ints:
            ph(a, b, c, d, e)
        return len(ints)

    big = random_hands(args.batch, seed=2)
    evaluate_batch(big[:1000])  # compile / load the kernels outside the timing

    def run_batch() -> int:
        evaluate_batch(big)
        return len(big)

    def run_batch_unchecked() -> int:
        evaluate_batch(big, check=False)
        return len(big)

    rates = {
        "ours_single": best_rate(run_ours, args.repeat),
        "treys_single": best_rate(run_treys, args.repeat),
        "eval7_single": best_rate(run_eval7, args.repeat),
        "phevaluator_c_single": best_rate(run_ph, args.repeat),
        "ours_batch": best_rate(run_batch, args.repeat),
        "ours_batch_unchecked": best_rate(run_batch_unchecked, args.repeat),
    }
    for name, rate in rates.items():
        print(f"{name:22s} {rate / 1e6:10.3f} M hands/s")
    print(f"single_vs_treys={rates['ours_single'] / rates['treys_single']:.2f}")
    print(f"batch_vs_phevaluator={rates['ours_batch'] / rates['phevaluator_c_single']:.2f}")


if __name__ == "__main__":
    main()
