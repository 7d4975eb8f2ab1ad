"""uno.md "Presets" and option errors: every preset holds its documented options; unknown
names and impossible combinations fail at construction with a clear, typed error."""

from __future__ import annotations

import pytest

from mazziere.errors import OptionError, UnknownOption
from mazziere.uno import PRESETS, Rules, find_preset, new_game


def test_preset_classic_options() -> None:
    r = find_preset("classic")
    assert (r.min_players, r.max_players, r.hand_size) == (2, 10, 7)
    assert r.dealer_selection == "highest" and r.first_card == "apply"
    assert r.voluntary_draw and r.drawn_card == "must_play"
    assert r.wild4_rule == "any_playable" and r.wild4_bluff and r.challenge
    assert r.uno_call == "catch" and r.scoring == "winner"
    assert r.match == "target_points" and r.target == 500


def test_preset_mattel_is_classic_with_color_rule_and_may_play() -> None:
    r, c = find_preset("mattel"), find_preset("classic")
    assert r.wild4_rule == "color" and r.drawn_card == "may_play"
    assert r.with_options(wild4_rule="any_playable", drawn_card="must_play") == c


def test_preset_online_options() -> None:
    r = find_preset("online")
    assert (r.min_players, r.max_players) == (2, 4)
    assert r.dealer_selection == "random" and r.drawn_card == "may_play"
    assert r.wild4_rule == "color" and r.wild4_bluff and r.challenge and r.uno_call == "auto"
    assert r.match in ("fixed_hands", "target_points") and r.target_must_lead
    assert r.turn_time_limit is not None and r.autoplay and r.abandonment


def test_preset_house_options() -> None:
    r = find_preset("house")
    assert r.dealer_selection == "lowest" and r.multi_play and r.stacking == "draw2"
    assert r.uno_call == "catch" and r.challenge and r.challenge_by == "victim"
    assert r.scoring == "penalty" and r.target == 500


def test_preset_casino_options() -> None:
    r = find_preset("casino")
    assert r.first_card == "redraw_non_number" and not r.wild4_bluff and not r.challenge
    assert r.stacking == "none" and r.max_players == 2


def test_find_preset_by_name_and_unknown_preset_error() -> None:
    assert find_preset(" House ") is PRESETS["house"]
    with pytest.raises(UnknownOption) as e:
        find_preset("hosue")
    assert e.value.code == "unknown_preset" and "house" in e.value.message


def test_unknown_option_name_is_a_clear_error() -> None:
    with pytest.raises(UnknownOption) as e:
        find_preset("classic").with_options(stackng="all")
    assert "stacking" in e.value.message


def test_bad_option_value_is_a_clear_error() -> None:
    with pytest.raises(OptionError) as e:
        Rules(stacking="everything")  # type: ignore[arg-type]
    assert e.value.code == "bad_option_value"


@pytest.mark.parametrize(
    "changes",
    [
        {"elimination": True},  # needs penalty scoring
        {"zero_gives_four": True, "zero_rotate": True},
        {"autoplay": True, "turn_time_limit": None},
        {"stack_wild4_rule_applies": True, "stacking": "draw2"},
        {"min_players": 1},
        {"max_players": 11},
    ],
)
def test_impossible_combinations_fail_at_construction(changes: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        Rules().with_options(**changes)


def test_eleven_players_refused() -> None:
    with pytest.raises(OptionError) as e:
        new_game(find_preset("classic"), 11, rng=1)
    assert e.value.code == "bad_player_count"


def test_teams_with_three_players_refused() -> None:
    with pytest.raises(OptionError) as e:
        new_game(find_preset("mattel").with_options(teams=True), 3, rng=1)
    assert "exactly 4" in e.value.message


def test_online_preset_refuses_five_players() -> None:
    with pytest.raises(OptionError):
        new_game(find_preset("online"), 5, rng=1)


def test_every_preset_starts_a_game_at_every_allowed_size() -> None:
    for rules in PRESETS.values():
        for n in range(rules.min_players, rules.max_players + 1):
            s = new_game(rules, n, rng=n)
            assert len(s.hands) == n


def test_deal_too_large_for_the_deck_is_refused_at_construction() -> None:
    with pytest.raises(OptionError) as e:
        new_game(Rules(hand_size=11), 10, rng=1)
    assert e.value.code == "deal_too_large"
    with pytest.raises(OptionError):
        new_game(Rules(hand_size=15, first_card="redraw_non_number"), 7, rng=6)
    assert len(new_game(Rules(), 10, rng=1).hands) == 10  # 70 cards: fine
