"""``mazziere position TEXT``: show a position written as text (docs/positions.md) and the legal
actions, under a preset and ``--option`` changes. The game is the text's first word: ``uno``
(every seat's actions), ``casino`` (the player's, and the default strategy's choice) or
``poker`` (both seats'); a malformed position prints one line naming the mistake and exits 2.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from mazziere import casino, poker
from mazziere.cards.uno import Card
from mazziere.casino import CasinoRound, CasinoRules
from mazziere.cli.options import (
    USAGE_EXIT,
    cli_errors,
    fail,
    parse_option_value,
    uno_rules,
)
from mazziere.cli.uno import OptionOpt
from mazziere.errors import BadPosition, OptionError, unknown_name
from mazziere.poker.actions import Action as PokerAction
from mazziere.poker.cards import cards_text
from mazziere.uno import PRESETS, Game, parse_position
from mazziere.uno.state import Phase

GAMES = ("uno", "casino", "poker")
"""The games a position may be of, by the text's first word."""

PositionPresetOpt = Annotated[
    str | None,
    typer.Option(
        "--preset",
        "-p",
        help=(
            f"Rule preset: UNO {', '.join(PRESETS)} (default classic); poker "
            f"{', '.join(poker.PRESETS)} (default classic); none for casino."
        ),
    ),
]


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


def describe_casino(r: CasinoRound) -> list[str]:
    """The lines ``mazziere position`` prints for a UNO CASINO round: the table, the bank's
    remembered turn, then the player's legal actions and the default strategy's choice."""
    g, m = r.uno, r.memory
    color = g.color.name.lower() if g.color is not None else "not chosen yet"
    lines = [
        f"UNO CASINO position: stake {r.stake} cents, multiplier x{r.multiplier}, "
        f"{r.turns} actions so far",
        f"Top card {g.top}, colour {color}, phase {g.phase.value}"
        + (f", the player drew {g.drawn}" if g.drawn is not None else ""),
        f"Draw pile ({len(g.draw_pile)}), next first: {_cards(g.draw_pile[::-1])}",
        f"*player (seat 0) ({len(g.hands[0])}): {_cards(g.hands[0])}",
        f" bank (seat 1) ({len(g.hands[1])}): {_cards(g.hands[1])}",
    ]
    if m.drew_without_playing:
        memory = f"drew and passed on {m.passed_color}"
        if m.last_card is not None:
            memory += f" (its last card played: {m.last_card})"
    elif m.chosen_color is not None:
        memory = f"played {m.last_card}, chose {m.chosen_color}"
    else:
        memory = "nothing yet" if m.last_card is None else f"played {m.last_card}"
    lines.append(f"The bank's last turn: {memory}")
    if r.result is not None:
        res = r.result
        lines.append(
            f"Round over: the {res.winner} won ({res.reason}), x{res.multiplier}, "
            f"payout {res.payout} cents"
        )
    acts = casino.legal_actions(r)
    lines.append(f"Legal actions (player): {', '.join(str(a) for a in acts) if acts else '-'}")
    if r.result is None:
        lines.append(f"Default strategy: {casino.default_action(r)}")
    return lines


def _poker_actions(acts: Sequence[PokerAction]) -> str:
    """Legal poker actions, bets shown as ranges (``open 5-50``) and the draw as a count of
    subsets (every subset of the hand up to ``max_replace`` cards)."""
    parts: list[str] = []
    bets: dict[str, list[int]] = {}
    draws = 0
    for a in acts:
        if isinstance(a, (poker.Open, poker.Raise)):
            if a.word not in bets:
                bets[a.word] = []
                parts.append(a.word)
            bets[a.word].append(a.amount)
        elif isinstance(a, poker.Draw):
            if not draws:
                parts.append("draw")
            draws += 1
        else:
            parts.append(str(a))
    out = []
    for p in parts:
        if p in bets:
            lo, hi = min(bets[p]), max(bets[p])
            out.append(f"{p} {lo}" if lo == hi else f"{p} {lo}-{hi}")
        elif p == "draw":
            out.append(
                f"draw 0-{max(len(a.cards) for a in acts if isinstance(a, poker.Draw))} "
                f"cards ({draws} choices)"
            )
        else:
            out.append(p)
    return ", ".join(out) if out else "-"


def describe_poker(s: poker.State, preset: str) -> list[str]:
    """The lines ``mazziere position`` prints for a draw-poker game: the table, then both
    seats' legal actions (bets as ranges, the draw as a count of choices)."""
    lines = [
        f"Poker position: preset {preset}, {s.rules.deck} cards, deal {s.deal_no}, "
        f"seat {s.first} first",
        f"Seat {s.current} to act, phase {s.phase.value}, pot {s.pot}, "
        f"bankrolls {s.bankrolls[0]}, {s.bankrolls[1]}",
        f"This round: committed {s.committed[0]}, {s.committed[1]}, raises {s.raises}, "
        f"actions {s.acts}",
        f"Deck ({len(s.deck)}), next first: {cards_text(s.deck) or '-'}",
    ]
    for seat, hand in enumerate(s.hands):
        mark = "*" if seat == s.current and not s.is_over else " "
        drew = f", replaced {s.drawn[seat]}" if s.drawn[seat] >= 0 else ""
        lines.append(f"{mark}seat {seat} ({len(hand)}{drew}): {cards_text(hand) or '-'}")
    if s.items:
        lines.append(
            "Items: "
            + ", ".join(f"{n} {st.value}" for n, st in zip(s.rules.items, s.items, strict=True))
        )
    if s.history:
        lines.append("History: " + ", ".join(f"{m.seat} {m.word} {m.amount}" for m in s.history))
    if s.result is not None:
        lines.append(f"Game over: seat {s.result.winner} won ({s.result.reason})")
    lines.append("Legal actions:")
    for seat in (0, 1):
        lines.append(f"  seat {seat}: {_poker_actions(poker.legal_actions(s, seat))}")
    return lines


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _changes(cls: type, items: Sequence[str], known: Sequence[str], kind: str) -> dict[str, Any]:
    """``--option name=value`` for the rules dataclass ``cls``, each value read by its type;
    an unknown name raises :class:`~mazziere.errors.UnknownOption`."""
    out: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise OptionError(f"--option takes name=value, not {item!r}", "bad_option")
        if name not in known:
            raise unknown_name(kind, name, known)
        if name == "items":
            out[name] = tuple(n.strip() for n in raw.split(",") if n.strip() not in ("", "-"))
        else:
            out[name] = parse_option_value(name, raw, _hints(cls))
    return out


def casino_rules(options: Sequence[str]) -> CasinoRules:
    """A UNO CASINO table with ``--option`` changes (stakes, start multiplier...)."""
    known = [f.name for f in dataclasses.fields(CasinoRules) if f.name != "uno"]
    return CasinoRules(**_changes(CasinoRules, options, known, "casino option"))


def poker_rules(preset: str, options: Sequence[str]) -> poker.Rules:
    """The named poker preset with ``--option`` values applied (typed errors on mistakes)."""
    rules = poker.find_preset(preset)
    changes = _changes(poker.Rules, options, poker.Rules.option_names(), "poker option")
    return rules.with_options(**changes) if changes else rules


def position(
    text: Annotated[
        str,
        typer.Argument(
            help="The position, e.g. 'uno hands=R1,R2/G5 discard=R7', "
            "'casino mult=1 uno hands=R1/G5 discard=R7' or 'poker hands=Ah,Ad,7c,7d,2s/"
            "Kh,Kd,Qc,Jd,3s'."
        ),
    ],
    preset: PositionPresetOpt = None,
    option: OptionOpt = None,
) -> None:
    """Show a position written as text and the legal actions (UNO, UNO CASINO, poker)."""
    game = text.split(maxsplit=1)[0] if text.strip() else ""
    if game not in GAMES:
        raise fail(
            f"a position starts with the game's name ({', '.join(GAMES)}), not {game!r}",
            USAGE_EXIT,
        )
    options = option or []
    with cli_errors():
        try:
            if game == "uno":
                name = preset or "classic"
                lines = describe_uno(parse_position(text, uno_rules(name, options)), name)
            elif game == "poker":
                name = preset or "classic"
                rules = poker_rules(name, options)
                lines = describe_poker(poker.parse_position(text, rules), name)
            else:
                if preset is not None:
                    raise OptionError(
                        "a casino table has no preset: change it with --option "
                        "(min_stake, max_stake, start_multiplier)",
                        "bad_option",
                    )
                lines = describe_casino(casino.parse_position(text, casino_rules(options)))
        except BadPosition as e:
            raise fail(f"bad position [{e.code}]: {e.message}", USAGE_EXIT) from None
    for line in lines:
        typer.echo(line)
