"""uno.md "Options beyond the core": stacking, multi-play, bruciata, 0 and 7 rules, jump-in,
going out on an action card."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction, NotYourTurn
from mazziere.uno import find_preset
from mazziere.uno.state import Phase

from .positions import hand, legal_texts, play, position, run, texts

HOUSE = find_preset("house")  # stacking=draw2, multi_play
MATTEL = find_preset("mattel")


def test_stacking_none_draw2_applies_at_once() -> None:
    s = position(MATTEL, ["RD2 G1 G3", "BD2 G2 G4", "Y1 Y2"], "R7")
    s2, _ = play(s, 0, "RD2")
    assert s2.current == 2 and len(s2.hands[1]) == 5


def test_stacking_draw2_on_draw2_passes_the_total_on() -> None:
    s = position(HOUSE, ["RD2 G1 G3", "BD2 G2 G4", "Y1 Y2"], "R7")
    s2, _ = play(s, 0, "RD2")
    assert s2.phase is Phase.PENDING and s2.current == 1 and legal_texts(s2, 1) == ["BD2", "accept"]
    s3, _ = play(s2, 1, "BD2")
    assert s3.current == 2 and s3.pending == 4
    s4, ev = play(s3, 2, "accept")
    assert len(s4.hands[2]) == 6 and s4.current == 0
    assert "drew seat=2" in " ".join(texts(ev))


def test_stacking_draw2_does_not_allow_wild4_on_draw2() -> None:
    s = position(HOUSE, ["RD2 G1 G3", "W4 G2 G4", "Y1 Y2"], "R7")
    s2, _ = play(s, 0, "RD2")
    assert legal_texts(s2, 1) == ["accept"]


def test_stacking_draw2_draw4_allows_wild4_on_draw2_making_six() -> None:
    rules = HOUSE.with_options(stacking="draw2_draw4", challenge=False)
    s = position(rules, ["RD2 G1 G3", "W4 G2 G4", "Y1 Y2"], "R7")
    s2, _ = run(s, [(0, "RD2"), (1, "W4:B")])
    assert s2.current == 2 and s2.pending == 6
    s3, _ = play(s2, 2, "accept")
    assert len(s3.hands[2]) == 8


def test_stacking_never_draw2_on_wild4() -> None:
    rules = HOUSE.with_options(stacking="all", challenge=False)
    s = position(rules, ["W4 G1 G3", "BD2 G2", "Y1 Y2"], "R7")
    s2, _ = play(s, 0, "W4:B")
    assert legal_texts(s2, 1) == ["accept"]


def test_stacking_all_allows_wild4_on_wild4() -> None:
    rules = HOUSE.with_options(stacking="all", challenge=False)
    s = position(rules, ["W4 G1 G3", "W4 G2 G4", "Y1 Y2"], "R7")
    s2, _ = run(s, [(0, "W4:B"), (1, "W4:G")])
    assert s2.pending == 8 and s2.current == 2


def test_stack_wild4_rule_applies_judged_on_colour_before_first_wild4() -> None:
    rules = HOUSE.with_options(
        stacking="all", stack_wild4_rule_applies=True, wild4_bluff=False, challenge=False
    )
    # first +4 declared blue; seat 1 holds a red card (the colour before the first +4)
    s = position(rules, ["W4 G1 G3", "W4 R2", "Y1 Y2"], "R7")
    s2, _ = play(s, 0, "W4:B")
    assert legal_texts(s2, 1) == ["accept"]
    s = position(rules, ["W4 G1 G3", "W4 B2", "Y1 Y2"], "R7")  # holds blue, not red: allowed
    s2, _ = play(s, 0, "W4:B")
    assert "W4:G" in legal_texts(s2, 1)


def test_stacked_draws_pending_when_going_out_are_drawn() -> None:
    s = position(HOUSE, ["RD2 G1", "BD2", "Y1 Y2"], "R7", draw="Y5 Y6 Y7 Y8")
    s2, ev = run(s, [(0, "RD2"), (1, "BD2")])
    ended = next(t for t in texts(ev) if t.startswith("hand_ended"))
    assert "winner=1" in ended and "points=1,0,29" in ended  # seat 2 drew Y5-Y8


def test_multi_play_same_number_any_colours_last_sets_colour() -> None:
    s = position(HOUSE, ["R5 B5 G5 Y9", "G1 G2"], "R2")
    assert {"R5,B5", "R5,G5", "R5,B5,G5", "R5,G5,B5"} <= set(legal_texts(s, 0))
    s2, ev = play(s, 0, "R5,G5,B5")
    assert s2.color is not None and s2.color.letter == "B" and hand(s2, 0) == ["Y9"]
    assert s2.current == 1


def test_multi_play_first_card_must_match() -> None:
    s = position(HOUSE, ["B5 G5", "G1 G2"], "R2")
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "B5,G5")
    assert e.value.code == "no_match"
    with pytest.raises(IllegalAction) as e2:
        play(position(HOUSE, ["R5 G6", "G1"], "R2"), 0, "R5,G6")
    assert e2.value.code == "multi_play_mismatch"


def test_multi_play_off_refuses_several_cards() -> None:
    s = position(MATTEL, ["R5 B5", "G1 G2"], "R2")
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "R5,B5")
    assert e.value.code == "multi_play_not_allowed"


def test_burn_pair_of_identical_cards_skips_next_player() -> None:
    rules = MATTEL.with_options(burn=True)
    s = position(rules, ["R5 R5 G1", "G1 G2", "B1 B2"], "R2")
    assert "R5,R5" in legal_texts(s, 0)
    s2, ev = play(s, 0, "R5,R5")
    assert "skipped seat=1" in texts(ev) and s2.current == 2


def test_burn_needs_the_pair_to_match_the_discard() -> None:
    rules = MATTEL.with_options(burn=True)
    s = position(rules, ["B5 B5 G1", "G1 G2"], "R2")
    assert "B5,B5" not in legal_texts(s, 0)


def test_reverse_skip_same_lets_skip_follow_reverse() -> None:
    rules = MATTEL.with_options(reverse_skip_same=True)
    s = position(rules, ["YS G1", "G1 G2"], "GR")
    assert "YS" in legal_texts(s, 0)
    assert "YS" not in legal_texts(position(MATTEL, ["YS G1", "G1 G2"], "GR"), 0)


def test_zero_gives_four_chosen_player_draws_four() -> None:
    rules = MATTEL.with_options(zero_gives_four=True)
    s = position(rules, ["R0 G1", "G1 G2", "B1 B2"], "R2")
    assert {"R0", "R0>1", "R0>2"} <= set(legal_texts(s, 0))
    s2, ev = play(s, 0, "R0>2")
    assert len(s2.hands[2]) == 6 and s2.current == 1


def test_zero_gives_four_only_within_declared_group() -> None:
    rules = MATTEL.with_options(zero_gives_four=True, zero_groups=((0, 2),))
    s = position(rules, ["R0 G1", "G1 G2", "B1 B2"], "R2")
    assert "R0>2" in legal_texts(s, 0) and "R0>1" not in legal_texts(s, 0)
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "R0>1")
    assert e.value.code == "bad_target"


def test_seven_swap_swaps_hands_with_chosen_player() -> None:
    rules = MATTEL.with_options(seven_swap=True)
    s = position(rules, ["R7 G1 G3", "B1 B2 B3 B4", "Y1"], "R2")
    assert {"R7>1", "R7>2"} <= set(legal_texts(s, 0)) and "R7" not in legal_texts(s, 0)
    s2, ev = play(s, 0, "R7>1")
    assert hand(s2, 0) == ["B1", "B2", "B3", "B4"] and hand(s2, 1) == ["G1", "G3"]
    assert "swapped seat=0 other=1" in texts(ev)


def test_zero_rotate_passes_every_hand_in_the_direction_of_play() -> None:
    rules = MATTEL.with_options(zero_rotate=True)
    s = position(rules, ["R0 G1", "B1 B2", "Y1 Y2 Y3"], "R2")
    s2, _ = play(s, 0, "R0")
    assert (
        hand(s2, 1) == ["G1"]
        and hand(s2, 2) == ["B1", "B2"]
        and hand(s2, 0)
        == [
            "Y1",
            "Y2",
            "Y3",
        ]
    )


def test_jump_in_identical_card_out_of_turn_play_continues_from_jumper() -> None:
    rules = MATTEL.with_options(jump_in=True)
    s = position(rules, ["G1 G2", "B1 B2", "R2 Y9", "Y1 Y3"], "R2", current=0)
    assert "R2" in legal_texts(s, 2)
    s2, ev = play(s, 2, "R2")
    assert "played seat=2 cards=R2 color=- target=- jump_in=1" in texts(ev)
    assert s2.current == 3


def test_jump_in_refuses_a_card_that_is_not_identical() -> None:
    rules = MATTEL.with_options(jump_in=True)
    s = position(rules, ["G1 G2", "B1 B2", "B2 Y9", "Y1"], "R2")
    with pytest.raises(NotYourTurn):
        play(s, 2, "B2")
    assert "R2" not in legal_texts(position(MATTEL, ["G1", "B1", "R2 Y9"], "R2"), 2)


def test_go_out_on_action_false_forbids_ending_on_action_card() -> None:
    rules = MATTEL.with_options(go_out_on_action=False)
    s = position(rules, ["RS", "G1 G2"], "R2")
    assert legal_texts(s, 0) == ["draw"]
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "RS")
    assert e.value.code == "cannot_go_out_on_action"
    assert legal_texts(position(MATTEL, ["RS", "G1 G2"], "R2"), 0)[0] == "RS"


def test_a_bool_is_not_a_seat() -> None:
    from mazziere.cards.uno import parse_card
    from mazziere.errors import MalformedAction
    from mazziere.uno import Play, apply

    rules = MATTEL.with_options(seven_swap=True)
    s = position(rules, ["R7 G1 G3", "B1 B2", "Y1"], "R2")
    with pytest.raises(MalformedAction):
        apply(s, 0, Play((parse_card("R7"),), None, True))  # type: ignore[arg-type]
