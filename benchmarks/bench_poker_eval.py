"""Five-card evaluations per second: ours (single call and batch) against treys, eval7 and
phevaluator's direct C call, in one run on the same random hands.

    python benchmarks/bench_poker_eval.py [--hands N] [--batch N] [--chunk N] [--repeat R]
                                          [--slices S] [--wall]

Single calls loop in Python over the same ``--hands`` hands for every library:

* ``ours_checked``: ``evaluate(hand)`` on a tuple of cards, returning a ``HandRank`` after
  checking that the hand is five distinct cards of the deck -- the public call, the headline;
* ``ours_rank_of_unchecked``: ``rank_of(hand, tables)``, the engine's unchecked dense rank;
* ``treys``: ``Evaluator.evaluate(hand[:2], hand[2:])``; ``eval7``: ``eval7.evaluate``;
  ``phevaluator_c``: ``_pheval.evaluate_5cards`` on card numbers, its C entry point.

In each of ``--repeat`` rounds the libraries take turns over the hands (``--slices`` > 1 cuts
them in parts and the libraries take turns on each part, which spreads bursts of load more
evenly but makes every library start cold more often). Single calls run on one thread and are
timed by its CPU time (``time.thread_time``), which other users of a shared machine do not
inflate (``--wall``: by the wall clock). The batch, on every core, is ``evaluate_batch`` (input
check on, the default, and off), timed by the wall clock, over ``--batch`` hands made and
evaluated ``--chunk`` rows at a time, so memory stays small whatever the batch size; only the
evaluation is timed. Figures are medians over the rounds; ``single_vs_treys`` is the median of
the rounds' ratios. The last lines are the peak resident memory of the whole run,
``single_vs_treys=X.XX`` (our checked call over treys) and ``batch_evals_per_s=N`` (the checked
batch).
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt
from treys import Card as TreysCard  # type: ignore[import-untyped]
from treys import Evaluator as TreysEvaluator

from mazziere.poker.cards import CARDS, RANK_CHARS, SUIT_CHARS, Card
from mazziere.poker.evaluator import DEFAULT_RULES, evaluate, rank_of, tables_for
from mazziere.sim.poker_batch import PARALLEL_FROM, evaluate_batch

try:
    import eval7  # type: ignore[import-untyped]
except ImportError:  # the comparison runs without it
    eval7 = None
try:
    from phevaluator import _pheval  # type: ignore[import-untyped]
except ImportError:
    _pheval = None

Hands = npt.NDArray[np.uint8]


@nb.njit(cache=True)
def _random_hands(n, seed):  # type: ignore[no-untyped-def]
    np.random.seed(seed)
    out = np.empty((n, 5), dtype=np.uint8)
    deck = np.arange(52).astype(np.uint8)
    for i in range(n):
        for k in range(5):  # the first five steps of a Fisher-Yates shuffle
            j = np.random.randint(k, 52)
            deck[k], deck[j] = deck[j], deck[k]
            out[i, k] = deck[k]
    return out


def random_hands(n: int, seed: int) -> Hands:
    """``n`` uniformly random five-card hands (five distinct cards a row) as uint8 rows."""
    hands: Hands = _random_hands(n, seed)
    return hands


def chunks(n: int, size: int, seed: int) -> Iterator[Hands]:
    """The same ``n`` random hands on every call, made ``size`` rows at a time."""
    for k, start in enumerate(range(0, n, size)):
        yield random_hands(min(size, n - start), seed * 1_000_003 + k)


def peak_rss_mb() -> float:
    """The process's peak resident memory so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


Loop = Callable[[list[Any]], None]


def single_calls(n: int) -> dict[str, tuple[Loop, list[Any]]]:
    """Each library's loop and its form of the same ``n`` hands."""
    rows = random_hands(n, seed=1).tolist()
    text = [RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3] for c in range(52)]
    treys_cards = [TreysCard.new(t) for t in text]  # every library's 52 cards made once
    treys_eval = TreysEvaluator()
    tables = tables_for(DEFAULT_RULES)

    def ours(hands: list[tuple[Card, ...]]) -> None:
        for h in hands:
            evaluate(h)

    def ours_rank_of(hands: list[tuple[Card, ...]]) -> None:
        for h in hands:
            rank_of(h, tables)

    def treys(hands: list[list[int]]) -> None:
        ev = treys_eval.evaluate
        for h in hands:
            ev(h[:2], h[2:])

    our_hands = [tuple(CARDS[c] for c in row) for row in rows]
    runs: dict[str, tuple[Loop, list[Any]]] = {
        "ours_checked": (ours, our_hands),
        "ours_rank_of_unchecked": (ours_rank_of, our_hands),
        "treys": (treys, [[treys_cards[c] for c in row] for row in rows]),
    }
    if eval7 is not None:
        eval7_cards = [eval7.Card(t) for t in text]

        def seven(hands: list[list[Any]]) -> None:
            ev = eval7.evaluate
            for h in hands:
                ev(h)

        runs["eval7"] = (seven, [[eval7_cards[c] for c in row] for row in rows])
    if _pheval is not None:
        ph = _pheval.evaluate_5cards

        def phevaluator(hands: list[list[int]]) -> None:
            for a, b, c, d, e in hands:
                ph(a, b, c, d, e)

        runs["phevaluator_c"] = (phevaluator, rows)
    return runs


def single_rates(
    runs: dict[str, tuple[Loop, list[Any]]], slices: int, clock: Callable[[], float]
) -> dict[str, float]:
    """One round: every library's evaluations per second, the hands cut in ``slices`` parts
    and the libraries taking turns on each part (in a rotating order), so that a burst of
    load on a shared machine falls on all of them."""
    elapsed = dict.fromkeys(runs, 0.0)
    parts = {name: _cut(hands, slices) for name, (_, hands) in runs.items()}
    names = list(runs)
    for k in range(slices):
        for name in names[k % len(names) :] + names[: k % len(names)]:
            loop, part = runs[name][0], parts[name][k]
            t0 = clock()
            loop(part)
            elapsed[name] += clock() - t0
    return {name: len(hands) / elapsed[name] for name, (_, hands) in runs.items()}


def _cut(items: list[Any], parts: int) -> list[list[Any]]:
    size = -(-len(items) // parts)
    return [items[i : i + size] for i in range(0, len(items), size)]


def batch_rates(n: int, size: int) -> tuple[float, float]:
    """Evaluations per second of ``evaluate_batch`` over ``n`` hands, ``size`` rows a call:
    with the input check (the default), and without."""
    checked = unchecked = 0.0
    for hands in chunks(n, size, seed=2):
        t0 = time.perf_counter()
        evaluate_batch(hands)
        t1 = time.perf_counter()
        evaluate_batch(hands, check=False)
        checked, unchecked = checked + t1 - t0, unchecked + time.perf_counter() - t1
    return n / checked, n / unchecked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands for single calls")
    parser.add_argument("--batch", type=int, default=20_000_000, help="hands for the batch")
    parser.add_argument("--chunk", type=int, default=1 << 22, help="batch rows per call")
    parser.add_argument("--repeat", type=int, default=7, help="rounds (medians are printed)")
    parser.add_argument("--slices", type=int, default=1, help="turns per round (single calls)")
    parser.add_argument(
        "--wall",
        action="store_true",
        help="time single calls by the wall clock, not by the thread's CPU time",
    )
    args = parser.parse_args()
    clock = time.perf_counter if args.wall else time.thread_time

    runs = single_calls(args.hands)
    for loop, hands in runs.values():
        loop(hands[:1000])  # tables are built on first use: not inside a timed round
    gc.collect()
    gc.freeze()  # the inputs stay out of the collector's way during the timed loops
    for rows in (1000, PARALLEL_FROM):  # compile / load the serial and parallel kernels
        evaluate_batch(random_hands(rows, seed=3))
        evaluate_batch(random_hands(rows, seed=3), check=False)
    rates: dict[str, list[float]] = {name: [] for name in runs}
    rates["ours_batch"] = []
    rates["ours_batch_unchecked"] = []
    for _ in range(args.repeat):
        for name, rate in single_rates(runs, args.slices, clock).items():
            rates[name].append(rate)
        checked, unchecked = batch_rates(args.batch, args.chunk)
        rates["ours_batch"].append(checked)
        rates["ours_batch_unchecked"].append(unchecked)

    timing = "wall clock" if args.wall else "CPU time of the thread"
    print(f"single calls: {timing}; batch: wall clock, {nb.get_num_threads()} threads")
    print(f"{'':24s} {'median':>10s} {'min':>10s} {'max':>10s}  M hands/s")
    for name, values in rates.items():
        med, low, high = statistics.median(values), min(values), max(values)
        print(f"{name:24s} {med / 1e6:10.3f} {low / 1e6:10.3f} {high / 1e6:10.3f}")
    ratios = [o / t for o, t in zip(rates["ours_checked"], rates["treys"], strict=True)]
    batch = statistics.median(rates["ours_batch"])
    if "phevaluator_c" in rates:
        ph = statistics.median(rates["phevaluator_c"])
        print(f"batch_vs_phevaluator={batch / ph:.2f}")
    print(f"single_vs_treys_rounds={' '.join(f'{r:.2f}' for r in ratios)}")
    print(f"peak_rss_mb={peak_rss_mb():.0f}")
    print(f"single_vs_treys={statistics.median(ratios):.2f}")
    print(f"batch_evals_per_s={batch:.0f}")


if __name__ == "__main__":
    main()
