"""draw-poker.md "Money and pledges": pledge when short, forfeit on a lost deal, redemption,
game over both ways; every movement conserves bankrolls + pot + unpledged items."""

from __future__ import annotations

import pytest

from mazziere.errors import GameOver
from mazziere.poker import Rules, apply, find_preset, parse_position
from mazziere.poker.events import Forfeited, GameEnded, Pledged, PotCarried, PotWon, Redeemed
from mazziere.poker.state import ItemStatus

from .helpers import of_type, rigged, run

RULES = Rules()
HANDS = ("Ac Kd 9h 5s 3c", "Qh Jc 8d 6s 2h")  # seat 0 holds the better hand
W, P, F = ItemStatus.WORN, ItemStatus.PLEDGED, ItemStatus.FORFEITED


def test_computer_pledges_its_next_item_when_short_for_an_ante() -> None:
    s = rigged(RULES, *HANDS, first=1, bankrolls=(495, 0))
    total = s.money
    s, ev = run(s, (1, "fold"))
    pledged = of_type(ev, Pledged)
    assert [(e.seat, e.item, e.value) for e in pledged] == [(1, "hat", 100)]
    assert s.items[0] is P and s.bankrolls[1] == 95 and s.money == total


def test_computer_pledges_when_short_for_a_call() -> None:
    s = rigged(RULES.with_options(max_bet=None), *HANDS, bankrolls=(995, 10))
    total = s.money
    s, ev = run(s, (0, "open 250"), (1, "replace"))
    assert [e.item for e in of_type(ev, Pledged)] == ["hat", "scarf", "jacket"]
    assert s.bankrolls[1] == 10 + 300 - 250 and s.money == total
    assert s.items[:4] == (P, P, P, W)


def test_pledged_items_forfeited_when_the_computer_loses_the_deal() -> None:
    s = rigged(RULES.with_options(max_bet=None), *HANDS, bankrolls=(995, 10))
    total = s.money
    s, ev = run(s, (0, "open 50"), (1, "replace"), (0, "draw"), (1, "draw"), (0, "see"))
    assert [e.item for e in of_type(ev, Forfeited)] == ["hat"]
    assert s.items[0] is F and s.money == total


def test_won_deal_buys_back_the_items_pledged_for_it() -> None:
    s = rigged(RULES, HANDS[1], HANDS[0], bankrolls=(495, 0), first=1)
    s, _ = run(s, (1, "wait"), (0, "open 20"), (1, "replace"))  # pledges the hat for the call
    assert s.items[0] is P and s.bankrolls[1] == 80
    s, ev = run(s, (1, "draw"), (0, "draw"), (1, "see"))  # seat 1 wins 50 -> 130 >= 100 + 5
    assert not of_type(ev, Forfeited)
    assert [e.item for e in of_type(ev, Redeemed)] == ["hat"] and s.items[0] is W
    assert s.bankrolls[1] == 130 - 100 - 5


def test_redemption_buys_back_the_most_recent_item_first() -> None:
    s = rigged(
        RULES,
        HANDS[1],
        HANDS[0],
        first=0,
        bankrolls=(400, 200),
        items=(F, F, F, W, W, W),
        pledge_stack=(2, 0, 1),
    )
    total = s.money
    s, ev = run(s, (0, "fold"))  # seat 1: 200 + 10 = 210 -> 110 -> 10 (each >= 100 + 5)
    assert [e.item for e in of_type(ev, Redeemed)] == ["scarf", "hat"]
    assert s.items[:3] == (W, W, F) and s.pledge_stack == (2,)
    assert s.bankrolls[1] == 10 - 5 and s.money == total


def test_game_over_when_the_human_cannot_pay_the_ante() -> None:
    s = rigged(RULES, *HANDS, first=0, bankrolls=(3, 495))
    s, ev = run(s, (0, "fold"))
    end = of_type(ev, GameEnded)[0]
    assert end.winner == 1 and "seat 0" in end.reason and s.is_over
    with pytest.raises(GameOver) as e:
        apply(s, 1, "fold")
    assert e.value.code == "game_over"


def test_game_over_when_the_computer_has_nothing_left_to_pledge() -> None:
    s = rigged(
        RULES, *HANDS, first=1, bankrolls=(1095, 0), items=(F,) * 6, pledge_stack=tuple(range(6))
    )
    total = s.money
    s, ev = run(s, (1, "fold"))
    end = of_type(ev, GameEnded)[0]
    assert end.winner == 0 and s.is_over and s.result is not None and s.result.winner == 0
    assert s.money == total


TIE = ("Ah Kd 9h 5s 3c", "As Kc 9d 5h 3s")  # equal hands
CLASSIC = find_preset("classic")
TIE_AT_ZERO = "hands=Ah,Kd,Qc,Js,9d/As,Kh,Qd,Jc,9h"  # equal hands


def test_lost_deal_forfeits_only_the_items_pledged_for_it() -> None:
    s = rigged(RULES, *HANDS, bankrolls=(495, 10), items=(F, W, W, W, W, W), pledge_stack=(0,))
    total = s.money
    s, ev = run(s, (0, "open 50"), (1, "replace"), (0, "draw"), (1, "draw"), (0, "see"))
    assert [e.item for e in of_type(ev, Pledged)] == ["scarf"]
    assert [e.item for e in of_type(ev, Forfeited)] == ["scarf"]
    assert s.items[:3] == (F, F, W) and s.pledge_stack == (0, 1) and s.money == total


def test_redemption_buys_back_the_most_recent_forfeited_item() -> None:
    s = rigged(
        RULES,
        HANDS[1],
        HANDS[0],
        bankrolls=(400, 300),
        items=(F, F, W, W, W, W),
        pledge_stack=(1, 0),
    )
    s, ev = run(s, (0, "fold"))  # seat 1: 305 -> 205 (hat) -> 105 (scarf) -> ante
    assert [e.item for e in of_type(ev, Redeemed)] == ["hat", "scarf"]
    assert s.items[:2] == (W, W) and s.pledge_stack == ()


def test_tie_settles_no_pledge() -> None:
    s = rigged(
        RULES, *TIE, first=1, bankrolls=(495, 400), items=(P, W, W, W, W, W), pledge_stack=(0,)
    )
    s, ev = run(s, (1, "wait"), (0, "replace"), (1, "draw"), (0, "draw"), (1, "see"))
    assert of_type(ev, PotCarried) and not of_type(ev, Redeemed) and not of_type(ev, Forfeited)
    assert s.items[0] is P and s.pledge_stack == (0,)


def test_tie_pot_carries_over_even_when_the_human_has_no_chips() -> None:
    s = parse_position(f"poker {TIE_AT_ZERO} pot=200 bankrolls=0,800", CLASSIC)
    total = s.money
    s, ev = run(s, (0, "wait"), (1, "replace"), (0, "draw"), (1, "draw"), (0, "see"))
    assert [e.amount for e in of_type(ev, PotCarried)] == [200]
    assert all(e.reason != "split" for e in of_type(ev, PotWon))
    assert s.money == total


def test_human_who_cannot_pay_the_ante_after_a_tie_loses_and_the_computer_takes_the_pot() -> None:
    s = parse_position(f"poker {TIE_AT_ZERO} pot=200 bankrolls=0,800", CLASSIC)
    total = s.money
    s, ev = run(s, (0, "wait"), (1, "replace"), (0, "draw"), (1, "draw"), (0, "see"))
    assert [(e.seat, e.amount, e.reason) for e in of_type(ev, PotWon)] == [(1, 200, "no_ante")]
    end = of_type(ev, GameEnded)
    assert [(e.winner, e.reason) for e in end] == [(1, "seat 0 cannot pay the ante")]
    assert s.is_over and s.pot == 0 and s.bankrolls == (0, 1000) and s.money == total


def test_human_who_cannot_pay_the_ante_after_a_tie_loses_and_pledged_items_come_back() -> None:
    s = rigged(
        RULES,
        *TIE,
        first=0,
        bankrolls=(100, 0),
        items=(F, F, F, F, F, W),
        pledge_stack=(0, 1, 2, 3, 4),
    )
    total = s.money
    s, ev = run(
        s, (0, "open 50"), (1, "replace"), (0, "draw"), (1, "draw"), (0, "open 50"), (1, "see")
    )
    # the computer pledged its boots to call; the tie carries the pot of 210; the human, left
    # with nothing, cannot ante: the computer takes the pot and buys its boots back
    assert [e.item for e in of_type(ev, Pledged)] == ["boots"]
    assert [e.amount for e in of_type(ev, PotCarried)] == [210]
    assert [(e.seat, e.amount, e.reason) for e in of_type(ev, PotWon)] == [(1, 210, "no_ante")]
    assert [e.item for e in of_type(ev, Redeemed)] == ["boots"] and not of_type(ev, Forfeited)
    assert of_type(ev, GameEnded)[0].winner == 1 and s.is_over
    assert s.items[5] is W and s.pot == 0 and s.bankrolls == (0, 210 - 100)
    assert s.money == total


def test_computer_out_of_chips_with_its_last_item_pledged_on_a_tied_pot_loses_it() -> None:
    s = rigged(
        RULES,
        *TIE,
        first=0,
        bankrolls=(495, 0),
        items=(F, F, F, F, F, W),
        pledge_stack=(0, 1, 2, 3, 4),
    )
    total = s.money
    s, ev = run(
        s, (0, "open 50"), (1, "replace"), (0, "draw"), (1, "draw"), (0, "open 50"), (1, "see")
    )
    # the boots, pledged for the call, stay at stake with the carried pot; the computer has no
    # chip and nothing left to pledge for the next ante: it gives up the pot and the boots
    assert [e.item for e in of_type(ev, Pledged)] == ["boots"]
    assert [e.amount for e in of_type(ev, PotCarried)] == [210]
    assert [(e.seat, e.amount, e.reason) for e in of_type(ev, PotWon)] == [(0, 210, "no_ante")]
    assert [e.item for e in of_type(ev, Forfeited)] == ["boots"] and not of_type(ev, Redeemed)
    end = of_type(ev, GameEnded)[0]
    assert end.winner == 0 and s.is_over and s.items == (F,) * 6
    assert s.pot == 0 and s.bankrolls == (495 - 100 + 210, 0) and s.money == total
