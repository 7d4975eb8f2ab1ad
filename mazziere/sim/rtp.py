"""The return to player of UNO CASINO, measured: N independent rounds, the bank on its
published strategy, the player on its published default (the RTP of docs/rules/casino.md "Return
to player", seed 000) or on one end of the skill range: random legal choices (a careless
player) or the search (:func:`mazziere.sim.casino_kernel.search._search_move`); stake 1 unit a
round.

Round ``i`` of a run with master seed ``S`` is played on ``SplitMixRng(round_seed(S, i))``
by the compiled kernel (:mod:`mazziere.sim.casino_kernel`) or by the readable engine
(:func:`mazziere.casino.simulate_round`); the two give identical rounds. Rounds are counted
in integers (rounds paid x0..x3, turns), so the result is the same whatever the number of
workers or the chunking; only the wall time changes.

>>> r = run_rtp(200, seed=1, workers=1)
>>> r.rounds, sum(r.paid_counts), abs(sum(r.payouts.values()) - 1) < 1e-12
(200, 200, True)
>>> r.rtp.low <= r.rtp.estimate <= r.rtp.high
True
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing.pool
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mazziere import __version__
from mazziere.casino import simulate_round
from mazziere.casino.readings import Readings
from mazziere.casino.round import simulate_round_random
from mazziere.casino.rules import MAX_MULTIPLIER
from mazziere.errors import OptionError
from mazziere.sim.casino_kernel import (
    MASK64,
    SEARCH_WORLDS,
    STRATEGIES,
    TALLY_TURNS,
    TALLY_WIDTH,
    I64Array,
    kernel_tally,
    round_seed,
    warm_up,
)
from mazziere.sim.journal import JournalFile
from mazziere.sim.pool import chunk_ranges, default_workers, run_chunks, start_method
from mazziere.sim.stats import Interval, wilson, z_quantile

if TYPE_CHECKING:
    from mazziere.sim.ray_backend import RayCluster

ENGINES = ("kernel", "python")
"""``kernel``: the compiled round; ``python``: :func:`mazziere.casino.simulate_round`."""
LEGAL_MINIMUM = 0.90
"""The Italian minimum payout for card games against the house (docs/rules/casino.md)."""
MAX_ROUNDS = 1 << 62
CHUNK_CAP = {"kernel": 200_000, "python": 250}
"""Most rounds per job: about half a second of one core for either engine."""
SEARCH_CHUNK_CAP = 12_800
"""Most rounds per job of the search, for one world a decision (a chunk of ``cap // worlds``
rounds is about half a second of one core)."""
CHECKPOINTS_PER_DECADE = 20
ADOPTED = Readings()

Progress = Callable[[int, int], None]
"""Called with (rounds done, rounds in all) as chunks finish."""
Job = tuple[str, int, int, int, tuple[int, ...], str, int, Readings]
"""(engine, master seed, first round, rounds, marks inside the chunk, strategy, worlds,
readings)."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The running estimate after the first ``rounds`` rounds."""

    rounds: int
    rtp: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class RtpResult:
    """Totals of an RTP run (integers), and what follows from them."""

    rounds: int
    seed: int
    engine: str
    workers: int
    paid_counts: tuple[int, ...]
    """Rounds that paid x0 (bank won), x1, x2, x3 of the stake."""
    turns: int
    """Actions applied over all rounds (the player's and the bank's)."""
    checkpoints: tuple[Checkpoint, ...]
    wall_seconds: float
    strategy: str = "default"
    """The player's strategy (:data:`~mazziere.sim.casino_kernel.STRATEGIES`)."""
    worlds: int = SEARCH_WORLDS
    """Worlds the search samples at each decision (``search`` only)."""
    readings: Readings = ADOPTED
    """How seed 000's open sentences were read (:mod:`mazziere.casino.readings`)."""
    played: int | None = None
    """Rounds this run played (``None``: all; fewer when a journal held the rest)."""

    @property
    def rtp(self) -> Interval:
        """Total paid / total staked, with its 95% normal-approximation interval."""
        return payout_interval(self.paid_counts)

    @property
    def win_rate(self) -> Interval:
        """The player's share of rounds won, with Wilson's 95% interval."""
        return wilson(self.rounds - self.paid_counts[0], self.rounds)

    @property
    def payouts(self) -> dict[str, float]:
        """Share of rounds paying x0, x1, x2, x3 (keys "0".."3")."""
        return {str(k): n / self.rounds for k, n in enumerate(self.paid_counts)}

    @property
    def mean_turns(self) -> float:
        return self.turns / self.rounds

    @property
    def rounds_per_second(self) -> float | None:
        """Rounds this run played a second of its wall time; None if it played none (every
        round read from its journal: a rate of reading a file is no speed of the game)."""
        played = self.rounds if self.played is None else self.played
        if played == 0:
            return None
        return played / self.wall_seconds if self.wall_seconds > 0 else math.inf

    def as_json(self) -> dict[str, Any]:
        """The JSON form printed by ``mazziere rtp --json``."""
        rtp, win = self.rtp, self.win_rate
        return {
            "rounds": self.rounds,
            "rtp": rtp.estimate,
            "ci95": [rtp.low, rtp.high],
            "win_rate": win.estimate,
            "win_rate_ci95": [win.low, win.high],
            "payouts": self.payouts,
            "payout_counts": {str(k): n for k, n in enumerate(self.paid_counts)},
            "mean_turns": self.mean_turns,
            "rounds_per_second": self.rounds_per_second,
            "wall_seconds": self.wall_seconds,
            "seed": self.seed,
            "engine": self.engine,
            "strategy": self.strategy,
            **({"worlds": self.worlds} if self.strategy == "search" else {}),
            "readings": dataclasses.asdict(self.readings),
            **({"played": self.played} if self.played is not None else {}),
            "workers": self.workers,
            "stake": 1,
            "legal_minimum": LEGAL_MINIMUM,
        }


def payout_interval(paid_counts: Sequence[int], confidence: float = 0.95) -> Interval:
    """Mean payout per unit staked and its normal-approximation interval from the per-round
    payout variance (``paid_counts[k]`` rounds paid ``k``; one round: zero width)."""
    n = sum(paid_counts)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = sum(k * c for k, c in enumerate(paid_counts)) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = math.fsum(c * (k - mean) ** 2 for k, c in enumerate(paid_counts)) / (n - 1)
    half = z_quantile(confidence) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def checkpoint_rounds(rounds: int) -> list[int]:
    """Log-spaced round counts (20 a decade from 100) at which the running RTP is recorded,
    ending with ``rounds``."""
    marks = {rounds}
    k = 2 * CHECKPOINTS_PER_DECADE
    while (m := round(10 ** (k / CHECKPOINTS_PER_DECADE))) < rounds:
        marks.add(m)
        k += 1
    return sorted(marks)


def python_tally(
    master: int,
    start: int,
    count: int,
    marks: Sequence[int] = (),
    strategy: str = "default",
    readings: Readings = ADOPTED,
) -> I64Array:
    """:func:`~mazziere.sim.casino_kernel.kernel_tally` on the readable engine (the default
    and random strategies; the random player on the adopted readings only)."""
    out = np.zeros((len(marks) + 1, TALLY_WIDTH), dtype=np.int64)
    acc = [0] * TALLY_WIDTH
    j = 0
    for k in range(count):
        seed = round_seed(master, start + k)
        if strategy == "random":
            won, mult, turns = simulate_round_random(seed)
        else:
            won, mult, turns = simulate_round(seed, readings)
        acc[won * mult] += 1
        acc[TALLY_TURNS] += turns
        while j < len(marks) and marks[j] == k + 1:
            out[j] = acc
            j += 1
    out[len(marks)] = acc
    return out


def run_job(job: Job) -> tuple[int, I64Array]:
    """Play one chunk (in a worker): its first round and its tally rows."""
    engine, master, start, count, marks, strategy, worlds, readings = job
    if engine == "kernel":
        return start, kernel_tally(master, start, count, marks, strategy, worlds, readings)
    return start, python_tally(master, start, count, marks, strategy, readings)


def _rounds_in(part: tuple[int, I64Array]) -> int:
    return int(part[1][-1, : MAX_MULTIPLIER + 1].sum())


def plan_jobs(
    engine: str,
    seed: int,
    rounds: int,
    workers: int,
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings = ADOPTED,
    fixed: bool = False,
) -> list[Job]:
    """Cut the run into chunks (several per worker, so progress moves), each with the
    checkpoints that fall inside it, relative to its first round. ``fixed``: chunks of the
    engine's cap from round 0, whatever the worker count and with no checkpoint inside, so
    that a journal's chunks are the same on every sitting and for every run length."""
    marks = [] if fixed else checkpoint_rounds(rounds)
    jobs: list[Job] = []
    j = 0
    cap = CHUNK_CAP[engine] if strategy != "search" else max(1, SEARCH_CHUNK_CAP // worlds)
    cut = [range(a, min(a + cap, rounds)) for a in range(0, rounds, cap)] if fixed else None
    for chunk in cut or chunk_ranges(rounds, workers, cap):
        start, count = chunk.start, len(chunk)
        inside: list[int] = []
        while j < len(marks) and marks[j] <= start + count:
            inside.append(marks[j] - start)
            j += 1
        jobs.append((engine, seed, start, count, tuple(inside), strategy, worlds, readings))
    return jobs


def check_run(
    rounds: int,
    seed: int,
    workers: int,
    engine: str,
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings = ADOPTED,
) -> None:
    """Refuse a bad run before anything starts (typed errors naming the mistake)."""
    if strategy != "default" and readings != ADOPTED:
        raise OptionError(
            "other readings are measured with the published default strategy only",
            "readings_need_default",
        )
    if engine not in ENGINES:
        raise OptionError(
            f"unknown engine {engine!r}: use {' or '.join(ENGINES)}", "unknown_engine"
        )
    if strategy not in STRATEGIES:
        raise OptionError(
            f"unknown strategy {strategy!r}: use {', '.join(STRATEGIES)}", "unknown_strategy"
        )
    if strategy == "search" and engine != "kernel":
        raise OptionError(
            "the search strategy plays on the compiled kernel only (--engine kernel): it plays "
            "out thousands of rounds a decision",
            "search_needs_kernel",
        )
    if not 1 <= worlds <= 1 << 20:
        raise OptionError(f"--worlds must be between 1 and 2**20, not {worlds}", "bad_worlds")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise OptionError(f"--rounds must be between 1 and 2**62, not {rounds}", "bad_rounds")
    if not 0 <= seed <= MASK64:
        raise OptionError(f"--seed must be between 0 and 2**64 - 1, not {seed}", "bad_seed")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}", "bad_workers")


def run_rtp(
    rounds: int,
    seed: int = 1,
    workers: int | None = None,
    engine: str = "kernel",
    progress: Progress | None = None,
    pool: multiprocessing.pool.Pool | None = None,
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    cluster: RayCluster | None = None,
    readings: Readings = ADOPTED,
    journal: str | os.PathLike[str] | None = None,
) -> RtpResult:
    """Play ``rounds`` rounds of the run ``seed`` and measure the RTP, the player on
    ``strategy``. ``workers`` processes (default: every core; 1 plays here); a ``pool``
    given is used as it is (benchmarks); on an open Ray ``cluster`` the chunks are Ray tasks,
    cut for its CPUs (``workers`` then unused), with the same totals. Round ``i`` is dealt the
    same cards whatever the strategy (the player's own choices have their own random
    source), and seed 000 is read as ``readings``. With a ``journal`` file
    (:class:`TallyJournal`) the chunks it holds are not played again and each chunk played
    is added to it as it finishes; the totals are the same as without."""
    if cluster is not None:
        workers = cluster.cpus
    workers = default_workers() if workers is None else workers
    check_run(rounds, seed, workers, engine, strategy, worlds, readings)
    log = None
    kept: dict[tuple[int, int], I64Array] = {}
    if journal is not None:
        log = TallyJournal(journal, run_header(seed, engine, strategy, worlds, readings))
        kept = log.load()
    if engine == "kernel":
        warm_up()  # compile (or load the cache) once, before any worker needs it
    jobs = plan_jobs(engine, seed, rounds, workers, strategy, worlds, readings, log is not None)
    done = {j[2]: kept[j[2], j[3]] for j in jobs if (j[2], j[3]) in kept}
    todo = [j for j in jobs if j[2] not in done]
    played = sum(j[3] for j in todo)
    start_time = time.perf_counter()
    start = start_method(inherit=engine == "kernel")  # the workers inherit the warm kernel
    before = rounds - played

    def arrived(n: int, _total: int) -> None:
        if progress is not None:
            progress(before + n, rounds)

    parts = run_chunks(
        run_job,
        todo,
        workers,
        arrived,
        size=_rounds_in,
        total=played,
        pool=pool,
        start=start,
        cluster=cluster,
        each=None if log is None else log.add,
    )
    wall = time.perf_counter() - start_time
    result = merge(
        [*parts, *done.items()], rounds, seed, engine, workers, wall, at_chunk_ends=log is not None
    )
    return dataclasses.replace(
        result,
        strategy=strategy,
        worlds=worlds,
        readings=readings,
        played=None if log is None else played,
    )


def run_header(
    seed: int, engine: str, strategy: str, worlds: int, readings: Readings
) -> dict[str, Any]:
    """What makes an RTP run this run, for its journal's header; not its length: the chunks
    of a longer run begin with those of a shorter one, so one journal serves both."""
    cap = CHUNK_CAP[engine] if strategy != "search" else max(1, SEARCH_CHUNK_CAP // worlds)
    return {
        "run": "rtp",
        "version": __version__,
        "seed": seed,
        "engine": engine,
        "strategy": strategy,
        "worlds": worlds,
        "readings": dataclasses.asdict(readings),
        "chunk": cap,
    }


class TallyJournal(JournalFile):
    """An RTP run's finished chunks in a JSON-lines file (:class:`JournalFile`): the header
    is :func:`run_header`; each further line is one chunk, its first round, its length and
    its tally (:func:`~mazziere.sim.casino_kernel.kernel_tally`). Chunks are cut the same way
    on every sitting (:func:`plan_jobs` ``fixed``), so a chunk is either in the file or
    played again."""

    def load(self) -> dict[tuple[int, int], I64Array]:
        """The chunks already in the file, by (first round, length)."""
        done: dict[tuple[int, int], I64Array] = {}
        for no, obj in self.entries():
            start, rows = obj.get("start"), obj.get("rows")
            whole = isinstance(rows, list) and len(rows) > 0
            for r in rows if isinstance(rows, list) else ():
                whole = whole and isinstance(r, list) and len(r) == TALLY_WIDTH
                whole = whole and all(type(x) is int and x >= 0 for x in r)
            if type(start) is not int or start < 0 or not whole:
                raise self.refuse(no, "a chunk of rounds")
            tally = np.array(rows, dtype=np.int64)
            done.setdefault((start, int(tally[-1, : MAX_MULTIPLIER + 1].sum())), tally)
        return done

    def add(self, part: tuple[int, I64Array]) -> None:
        """Write one finished chunk (flushed: a kill loses none)."""
        start, rows = part
        self.append([{"start": start, "rows": rows.tolist()}])


def merge(
    parts: Sequence[tuple[int, I64Array]],
    rounds: int,
    seed: int,
    engine: str,
    workers: int,
    wall: float,
    at_chunk_ends: bool = False,
) -> RtpResult:
    """Add the chunks' tallies in round order; checkpoints from the running totals (at the
    run's log-spaced marks, or ``at_chunk_ends`` after every chunk: a journal's chunks carry
    no marks)."""
    total = np.zeros(TALLY_WIDTH, dtype=np.int64)
    points: list[Checkpoint] = []
    marks = iter(checkpoint_rounds(rounds))
    for _, rows in sorted(parts, key=lambda p: p[0]):
        for row in rows[:-1]:
            counts = [int(x) for x in total[: MAX_MULTIPLIER + 1] + row[: MAX_MULTIPLIER + 1]]
            ci = payout_interval(counts)
            points.append(Checkpoint(next(marks), ci.estimate, ci.low, ci.high))
        total += rows[-1]
        if at_chunk_ends:
            counts = [int(x) for x in total[: MAX_MULTIPLIER + 1]]
            ci = payout_interval(counts)
            points.append(Checkpoint(sum(counts), ci.estimate, ci.low, ci.high))
    paid = tuple(int(x) for x in total[: MAX_MULTIPLIER + 1])
    if sum(paid) != rounds:
        raise RuntimeError(f"{sum(paid)} rounds counted for {rounds} played")  # pragma: no cover
    return RtpResult(
        rounds=rounds,
        seed=seed,
        engine=engine,
        workers=workers,
        paid_counts=paid,
        turns=int(total[TALLY_TURNS]),
        checkpoints=tuple(points),
        wall_seconds=wall,
    )
