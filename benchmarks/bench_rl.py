"""UNO environments stepped with random masked actions: ours (``mazziere.rl.uno_env``, the
PettingZoo AEC environment researchers use) against RLCard's (``rlcard.make("uno")``), side by
side in one run.

Rules are matched as :mod:`bench_uno` matches them (:data:`bench_uno.MATCHED`: two players,
one hand, no voluntary draw, a drawn card played when playable, no UNO call or challenge);
RLCard's UNO plays a playable drawn card in the same step as the draw, we take two steps, so
the table prints steps per game for both.

A step is what an agent loop pays for one decision. RLCard: ``env.step(action)``, which
applies the action and builds the next player's state (its observation planes and legal
actions), with ``action`` drawn uniformly from ``state["legal_actions"]``. Ours: ``env.last()``
(the agent's observation vector and action mask), an action drawn uniformly from the mask's
set entries, and ``env.step(action)``. Each side runs for a fixed CPU-time budget per repeat
(complete episodes only); repeats are interleaved and the table shows medians.

The last line is ``env_vs_rlcard=X``: our environment steps per CPU second over RLCard's.

    python benchmarks/bench_rl.py [--repeats 5] [--budget 2.0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import rlcard
from bench_uno import MATCHED

from mazziere.rl import uno_env

clock = time.process_time
"""CPU time of this process: the machine is shared, wall time counts other people's work."""
Run = Callable[[int, float], tuple[int, int, float]]
"""(repeat, budget seconds) -> (episodes, steps, elapsed CPU seconds)."""

MATCHED_OPTIONS = {
    name: getattr(MATCHED, name)
    for name in (
        "match",
        "first_dealer",
        "voluntary_draw",
        "drawn_card",
        "wild4_rule",
        "wild4_bluff",
        "uno_call",
        "challenge",
        "two_player_reverse",
    )
}


def run_rlcard(repeat: int, budget: float) -> tuple[int, int, float]:
    env = rlcard.make("uno", config={"seed": 1000 + repeat})
    chooser = random.Random(2000 + repeat)
    episodes = steps = 0
    t0 = clock()
    while True:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(chooser.choice(list(state["legal_actions"])))
            steps += 1
        episodes += 1
        elapsed = clock() - t0
        if elapsed >= budget:
            return episodes, steps, elapsed


def run_ours(repeat: int, budget: float) -> tuple[int, int, float]:
    env = uno_env("mattel", 2, **MATCHED_OPTIONS)
    chooser = random.Random(3000 + repeat)
    episodes = steps = 0
    env.reset(seed=1_000_000 * (repeat + 1))
    t0 = clock()
    while True:
        env.reset()
        while True:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            env.step(chooser.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
        episodes += 1
        elapsed = clock() - t0
        if elapsed >= budget:
            return episodes, steps, elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--budget", type=float, default=2.0, help="CPU seconds per run")
    args = ap.parse_args()
    runs: dict[str, Run] = {"rlcard.make('uno')": run_rlcard, "mazziere uno_env": run_ours}
    for run in runs.values():
        run(-1, 0.1)  # warm up (imports, caches) outside the timing
    rows: dict[str, list[tuple[int, int, float]]] = {name: [] for name in runs}
    for r in range(args.repeats):
        for name, run in runs.items():
            rows[name].append(run(r, args.budget))
    print(
        f"UNO environments, random masked actions, matched rules, 2 players, one hand; "
        f"medians of {args.repeats} repeats of {args.budget:g} CPU s"
    )
    print(f"{'':<24}{'episodes/s':>12}{'steps/s':>12}{'steps/episode':>15}{'us/step':>10}")
    sps = {}
    for name, rs in rows.items():
        eps = statistics.median(e / t for e, _, t in rs)
        sps[name] = statistics.median(s / t for _, s, t in rs)
        spe = statistics.median(s / e for e, s, _ in rs)
        print(f"{name:<24}{eps:>12,.1f}{sps[name]:>12,.0f}{spe:>15,.1f}{1e6 / sps[name]:>10.1f}")
    ratio = sps["mazziere uno_env"] / sps["rlcard.make('uno')"]
    print(f"env_vs_rlcard={ratio:.2f}")


if __name__ == "__main__":
    main()
