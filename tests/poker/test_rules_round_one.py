"""draw-poker.md "A deal" 3: OPEN, WAIT, RAISE, REPLACE, FOLD with the seed's meanings."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction
from mazziere.poker import Rules, apply, legal_actions, view
from mazziere.poker.events import Opened, PotWon, Raised, Replaced
from mazziere.poker.state import Phase

from .helpers import of_type, rigged, run

HANDS = ("Ac Kd 9h 5s 3c", "Qh Jc 8d 6s 2h")


def deal(first: int = 0):  # type: ignore[no-untyped-def]
    return rigged(Rules(), *HANDS, first=first)


def test_open_bets_an_amount_of_the_players_choice() -> None:
    s, ev = run(deal(), (0, "open 12"))
    assert s.pot == 22 and s.bankrolls == (483, 495) and s.current == 1
    assert view(s, 1).owed == 12 and of_type(ev, Opened)[0].amount == 12


def test_wait_checks_and_passes_the_turn() -> None:
    s, _ = run(deal(), (0, "wait"))
    assert s.pot == 10 and s.current == 1
    assert view(s, 1).words == ("open", "replace", "fold")


def test_wait_only_when_nothing_has_been_bet() -> None:
    s, _ = run(deal(), (0, "open 10"))
    with pytest.raises(IllegalAction) as e:
        apply(s, 1, "wait")
    assert e.value.code == "wait_after_bet" and "WAIT" in e.value.message
    s, _ = run(deal(), (0, "wait"))
    with pytest.raises(IllegalAction) as e:
        apply(s, 1, "wait")
    assert e.value.code == "wait_not_first"


def test_raise_pays_the_last_bet_plus_a_new_raise() -> None:
    s, ev = run(deal(), (0, "open 10"), (1, "raise 15"))
    assert s.bankrolls == (485, 470) and s.pot == 45
    assert of_type(ev, Raised)[0].call == 10 and view(s, 0).owed == 15


def test_replace_calls_what_is_owed_and_closes_round_one() -> None:
    s, ev = run(deal(), (0, "open 10"), (1, "raise 15"), (0, "replace"))
    assert of_type(ev, Replaced)[-1].paid == 15
    assert s.phase is Phase.DRAW and s.current == 0 and s.bankrolls == (470, 470)


def test_replace_after_wait_pays_nothing() -> None:
    s, ev = run(deal(first=1), (1, "wait"), (0, "replace"))
    assert of_type(ev, Replaced)[0].paid == 0 and s.phase is Phase.DRAW and s.current == 1


def test_first_actor_cannot_replace_before_anyone_acts() -> None:
    words = [str(a) for a in legal_actions(deal(), 0)]
    assert "replace" not in words and "wait" in words and "fold" in words


def test_fold_gives_the_opponent_the_pot() -> None:
    s, ev = run(deal(), (0, "open 10"), (1, "fold"))
    won = of_type(ev, PotWon)[0]
    assert (won.seat, won.amount, won.reason) == (0, 20, "fold")
    assert s.deal_no == 2 and s.bankrolls == (505 - 5, 495 - 5)


def test_fold_allowed_as_the_first_action() -> None:
    s, ev = run(deal(), (0, "fold"))
    assert of_type(ev, PotWon)[0].seat == 1 and s.bankrolls == (490, 500)
