"""How long the poker computer players take to decide, per level and deck (``hard`` decides by
a lookup and a draw from stored probabilities, and is asked to stay within 20 ms).

Each level plays seat 1 of ``--games`` games against random legal actions (at most 30 deals a
game); only the level's own decisions are timed. The first decision of each level (which reads
the strategy file or compiles the draw tables) is left out and reported apart.

    python benchmarks/bench_poker_hard.py --games 40 --repeat 3

Last line: ``hard_p50_ms=... hard_p99_ms=... hard_max_ms=... normal_p50_ms=...``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from mazziere.poker import Rules, apply, new_game, view
from mazziere.poker.bots import find_bot


def decisions(level: str, deck: int, games: int, seed: int) -> tuple[float, list[float]]:
    """The first decision's time and the times of the rest, in seconds."""
    bot, other = find_bot(level), find_bot("random")
    rng = random.Random(seed)
    first = -1.0
    times: list[float] = []
    for g in range(games):
        s = new_game(Rules(deck=deck), f"bench-{seed}-{g}")
        while not s.is_over and s.deal_no <= 30:
            v = view(s, s.current)
            if s.current == 1:
                t = time.perf_counter()
                a = bot.act(v, rng)
                dt = time.perf_counter() - t
                if first < 0:
                    first = dt
                else:
                    times.append(dt)
            else:
                a = other.act(v, rng)
            s, _ = apply(s, s.current, a)
    return first, times


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    summary: dict[str, list[tuple[float, float, float]]] = {}
    for level in ("hard", "normal"):
        for deck in (52, 32):
            runs = []
            for r in range(a.repeat):
                first, times = decisions(level, deck, a.games, seed=r)
                runs.append((pct(times, 0.5), pct(times, 0.99), max(times) * 1000))
                print(
                    f"{level:6} deck {deck} run {r}: {len(times)} decisions, "
                    f"first {first * 1000:.1f} ms, "
                    f"p50 {runs[-1][0]:.3f} ms, p99 {runs[-1][1]:.3f} ms, max {runs[-1][2]:.3f} ms"
                )
            summary.setdefault(level, []).extend(runs)
    med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in summary.items()}
    print(
        f"hard_p50_ms={med['hard'][0]:.3f} hard_p99_ms={med['hard'][1]:.3f} "
        f"hard_max_ms={med['hard'][2]:.3f} normal_p50_ms={med['normal'][0]:.3f} "
        f"normal_p99_ms={med['normal'][1]:.3f}"
    )


if __name__ == "__main__":
    main()
