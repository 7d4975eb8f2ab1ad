"""UNO random self-play: the engine users call (``mazziere.uno.Game``) against RLCard's
``UnoGame``, side by side in one run, on rules matched as closely as our options allow.

Matched rules (:data:`MATCHED`): two players, one hand, seat 0 plays first, no voluntary draw,
a drawn card played when playable (``drawn_card=must_play``), +4 only with no other playable
card and no bluffing, no UNO call, no challenge, Reverse a plain reverse with two players.
RLCard's UNO differs where no option of ours can follow it: it plays a playable drawn card in
the same step as the draw (we take two: the draw, then the play) and ignores the effect of a
drawn action card. The table prints steps per game for both, so the work per game is visible.

A step is one legal-action listing plus one applied action chosen uniformly at random: for
RLCard ``get_legal_actions`` + ``step`` (its step also builds the next player's state, as
every RLCard user pays); for us ``Game.legal_actions`` + ``Game.push`` (which also returns the
action's events). Our deals come from ``SplitMixRng`` (the simulations' source), RLCard's from
NumPy. Each side runs for a fixed CPU-time budget per repeat (complete games only); repeats
are interleaved and the tables show medians.

The second table plays every preset at four seats (two where a preset seats only two), whole
matches as the preset defines them, with the same random policy.

The last line is ``engine_vs_rlcard_steps=X engine_vs_rlcard_games=Y``: our steps/s and
games/s over RLCard's on the matched rules.

    python benchmarks/bench_uno.py [--repeats 5] [--budget 1.0] [--preset-budget 0.5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
from rlcard.games.uno.game import UnoGame

from mazziere.rng import SplitMixRng
from mazziere.uno import PRESETS, Game, Rules, find_preset

MATCHED: Rules = find_preset("mattel").with_options(
    match="single_hand",
    first_dealer=1,  # seat 0 plays first, as in RLCard
    voluntary_draw=False,
    drawn_card="must_play",
    wild4_rule="any_playable",
    wild4_bluff=False,
    uno_call="off",
    challenge=False,
    two_player_reverse="normal",
)

clock = time.process_time
"""CPU time of this process: the machine is shared, wall time counts other people's work."""

Run = Callable[[int, float], tuple[int, int, float]]
"""(repeat, budget seconds) -> (games, steps, elapsed seconds)."""


def run_rlcard(repeat: int, budget: float) -> tuple[int, int, float]:
    game = UnoGame(num_players=2)
    game.np_random = np.random.RandomState(1000 + repeat)
    chooser = random.Random(2000 + repeat)
    games = steps = 0
    t0 = clock()
    while True:
        game.init_game()
        while not game.is_over():
            game.step(chooser.choice(game.get_legal_actions()))
            steps += 1
        games += 1
        elapsed = clock() - t0
        if elapsed >= budget:
            return games, steps, elapsed


def run_engine(rules: Rules, players: int) -> Run:
    def run(repeat: int, budget: float) -> tuple[int, int, float]:
        chooser = random.Random(3000 + repeat)
        base = 1_000_000 * (repeat + 1)
        games = steps = 0
        t0 = clock()
        while True:
            g = Game.new(rules, players, SplitMixRng(base + games))
            while g.result is None:
                g.push(chooser.choice(g.legal_actions()))
                steps += 1
            games += 1
            elapsed = clock() - t0
            if elapsed >= budget:
                return games, steps, elapsed

    return run


def medians(rows: list[tuple[int, int, float]]) -> tuple[float, float, float]:
    """(games/s, steps/s, steps/game), each the median over the repeats."""
    return (
        statistics.median(g / t for g, _, t in rows),
        statistics.median(s / t for _, s, t in rows),
        statistics.median(s / g for g, s, _ in rows),
    )


def table(title: str, results: dict[str, list[tuple[int, int, float]]]) -> dict[str, tuple]:
    print(title)
    print(f"{'':<34}{'games/s':>11}{'steps/s':>12}{'steps/game':>12}")
    out = {}
    for name, rows in results.items():
        gps, sps, spg = out[name] = medians(rows)
        print(f"{name:<34}{gps:>11,.1f}{sps:>12,.0f}{spg:>12,.1f}")
    print()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--budget", type=float, default=1.0, help="CPU seconds per matched run")
    ap.add_argument("--preset-budget", type=float, default=0.5, help="CPU seconds per preset")
    args = ap.parse_args()

    ours = run_engine(MATCHED, 2)
    run_rlcard(-1, 0.05)  # warm up both (imports, caches) outside the timing
    ours(-1, 0.05)
    matched: dict[str, list[tuple[int, int, float]]] = {"rlcard UnoGame": [], "mazziere Game": []}
    for r in range(args.repeats):
        matched["rlcard UnoGame"].append(run_rlcard(r, args.budget))
        matched["mazziere Game"].append(ours(r, args.budget))

    presets: dict[str, list[tuple[int, int, float]]] = {}
    for name, rules in PRESETS.items():
        players = max(rules.min_players, min(4, rules.max_players))
        run = run_engine(rules, players)
        presets[f"{name} ({players}p, {rules.match})"] = [
            run(r, args.preset_budget) for r in range(args.repeats)
        ]

    m = table(
        f"Matched rules, 2 players, one hand; {args.repeats} repeats of {args.budget:g} s "
        "CPU, medians",
        matched,
    )
    table(
        f"Every preset, random legal actions, whole matches; {args.repeats} repeats of "
        f"{args.preset_budget:g} s CPU, medians",
        presets,
    )
    rl, us = m["rlcard UnoGame"], m["mazziere Game"]
    print(f"engine_vs_rlcard_steps={us[1] / rl[1]:.2f} engine_vs_rlcard_games={us[0] / rl[0]:.2f}")


if __name__ == "__main__":
    main()
