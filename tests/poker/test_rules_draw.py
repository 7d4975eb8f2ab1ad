"""draw-poker.md "A deal" 4: the draw, first actor first, 0..max_replace cards, the count
visible to the opponent and the cards not."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction
from mazziere.poker import Rules, apply, parse_cards, view
from mazziere.poker.events import Drew
from mazziere.poker.state import Phase

from .helpers import of_type, rigged, run

DEFAULT = Rules()


def to_draw(rules: Rules = DEFAULT, first: int = 0):  # type: ignore[no-untyped-def]
    s = rigged(rules, "Ac Kd 9h 5s 3c", "Qh Jc 8d 6s 2h", top="7c 7d 7h 7s Tc Td", first=first)
    other = 1 - first
    return run(s, (first, "wait"), (other, "replace"))[0]


def test_first_actor_draws_first_from_the_top_of_the_deck() -> None:
    s = to_draw()
    with pytest.raises(IllegalAction):
        apply(s, 1, "draw")
    s, _ = run(s, (0, "draw 9h 3c"))
    assert s.hands[0] == parse_cards("Ac Kd 7c 5s 7d") and s.current == 1
    s, _ = run(s, (1, "draw 2h"))
    assert s.hands[1] == parse_cards("Qh Jc 8d 6s 7h")
    assert s.phase is Phase.BET2 and s.current == 0


def test_draw_counts_visible_to_the_opponent_cards_not() -> None:
    s, ev = run(to_draw(), (0, "draw 9h 3c"))
    drew = of_type(ev, Drew)[0]
    hidden = drew.for_seat(1)
    assert hidden.count == 2 and hidden.discarded == () and hidden.received == ()
    assert drew.for_seat(0).received == parse_cards("7c 7d")
    v = view(s, 1)
    assert v.drawn == (2, -1)
    assert not set(parse_cards("7c 7d 9h 3c")) & set(v.hand)


def test_standing_pat_draws_zero() -> None:
    s, _ = run(to_draw(), (0, "draw"), (1, "draw"))
    assert s.drawn == (0, 0) and s.phase is Phase.BET2


def test_max_replace_limits_the_draw_and_nothing_moves() -> None:
    s = to_draw(Rules(max_replace=3))
    with pytest.raises(IllegalAction) as e:
        apply(s, 0, "draw Ac Kd 9h 5s")
    assert e.value.code == "max_replace" and "max_replace" in e.value.message
    s2, _ = apply(s, 0, "draw Kd 9h 5s")
    assert s2.drawn[0] == 3
    assert all(len(a.cards) <= 3 for a in view(s2, 1).legal)  # type: ignore[attr-defined]


def test_cards_not_in_the_hand_cannot_be_replaced() -> None:
    s = to_draw()
    with pytest.raises(IllegalAction) as e:
        apply(s, 0, "draw Qh")
    assert e.value.code == "card_not_in_hand"
    with pytest.raises(IllegalAction) as e:
        apply(s, 0, "draw Ac Ac")
    assert e.value.code == "card_not_in_hand"


def test_no_betting_during_the_draw() -> None:
    with pytest.raises(IllegalAction) as e:
        apply(to_draw(), 0, "open 10")
    assert e.value.code == "wrong_phase"
