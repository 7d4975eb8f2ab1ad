"""Hand-made UNO positions for rule tests: a real new game with hands, pile and turn set."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mazziere.cards.uno import FULL_DECK, Card, Color, parse_card, parse_cards
from mazziere.uno import Action, Rules, State, apply, legal_actions, new_game
from mazziere.uno.events import Event
from mazziere.uno.state import Phase


def position(
    rules: Rules,
    hands: list[str],
    top: str,
    *,
    color: str | None = None,
    current: int = 0,
    draw: str = "",
    discard_below: str = "",
    direction: int = 1,
    dealer: int | None = None,
    phase: Phase = Phase.PLAY,
    **extra: Any,
) -> State:
    """A state with the given hands (text), discard top, and the next cards to draw (``draw``,
    first drawn first). All other cards fill the draw pile below, so all 108 are present."""
    players = len(hands)
    base = new_game(rules, players, rng=0)
    hand_cards = tuple(parse_cards(h) for h in hands)
    top_card = parse_card(top)
    below = parse_cards(discard_below)
    upcoming = parse_cards(draw)
    used = Counter(c for h in hand_cards for c in h) + Counter((top_card, *below, *upcoming))
    removed = tuple(base.removed)
    rest = Counter(FULL_DECK) - used - Counter(removed)
    if any(v < 0 for v in (Counter(FULL_DECK) - Counter(removed) - used).values()):
        raise ValueError("more copies than the deck holds")
    for card_, n in used.items():
        if n > Counter(FULL_DECK)[card_]:
            raise ValueError(f"the deck has only {Counter(FULL_DECK)[card_]} of {card_}")
    pile = sorted(rest.elements()) + list(reversed(upcoming))
    col = Color.parse(color) if color else top_card.color
    return base.replace(
        hands=hand_cards,
        discard=(*below, top_card),
        draw_pile=tuple(pile),
        removed=removed,
        color=col,
        current=current,
        direction=direction,
        dealer=base.dealer if dealer is None else dealer,
        phase=phase,
        pending=0,
        stack_w4=False,
        stack_color=None,
        w4_by=None,
        w4_legal=True,
        drawn=None,
        uno_seat=None,
        uno_called=False,
        uno_ready=None,
        passes=0,
        **extra,
    )


def play(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    """Apply an action given as text."""
    return apply(state, seat, Action.parse(text))


def run(state: State, moves: list[tuple[int, str]]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for seat, text in moves:
        state, ev = play(state, seat, text)
        events.extend(ev)
    return state, events


def texts(events: list[Event]) -> list[str]:
    return [str(e) for e in events]


def legal_texts(state: State, seat: int) -> list[str]:
    return [str(a) for a in legal_actions(state, seat)]


def hand(state: State, seat: int) -> list[str]:
    return sorted(str(c) for c in state.hands[seat])


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)
