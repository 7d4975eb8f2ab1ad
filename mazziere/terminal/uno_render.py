"""Rich renderings of UNO for the terminal: coloured cards, the table as seat 0 sees it, event
lines, hand and match results. Only views and ``Event.for_seat`` output are drawn.

>>> from mazziere.cards.uno import parse_card
>>> card_text(parse_card("R7")).style, str(card_text(parse_card("W4")))
('bold red', 'W4')
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from mazziere.cards.uno import Card, Color
from mazziere.uno import Action, Phase, Play, View
from mazziere.uno import events as E

CARD_STYLE = {
    Color.RED: "bold red",
    Color.YELLOW: "bold yellow",
    Color.GREEN: "bold green",
    Color.BLUE: "bold blue",
}
WILD_STYLE = "bold magenta"
COLOR_NAME = {Color.RED: "red", Color.YELLOW: "yellow", Color.GREEN: "green", Color.BLUE: "blue"}


def card_text(card: Card) -> Text:
    """One card in its colour (wilds in magenta)."""
    col = card.color
    return Text(str(card), style=CARD_STYLE[col] if col is not None else WILD_STYLE)


def cards_text(cards: Sequence[Card]) -> Text:
    """Cards in their colours, separated by spaces."""
    t = Text()
    for i, c in enumerate(cards):
        if i:
            t.append("  ")
        t.append_text(card_text(c))
    return t


def hand_text(hand: Sequence[Card], legal: Sequence[Action]) -> Text:
    """The hand sorted by colour, each card followed by the number(s) of the listed legal
    action(s) that play it alone, e.g. ``R7[1]  W[3-6]  B2``."""
    numbers: dict[Card, list[int]] = {}
    for i, a in enumerate(legal, 1):
        if isinstance(a, Play) and len(a.cards) == 1:
            numbers.setdefault(a.cards[0], []).append(i)
    t = Text()
    for k, c in enumerate(sorted(hand, key=_sort_key)):
        if k:
            t.append("  ")
        t.append_text(card_text(c))
        nums = numbers.get(c)
        if nums:
            label = str(nums[0]) if len(nums) == 1 else f"{nums[0]}-{nums[-1]}"
            t.append(f"[{label}]", style="cyan")
    return t


def _sort_key(c: Card) -> tuple[int, int]:
    col = c.color
    return (4 if col is None else int(col), int(c))


def who(seat: int | None, me: int) -> str:
    if seat is None:
        return "nobody"
    return "You" if seat == me else f"Seat {seat}"


def describe(ev: E.Event, me: int, players: int) -> str:
    """One log line for an event as ``me`` sees it ('' for events not worth a line)."""
    match ev:
        case E.HandStarted(hand=h, dealer=d):
            return f"— Hand {h + 1}: {who(d, me)} deal{'s' if d != me else ''} —"
        case E.Dealt(seat=s, cards=cards) if s == me:
            return "You were dealt " + " ".join(str(c) for c in sorted(cards, key=_sort_key))
        case E.Turned(card=c):
            return f"First card turned: {c}"
        case E.Returned(card=c):
            return f"{c} goes back into the draw pile"
        case E.Played(seat=s, cards=cards, color=col, target=t, jump_in=j):
            verb = "jumped in with" if j else "played"
            text = f"{who(s, me)} {verb} " + ",".join(map(str, cards))
            if col is not None:
                text += f" and chose {COLOR_NAME[col]}"
            if t is not None:
                text += f" targeting {who(t, me).lower() if t == me else who(t, me)}"
            return text
        case E.Drew(seat=s, cards=cards, count=n, reason=r):
            got = f": {' '.join(map(str, cards))}" if cards else ""
            return f"{who(s, me)} drew {n} card{'s' if n != 1 else ''} ({r}){got}"
        case E.Skipped(seat=s):
            return f"{who(s, me)} {'are' if s == me else 'is'} skipped"
        case E.Reversed(direction=d):
            return "Direction reversed: " + ("clockwise" if d == 1 else "counterclockwise")
        case E.ColorChosen(seat=s, color=col):
            return f"{who(s, me)} chose {COLOR_NAME[col]}"
        case E.Passed(seat=s, reason=r):
            return f"{who(s, me)} passed ({r.replace('_', ' ')})"
        case E.Reshuffled(count=n):
            return f"The discards ({n}) were shuffled into a new draw pile"
        case E.UnoCalled(seat=s):
            return f"{who(s, me)} called UNO!"
        case E.UnoMissed(seat=s):
            return f"{who(s, me)} did not call UNO: penalty"
        case E.Caught(by=b, seat=s):
            return f"{who(b, me)} caught {who(s, me)} without UNO"
        case E.Challenged(by=b, seat=s, guilty=g):
            verdict = "guilty" if g else "innocent"
            return f"{who(b, me)} challenged {who(s, me)}'s +4: {verdict}"
        case E.Swapped(seat=s, other=o):
            return f"{who(s, me)} swapped hands with {who(o, me)}"
        case E.Rotated():
            return "Every hand passed on"
        case E.AutoPlayed(seat=s):
            return f"Time out: the table played for {who(s, me)}"
        case E.Left(seat=s):
            return f"{who(s, me)} left the table"
        case E.Eliminated(seat=s):
            return f"{who(s, me)} {'are' if s == me else 'is'} eliminated"
        case E.HandEnded(winner=w, reason=r):
            return f"Hand over: {who(w, me)} went out" if w is not None else f"Hand over ({r})"
        case E.MatchEnded():
            return "Match over"
    return ""


def _seats(v: View, names: Sequence[str]) -> Table:
    t = Table(title=None, expand=False)
    for col in ("", "Seat", "Player", "Cards", "Score"):
        t.add_column(col)
    for s in range(v.players):
        mark = "▶" if s == v.current and v.phase is not Phase.OVER else ""
        extra = " (dealer)" if s == v.dealer else ""
        if v.uno_seat == s and v.hand_counts[s] == 1:
            extra += " UNO!" if v.uno_called else " one card"
        if not v.in_hand[s]:
            extra += " (out)"
        score = v.scores[s % 2] if v.rules.teams else v.scores[s]
        count = str(v.hand_counts[s]) if v.in_hand[s] else "-"
        t.add_row(mark, str(s), names[s] + extra, count, str(score))
    return t


def render_board(v: View, names: Sequence[str], log: Sequence[str]) -> RenderableType:
    """The table as ``v.seat`` sees it: seats, pile, colour, direction, pending, hand, log."""
    pile = Text("Discard: ")
    pile.append_text(card_text(v.top))
    if v.color is not None:
        pile.append("   colour: ")
        pile.append(COLOR_NAME[v.color], style=CARD_STYLE[v.color])
    pile.append(f"   draw pile: {v.draw_pile_count}")
    pile.append("   direction: " + ("clockwise ↻" if v.direction == 1 else "counterclockwise ↺"))
    if v.pending:
        pile.append(f"   pending: +{v.pending}", style="bold red")
    turn = Text("Your turn" if v.my_turn else f"{names[v.current]}'s turn", style="bold underline")
    hand = Text(f"Your hand ({len(v.hand)}): ")
    hand.append_text(hand_text(v.hand, v.legal))
    if v.drawn is not None:
        hand.append("   you drew ")
        hand.append_text(card_text(v.drawn))
    recent = Text("\n".join(log) if log else "(nothing yet)", style="dim")
    body = Group(_seats(v, names), pile, turn, hand, Panel(recent, title="Recent events"))
    return Panel(body, title=f"UNO — hand {v.hand_no + 1}", expand=False)


def render_hand_result(ev: E.HandEnded, names: Sequence[str], teams: bool) -> RenderableType:
    """Who went out, each seat's cards and points, and the running totals (per team)."""
    out = f"{names[ev.winner]} went out" if ev.winner is not None else "nobody went out"
    t = Table(title=f"Hand result: {out} ({ev.reason.replace('_', ' ')})")
    for col in ("Seat", "Player", "Cards left", "Points", "Total"):
        t.add_column(col)
    for s, name in enumerate(names):
        total = ev.scores[s % 2] if teams else ev.scores[s]
        t.add_row(str(s), name, cards_text(ev.hands[s]), str(ev.points[s]), str(total))
    return t


def render_match_result(ev: E.MatchEnded, names: Sequence[str], teams: bool) -> RenderableType:
    """The winner, the ranking and (online tables) victory points."""

    def side(sd: int) -> str:
        return f"Team {sd} ({names[sd]} + {names[sd + 2]})" if teams else names[sd]

    lines = [Text(f"Match over ({ev.reason.replace('_', ' ')}): {side(ev.winner)} won!", "bold")]
    for place, sd in enumerate(ev.ranking, 1):
        lines.append(Text(f"  {place}. {side(sd)}"))
    if ev.victory_points:
        vp = ", ".join(f"{names[s]} {p}" for s, p in enumerate(ev.victory_points))
        lines.append(Text(f"Victory points: {vp}"))
    return Panel(Group(*lines), expand=False)
