"""The proof that the compiled UNO CASINO round equals the readable one: both play the same
seeds and every round's (player_won, multiplier, turns) is compared (design.md "prove it equal
to the pure path on the same seeds").

>>> r = check_kernel(1, 50, workers=1)
>>> r.compared, r.mismatches
(50, ())
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mazziere.casino import simulate_round
from mazziere.sim.casino_kernel import REASONS, kernel_rounds, round_seeds, warm_up
from mazziere.sim.pool import run_chunks

Triple = tuple[int, int, int]
CHUNK = 500
"""Seeds per job on the readable engine (about half a second of one core)."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One round where the two paths disagree."""

    index: int
    seed: int
    kernel: Triple
    python: Triple


@dataclass(frozen=True, slots=True)
class CheckResult:
    """How many rounds were compared, the disagreements, and what the kernel's rounds
    covered (endings by reason)."""

    compared: int
    mismatches: tuple[Mismatch, ...]
    endings: dict[str, int]
    kernel_seconds: float
    python_seconds: float


def python_rounds(seeds: Sequence[int]) -> list[Triple]:
    """``simulate_round`` on each seed (one worker's share)."""
    return [simulate_round(int(s)) for s in seeds]


def check_kernel(
    master: int,
    rounds: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> CheckResult:
    """Play rounds ``0 .. rounds - 1`` of the run ``master`` on both paths and compare them
    round by round (the readable engine on ``workers`` processes)."""
    seeds = round_seeds(master, 0, rounds)
    warm_up()
    t0 = time.perf_counter()
    k = kernel_rounds(seeds)
    kernel_seconds = time.perf_counter() - t0
    chunks = [[int(s) for s in seeds[i : i + CHUNK]] for i in range(0, rounds, CHUNK)]
    t0 = time.perf_counter()
    parts = run_chunks(python_rounds, chunks, workers, progress, size=len, total=rounds)
    py = [t for part in parts for t in part]
    python_seconds = time.perf_counter() - t0
    bad = tuple(
        Mismatch(i, int(seeds[i]), k.triple(i), py[i])
        for i in range(rounds)
        if k.triple(i) != py[i]
    )
    counts = np.bincount(k.reason, minlength=len(REASONS))
    endings = {name: int(counts[i]) for i, name in enumerate(REASONS)}
    return CheckResult(len(py), bad, endings, kernel_seconds, python_seconds)


def check_rare(master: int, scan: int, reason: str = "pile_out") -> CheckResult:
    """The rounds among ``0 .. scan - 1`` of the run ``master`` that the kernel ends with
    ``reason`` (the pile running out is about 1 in 30,000), replayed by ``simulate_round``."""
    seeds = round_seeds(master, 0, scan)
    warm_up()
    t0 = time.perf_counter()
    k = kernel_rounds(seeds)
    kernel_seconds = time.perf_counter() - t0
    picked = np.flatnonzero(k.reason == REASONS.index(reason))
    t0 = time.perf_counter()
    bad: list[Mismatch] = []
    for i in picked:
        s = int(seeds[i])
        py = simulate_round(s)
        if k.triple(int(i)) != py:
            bad.append(Mismatch(int(i), s, k.triple(int(i)), py))
    python_seconds = time.perf_counter() - t0
    return CheckResult(
        len(picked), tuple(bad), {reason: len(picked)}, kernel_seconds, python_seconds
    )
