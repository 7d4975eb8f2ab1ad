"""``mazziere play poker`` and ``mazziere sim poker``: five-card draw in the terminal against
the computer, and bot-against-bot simulations (draw-poker.md; seed 002).

Register them on the main app with ``play_app.command("poker")(play_poker)`` and
``sim_app.command("poker")(sim_poker)``; :data:`app` here carries both (as ``play`` and
``sim``) for tests.

In play mode the human is seat 0 and the computer seat 1. Actions are typed with the seed's
button names or a one-letter key (shown each turn with English help); the draw names the cards
to replace by position (1-5) or by card. A wrong input prints why and asks again; a finished
game prints its result.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from mazziere.cli_options import FAILURE_EXIT, USAGE_EXIT, cli_errors, fail
from mazziere.errors import MalformedAction, MazziereError, OptionError
from mazziere.poker import Action, Draw, Open, Raise, Rules, State, apply, view
from mazziere.poker import events as E
from mazziere.poker.actions import HELP, ITALIAN
from mazziere.poker.bots import BOTS, LEVELS, find_bot
from mazziere.poker.cards import cards_text, parse_cards
from mazziere.poker.evaluator import evaluate
from mazziere.poker.sim import Tally, play_pairs
from mazziere.poker.state import COMPUTER, HUMAN, ItemStatus, Phase
from mazziere.poker.view import View
from mazziere.sim.stats import t_quantile

KEYS = {
    "o": "open",
    "w": "wait",
    "r": "raise",
    "s": "replace",
    "p": "fold",
    "v": "see",
    "c": "draw",
}
"""One-letter keys: o APRI, w ASPETTA, r RILANCIA, s SOSTITUISCI, p PASSA, v VEDI, c CAMBIA."""
_KEY_OF = {word: key for key, word in KEYS.items()}
DEALS_PER_GAME = 500
"""Deals in each simulated game (games are the unit of work spread over processes)."""

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True)


# ------------------------------------------------------------------------------ play
def play_rules(deck: int, flush_beats_full_house: bool | None) -> Rules:
    """The table for ``play poker``: seed defaults, the chosen deck, the flush option."""
    if deck not in (52, 32):
        raise OptionError(f"--deck is 52 or 32, not {deck}", "bad_option_value")
    flush = deck == 32 if flush_beats_full_house is None else flush_beats_full_house
    return Rules(deck=deck, flush_beats_full_house=flush)


def parse_input(text: str, v: View) -> Action:
    """A typed line -> an action: a key or a word (English or Italian), an amount for OPEN and
    RAISE, card positions 1-5 or card names for the draw."""
    parts = text.strip().split()
    if not parts:
        raise MalformedAction("type an action, e.g. " + ", ".join(_choices(v)))
    head = parts[0].lower()
    word = KEYS.get(head)
    if word is None:
        try:
            word = Action.parse(
                head + (" 1" if head in ("open", "raise", "apri", "rilancia") else "")
            ).word
        except MalformedAction:
            raise MalformedAction(
                f"unknown action {parts[0]!r}: choose one of " + ", ".join(_choices(v))
            ) from None
    rest = parts[1:]
    if word in ("open", "raise"):
        if len(rest) != 1 or not rest[0].isdigit():
            lo_hi = f" between {v.bet_range[0]} and {v.bet_range[1]}" if v.bet_range else ""
            example = f"{_KEY_OF[word]} {v.rules.min_bet_amount}"
            raise MalformedAction(
                f"{ITALIAN[word]} needs an amount of chips{lo_hi}, e.g. '{example}'"
            )
        amount = int(rest[0])
        return Open(amount) if word == "open" else Raise(amount)
    if word == "draw":
        if all(p.isdigit() for p in rest):
            picks = [int(p) for p in rest]
            if any(not 1 <= p <= len(v.hand) for p in picks):
                raise MalformedAction("card positions are 1 to 5")
            return Draw(tuple(v.hand[p - 1] for p in dict.fromkeys(picks)))
        return Draw(parse_cards(" ".join(rest)))
    if rest:
        raise MalformedAction(f"{ITALIAN[word]} takes no amount")
    return Action.parse(word)


def _choices(v: View) -> list[str]:
    return [f"{_KEY_OF[w]} ({ITALIAN[w]})" for w in v.words]


def actions_table(v: View) -> Table:
    """The actions open now: key, the seed's name, and English help."""
    t = Table(show_header=True, header_style="bold", box=None)
    t.add_column("key")
    t.add_column("action")
    t.add_column("what it does")
    for w in v.words:
        usage = _KEY_OF[w]
        if w in ("open", "raise") and v.bet_range:
            usage += f" N  ({v.bet_range[0]}-{v.bet_range[1]})"
        if w == "draw":
            usage += f" 1 3 ...  (up to {v.rules.max_replace} positions, none = keep all)"
        t.add_row(usage, f"{ITALIAN[w]} / {w.upper()}", HELP[w])
    return t


def status(console: Console, s: State, level: str) -> None:
    """Bankrolls, pot, the computer's items, the human's hand and what is owed."""
    v = view(s, HUMAN)
    items = ", ".join(
        f"{name} ({st.value})" for name, st in zip(v.rules.items, v.items, strict=True)
    )
    console.print(
        f"[bold]Deal {v.deal_no}[/]  pot {v.pot}  |  you {v.bankrolls[HUMAN]}  |  "
        f"computer ({level}) {v.bankrolls[COMPUTER]}"
    )
    console.print(f"Computer's items: {items or 'none'}")
    if v.phase is Phase.OVER:
        return
    hand = "  ".join(f"{i + 1}:{c}" for i, c in enumerate(v.hand))
    console.print(f"Your hand: [bold]{hand}[/]  ->  {evaluate(v.hand, v.rules).description}")
    if v.drawn[COMPUTER] >= 0:
        console.print(f"The computer replaced {v.drawn[COMPUTER]} card(s).")
    if v.owed:
        console.print(f"You owe {v.owed} to stay in.")


def describe_event(e: E.Event) -> str | None:
    """A line for an event as the human sees it (``None``: not worth a line)."""
    who = {HUMAN: "You", COMPUTER: "The computer"}
    seat = getattr(e, "seat", None)
    name = who.get(seat, "") if isinstance(seat, int) else ""
    match e:
        case E.DealStarted():
            first = "you act" if e.first == HUMAN else "the computer acts"
            carried = f"; {e.carried} carried over" if e.carried else ""
            return f"--- deal {e.deal} ({first} first{carried}) ---"
        case E.Opened():
            return f"{name}: {ITALIAN['open']} (open) {e.amount}"
        case E.Waited():
            return f"{name}: {ITALIAN['wait']} (wait)"
        case E.Raised():
            return f"{name}: {ITALIAN['raise']} (raise) {e.call} + {e.amount}"
        case E.Replaced():
            return f"{name}: {ITALIAN['replace']} (pay {e.paid}, go to the draw)"
        case E.Folded():
            return f"{name}: {ITALIAN['fold']} (fold)"
        case E.Saw():
            return f"{name}: {ITALIAN['see']} (see, pay {e.paid})"
        case E.Drew():
            seen = f": {cards_text(e.discarded)} -> {cards_text(e.received)}" if e.received else ""
            return f"{name} replaced {e.count} card(s){seen}"
        case E.Shown():
            verb = "showed" if e.seat == HUMAN else "shows"
            return f"{name} {verb} {cards_text(e.cards)}: {e.description}"
        case E.PotWon():
            verb = "take" if e.seat == HUMAN else "takes"
            return f"{name} {verb} the pot of {e.amount} ({e.reason})"
        case E.PotCarried():
            return f"Equal hands: the pot of {e.amount} stays for the next deal"
        case E.Pledged():
            return f"The computer pledges its {e.item} for {e.value} chips"
        case E.Forfeited():
            return f"The computer forfeits its {e.item}"
        case E.Redeemed():
            return f"The computer buys back its {e.item} for {e.value} chips"
        case E.GameEnded():
            verdict = "You win the game" if e.winner == HUMAN else "You lose the game"
            return f"{verdict}: {e.reason}"
    return None


def show_events(console: Console, events: Sequence[E.Event]) -> None:
    """Print the events as the human may see them (the computer's cards stay hidden)."""
    for e in events:
        line = describe_event(e.for_seat(HUMAN))
        if line:
            console.print(line)


def run_play(
    rules: Rules,
    level: str,
    seed: int | None,
    ask: Callable[[str], str],
    console: Console,
) -> State:
    """The terminal game loop (input through ``ask``); returns the final state."""
    bot = find_bot(level)
    state, events = _start(rules, seed)
    bot_rng = random.Random(seed if seed is not None else int.from_bytes(os.urandom(8), "big"))
    show_events(console, events)
    while not state.is_over:
        if state.current == COMPUTER:
            action = bot.act(view(state, COMPUTER), bot_rng)
            state, events = apply(state, COMPUTER, action)
            show_events(console, events)
            continue
        status(console, state, level)
        v = view(state, HUMAN)
        console.print(actions_table(v))
        try:
            line = ask("your action")
        except (EOFError, KeyboardInterrupt):
            console.print("Bye.")
            return state
        if line.strip().lower() in ("q", "quit", "exit"):
            console.print("Bye.")
            return state
        try:
            state, events = apply(state, HUMAN, parse_input(line, v))
        except MazziereError as e:
            console.print(f"[red]{e.message}[/]")
            continue
        show_events(console, events)
    status(console, state, level)
    forfeited = [
        n for n, s in zip(rules.items, state.items, strict=True) if s is ItemStatus.FORFEITED
    ]
    if forfeited:
        console.print("Forfeited items: " + ", ".join(forfeited))
    return state


def _start(rules: Rules, seed: int | None) -> tuple[State, list[E.Event]]:
    from mazziere.poker.engine import new_game_with_events

    return new_game_with_events(rules, seed)


def play_poker(
    deck: Annotated[int, typer.Option(help="52 (2..A) or 32 (7..A) cards.")] = 52,
    level: Annotated[str, typer.Option(help="The computer: easy, normal or hard.")] = "normal",
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    flush_beats_full_house: Annotated[
        bool | None,
        typer.Option(
            "--flush-beats-full-house/--full-house-beats-flush",
            help="Rank the flush above the full house (default: yes with 32 cards).",
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


def simulate(
    rules: Rules, a: str, b: str, deals: int, seed: int | str, workers: int
) -> tuple[Tally, float]:
    """Play ``deals`` deals (rounded up to even) in duplicate games; the tally and seconds."""
    for name in (a, b):
        find_bot(name)
    pairs = (deals + 1) // 2
    units = [
        (rules, a, b, g, min(DEALS_PER_GAME, pairs - g * DEALS_PER_GAME), seed)
        for g in range(math.ceil(pairs / DEALS_PER_GAME))
    ]
    start = time.perf_counter()
    total = Tally(0, 0, 0, 0)
    if workers <= 1:
        for u in units:
            total += _work(u)
    else:
        with ProcessPoolExecutor(workers) as pool:
            for t in pool.map(_work, units):
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
    b: Annotated[str, typer.Option("--b", help="Bot B.")] = "normal",
    deals: Annotated[int, typer.Option(help="Deals to play (seats swap every pair).")] = 20000,
    seed: Annotated[str, typer.Option(help="Simulation seed.")] = "1",
    workers: Annotated[int, typer.Option(help="Processes (default: every core).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    flush_beats_full_house: Annotated[
        bool, typer.Option("--flush-beats-full-house", help="Rank the flush above the full house.")
    ] = False,
) -> None:
    """Bot A against bot B: A's mean net chips per deal with a 95% confidence interval."""
    with cli_errors():
        if deals < 2:
            raise OptionError("--deals must be at least 2", "bad_option_value")
        if deck not in (52, 32):
            raise OptionError(f"--deck is 52 or 32, not {deck}", "bad_option_value")
        rules = Rules(deck=deck, flush_beats_full_house=flush_beats_full_house)
        n_workers = workers if workers > 0 else (os.cpu_count() or 1)
        tally, seconds = simulate(rules, a, b, deals, seed, n_workers)
        mean, low, high = summary(tally)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "deals": tally.deals,
                    "a_net_per_deal": round(mean, 4),
                    "ci95": [round(low, 4), round(high, 4)],
                    "a": a,
                    "b": b,
                    "deck": deck,
                    "seed": seed,
                    "seconds": round(seconds, 1),
                }
            )
        )
        return
    typer.echo(
        f"{a} vs {b}, {deck}-card deck: {tally.deals} deals, {a} nets {mean:+.3f} chips per "
        f"deal, 95% CI [{low:+.3f}, {high:+.3f}] ({seconds:.0f} s)"
    )


app.command("play")(play_poker)
app.command("sim")(sim_poker)

__all__ = ["FAILURE_EXIT", "USAGE_EXIT", "app", "fail", "play_poker", "sim_poker"]

if __name__ == "__main__":  # pragma: no cover
    app()
