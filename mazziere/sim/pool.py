"""Chunks of simulation work over a process pool or a Ray cluster
(:class:`~mazziere.sim.ray_backend.RayCluster`), written once for every simulation (UNO matches,
RTP rounds, the kernel check, poker deals).

A run is cut into jobs, each carrying its own seeds (a range of game or round numbers), so the
totals do not depend on how many processes play them or in which order they finish; results
come back in job order.

>>> run_chunks(sum, [range(3), range(3, 5)], workers=1)
[3, 7]
>>> chunk_ranges(10, workers=1, cap=4)[:2]
[range(0, 2), range(2, 4)]
"""

from __future__ import annotations

import functools
import multiprocessing
import multiprocessing.pool
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from mazziere.sim.ray_backend import RayCluster

J = TypeVar("J")
R = TypeVar("R")

CHUNKS_PER_WORKER = 8
"""Jobs per process when the chunk size is free (so that the progress bar moves)."""


def chunk_ranges(total: int, workers: int, cap: int) -> list[range]:
    """``range(total)`` cut into about ``CHUNKS_PER_WORKER`` pieces per worker, each at most
    ``cap`` long."""
    return cut_ranges(range(total), workers, cap)


def cut_ranges(numbers: Sequence[int], workers: int, cap: int) -> list[range]:
    """The ascending game or round ``numbers`` (some may be missing: a resumed run's) cut
    into ranges of consecutive numbers, about ``CHUNKS_PER_WORKER`` per worker, each at most
    ``cap`` long.

    >>> cut_ranges([0, 1, 2, 5, 6, 9, 10, 11, 12], workers=1, cap=2)
    [range(0, 2), range(2, 3), range(5, 7), range(9, 11), range(11, 13)]
    """
    size = max(1, min(cap, -(-len(numbers) // (workers * CHUNKS_PER_WORKER))))
    out: list[range] = []
    start = prev = -2
    for n in numbers:
        if n != prev + 1 or n - start >= size:
            if start >= 0:
                out.append(range(start, prev + 1))
            start = n
        prev = n
    if start >= 0:
        out.append(range(start, prev + 1))
    return out


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def start_method(inherit: bool = False) -> str:
    """How worker processes start: ``spawn`` (a fresh interpreter imports what it needs), or,
    with ``inherit``, ``fork`` where it is safe (Linux, and no other thread in this process),
    so that the workers inherit what this process has loaded, such as a compiled kernel,
    instead of each loading it again (about a second each)."""
    if inherit and sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _indexed(work: Callable[[J], R], job: tuple[int, J]) -> tuple[int, R]:
    return job[0], work(job[1])


def run_chunks(
    work: Callable[[J], R],
    jobs: Sequence[J],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    *,
    size: Callable[[R], int] | None = None,
    total: int | None = None,
    pool: multiprocessing.pool.Pool | None = None,
    start: str = "spawn",
    cluster: RayCluster | None = None,
    each: Callable[[R], None] | None = None,
) -> list[R]:
    """``work(job)`` for every job, in job order. One worker (or one job) plays here; more
    play on ``min(workers, len(jobs))`` spawned processes, or on the ``pool`` given (it is
    left open); ``work`` must be a module-level function so that the processes import it.

    As results arrive, ``progress(done, total)`` counts ``size(result)`` units each (games,
    rounds; default one per job) out of ``total`` (default: the number of jobs). ``start``
    is the processes' start method (:func:`start_method`). With an open ``cluster`` the jobs
    run as Ray tasks there instead (``workers`` and ``pool`` unused), with the same results.
    ``each(result)`` is called here, in this process, as each result arrives (in the order
    they finish), before ``progress``: to keep results somewhere as soon as they exist.
    """
    units = len(jobs) if total is None else total
    done = 0

    def arrived(result: R) -> None:
        nonlocal done
        if each is not None:
            each(result)
        done += 1 if size is None else size(result)
        if progress is not None:
            progress(done, units)

    if cluster is not None:
        return cluster.run(work, jobs, arrived)
    if pool is None and (workers <= 1 or len(jobs) <= 1):
        out: list[R] = []
        for job in jobs:
            out.append(work(job))
            arrived(out[-1])
        return out
    results: dict[int, R] = {}

    def play(p: multiprocessing.pool.Pool) -> None:
        for i, result in p.imap_unordered(functools.partial(_indexed, work), enumerate(jobs)):
            results[i] = result
            arrived(result)

    if pool is not None:
        play(pool)
    else:
        with multiprocessing.get_context(start).Pool(min(workers, len(jobs))) as own:
            play(own)
    return [results[i] for i in range(len(jobs))]
