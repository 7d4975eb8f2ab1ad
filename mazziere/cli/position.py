"""``mazziere position TEXT``: show a position written as text (docs/positions.md) and the legal
actions of every seat, under a preset and ``--option`` changes. The game is the text's first
word (``uno``); a malformed position prints one line naming the mistake and exits 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from mazziere.cards.uno import Card
from mazziere.cli.options import USAGE_EXIT, cli_errors, fail, uno_rules
from mazziere.cli.uno import OptionOpt, PresetOpt
from mazziere.errors import BadPosition
from mazziere.uno import Game, parse_position
from mazziere.uno.state import Phase


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def describe_uno(g: Game, preset: str) -> list[str]:
    """The lines ``mazziere position`` prints for a UNO game: the table, then legal actions."""
    way = "clockwise (seat numbers up)" if g.direction == 1 else "counter-clockwise"
    color = g.color.name.lower() if g.color is not None else "not chosen yet"
    lines = [
        f"UNO position: preset {preset}, {g.players} seats, hand {g.hand_no}, dealer {g.dealer}",
        f"Top card {g.top}, colour {color}, {way}",
        f"Seat {g.current} to act, phase {g.phase.value}"
        + (f", {g.pending} cards pending" if g.pending else "")
        + (f", drew {g.drawn}" if g.drawn is not None else ""),
        f"Discards below the top ({len(g.discard) - 1}): {_cards(g.discard[-2::-1])}",
        f"Draw pile ({len(g.draw_pile)}), next first: {_cards(g.draw_pile[::-1])}",
    ]
    if g.removed:
        lines.append(f"Removed: {_cards(g.removed)}")
    lines.append(f"Scores: {', '.join(str(s) for s in g.scores)}")
    for seat, hand in enumerate(g.hands):
        mark = "*" if seat == g.current else " "
        status = "" if g.in_hand[seat] else " (out of this hand)"
        lines.append(f"{mark}seat {seat} ({len(hand)}){status}: {_cards(hand)}")
    if g.phase is Phase.OVER and g.result is not None:
        lines.append(f"Match over: side {g.result.winner} won ({g.result.reason})")
    lines.append("Legal actions:")
    for seat in range(g.players):
        acts = g.legal_actions(seat)
        lines.append(f"  seat {seat}: {', '.join(str(a) for a in acts) if acts else '-'}")
    return lines


def position(
    text: Annotated[
        str, typer.Argument(help="The position, e.g. 'uno hands=R1,R2/G5 discard=R7'.")
    ],
    preset: PresetOpt = "classic",
    option: OptionOpt = None,
) -> None:
    """Show a position written as text and every seat's legal actions."""
    game = text.split(maxsplit=1)[0] if text.strip() else ""
    if game != "uno":
        raise fail(f"a position starts with the game's name (uno), not {game!r}", USAGE_EXIT)
    with cli_errors():
        rules = uno_rules(preset, option or [])
        try:
            g = parse_position(text, rules)
        except BadPosition as e:
            raise fail(f"bad position [{e.code}]: {e.message}", USAGE_EXIT) from None
    for line in describe_uno(g, preset):
        typer.echo(line)
