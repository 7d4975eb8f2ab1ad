"""UNO CASINO rounds per second: the readable engine (``mazziere.casino.simulate_round``, one
core) and the compiled kernel (``mazziere.sim.casino_kernel`` through the RTP driver, every
core), side by side in one run.

A round: one full UNO CASINO round with the bank's and the player's published strategies, the
round ``i`` of a run dealt from ``round_seed(seed, i)``. Repeats interleave the engines; the
table shows medians. The kernel's workers are started and compiled (or loaded from numba's
cache) before any timing. Rates are per wall-clock second (what a run takes on this machine,
other processes included); "per CPU s" divides by this process's CPU time instead. The last
line is ``kernel_rounds_per_second=N`` (all cores, wall clock, median).
Goal: 170,000 rounds/s on a 2-core machine (10^8 rounds in under 10 minutes).

    python benchmarks/bench_casino.py [--repeats 5] [--rounds 4000000] [--python-rounds 2000]
    python benchmarks/bench_casino.py --check [N]   # kernel == simulate_round on N rounds
                                                     # (+ the rare pile-out rounds of 2*10^6)
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time

from mazziere.casino import simulate_round
from mazziere.sim.casino_check import check_kernel, check_rare
from mazziere.sim.casino_kernel import kernel_tally, round_seed, warm_up
from mazziere.sim.pool import default_workers
from mazziere.sim.rtp import run_rtp

CHECK_DEFAULT = 100_000


def time_python(seed: int, rounds: int) -> tuple[float, float]:
    """Rounds per wall second and per CPU second of the readable engine in this process."""
    seeds = [round_seed(seed, i) for i in range(rounds)]
    t0, c0 = time.perf_counter(), time.process_time()
    for s in seeds:
        simulate_round(s)
    return rounds / (time.perf_counter() - t0), rounds / (time.process_time() - c0)


def time_kernel_one_core(seed: int, rounds: int) -> tuple[float, float]:
    """Rounds per wall second and per CPU second of the kernel in this process."""
    t0, c0 = time.perf_counter(), time.process_time()
    kernel_tally(seed, 0, rounds)
    return rounds / (time.perf_counter() - t0), rounds / (time.process_time() - c0)


def time_kernel_all_cores(
    seed: int, rounds: int, workers: int, pool: multiprocessing.pool.Pool
) -> float:
    """Rounds/s of a whole RTP run (chunking, merging) on ``workers`` processes."""
    result = run_rtp(rounds, seed=seed, workers=workers, pool=pool)
    assert result.rounds_per_second is not None  # no journal: every round is played
    return result.rounds_per_second


def bench(args: argparse.Namespace) -> None:
    workers = args.workers
    warm_up()
    rows: dict[str, list[float]] = {
        "readable engine, 1 core": [],
        "kernel, 1 core": [],
        f"kernel, {workers} workers": [],
    }
    cpu: dict[str, list[float]] = {"readable engine, 1 core": [], "kernel, 1 core": []}
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers, initializer=warm_up) as pool:
        run_rtp(workers * 1000, seed=0, workers=workers, pool=pool)  # workers up and loaded
        for rep in range(args.repeats):
            seed = args.seed + rep
            for name, (wall, per_cpu) in (
                ("readable engine, 1 core", time_python(seed, args.python_rounds)),
                ("kernel, 1 core", time_kernel_one_core(seed, args.rounds // workers)),
            ):
                rows[name].append(wall)
                cpu[name].append(per_cpu)
            rows[f"kernel, {workers} workers"].append(
                time_kernel_all_cores(seed, args.rounds, workers, pool)
            )
            print(f"  repeat {rep + 1}/{args.repeats} done", file=sys.stderr, flush=True)
    load = os.getloadavg()
    print(
        f"UNO CASINO rounds/s, medians of {args.repeats} repeats "
        f"({args.python_rounds:,} readable rounds, {args.rounds:,} kernel rounds per repeat; "
        f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})"
    )
    print(f"{'implementation':<28}{'median':>12}{'min':>12}{'max':>12}{'per CPU s':>14}")
    med = {name: statistics.median(v) for name, v in rows.items()}
    for name, v in rows.items():
        cpu_col = f"{statistics.median(cpu[name]):>14,.0f}" if name in cpu else f"{'-':>14}"
        print(f"{name:<28}{med[name]:>12,.0f}{min(v):>12,.0f}{max(v):>12,.0f}{cpu_col}")
    py, one, allc = (med[n] for n in rows)
    print(f"kernel 1 core / readable engine 1 core: {one / py:,.0f}x")
    print(f"kernel {workers} workers / readable engine 1 core: {allc / py:,.0f}x")
    print(f"10^8 rounds at the median: {1e8 / allc / 60:.1f} minutes (goal: <= 10)")
    print(f"kernel_rounds_per_second={allc:.0f}")


def check(args: argparse.Namespace) -> int:
    n = args.check
    print(
        f"check: rounds 0..{n - 1} of seed {args.seed}, kernel vs simulate_round "
        f"(readable engine on {args.workers} workers)",
        flush=True,
    )
    shown = [0]

    def progress(done: int, total: int) -> None:
        if done * 10 // total > shown[0] * 10 // total or done == total:
            shown[0] = done
            print(f"  ... {done:,}/{total:,} rounds played", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    r = check_kernel(args.seed, n, workers=args.workers, progress=progress)
    wall = time.perf_counter() - t0
    for m in r.mismatches[:20]:
        print(f"  MISMATCH round {m.index} seed {m.seed}: kernel {m.kernel} python {m.python}")
    endings = " ".join(f"{k}={v}" for k, v in r.endings.items())
    print(f"endings: {endings}")
    print(
        f"time: kernel {r.kernel_seconds:.2f} s, readable engine {r.python_seconds:.1f} s, "
        f"wall {wall:.1f} s"
    )
    scan = max(n, args.rare_scan)
    rare = check_rare(args.seed, scan)
    for m in rare.mismatches[:20]:
        print(f"  MISMATCH round {m.index} seed {m.seed}: kernel {m.kernel} python {m.python}")
    print(
        f"rare endings: {rare.compared} pile_out rounds among rounds 0..{scan - 1:,} "
        f"(kernel {rare.kernel_seconds:.2f} s), replayed by simulate_round: "
        f"mismatches={len(rare.mismatches)}"
    )
    print(f"rounds_compared={r.compared} mismatches={len(r.mismatches)}")
    return 1 if r.mismatches or rare.mismatches else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=4_000_000, help="kernel rounds per repeat")
    ap.add_argument("--python-rounds", type=int, default=2000, help="readable rounds per repeat")
    ap.add_argument("--workers", type=int, default=default_workers())
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--rare-scan",
        type=int,
        default=2_000_000,
        help="with --check: also replay the pile-out rounds among this many kernel rounds",
    )
    ap.add_argument(
        "--check",
        type=int,
        nargs="?",
        const=CHECK_DEFAULT,
        metavar="N",
        help=f"only compare kernel and simulate_round on N rounds (default {CHECK_DEFAULT:,})",
    )
    args = ap.parse_args()
    if args.check is not None:
        return check(args)
    bench(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
