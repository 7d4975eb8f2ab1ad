"""The casino rulebook: the rule decisions both engines call (docs/rules/casino.md, seed 000)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere.cards.uno import WILD4_FACE, parse_card
from mazziere.casino import rulebook as R
from mazziere.casino.readings import Readings
from mazziere.casino.rules import MAX_MULTIPLIER

ADOPTED = Readings().codes()

faces = st.integers(min_value=0, max_value=53)
hands = st.lists(faces, min_size=0, max_size=12)
colors = st.integers(min_value=0, max_value=3)
tops = st.integers(min_value=0, max_value=53)


def test_player_draw_lowers_the_multiplier_one_step_never_below_x1() -> None:
    for reason in (R.DRAW_CHOICE, R.DRAW_NO_PLAY):
        assert R.multiplier_after_draw(3, True, reason, 0, ADOPTED) == 2
        assert R.multiplier_after_draw(2, True, reason, 0, ADOPTED) == 1
        assert R.multiplier_after_draw(1, True, reason, 0, ADOPTED) == 1


def test_bank_draw_for_lack_of_a_play_raises_the_multiplier_never_above_x3() -> None:
    assert R.multiplier_after_draw(1, False, R.DRAW_NO_PLAY, 0, ADOPTED) == 2
    assert R.multiplier_after_draw(2, False, R.DRAW_NO_PLAY, 0, ADOPTED) == 3
    assert (
        R.multiplier_after_draw(MAX_MULTIPLIER, False, R.DRAW_NO_PLAY, 0, ADOPTED) == MAX_MULTIPLIER
    )


def test_cards_taken_for_a_draw_two_or_four_move_nothing() -> None:
    for m in (1, 2, 3):
        assert R.multiplier_after_draw(m, True, R.DRAW_PENALTY, 0, ADOPTED) == m
        assert R.multiplier_after_draw(m, False, R.DRAW_PENALTY, 0, ADOPTED) == m


def test_the_player_may_not_draw_at_x1() -> None:
    assert not R.player_may_draw(1, 1, ADOPTED)
    assert R.player_may_draw(2, 1, ADOPTED) and R.player_may_draw(3, 2, ADOPTED)


def test_wild_draw_four_is_playable_only_without_a_card_of_the_colour_in_force() -> None:
    c = parse_card
    assert not R.playable(R.counts([c("R1"), WILD4_FACE]), 0, WILD4_FACE, c("R5"), 0)
    assert R.playable(R.counts([c("G1"), WILD4_FACE]), 0, WILD4_FACE, c("R5"), 0)


@settings(max_examples=400, deadline=None)
@given(hands, tops, colors)
def test_has_playable_is_any_playable_face(cards: list[int], top: int, color: int) -> None:
    hand = R.counts(cards)
    expected = any(R.playable(hand, 0, f, top, color) for f in set(cards))
    assert R.has_playable(hand, 0, top, color) == expected


@settings(max_examples=300, deadline=None)
@given(hands, hands, tops, colors, st.integers(min_value=-1, max_value=53), st.booleans())
def test_decisions_read_a_side_at_its_offset(
    mine: list[int], other: list[int], top: int, color: int, last: int, wild: bool
) -> None:
    """The kernel keeps both sides in one flat array (``at`` = 0 or 58): every decision reads
    the side at its offset exactly as it reads that side alone."""
    alone = R.counts(mine)
    both = R.counts(other) + alone
    at = R.SIDE_WIDTH
    a, b = [0] * 54, [0] * 54
    assert R.has_playable(alone, 0, top, color) == R.has_playable(both, at, top, color)
    n = R.bank_cards(alone, 0, top, color, a)
    assert a[:n] == b[: R.bank_cards(both, at, top, color, b)]
    n = R.bank_colors(alone, 0, a)
    assert a[:n] == b[: R.bank_colors(both, at, b)]
    n = R.player_cards(alone, 0, top, color, len(mine), 3, last, wild, False, 0, ADOPTED, a)
    assert (
        a[:n]
        == b[: R.player_cards(both, at, top, color, len(mine), 3, last, wild, False, 0, ADOPTED, b)]
    )
    n = R.player_colors(alone, 0, len(mine), 1, -1, True, color, a)
    assert a[:n] == b[: R.player_colors(both, at, len(mine), 1, -1, True, color, b)]


@settings(max_examples=300, deadline=None)
@given(hands, tops, colors)
def test_candidates_are_playable_and_in_face_order(cards: list[int], top: int, color: int) -> None:
    hand = R.counts(cards)
    ties = [0] * 54
    for n in (
        R.bank_cards(hand, 0, top, color, ties),
        R.player_cards(hand, 0, top, color, len(cards), 2, -1, False, False, 0, ADOPTED, ties),
    ):
        picked = ties[:n]
        assert picked == sorted(set(picked))
        assert all(R.playable(hand, 0, f, top, color) and f in cards for f in picked)
        assert (n == 0) == (not R.has_playable(hand, 0, top, color))


def test_bank_plays_draw_two_skip_reverse_highest_number_then_draw_four_then_wild() -> None:
    """000 bank rule 2, card by card from one hand on a red 1 (a +4 is legal only once no red
    card is left)."""
    c = parse_card
    cards = [c(x) for x in ("W", "R9", "RR", "W4", "RS", "RD2", "R3")]
    ties = [0] * 54
    picks = []
    while cards:
        n = R.bank_cards(R.counts(cards), 0, c("R1"), 0, ties)
        assert n == 1
        picks.append(ties[0])
        cards.remove(ties[0])
    assert picks == [c(x) for x in ("RD2", "RS", "RR", "R9", "R3", "W4", "W")]
