"""draw-poker.md "A deal" 5-6: OPEN, SEE, RAISE, FOLD after the draw; the showdown, ranking,
ties by kickers, and the pot carried over on a tie."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction
from mazziere.poker import Rules, apply, view
from mazziere.poker.events import PotCarried, PotWon, Saw, Shown
from mazziere.poker.state import Phase

from .helpers import of_type, rigged, run

DEFAULT = Rules()


def after_draw(hand0: str, hand1: str, rules: Rules = DEFAULT, first: int = 0):  # type: ignore[no-untyped-def]
    s = rigged(rules, hand0, hand1, first=first)
    other = 1 - first
    return run(s, (first, "wait"), (other, "replace"), (first, "draw"), (other, "draw"))[0]


def test_see_as_first_action_shows_down_at_once() -> None:
    s = after_draw("Kc Kd 7h 7s Ac", "Qh Qc 8d 6s 2h")
    assert view(s, 0).words == ("open", "see", "fold")
    s, ev = run(s, (0, "see"))
    assert of_type(ev, Saw)[0].paid == 0
    shown = {e.seat: e.description for e in of_type(ev, Shown)}
    assert shown[0] == "two pair, kings and sevens, ace kicker"
    won = of_type(ev, PotWon)[0]
    assert (won.seat, won.amount, won.reason) == (0, 10, "showdown")
    assert s.deal_no == 2


def test_second_actor_may_raise_see_or_fold_after_an_open() -> None:
    s, _ = run(after_draw("Kc Kd 7h 7s Ac", "Qh Qc 8d 6s 2h"), (0, "open 10"))
    assert view(s, 1).words == ("raise", "see", "fold")
    s2, ev = run(s, (1, "see"))
    assert of_type(ev, Saw)[0].paid == 10 and of_type(ev, PotWon)[0].amount == 30
    s3, _ = run(s, (1, "raise 20"), (0, "raise 5"))
    assert s3.phase is Phase.BET2 and view(s3, 1).owed == 5


def test_no_wait_or_replace_after_the_draw() -> None:
    s = after_draw("Kc Kd 7h 7s Ac", "Qh Qc 8d 6s 2h")
    for word in ("wait", "replace"):
        with pytest.raises(IllegalAction) as e:
            apply(s, 0, word)
        assert e.value.code == "wrong_phase"


def test_showdown_better_category_wins() -> None:
    _, ev = run(after_draw("2c 3d 4h 5s 7c", "2h 2d 9c Js Kd"), (0, "see"))
    assert of_type(ev, PotWon)[0].seat == 1


def test_showdown_tie_broken_by_kickers() -> None:
    _, ev = run(after_draw("9c 9d Ah 8s 3c", "9h 9s Ac 8d 2c"), (0, "see"))
    assert of_type(ev, PotWon)[0].seat == 0


def test_pot_carried_over_on_a_tie() -> None:
    s, ev = run(after_draw("Ac Kd 9h 5s 3c", "Ah Kc 9d 5c 3h"), (0, "open 20"), (1, "see"))
    assert of_type(ev, PotCarried)[0].amount == 50 and not of_type(ev, PotWon)
    assert s.deal_no == 2 and s.pot == 60 and s.bankrolls == (470, 470)
    s, ev = run(s, (1, "fold"))
    assert of_type(ev, PotWon)[0].amount == 60 and s.bankrolls == (530 - 5, 470 - 5)


def test_a_shown_hand_carries_its_class_as_a_category_code_and_ranks() -> None:
    """The showdown names each hand's class in structured form (category code, ranks from 0 =
    two to 12 = ace, most significant first) for a client to word in its own language; the
    English sentence stays for the terminal and the records."""
    s = after_draw("Kc Kd 7h 7s Ac", "Qh Qc 8d 6s 2h")
    _, ev = run(s, (0, "see"))
    shown = {e.seat: e for e in of_type(ev, Shown)}
    assert (shown[0].category, shown[0].ranks) == ("two_pair", (11, 5, 12))
    assert (shown[1].category, shown[1].ranks) == ("pair", (10, 6, 4, 0))
    assert shown[1].description == "pair of queens, eight, six and two kickers"
    assert Shown.parse(str(shown[0])) == shown[0]
    old = "shown seat=0 cards=Kc,Kd,7h,7s,Ac description=two%20pair"  # a record kept before
    assert (Shown.parse(old).category, Shown.parse(old).ranks) == ("", ())
