"""UNO random self-play: our compiled kernel (and, for information, the pure engine) against
RLCard's ``UnoGame``, side by side in one run (project issue 2, item 7).

A game: one hand of 2-player UNO with uniformly random legal actions until it ends. Ours is
``find_preset("mattel").with_options(match="single_hand")`` with every rule on (voluntary
draw, +4 bluff and victim challenge, UNO calls and catches by any seat, reshuffles, tie rules);
RLCard's is its own simplified UNO. A step is one legal-action listing plus one apply.

Each implementation runs for a fixed time budget per repeat (complete games only); repeats are
interleaved and the table shows medians. The last line is ``ratio_vs_rlcard=X.XX``: our
kernel's steps/s over RLCard's. numba compiles (or loads its cache) before any timing.

    python benchmarks/bench_uno.py [--repeats 5] [--budget 1.0]
    python benchmarks/bench_uno.py --check 100000   # kernel == engine on 100000 seed pairs
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from rlcard.games.uno.game import UnoGame

from mazziere.sim.uno_kernel import GameRecord, play_random_game_engine, play_random_games

PLAYERS = 2
MASK64 = (1 << 64) - 1

Run = Callable[[int, float], tuple[int, int, float]]
"""(repeat, budget seconds) -> (games, steps, elapsed seconds)."""


def game_seed(i: int) -> int:
    return (i * 0x9E3779B97F4A7C15 + 1) & MASK64


def action_seed(i: int) -> int:
    return (i * 0xD1B54A32D192ED03 + 2) & MASK64


def run_rlcard(repeat: int, budget: float) -> tuple[int, int, float]:
    game = UnoGame(num_players=PLAYERS)
    game.np_random = np.random.RandomState(1000 + repeat)
    chooser = random.Random(2000 + repeat)
    games = steps = 0
    t0 = time.perf_counter()
    while True:
        game.init_game()
        while not game.is_over():
            la = game.get_legal_actions()
            game.step(chooser.choice(la))
            steps += 1
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= budget:
            return games, steps, elapsed


def run_kernel(repeat: int, budget: float) -> tuple[int, int, float]:
    games = steps = 0
    chunk = 64
    base = 10_000_000 * (repeat + 1)
    t0 = time.perf_counter()
    while True:
        ids = np.arange(base + games, base + games + chunk, dtype=np.uint64)
        gs = ids * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)
        acs = ids * np.uint64(0xD1B54A32D192ED03) + np.uint64(2)
        batch = play_random_games(PLAYERS, gs, acs)
        games += chunk
        steps += int(batch.steps.sum())
        elapsed = time.perf_counter() - t0
        if elapsed >= budget:
            return games, steps, elapsed
        chunk = min(chunk * 2, 1024)


def run_engine(repeat: int, budget: float) -> tuple[int, int, float]:
    games = steps = 0
    base = 20_000_000 * (repeat + 1)
    t0 = time.perf_counter()
    while True:
        i = base + games
        steps += play_random_game_engine(PLAYERS, game_seed(i), action_seed(i)).steps
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= budget:
            return games, steps, elapsed


def warm_up() -> None:
    """Compile (or load) the numba kernel and touch every path once, outside the timing."""
    play_random_games(PLAYERS, [0, 1], [0, 1])
    run_rlcard(-1, 0.0)
    run_engine(-1, 0.0)


def benchmark(repeats: int, budget: float, engine_budget: float) -> float:
    runs: dict[str, tuple[Run, float]] = {
        "rlcard UnoGame": (run_rlcard, budget),
        "mazziere kernel (numba)": (run_kernel, budget),
        "mazziere engine (pure)": (run_engine, engine_budget),
    }
    results: dict[str, list[tuple[int, int, float]]] = {name: [] for name in runs}
    for r in range(repeats):
        for name, (run, b) in runs.items():
            results[name].append(run(r, b))
    print(
        f"UNO random self-play, {PLAYERS} players, ours: preset mattel + single_hand; "
        f"{repeats} repeats, medians"
    )
    print(f"{'implementation':<26}{'games/s':>12}{'steps/s':>14}{'steps/game':>12}")
    medians: dict[str, float] = {}
    for name, rows in results.items():
        gps = statistics.median(g / t for g, _, t in rows)
        sps = statistics.median(s / t for _, s, t in rows)
        spg = statistics.median(s / g for g, s, _ in rows)
        medians[name] = sps
        print(f"{name:<26}{gps:>12,.1f}{sps:>14,.0f}{spg:>12,.1f}")
    return medians["mazziere kernel (numba)"] / medians["rlcard UnoGame"]


def _engine_chunk(args: tuple[int, list[int]]) -> list[GameRecord]:
    players, ids = args
    return [play_random_game_engine(players, game_seed(i), action_seed(i)) for i in ids]


def check(n: int, players_cycle: list[int], jobs: int) -> bool:
    """Kernel vs engine on seed pairs 0..n-1 (players cycling through ``players_cycle``)."""
    t0 = time.perf_counter()
    by_players: dict[int, list[int]] = {p: [] for p in players_cycle}
    for i in range(n):
        by_players[players_cycle[i % len(players_cycle)]].append(i)
    kernel: dict[tuple[int, int], GameRecord] = {}
    for p, ids in by_players.items():
        if not ids:
            continue
        batch = play_random_games(p, [game_seed(i) for i in ids], [action_seed(i) for i in ids])
        for g, i in enumerate(ids):
            kernel[(p, i)] = batch.record(g)
    t_kernel = time.perf_counter() - t0
    tasks = [
        (p, ids[k : k + 200]) for p, ids in by_players.items() for k in range(0, len(ids), 200)
    ]
    equal = total = steps = 0
    bad: list[tuple[int, int]] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for (p, ids), records in zip(tasks, pool.map(_engine_chunk, tasks), strict=True):
            for i, rec in zip(ids, records, strict=True):
                total += 1
                steps += rec.steps
                if kernel[(p, i)] == rec:
                    equal += 1
                else:
                    bad.append((p, i))
            if total % 5000 < len(ids):
                print(
                    f"  ... {total}/{n} games checked, {len(bad)} mismatches, "
                    f"{time.perf_counter() - t0:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    elapsed = time.perf_counter() - t0
    print(
        f"identity check: {equal}/{total} games equal (players {players_cycle}, "
        f"{steps:,} steps) in {elapsed:.1f} s (kernel {t_kernel:.2f} s, engine on {jobs} "
        "processes for the rest)"
    )
    for p, i in bad[:10]:
        print(f"  MISMATCH players={p} game_seed={game_seed(i)} action_seed={action_seed(i)}")
    return not bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--budget", type=float, default=1.0, help="seconds per run (RLCard, kernel)")
    ap.add_argument("--engine-budget", type=float, default=1.0, help="seconds per pure run")
    ap.add_argument("--check", type=int, metavar="N", help="only check kernel == engine")
    ap.add_argument("--check-players", default="2,3,4", help="player counts to cycle through")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    warm_up()
    if args.check is not None:
        cycle = [int(p) for p in args.check_players.split(",")]
        sys.exit(0 if check(args.check, cycle, args.jobs) else 1)
    ratio = benchmark(args.repeats, args.budget, args.engine_budget)
    print(f"ratio_vs_rlcard={ratio:.2f}")


if __name__ == "__main__":
    main()
