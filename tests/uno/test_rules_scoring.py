"""uno.md "Scoring and matches" and "Hands with no winner, ties"."""

from __future__ import annotations

from mazziere.uno import State, find_preset
from mazziere.uno.state import Phase

from .positions import play, position, texts

MATTEL = find_preset("mattel")
HOUSE = find_preset("house")


def _exhausted(state: State) -> State:
    return state.replace(
        removed=(*state.draw_pile, *state.discard[:-1]),
        draw_pile=(),
        discard=state.discard[-1:],
    )


def test_scoring_winner_scores_cards_left_in_other_hands() -> None:
    s = position(MATTEL, ["R3", "G1 G9", "W YS"], "R7")
    s2, _ = play(s, 0, "R3")
    assert s2.scores == (10 + 70, 0, 0)


def test_scoring_penalty_each_scores_own_cards() -> None:
    s = position(HOUSE, ["R3", "G1 G9", "W YS"], "R7")
    s2, _ = play(s, 0, "R3")
    assert s2.scores == (0, 10, 70)


def test_match_target_points_first_to_reach_target_wins() -> None:
    s = position(MATTEL, ["R3", "G1 G9"], "R7", scores=(495, 400))
    s2, ev = play(s, 0, "R3")
    assert s2.is_over and s2.result is not None and s2.result.winner == 0
    assert s2.result.reason == "target_reached"


def test_match_target_points_default_is_500_and_play_continues_below_it() -> None:
    assert MATTEL.target == 500
    s = position(MATTEL, ["R3", "G1 G9"], "R7", scores=(100, 400))
    s2, ev = play(s, 0, "R3")
    assert not s2.is_over and s2.hand_no == 1 and s2.scores == (110, 400)


def test_new_hand_dealt_fresh_and_dealer_rotates_one_seat() -> None:
    s = position(MATTEL, ["R3", "G1 G9", "B1"], "R7", dealer=1)
    s2, ev = play(s, 0, "R3")
    assert (s2.dealer == 2 and all(len(h) == 7 for h in s2.hands)) or s2.phase is Phase.PENDING
    assert any(t.startswith("hand_started hand=1 dealer=2") for t in texts(ev))


def test_match_target_must_lead_online_winner_needs_more_points_than_others() -> None:
    rules = find_preset("online").with_options(match="target_points", target=100)
    s = position(rules, ["R3", "G1 G9"], "R7", scores=(90, 120))
    s2, _ = play(s, 0, "R3")
    assert s2.is_over and s2.result is not None and s2.result.winner == 1
    s3 = position(rules, ["R3", "G1 G9"], "R7", scores=(110, 120))
    s4, _ = play(s3, 0, "R3")  # 120 vs 120: nobody leads, the match goes on
    assert not s4.is_over


def test_match_fixed_hands_most_points_after_n_hands() -> None:
    rules = MATTEL.with_options(match="fixed_hands", fixed_hands=2)
    s = position(rules, ["R3", "G1 G9"], "R7", hand_no=1, scores=(0, 40))
    s2, _ = play(s, 0, "R3")
    assert s2.is_over and s2.result is not None
    assert (
        s2.result.scores == (10, 40)
        and s2.result.winner == 1
        and s2.result.reason == "hands_played"
    )


def test_match_single_hand_the_one_who_goes_out_wins() -> None:
    rules = MATTEL.with_options(match="single_hand")
    s = position(rules, ["R3", "G1 G9", "B2"], "R7")
    s2, _ = play(s, 0, "R3")
    assert s2.is_over and s2.result is not None and s2.result.winner == 0
    assert s2.result.ranking == (0, 2, 1)


def test_elimination_player_reaching_target_leaves_last_one_left_wins() -> None:
    rules = HOUSE.with_options(elimination=True, target=100)
    s = position(rules, ["R3", "G1 G9 W W4", "B9"], "R7", scores=(0, 20, 95))
    s2, ev = play(s, 0, "R3")
    assert "eliminated seat=1" in texts(ev) and "eliminated seat=2" in texts(ev)
    assert s2.is_over and s2.result is not None and s2.result.winner == 0
    assert s2.result.ranking == (0, 2, 1)


def test_elimination_continues_without_the_eliminated_player() -> None:
    rules = HOUSE.with_options(elimination=True, target=100)
    s = position(rules, ["R3", "G1 G9 W W4", "B2", "B3"], "R7")
    s2, ev = play(s, 0, "R3")
    assert "eliminated seat=1" in texts(ev) and not s2.is_over
    assert s2.active == (True, False, True, True) and s2.hands[1] == ()
    assert s2.in_hand == (True, False, True, True)


def test_teams_partner_goes_out_team_scores_opponents_cards() -> None:
    rules = MATTEL.with_options(teams=True)
    s = position(rules, ["G1 G2", "B9", "R3", "Y5"], "R7", current=2)
    s2, ev = play(s, 2, "R3")
    # team 0 = seats 0+2; partner seat 0's cards do not count
    assert s2.scores == (14, 0) and s2.hands_won == (1, 0)


def test_single_hand_no_winner_lowest_points_wins() -> None:
    rules = MATTEL.with_options(match="single_hand")
    s = _exhausted(position(rules, ["G4 Y1 B9", "G1 G2"], "R7"))
    s2, _ = play(s, 0, "draw")
    s3, _ = play(s2, 1, "draw")
    assert s3.result is not None and s3.result.winner == 1 and s3.result.reason == "fewest_points"


def test_single_hand_no_winner_equal_points_fewest_cards_wins() -> None:
    rules = MATTEL.with_options(match="single_hand")
    s = _exhausted(position(rules, ["G1 Y2 B3", "G6"], "R7"))
    s2, _ = play(s, 0, "draw")
    s3, _ = play(s2, 1, "draw")
    assert s3.result is not None and s3.result.winner == 1


def test_single_hand_no_winner_full_tie_plays_a_tiebreak_hand() -> None:
    rules = MATTEL.with_options(match="single_hand")
    s = _exhausted(position(rules, ["G1 Y5", "G2 Y4", "B9 B8"], "R7"))
    s, _ = play(s, 0, "draw")
    s, _ = play(s, 1, "draw")
    s, ev = play(s, 2, "draw")
    assert not s.is_over and s.tiebreak == (0, 1)
    assert s.in_hand == (True, True, False) and s.hand_no == 1
    assert any(t.startswith("hand_started hand=1") and "seats=0,1 " in t for t in texts(ev))


def test_tiebreak_hand_still_tied_the_player_who_drew_last_loses() -> None:
    rules = MATTEL.with_options(match="single_hand")
    s = _exhausted(position(rules, ["G1 Y5", "G2 Y4"], "R7"))
    s = s.replace(tiebreak=(0, 1), last_draw=(10, 12))
    s, _ = play(s, 0, "draw")
    s, _ = play(s, 1, "draw")
    assert s.result is not None and s.result.winner == 0 and s.result.reason == "drew_last_loses"


def test_multi_hand_tie_on_points_most_hands_won_wins() -> None:
    rules = MATTEL.with_options(match="fixed_hands", fixed_hands=2)
    s = position(rules, ["R3", "G1 G9"], "R7", hand_no=1, scores=(0, 10), hands_won=(0, 1))
    s2, _ = play(s, 0, "R3")  # 10 - 10, one hand each; seat 0 has fewer cards in the last hand
    assert s2.result is not None and s2.result.scores == (10, 10) and s2.result.winner == 0
    s3 = position(rules, ["R3", "G1 G9"], "R7", hand_no=1, scores=(0, 10), hands_won=(0, 2))
    s4, _ = play(s3, 0, "R3")
    assert s4.result is not None and s4.result.winner == 1


def test_multi_hand_tie_then_drew_last_loses() -> None:
    rules = MATTEL.with_options(match="fixed_hands", fixed_hands=1, scoring="penalty")
    s = _exhausted(position(rules, ["G1 Y5", "G2 Y4"], "R7", last_draw=(3, 9)))
    s, _ = play(s, 0, "draw")
    s, _ = play(s, 1, "draw")
    assert s.result is not None and s.result.scores == (6, 6)
    assert s.result.winner == 0  # seat 1 drew last
