"""uno.md "Cards": the 108-card deck, point values and text forms."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.cards.uno import FULL_DECK, Card, Color, Kind, card, card_points, parse_card
from mazziere.errors import MalformedAction


def test_deck_has_108_cards_with_the_documented_mix() -> None:
    assert len(FULL_DECK) == 108
    per_face = Counter(FULL_DECK)
    for col in Color:
        faces = [c for c in per_face if c.color is col]
        assert per_face[parse_card(f"{col.letter}0")] == 1
        for k in range(1, 10):
            assert per_face[parse_card(f"{col.letter}{k}")] == 2
        for sym in ("S", "R", "D2"):
            assert per_face[parse_card(f"{col.letter}{sym}")] == 2
        assert sum(per_face[f] for f in faces) == 25
    assert per_face[parse_card("W")] == 4
    assert per_face[parse_card("W4")] == 4


def test_card_points_number_face_action_20_wild_50() -> None:
    assert parse_card("B7").points == 7
    assert parse_card("R0").points == 0
    assert {parse_card(t).points for t in ("GS", "GR", "GD2")} == {20}
    assert {parse_card(t).points for t in ("W", "W4")} == {50}
    assert card_points(FULL_DECK) == 4 * (45 * 2 + 20 * 6) + 8 * 50


@given(st.integers(min_value=0, max_value=53))
def test_card_text_round_trips(face: int) -> None:
    c = card(face)
    assert parse_card(str(c)) is c
    assert parse_card(str(c).lower()) is c


def test_card_kinds_and_colours() -> None:
    assert parse_card("YR").kind is Kind.REVERSE and parse_card("YR").color is Color.YELLOW
    assert parse_card("W4").color is None and parse_card("W4").is_wild
    assert parse_card("B9").number == 9 and parse_card("BS").number is None


@pytest.mark.parametrize("bad", ["", "X7", "R10", "W5", "RR2"])
def test_bad_card_text_is_a_typed_error(bad: str) -> None:
    with pytest.raises(MalformedAction) as e:
        parse_card(bad)
    assert e.value.code == "bad_card"


def test_card_pickles_to_the_interned_card() -> None:
    import pickle

    c = parse_card("GD2")
    assert pickle.loads(pickle.dumps(c)) is c
    assert isinstance(c, Card)
