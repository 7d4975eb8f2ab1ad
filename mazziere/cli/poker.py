"""``mazziere play poker`` and ``mazziere sim poker``: five-card draw in the terminal against
the computer (:mod:`mazziere.terminal.poker`), and bot-against-bot simulations (draw-poker.md;
seed 002), on local processes or, with ``--ray [--address auto|HOST:PORT]``, on a Ray cluster
(the same tally).

Register them on the main app with ``play_app.command("poker")(play_poker)`` and
``sim_app.command("poker")(sim_poker)``; :data:`app` here carries both (as ``play`` and
``sim``) for tests.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from mazziere.cli.options import (
    FAILURE_EXIT,
    USAGE_EXIT,
    AddressOpt,
    RayOpt,
    cli_errors,
    fail,
    ray_cluster,
)
from mazziere.errors import OptionError
from mazziere.poker import Rules
from mazziere.poker.bots import BOTS, LEVELS, PANEL, find_bot
from mazziere.poker.sim import Tally, play_pairs
from mazziere.sim.pool import default_workers, run_chunks
from mazziere.sim.stats import t_quantile
from mazziere.terminal.poker import play_rules, run_play

if TYPE_CHECKING:
    from mazziere.sim.ray_backend import RayCluster

DEALS_PER_GAME = 500
"""Deals in each simulated game (games are the unit of work spread over processes)."""

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True)


# ------------------------------------------------------------------------------ play
def play_poker(
    deck: Annotated[int, typer.Option(help="52 (2..A) or 32 (7..A) cards.")] = 52,
    level: Annotated[str, typer.Option(help="The computer: easy, normal or hard.")] = "normal",
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    flush_beats_full_house: Annotated[
        bool | None,
        typer.Option(
            "--flush-beats-full-house/--full-house-beats-flush",
            help="Rank the flush above the full house (default: no, as the classic rules).",
        ),
    ] = None,
) -> None:
    """Five-card draw against the computer (you are seat 0)."""
    with cli_errors():
        if level not in LEVELS:
            raise OptionError(f"--level is one of {', '.join(LEVELS)}, not {level!r}", "bad_level")
        rules = play_rules(deck, flush_beats_full_house)
        console = Console()
        console.print(
            f"Five-card draw, {deck} cards, against the computer ({level}). Type q to quit."
        )
        run_play(rules, level, seed, lambda prompt: console.input(f"[bold]{prompt}>[/] "), console)


# ------------------------------------------------------------------------------ sim
def _work(args: tuple[Rules, str, str, int, int, int | str]) -> Tally:
    rules, a, b, game, deals, seed = args
    return play_pairs(rules, a, b, [game], deals, seed)


def _deals_in(t: Tally) -> int:
    return t.deals


def simulate(
    rules: Rules,
    a: str,
    b: str,
    deals: int,
    seed: int | str,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    cluster: RayCluster | None = None,
) -> tuple[Tally, float]:
    """Play ``deals`` deals (rounded up to even) in duplicate games; the tally and seconds.
    ``progress(done, total)`` counts deals as games finish; on an open Ray ``cluster`` the
    games are Ray tasks (``workers`` unused), with the same tally."""
    for name in (a, b):
        find_bot(name)
    pairs = (deals + 1) // 2
    units = [
        (rules, a, b, g, min(DEALS_PER_GAME, pairs - g * DEALS_PER_GAME), seed)
        for g in range(math.ceil(pairs / DEALS_PER_GAME))
    ]
    start = time.perf_counter()
    total = Tally(0, 0, 0, 0)
    parts = run_chunks(
        _work, units, workers, progress, size=_deals_in, total=2 * pairs, cluster=cluster
    )
    for t in parts:
        total += t
    return total, time.perf_counter() - start


def summary(t: Tally) -> tuple[float, float, float]:
    """A's mean net chips per deal and its 95% interval (Student t on the paired samples)."""
    n = t.samples
    mean = t.total / n
    var = (t.total_sq - n * mean * mean) / (n - 1) if n > 1 else 0.0
    half = t_quantile(0.95, max(n - 1, 1)) * math.sqrt(max(var, 0.0) / n) if n > 1 else 0.0
    return mean / 2, (mean - half) / 2, (mean + half) / 2


def sim_poker(
    deck: Annotated[int, typer.Option(help="52 or 32 cards.")] = 52,
    a: Annotated[str, typer.Option("--a", help="Bot A: " + ", ".join(BOTS))] = "hard",
    b: Annotated[
        str, typer.Option("--b", help="Bot B, or 'panel': each exploiter of the panel in turn.")
    ] = "normal",
    deals: Annotated[int, typer.Option(help="Deals to play (seats swap every pair).")] = 20000,
    seed: Annotated[str, typer.Option(help="Simulation seed.")] = "1",
    workers: Annotated[int, typer.Option(help="Processes (default: every core).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    flush_beats_full_house: Annotated[
        bool, typer.Option("--flush-beats-full-house", help="Rank the flush above the full house.")
    ] = False,
    use_ray: RayOpt = False,
    address: AddressOpt = None,
) -> None:
    """Bot A against bot B: A's mean net chips per deal with a 95% confidence interval."""
    with cli_errors():
        if deals < 2:
            raise OptionError("--deals must be at least 2", "bad_option_value")
        if deck not in (52, 32):
            raise OptionError(f"--deck is 52 or 32, not {deck}", "bad_option_value")
        rules = Rules(deck=deck, flush_beats_full_house=flush_beats_full_house)
        n_workers = workers if workers > 0 else default_workers()
        opponents = list(PANEL) if b.strip().lower() == "panel" else [b]
        for name in (a, *opponents):
            find_bot(name)  # before a cluster starts
        rows = []
        cluster = ray_cluster(use_ray, address, n_workers)
    with cli_errors(), cluster as on_ray:
        for name in opponents:
            with Progress(
                TextColumn(f"[bold]{a} vs {name}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                disable=as_json,
                transient=True,
            ) as bar:
                task = bar.add_task("deals", total=deals + deals % 2)
                tally, seconds = simulate(
                    rules,
                    a,
                    name,
                    deals,
                    seed,
                    n_workers,
                    lambda done, _total: bar.update(task, completed=done),  # noqa: B023
                    on_ray,
                )
            mean, low, high = summary(tally)
            rows.append(
                {
                    "deals": tally.deals,
                    "a_net_per_deal": round(mean, 4),
                    "ci95": [round(low, 4), round(high, 4)],
                    "a": a,
                    "b": name,
                    "deck": deck,
                    "seed": seed,
                    "seconds": round(seconds, 1),
                }
            )
            if not as_json:
                typer.echo(
                    f"{a} vs {name}, {deck}-card deck: {tally.deals} deals, {a} nets "
                    f"{mean:+.3f} chips per deal, 95% CI [{low:+.3f}, {high:+.3f}] "
                    f"({seconds:.0f} s)"
                )
    if as_json:
        if len(opponents) == 1:
            typer.echo(json.dumps(rows[0]))
        else:
            every = all(float(r["ci95"][0]) > 0 for r in rows)  # type: ignore[index]
            typer.echo(json.dumps({"panel": rows, "all_intervals_above_zero": every}))


app.command("play")(play_poker)
app.command("sim")(sim_poker)

__all__ = ["FAILURE_EXIT", "USAGE_EXIT", "app", "fail", "play_poker", "sim_poker"]

if __name__ == "__main__":  # pragma: no cover
    app()
