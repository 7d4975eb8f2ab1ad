"""draw-poker.md "A deal" 1-2 and the first actor: antes, five cards each, alternation."""

from __future__ import annotations

from collections import Counter

from mazziere.poker import Rules, apply, new_game, new_game_with_events
from mazziere.poker.cards import deck
from mazziere.poker.events import AntePaid, DealStarted, Dealt
from mazziere.poker.state import Phase

from .helpers import of_type, rigged, run


def test_antes_paid_automatically_into_the_pot() -> None:
    rules = Rules(ante=7, bankroll=100)
    s, ev = new_game_with_events(rules, 3)
    assert s.pot == 14 and s.bankrolls == (93, 93)
    assert sorted((e.seat, e.amount) for e in of_type(ev, AntePaid)) == [(0, 7), (1, 7)]


def test_five_cards_each_from_the_chosen_deck() -> None:
    for size in (52, 32):
        s = new_game(Rules(deck=size), 5)
        assert [len(h) for h in s.hands] == [5, 5]
        assert Counter([*s.hands[0], *s.hands[1], *s.deck]) == Counter(deck(size))


def test_dealt_cards_seen_only_by_their_owner() -> None:
    _, ev = new_game_with_events(Rules(), 9)
    for e in of_type(ev, Dealt):
        assert len(e.cards) == 5
        assert e.for_seat(1 - e.seat).cards == () and e.for_seat(e.seat).cards == e.cards


def test_first_actor_alternates_each_deal() -> None:
    s = new_game(Rules(), 2)
    firsts = []
    for _ in range(6):
        firsts.append(s.first)
        assert s.current == s.first and s.phase is Phase.BET1
        s, _ = apply(s, s.current, "fold")
    assert firsts == [0, 1, 0, 1, 0, 1]
    assert new_game(Rules(), 2, first_actor=1).first == 1


def test_first_actor_alternates_after_a_tie_too() -> None:
    s = rigged(Rules(), "Ac Kd 9h 5s 3c", "Ah Kc 9d 5c 3h", first=0)
    s, ev = run(s, (0, "wait"), (1, "replace"), (0, "draw"), (1, "draw"), (0, "see"))
    started = of_type(ev, DealStarted)
    assert started[-1].first == 1 and s.first == 1 and s.current == 1
    assert started[-1].carried == 10  # the tied pot stays, then fresh antes
    assert s.pot == 20
