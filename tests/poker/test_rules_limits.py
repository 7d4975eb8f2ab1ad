"""draw-poker.md table limits: min and max bet, a bet capped by what the other side can
cover, max_raises, turns. Each refusal is a typed error naming the rule; nothing moves."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction, MalformedAction, NotYourTurn
from mazziere.poker import Rules, apply, legal_actions, view
from mazziere.poker.actions import Open, Raise

from .helpers import rigged, run

HANDS = ("Ac Kd 9h 5s 3c", "Qh Jc 8d 6s 2h")


def refused(state, seat: int, action: str, code: str) -> IllegalAction:  # type: ignore[no-untyped-def]
    before = state
    with pytest.raises(IllegalAction) as e:
        apply(state, seat, action)
    assert e.value.code == code
    assert state == before and state.money == before.money
    apply(state, state.current, legal_actions(state, state.current)[-1])  # still playable
    return e.value


def test_bet_below_the_minimum_refused() -> None:
    s = rigged(Rules(min_bet=10), *HANDS)
    err = refused(s, 0, "open 9", "bet_below_minimum")
    assert "min_bet" in err.message
    assert min(a.amount for a in legal_actions(s, 0) if isinstance(a, Open)) == 10


def test_bet_above_max_bet_refused() -> None:
    s = rigged(Rules(max_bet=40), *HANDS)
    assert "max_bet" in refused(s, 0, "open 41", "bet_above_max").message


def test_bet_capped_by_what_the_other_side_can_cover() -> None:
    s = rigged(Rules(max_bet=None), *HANDS, first=1, bankrolls=(30, 495))
    err = refused(s, 1, "open 31", "bet_above_cover")
    assert "cover" in err.message
    assert view(s, 1).bet_range == (5, 30)
    s2, _ = apply(s, 1, "open 30")
    assert view(s2, 0).bet_range is None and view(s2, 0).words == ("replace", "fold")


def test_cap_below_min_bet_allows_only_the_cap() -> None:
    s = rigged(Rules(min_bet=10, max_bet=None), *HANDS, first=1, bankrolls=(4, 495))
    assert view(s, 1).bet_range == (4, 4)
    assert [a for a in legal_actions(s, 1) if isinstance(a, Open)] == [Open(4)]


def test_computer_items_count_in_what_it_can_cover() -> None:
    s = rigged(Rules(max_bet=None, item_value=100), *HANDS, bankrolls=(1000, 20))
    assert view(s, 0).bet_range == (5, 20 + 600)


def test_max_raises_per_round() -> None:
    s = rigged(Rules(max_raises=2), *HANDS)
    s, _ = run(s, (0, "open 5"), (1, "raise 5"), (0, "raise 5"))
    err = refused(s, 1, "raise 5", "max_raises")
    assert "max_raises" in err.message
    assert not any(isinstance(a, Raise) for a in legal_actions(s, 1))
    s, _ = run(s, (1, "replace"), (0, "draw"), (1, "draw"), (0, "open 5"), (1, "raise 5"))
    assert s.raises == 1  # a new round counts afresh


def test_action_out_of_turn_refused() -> None:
    s = rigged(Rules(), *HANDS)
    with pytest.raises(NotYourTurn) as e:
        apply(s, 1, "fold")
    assert e.value.code == "not_your_turn" and s.current == 0


def test_open_after_a_bet_and_raise_without_one_refused() -> None:
    s = rigged(Rules(), *HANDS)
    refused(s, 0, "raise 5", "nothing_to_raise")
    s, _ = run(s, (0, "open 5"))
    refused(s, 1, "open 5", "already_bet")
    refused(s, 1, "see", "wrong_phase")


def test_malformed_actions() -> None:
    s = rigged(Rules(), *HANDS)
    for text in ("open", "open x", "open -3", "jump", "wait 3", ""):
        with pytest.raises(MalformedAction):
            apply(s, 0, text)
