"""Five-card draw at the terminal: the human (seat 0) against the computer (draw-poker.md;
seed 002), for ``mazziere play poker``.

Actions are typed with the seed's button names or a one-letter key (shown each turn with English
help); the draw names the cards to replace by position (1-5) or by card. A wrong input prints
why and asks again; a finished game prints its result.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table

from mazziere.errors import MalformedAction, MazziereError, OptionError
from mazziere.poker import Action, Draw, Open, Raise, Rules, State, apply, view
from mazziere.poker import events as E
from mazziere.poker.actions import HELP, ITALIAN
from mazziere.poker.bots import find_bot
from mazziere.poker.cards import cards_text, parse_cards
from mazziere.poker.eval_tables import CATEGORIES, category_order
from mazziere.poker.evaluator import evaluate
from mazziere.poker.state import COMPUTER, HUMAN, ItemStatus, Phase
from mazziere.poker.view import View

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


def play_rules(deck: int, flush_beats_full_house: bool | None) -> Rules:
    """The table for ``play poker``: seed defaults, the chosen deck, the flush option. Hands
    rank as in every other mode (draw-poker.md "Ranking"): full house above flush unless the
    option says otherwise, whatever the deck."""
    if deck not in (52, 32):
        raise OptionError(f"--deck is 52 or 32, not {deck}", "bad_option_value")
    return Rules(deck=deck, flush_beats_full_house=bool(flush_beats_full_house))


def ranking_line(rules: Rules) -> str:
    """The hand ranking of the table, strongest first, as the screen shows it."""
    order = sorted(CATEGORIES, key=lambda c: -category_order(c, rules.flush_beats_full_house))
    return "Hands, strongest first: " + " > ".join(c.value.replace("_", " ") for c in order)


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
    console.print(ranking_line(rules))
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
