"""``mazziere play uno`` and ``mazziere sim uno``: the UNO commands of the command line.

Both take a preset, ``--option name=value`` changes (uno.md "Presets"), a seat count and a
seed; mistakes (unknown preset, bot or option, bad seat count) print one line and exit 2.
``sim uno --ray [--address auto|HOST:PORT]`` plays the matches on a Ray cluster (a local one
without an address) with the same result as the local processes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from mazziere.cli.options import (
    AddressOpt,
    RayOpt,
    cli_errors,
    players_for,
    ray_cluster,
    split_names,
    uno_rules,
)
from mazziere.sim.pool import default_workers
from mazziere.sim.uno_sim import UnoSimResult, check_sim_args, simulate_uno
from mazziere.terminal.uno import TerminalGame
from mazziere.uno import PRESETS
from mazziere.uno.bots import BOTS, find_bot

PresetOpt = Annotated[
    str, typer.Option("--preset", "-p", help=f"Rule preset: {', '.join(PRESETS)}.")
]
PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-n", help="Seats at the table (default 4, within the preset)."),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Change a rule, e.g. stacking=draw2 (repeat for several)."),
]
BotsOpt = Annotated[
    str, typer.Option("--bots", "-b", help=f"Comma-separated bots, cycled: {', '.join(BOTS)}.")
]


def play_uno(
    preset: PresetOpt = "house",
    players: PlayersOpt = None,
    seed: Annotated[
        str | None, typer.Option("--seed", "-s", help="Seed for a reproducible game.")
    ] = None,
    bots: BotsOpt = "greedy",
    option: OptionOpt = None,
) -> None:
    """Play UNO in the terminal against bots (you are seat 0)."""
    with cli_errors():
        rules = uno_rules(preset, option or [])
        n = players_for(rules, players)
        table = [find_bot(b) for b in split_names(bots)] or [find_bot("greedy")]
    console = Console(highlight=False)
    game = TerminalGame(rules, n, table, console, console.input, seed)
    with cli_errors():
        game.run()


def sim_uno(
    preset: PresetOpt = "classic",
    players: PlayersOpt = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Matches to play.")] = 1000,
    seed: Annotated[str, typer.Option("--seed", "-s", help="Seed of the whole run.")] = "1",
    bots: BotsOpt = "greedy",
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", help="Processes to use (default 1; with --ray, every core)."
        ),
    ] = None,
    option: OptionOpt = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of a table.")
    ] = False,
    use_ray: RayOpt = False,
    address: AddressOpt = None,
    journal: Annotated[
        Path | None,
        typer.Option(
            "--journal",
            "-j",
            metavar="FILE",
            help="Write each finished match to FILE (JSON lines); run again with the same "
            "FILE and arguments to play only the matches it lacks (a long run in sittings).",
        ),
    ] = None,
) -> None:
    """Simulate UNO matches between bots: win rates with 95% intervals, turns per hand."""
    with cli_errors():
        rules = uno_rules(preset, option or [])
        n = players_for(rules, players)
        names = split_names(bots)
        on_ray = use_ray or address is not None
        w = (default_workers() if on_ray else 1) if workers is None else workers
        check_sim_args(rules, n, games, names, w)
        err = Console(stderr=True)
        with (
            ray_cluster(use_ray, address, w) as cluster,
            Progress(
                TextColumn("[bold]simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
                disable=json_out,
                transient=False,
            ) as bar,
        ):
            task = bar.add_task("games", total=games)
            result = simulate_uno(
                rules,
                n,
                games,
                seed,
                names,
                progress=lambda done, _total: bar.update(task, completed=done),
                workers=w,
                cluster=cluster,
                journal=journal,
            )
    if json_out:
        typer.echo(json.dumps(sim_json(result, preset, option or [])))
    else:
        Console(highlight=False).print(sim_table(result, preset))


def sim_json(r: UnoSimResult, preset: str, options: list[str]) -> dict[str, Any]:
    """The JSON form of a simulation result."""
    return {
        "preset": preset,
        "options": options,
        "players": r.players,
        "games": r.games,
        "seed": r.seed,
        "bots": list(r.bots),
        "wins_by_seat": list(r.wins_by_seat),
        "win_rate": [ci.estimate for ci in r.win_rate_ci95],
        "win_rate_ci95": [[ci.low, ci.high] for ci in r.win_rate_ci95],
        "hands": r.hands,
        "hand_wins_by_seat": list(r.hand_wins_by_seat),
        "hand_win_rate": [ci.estimate for ci in r.hand_win_rate_ci95],
        "hand_win_rate_ci95": [[ci.low, ci.high] for ci in r.hand_win_rate_ci95],
        "mean_turns": r.mean_turns,
        "mean_turns_ci95": [r.turns_per_hand.low, r.turns_per_hand.high],
        "mean_hands": r.mean_hands,
        "games_per_second": r.games_per_second,
        "wall_seconds": r.wall_seconds,
        "workers": r.workers,
        "played": r.games if r.played is None else r.played,
    }


def sim_table(r: UnoSimResult, preset: str) -> Group:
    """A Rich table: win rate per seat with its 95% Wilson interval; then the totals."""
    t = Table(title=f"UNO {preset}: {r.games} matches, {r.players} players, seed {r.seed}")
    for col, just in (("Seat", "right"), ("Bot", "left"), ("Wins", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    t.add_column("Win rate", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("Hands won", justify="right")
    t.add_column("Hand rate (95% CI)", justify="right")
    hand = zip(r.hand_wins_by_seat, r.hand_win_rate_ci95, strict=True)
    rows = zip(r.wins_by_seat, r.win_rate_ci95, hand, strict=True)
    for s, (wins, ci, (hw, hci)) in enumerate(rows):
        t.add_row(
            str(s),
            r.bots[s],
            str(wins),
            f"{ci.estimate:.1%}",
            f"{ci.low:.1%} – {ci.high:.1%}",
            str(hw),
            f"{hci.estimate:.1%} ({hci.low:.1%} – {hci.high:.1%})",
        )
    tp = r.turns_per_hand
    workers = f"{r.workers} worker{'s' if r.workers != 1 else ''}"
    if r.played is not None and r.played < r.games:
        workers += f"; {r.played} played now, {r.games - r.played} from the journal"
    return Group(
        t,
        Text(f"Mean turns per hand: {tp.mean:.1f} (95% CI {tp.low:.1f} – {tp.high:.1f})"),
        Text(f"Mean hands per match: {r.mean_hands:.2f}"),
        Text(f"Speed: {r.games_per_second:.1f} games/s ({r.wall_seconds:.1f} s, {workers})"),
    )
