"""docs/architecture.md property tests over thousands of random games: money conserved at every step
(bankrolls + pot + the computer's unpledged items), cards conserved, legal actions never empty
before the end, and views never holding the opponent's cards or the deck order."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from mazziere.poker import Rules, apply, legal_actions, new_game, view
from mazziere.poker.bots import find_bot
from mazziere.poker.cards import Card, deck
from mazziere.poker.events import Shown
from mazziere.poker.state import State

TABLES = (
    Rules(bankroll=60, item_value=20, max_bet=None),
    Rules(deck=32, bankroll=40, item_value=15, items=("hat", "scarf"), max_raises=1),
    Rules(ante=3, bankroll=100, max_replace=3, flush_beats_full_house=True, deck=32),
)
GAMES = 2400
DEALS = 6


def cards_in(value: Any) -> set[Card]:
    """Every card anywhere inside a view (walking dataclasses, tuples and lists)."""
    if isinstance(value, Card):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, (tuple, list)):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def check(state: State, total: int) -> None:
    assert state.money == total
    assert min(state.bankrolls) >= 0 and state.pot >= 0
    in_play = Counter([*state.hands[0], *state.hands[1], *state.deck])
    assert all(n == 1 for n in in_play.values()) and set(in_play) <= set(deck(state.rules.deck))
    if not state.is_over:
        assert legal_actions(state, state.current)
        assert not legal_actions(state, 1 - state.current)
    for seat in (0, 1):
        seen = cards_in(view(state, seat))
        assert seen == set(state.hands[seat])
        assert not seen & set(state.deck)
    assert cards_in(view(state, None)) == set()


def test_money_and_cards_conserved_and_views_never_leak() -> None:
    bots = [find_bot("random"), find_bot("random"), find_bot("easy"), find_bot("baseline")]
    for g in range(GAMES):
        rules = TABLES[g % len(TABLES)]
        rng = random.Random(g)
        s = new_game(rules, f"prop{g}", first_actor=g % 2)
        total = s.money
        players = (bots[g % 4], bots[(g // 4) % 4])
        check(s, total)
        while not s.is_over and s.deal_no <= DEALS:
            seat = s.current
            s, events = apply(s, seat, players[seat].act(view(s, seat), rng))
            check(s, total)
            for e in events:
                if isinstance(e, Shown):  # hands shown at the showdown are public
                    continue
                assert cards_in(e.for_seat(None)) == set()
                for viewer in (0, 1):
                    if getattr(e, "seat", None) != viewer:
                        assert cards_in(e.for_seat(viewer)) == set()


def test_view_legal_matches_legal_actions() -> None:
    for g in range(40):
        s = new_game(TABLES[g % len(TABLES)], f"legal{g}")
        rng = random.Random(g)
        while not s.is_over and s.deal_no <= 3:
            assert view(s, s.current).legal == legal_actions(s, s.current)
            s, _ = apply(s, s.current, rng.choice(legal_actions(s, s.current)))
