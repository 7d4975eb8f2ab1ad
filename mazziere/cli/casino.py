"""``mazziere rtp``: measure the UNO CASINO return to player (docs/rules/casino.md "Return to
player").

Plays N independent rounds with the bank's and the player's published strategies (stake 1
unit each; round ``i`` on ``round_seed(seed, i)``), on every core by default, and prints the
RTP with its 95% interval, the player's win rate, the payout distribution and the speed.
``--strategy random|search`` measures the ends of the skill range instead of the published
default: a careless player's random legal choices, and a search that plays out sampled worlds
from the player's own view (regulators of skill games ask for this range).
``--ray [--address auto|HOST:PORT]`` plays the chunks on a Ray cluster (a local one without
an address) with the same result. Mistakes on the command line print one line and exit 2.

Register it on the main app with ``app.command("rtp")(rtp)``; :data:`app` here carries the
same command for tests.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console, Group
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from mazziere.casino.readings import choices, parse_reading
from mazziere.casino.readings import names as reading_names
from mazziere.cli.options import (
    FAILURE_EXIT,
    AddressOpt,
    RayOpt,
    cli_errors,
    fail,
    ray_cluster,
)
from mazziere.errors import OptionError
from mazziere.sim.casino_kernel import SEARCH_WORLDS
from mazziere.sim.pool import default_workers
from mazziere.sim.rtp import (
    ENGINES,
    LEGAL_MINIMUM,
    RtpResult,
    check_run,
    run_rtp,
)

DEFAULT_ROUNDS = 1_000_000


def parse_count(name: str, text: str) -> int:
    """A whole number from the command line: ``100000000``, ``100_000_000`` or ``1e8``."""
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        pass
    try:
        value = float(t)
    except ValueError:
        value = float("nan")
    if value == value and value not in (float("inf"), float("-inf")) and value == int(value):
        return int(value)
    raise OptionError(f"{name} takes a whole number, not {text!r}", "bad_number")


def rtp(
    rounds: Annotated[
        str, typer.Option("--rounds", "-n", metavar="N", help="Rounds to play (e.g. 1000000, 1e8).")
    ] = str(DEFAULT_ROUNDS),
    seed: Annotated[
        str, typer.Option("--seed", "-s", metavar="S", help="Master seed, 0 to 2**64-1.")
    ] = "1",
    workers: Annotated[
        str | None,
        typer.Option("--workers", "-w", metavar="W", help="Processes (default: every core)."),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of a table.")
    ] = False,
    plot: Annotated[
        str | None,
        typer.Option(
            "--plot",
            metavar="FILE.png",
            help="Draw the running RTP and its 95% band to this PNG file.",
        ),
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            "-e",
            metavar="kernel|python",
            help="kernel (compiled) or python (readable).",
        ),
    ] = "kernel",
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            metavar="default|random|search",
            help="The player's strategy: the published default, random legal choices, or "
            "the search (the skill range).",
        ),
    ] = "default",
    worlds: Annotated[
        str,
        typer.Option(
            "--worlds",
            metavar="W",
            help=f"Worlds the search samples at each decision (default {SEARCH_WORLDS}).",
        ),
    ] = str(SEARCH_WORLDS),
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading",
            "-r",
            metavar="NAME=VALUE",
            help="Read a sentence of the casino's rules another way (repeatable): "
            + "; ".join(f"{k}={'|'.join(choices(k))}" for k in reading_names())
            + " (docs/rules/casino.md 'Readings of the rules').",
        ),
    ] = None,
    journal: Annotated[
        str | None,
        typer.Option(
            "--journal",
            metavar="FILE",
            help="Write each finished chunk of rounds to FILE; the same command run again "
            "plays only the chunks FILE lacks (a long run in sittings).",
        ),
    ] = None,
    use_ray: RayOpt = False,
    address: AddressOpt = None,
) -> None:
    """Measure the UNO CASINO return to player: RTP with its 95% CI, win rate, payouts."""
    with cli_errors():
        n = parse_count("--rounds", rounds)
        s = parse_count("--seed", seed)
        w = default_workers() if workers is None else parse_count("--workers", workers)
        strat = strategy.strip().lower()
        nw = parse_count("--worlds", worlds)
        readings = parse_reading(*(reading or ()))
        check_run(n, s, w, engine.strip().lower(), strat, nw, readings)
        if plot is not None:
            _check_plot(plot)
        cluster = ray_cluster(use_ray, address, w)
    err = Console(stderr=True)
    with (
        cli_errors(),
        cluster as on_ray,
        Progress(
            TextColumn("[bold]rounds"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        ) as bar,
    ):
        task = bar.add_task("rounds", total=n)
        result = run_rtp(
            n,
            seed=s,
            workers=w,
            engine=engine.strip().lower(),
            strategy=strat,
            worlds=nw,
            progress=lambda done, _total: bar.update(task, completed=done),
            cluster=on_ray,
            readings=readings,
            journal=journal,
        )
    if plot is not None:
        from mazziere.sim.rtp_plot import plot_rtp

        try:
            plot_rtp(result, plot)
        except (OSError, ValueError) as e:
            raise fail(f"could not write the plot {plot!r}: {e}", FAILURE_EXIT) from None
    if json_out:
        typer.echo(json.dumps(result.as_json()))
    else:
        Console(highlight=False).print(rtp_table(result))
        if plot is not None:
            typer.echo(f"plot written to {plot}")


def _check_plot(path: str) -> None:
    """Fail before playing: matplotlib present, a PNG name, a folder that exists."""
    from pathlib import Path

    p = Path(path)
    if p.suffix.lower() != ".png":
        raise OptionError(f"--plot writes a PNG file: name it *.png, not {path!r}", "bad_plot")
    if not p.parent.is_dir():
        raise OptionError(f"--plot: the folder {str(p.parent)!r} does not exist", "bad_plot")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OptionError(
            "--plot needs matplotlib (pip install matplotlib)", "no_matplotlib"
        ) from None


def rtp_table(r: RtpResult) -> Group:
    """The result as a Rich table (RTP, win rate, payouts) and the totals below it."""
    rtp_ci, win = r.rtp, r.win_rate
    who = {
        "default": "the published default strategy",
        "random": "random legal choices",
        "search": f"the search ({r.worlds} worlds a decision)",
    }[r.strategy]
    read = "" if r.readings.label() == "adopted" else f", the rules read {r.readings.label()}"
    t = Table(
        title=f"UNO CASINO RTP: {r.rounds:,} rounds, seed {r.seed}, stake 1 unit, "
        f"the player on {who}{read}"
    )
    t.add_column("Measure")
    t.add_column("Value", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_row("RTP (paid / staked)", f"{rtp_ci.estimate:.4%}", _ci(rtp_ci.low, rtp_ci.high))
    t.add_row("Player win rate", f"{win.estimate:.4%}", _ci(win.low, win.high))
    for k, share in r.payouts.items():
        label = "Paid x0 (bank wins)" if k == "0" else f"Paid x{k}"
        t.add_row(label, f"{share:.4%}", "")
    verdict = (
        "above" if rtp_ci.low >= LEGAL_MINIMUM else "BELOW" if rtp_ci.high < LEGAL_MINIMUM else "at"
    )
    workers = f"{r.workers} worker{'s' if r.workers != 1 else ''}"
    kept = (
        []
        if r.played is None
        else [Text(f"Journal: {r.rounds - r.played:,} rounds read, {r.played:,} played")]
    )
    return Group(
        t,
        Text(f"Legal minimum {LEGAL_MINIMUM:.0%}: the measured RTP is {verdict} it."),
        Text(f"Mean turns per round: {r.mean_turns:.2f}"),
        Text(
            "Speed: none played, every round read from the journal"
            if r.rounds_per_second is None
            else f"Speed: {r.rounds_per_second:,.0f} rounds/s, wall time {r.wall_seconds:.2f} s "
            f"({r.engine} engine, {workers})"
        ),
        *kept,
    )


def _ci(low: float, high: float) -> str:
    return f"{low:.4%} – {high:.4%}"


def certify(
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="Folder for the report.")],
    rounds: Annotated[
        str, typer.Option("--rounds", "-n", metavar="N", help="Rounds to play (e.g. 1e8).")
    ] = str(DEFAULT_ROUNDS),
    seed: Annotated[
        str, typer.Option("--seed", "-s", metavar="S", help="Master seed, 0 to 2**64-1.")
    ] = "1",
    workers: Annotated[
        str | None,
        typer.Option("--workers", "-w", metavar="W", help="Processes (default: every core)."),
    ] = None,
    search_rounds: Annotated[
        str,
        typer.Option(
            "--search-rounds",
            metavar="M",
            help="Rounds of the search player for the skill range (it is slow).",
        ),
    ] = "20000",
    readings_rounds: Annotated[
        str,
        typer.Option(
            "--readings-rounds",
            metavar="M",
            help="Rounds of each other reading of the casino rules' open sentences, for the "
            "readings table (0: no table).",
        ),
    ] = "0",
    journal_dir: Annotated[
        str | None,
        typer.Option(
            "--journal-dir",
            metavar="DIR",
            help="Keep each reading's finished chunks in DIR/<reading>.jsonl; the same "
            "command run again plays only what DIR lacks (a long run in sittings).",
        ),
    ] = None,
    use_ray: RayOpt = False,
    address: AddressOpt = None,
) -> None:
    """Write a certification report of UNO CASINO (HTML and JSON) to --out DIR."""
    import sys
    from pathlib import Path

    from mazziere.sim.certify import certify_casino, write_report

    with cli_errors():
        n = parse_count("--rounds", rounds)
        s = parse_count("--seed", seed)
        m = parse_count("--search-rounds", search_rounds)
        rr = parse_count("--readings-rounds", readings_rounds)
        w = default_workers() if workers is None else parse_count("--workers", workers)
        check_run(n, s, w, "kernel")
        if rr:
            check_run(rr, s, w, "kernel")
        journals = None if journal_dir is None else Path(journal_dir)
        if journals is not None and not journals.is_dir():
            raise OptionError(f"--journal-dir {journal_dir!r} is not a folder", "bad_journal")
        if m < 1:
            raise OptionError(f"--search-rounds must be at least 1, not {m}", "bad_rounds")
        folder = Path(out)
        if folder.exists() and not folder.is_dir():
            raise OptionError(f"--out {out!r} is a file, not a folder", "bad_out")
        if not folder.parent.is_dir():
            raise OptionError(f"--out: the folder {str(folder.parent)!r} does not exist", "bad_out")
        cluster = ray_cluster(use_ray, address, w)
    command = " ".join(["mazziere", *sys.argv[1:]]) if sys.argv else "mazziere certify casino"
    with cli_errors(), cluster as on_ray:
        Console(stderr=True).print(
            f"certifying: {n:,} rounds with the published strategies and with a careless "
            f"player, {min(m, n):,} with the search, then the RNG tests..."
        )
        result = certify_casino(
            n,
            seed=s,
            workers=w,
            search_rounds=m,
            cluster=on_ray,
            command=command,
            readings_rounds=rr,
            journal_dir=journals,
        )
    try:
        paths = write_report(result, folder)
    except OSError as e:
        raise fail(f"could not write the report to {out!r}: {e}", FAILURE_EXIT) from None
    d = result.data
    pub = d["published"]
    where = (
        "inside the interval"
        if pub["inside_ci95"]
        else f"outside the interval by {pub['outside_by'] * 100:.4f} points"
    )
    typer.echo(
        f"RTP {d['rtp']['estimate']:.4%} (95% CI {d['rtp']['ci95'][0]:.4%} - "
        f"{d['rtp']['ci95'][1]:.4%}) over {d['rounds']:,} rounds; the published "
        f"{pub['rtp']:.2%} lies {where}; report: " + ", ".join(str(p) for p in paths)
    )
    if d["readings"]:
        near = d["readings_verdict"]
        held = (
            f"the published {pub['rtp']:.2%} lies inside the interval of "
            + ", ".join(near["inside"])
            if near["inside"]
            else f"no reading's interval holds the published {pub['rtp']:.2%}"
        )
        typer.echo(
            f"readings of the rules over {rr:,} rounds each: {held}; the nearest is "
            f"{near['closest']} ({near['closest_rtp']:.4%})"
        )


app = typer.Typer(
    help="UNO CASINO commands.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _casino() -> None:
    """UNO CASINO commands (``rtp``)."""


app.command("rtp")(rtp)

__all__ = ["ENGINES", "app", "parse_count", "rtp", "rtp_table"]
