"""Many casino kernel rounds, from Python: one per seed (:func:`kernel_rounds`,
:func:`kernel_round`, every step of one with :func:`kernel_trace`) or a stretch of an RTP run
counted as it is played (:func:`kernel_tally`), the player on any of the kernel's strategies
(:data:`~mazziere.sim.casino_kernel.layout.STRATEGIES`) and seed 000 read as any readings.

Importing this module drops numba's cached kernel if any file it compiles has changed
(:func:`mazziere.sim.casino_kernel.compiling.drop_stale_cache`), before anything is compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mazziere.casino.readings import Readings
from mazziere.sim.casino_kernel.compiling import drop_stale_cache
from mazziere.sim.casino_kernel.layout import (
    _NCARDS,
    _NEEDS_DECISION,
    _SFCARD,
    _SFCOLOR,
    _SFKIND,
    _ST_EXTERNAL,
    _ST_SEARCH,
    SEARCH_WORLDS,
    STRATEGIES,
    TALLY_TURNS,
    TALLY_WIDTH,
    strategy_index,
)
from mazziere.sim.casino_kernel.round import _deal, _play, _workspace
from mazziere.sim.casino_kernel.search import _check_worlds, _search_move
from mazziere.sim.casino_kernel.seeds import MASK64, _round_seed, round_seeds
from mazziere.sim.casino_kernel.trace import _NO_TRACE, STEP_WIDTH
from mazziere.sim.splitmix_kernel import I64Array, U64Array, jit

__all__ = [
    "KernelRounds",
    "kernel_round",
    "kernel_rounds",
    "kernel_tally",
    "kernel_trace",
    "reading_codes",
    "warm_up",
]


@jit
def _round(
    seed: np.uint64,
    strategy: int,
    worlds: int,
    pile: I64Array,
    hands: I64Array,
    sizes: I64Array,
    rng: U64Array,
    ties: I64Array,
    st: I64Array,
    trace: I64Array,
    rd: I64Array,
) -> tuple[int, int, int, int, int]:
    """One round on ``SplitMixRng(seed)`` with the player's ``strategy`` (an index into
    :data:`STRATEGIES`) under the readings ``rd``: (paid, multiple, turns, reason code,
    steps), as :func:`mazziere.casino.round.outcome` counts them."""
    _deal(seed, st, pile, hands, sizes, rng, trace, rd)
    if strategy != _ST_SEARCH:
        return _play(strategy, st, pile, hands, sizes, rng, ties, trace)
    cand = np.zeros((64, 3), dtype=np.int64)
    score = np.zeros(64, dtype=np.int64)
    pool = np.zeros(_NCARDS, dtype=np.int64)
    w_pile, w_hands, w_sizes, w_rng, _t, w_st = _workspace()
    while True:
        out = _play(_ST_EXTERNAL, st, pile, hands, sizes, rng, ties, trace)
        if out[3] != _NEEDS_DECISION:
            return out
        kind, card, color = _search_move(
            st,
            pile,
            hands,
            sizes,
            rng,
            ties,
            worlds,
            cand,
            score,
            pool,
            w_st,
            w_pile,
            w_hands,
            w_sizes,
            w_rng,
        )
        st[_SFKIND], st[_SFCARD], st[_SFCOLOR] = kind, card, color


@jit
def _rounds_of_seeds(
    seeds: U64Array, strategy: int, worlds: int, out: I64Array, trace: I64Array, rd: I64Array
) -> None:
    pile, hands, sizes, rng, ties, st = _workspace()
    for i in range(seeds.shape[0]):
        won, mult, turns, reason, steps = _round(
            seeds[i], strategy, worlds, pile, hands, sizes, rng, ties, st, trace, rd
        )
        out[i, 0] = won
        out[i, 1] = mult
        out[i, 2] = turns
        out[i, 3] = reason
        out[i, 4] = steps


@jit
def _tally(
    master: np.uint64,
    start: int,
    count: int,
    marks: I64Array,
    out: I64Array,
    strategy: int,
    worlds: int,
    rd: I64Array,
) -> None:
    pile, hands, sizes, rng, ties, st = _workspace()
    trace = np.zeros((0, STEP_WIDTH), dtype=np.int64)
    acc = np.zeros(TALLY_WIDTH, dtype=np.int64)
    j = 0
    nm = marks.shape[0]
    for k in range(count):
        seed = _round_seed(master, np.uint64(start + k))
        won, mult, turns, _reason, _steps = _round(
            seed, strategy, worlds, pile, hands, sizes, rng, ties, st, trace, rd
        )
        acc[won * mult] += 1
        acc[TALLY_TURNS] += turns
        while j < nm and marks[j] == k + 1:
            out[j, :] = acc
            j += 1
    out[nm, :] = acc


@dataclass(frozen=True, slots=True)
class KernelRounds:
    """Per-round outcomes of :func:`kernel_rounds`, one entry per seed."""

    won: I64Array
    multiplier: I64Array
    turns: I64Array
    reason: I64Array
    """Codes into :data:`~mazziere.sim.casino_kernel.layout.REASONS`."""
    steps: I64Array
    """How many steps each round took
    (:data:`~mazziere.sim.casino_kernel.trace.STEP_KINDS`)."""

    def triple(self, i: int) -> tuple[int, int, int]:
        """Round ``i`` as ``simulate_round`` gives it: (player_won, multiplier, turns)."""
        return (int(self.won[i]), int(self.multiplier[i]), int(self.turns[i]))


def _seed_array(seeds: Sequence[int] | npt.NDArray[np.integer[Any]]) -> U64Array:
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return np.ascontiguousarray(seeds)
    return np.array([int(s) & MASK64 for s in seeds], dtype=np.uint64)


def reading_codes(readings: Readings | None = None) -> I64Array:
    """The readings (default: the adopted ones) as the kernel's int64 codes."""
    return np.array((readings or Readings()).codes(), dtype=np.int64)


def kernel_rounds(
    seeds: Sequence[int] | npt.NDArray[np.integer[Any]],
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings | None = None,
) -> KernelRounds:
    """Play one round per seed (``SplitMixRng(seed)``, seeds taken modulo 2**64), the player
    on ``strategy`` (:data:`STRATEGIES`; the search samples ``worlds`` worlds a decision),
    seed 000 read as ``readings`` (default: the adopted readings)."""
    arr = _seed_array(seeds)
    out = np.zeros((arr.shape[0], 5), dtype=np.int64)
    code, w = strategy_index(strategy), _check_worlds(worlds)
    _rounds_of_seeds(arr, code, w, out, _NO_TRACE, reading_codes(readings))
    return KernelRounds(out[:, 0], out[:, 1], out[:, 2], out[:, 3], out[:, 4])


def kernel_round(seed: int, readings: Readings | None = None) -> tuple[int, int, int]:
    """One round, as :func:`mazziere.casino.simulate_round` returns it."""
    return kernel_rounds([seed], readings=readings).triple(0)


def kernel_trace(
    seed: int,
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings | None = None,
) -> list[tuple[int, int, int, int, int]]:
    """Every step of the round on ``SplitMixRng(seed)``, as
    :data:`~mazziere.sim.casino_kernel.trace.STEP_KINDS` describes."""
    arr = _seed_array([seed])
    out = np.zeros((1, 5), dtype=np.int64)
    code, w = strategy_index(strategy), _check_worlds(worlds)
    rd = reading_codes(readings)
    rows = 512
    while True:
        trace = np.zeros((rows, STEP_WIDTH), dtype=np.int64)
        _rounds_of_seeds(arr, code, w, out, trace, rd)
        steps = int(out[0, 4])
        if steps <= rows:
            return [tuple(int(x) for x in row) for row in trace[:steps]]  # type: ignore[misc]
        rows = steps


def kernel_tally(
    master: int,
    start: int,
    count: int,
    marks: Sequence[int] = (),
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings | None = None,
) -> I64Array:
    """Play rounds ``start .. start + count - 1`` of the run ``master`` (seeds from
    :func:`~mazziere.sim.casino_kernel.seeds.round_seed`), the player on ``strategy``, seed
    000 read as ``readings``, and count them (a refund counts as paid x1): row ``j`` holds the
    totals after ``marks[j]`` rounds of this stretch (``marks`` increasing, each in
    1..count), the last row after all of them. Columns: rounds paid x0, x1, x2, x3, then the
    sum of turns (:data:`TALLY_WIDTH`)."""
    if count < 0 or start < 0:
        raise ValueError("start and count must not be negative")
    m = np.array(list(marks), dtype=np.int64)
    if m.size and (np.any(np.diff(m) <= 0) or m[0] < 1 or m[-1] > count):
        raise ValueError("marks must increase strictly within 1..count")
    out = np.zeros((m.size + 1, TALLY_WIDTH), dtype=np.int64)
    _tally(
        np.uint64(master & MASK64),
        start,
        count,
        m,
        out,
        strategy_index(strategy),
        _check_worlds(worlds),
        reading_codes(readings),
    )
    return out


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) before timing or forking."""
    for strategy in STRATEGIES:
        kernel_tally(1, 0, 2, [1], strategy=strategy, worlds=2)
        kernel_rounds([1], strategy=strategy, worlds=2)
        kernel_trace(1, strategy=strategy, worlds=2)
    round_seeds(1, 0, 1)


drop_stale_cache(_tally)
