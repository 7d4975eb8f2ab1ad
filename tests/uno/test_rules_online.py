"""uno.md "Online operator specifics" (seed 004): auto-play on time-out, abandonment, victory
points."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction, NotYourTurn
from mazziere.uno import find_preset
from mazziere.uno.state import Phase

from .positions import hand, play, position, texts

ONLINE = find_preset("online")


def test_autoplay_timeout_plays_lowest_value_playable_number_card() -> None:
    s = position(ONLINE, ["R9 B7 R2 RS W", "G1 G2", "B1 B2", "Y1"], "R7")
    s2, ev = play(s, 0, "timeout")
    assert "auto_played seat=0" in texts(ev)
    assert "played seat=0 cards=R2 color=- target=- jump_in=0" in texts(ev)


def test_autoplay_timeout_never_plays_action_or_wild_draws_and_passes() -> None:
    s = position(ONLINE, ["RS W W4 G3", "G1 G2", "B1 B2", "Y1"], "R7", draw="R8")
    s2, ev = play(s, 0, "timeout")
    t = texts(ev)
    assert not any(x.startswith("played") for x in t)
    assert "drew seat=0 cards=R8 count=1 reason=choice" in t
    assert "passed seat=0 reason=kept" in t and s2.current == 1


def test_autoplay_timeout_accepts_pending_draws() -> None:
    s = position(ONLINE, ["W4 G1 G2", "G1 G2 R1", "B1 B2", "Y1"], "R7")
    s2, _ = play(s, 0, "W4:B")
    s3, ev = play(s2, 1, "timeout")
    assert len(s3.hands[1]) == 7 and s3.current == 2


def test_timeout_only_for_the_seat_with_the_decision() -> None:
    s = position(ONLINE, ["R9", "G1 G2", "B1 B2", "Y1"], "R7")
    with pytest.raises(NotYourTurn):
        play(s, 1, "timeout")


def test_two_player_timeout_abandons_leaver_loses_minus_one_match_point() -> None:
    s = position(ONLINE, ["R9 R3", "G1 G2"], "R7")
    s2, ev = play(s, 0, "timeout")
    assert s2.is_over and s2.result is not None
    assert s2.result.winner == 1 and s2.result.match_points == (-1, 1)
    assert s2.result.reason == "timeout" and "left seat=0" in texts(ev)


def test_two_player_leave_ends_match_leaver_loses() -> None:
    s = position(ONLINE, ["R9 R3", "G1 G2"], "R7", scores=(300, 10))
    s2, _ = play(s, 1, "leave")
    assert s2.result is not None and s2.result.winner == 0 and s2.result.match_points == (1, -1)
    assert s2.result.scores == (300, 10)  # the points stay visible


def test_four_player_table_cannot_be_left() -> None:
    s = position(ONLINE, ["R9 R3", "G1 G2", "B1 B2", "Y1 Y3"], "R7")
    with pytest.raises(IllegalAction) as e:
        play(s, 2, "leave")
    assert e.value.code == "leave_not_allowed"


def test_game_over_refuses_further_actions() -> None:
    s = position(ONLINE, ["R9 R3", "G1 G2"], "R7")
    s2, _ = play(s, 1, "leave")
    from mazziere.errors import GameOver

    with pytest.raises(GameOver):
        play(s2, 0, "R9")


def test_victory_points_four_players_12_6_2_0_by_final_rank() -> None:
    rules = ONLINE.with_options(victory_points=True, match="single_hand")
    s = position(rules, ["R3", "G1 G9", "B2", "W Y5"], "R7")
    s2, _ = play(s, 0, "R3")
    assert s2.result is not None and s2.result.ranking == (0, 2, 1, 3)
    assert s2.result.victory_points == (12, 2, 6, 0)


def test_victory_points_pairs_10_6_4_0() -> None:
    rules = ONLINE.with_options(victory_points=True, teams=True, match="single_hand")
    s = position(rules, ["R3", "G1 G9", "B2", "W Y5"], "R7", seat_points=(0, 0, 30, 0))
    s2, _ = play(s, 0, "R3")
    assert s2.result is not None and s2.result.winner == 0
    vp = s2.result.victory_points
    assert sorted(vp) == [0, 4, 6, 10] and vp[0] + vp[2] == 16  # winners take 10 and 6


def test_autoplay_phase_color_picks_colour_held_most() -> None:
    from mazziere.cards.uno import parse_cards
    from mazziere.uno.autoplay import choose_autoplay

    a = choose_autoplay([], parse_cards("G1 G2 B3 W"), Phase.COLOR)
    assert str(a) == "color G"
    assert hand(position(ONLINE, ["G1", "B2"], "R7"), 0) == ["G1"]


def test_hand_time_limit_end_hand_ends_without_winner() -> None:
    rules = ONLINE.with_options(match="single_hand", hand_time_limit=600.0)
    s = position(rules, ["R9 R3 W", "G1 G2"], "R7")
    s2, ev = play(s, 0, "end_hand")
    ended = next(t for t in texts(ev) if t.startswith("hand_ended"))
    assert "winner=-" in ended and "reason=time_limit" in ended
    assert s2.result is not None and s2.result.winner == 1  # fewest points in hand


def test_illegal_action_leaves_the_state_unchanged() -> None:
    s = position(ONLINE, ["R9 R3 W", "G1 G2"], "R7")
    before = s.copy()
    for seat, text in [(0, "G1"), (1, "G1"), (0, "pass"), (0, "accept"), (0, "W"), (0, "catch 1")]:
        with pytest.raises((IllegalAction, NotYourTurn, ValueError)):
            play(s, seat, text)
        assert s == before


def test_online_preset_awards_victory_points_at_four_player_tables() -> None:
    rules = ONLINE.with_options(match="single_hand")
    s = position(rules, ["R3", "G1 G9", "B2", "W Y5"], "R7")
    s2, _ = play(s, 0, "R3")
    assert s2.result is not None and s2.result.victory_points == (12, 2, 6, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_online_preset_seats_two_and_three_players_without_victory_points(players: int) -> None:
    from mazziere.uno import new_game

    rules = ONLINE.with_options(match="single_hand")
    state = new_game(rules, players, rng=1)
    assert state.players == players
    s = position(rules, ["R3", "G1 G9", "B2"][:players], "R7")
    s2, _ = play(s, 0, "R3")
    assert s2.result is not None and s2.result.victory_points == ()
