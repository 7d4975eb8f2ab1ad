"""Shared helpers for the draw-poker rule tests: rigged deals and quick action runs."""

from __future__ import annotations

from dataclasses import replace

from mazziere.poker import Rules, State, apply, new_game, parse_cards
from mazziere.poker.cards import Card, deck
from mazziere.poker.events import Event


def rigged(
    rules: Rules,
    hand0: str,
    hand1: str,
    top: str = "",
    first: int = 0,
    seed: int = 1,
    **changes: object,
) -> State:
    """A fresh game whose current deal holds these hands, with ``top`` on top of the deck
    (the rest of the deck follows in a fixed order) and ``first`` acting first."""
    s = new_game(rules, seed, first_actor=first)
    h0, h1, t = parse_cards(hand0), parse_cards(hand1), parse_cards(top)
    used = set(h0) | set(h1) | set(t)
    rest: tuple[Card, ...] = tuple(c for c in deck(rules.deck) if c not in used)
    return replace(s, hands=(h0, h1), deck=t + rest, **changes)  # type: ignore[arg-type]


def run(state: State, *moves: tuple[int, str]) -> tuple[State, list[Event]]:
    """Apply ``(seat, action text)`` moves in order; all the events."""
    events: list[Event] = []
    for seat, text in moves:
        state, ev = apply(state, seat, text)
        events.extend(ev)
    return state, events


def of_type(events: list[Event], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, kind)]
