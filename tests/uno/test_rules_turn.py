"""uno.md "A hand, common core" 4-7 and 9: matching, drawing, action cards, reshuffle, going out."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction, NotYourTurn
from mazziere.uno import State, find_preset, parse_position
from mazziere.uno.state import Phase

from .positions import hand, legal_texts, play, position, texts

MATTEL = find_preset("mattel")


def test_match_by_colour_number_or_symbol() -> None:
    s = parse_position("uno hands=R3,B7,GS,YD2,B2/G1,G2 discard=R7", MATTEL)
    legal = legal_texts(s, 0)
    assert "R3" in legal  # colour
    assert "B7" in legal  # number
    assert "GS" not in legal and "YD2" not in legal and "B2" not in legal
    s2 = parse_position("uno hands=RS,GS,YD2/G1,G2 discard=BS", MATTEL)
    assert {"RS", "GS"} <= set(legal_texts(s2, 0)) and "YD2" not in legal_texts(s2, 0)
    s3 = parse_position("uno hands=YD2,G5/G1,G2 discard=RD2", MATTEL)
    assert "YD2" in legal_texts(s3, 0) and "G5" not in legal_texts(s3, 0)


def test_wild_may_always_be_played_and_declares_any_colour_including_current() -> None:
    s = position(MATTEL, ["W R3 B4", "G1 G2"], "R7")
    legal = legal_texts(s, 0)
    assert {"W:R", "W:Y", "W:G", "W:B"} <= set(legal)
    s2, _ = play(s, 0, "W:R")
    assert s2.color is not None and s2.color.letter == "R"


def test_match_after_wild_uses_declared_colour() -> None:
    s = parse_position("uno hands=G4,R4,B9/G1,G2 discard=W color=B", MATTEL)
    assert "B9" in legal_texts(s, 0) and "G4" not in legal_texts(s, 0)


def test_wrong_card_is_refused_not_taken_back() -> None:
    s = position(MATTEL, ["G4 R4", "G1 G2"], "B7")
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "G4")
    assert e.value.code == "no_match"
    with pytest.raises(IllegalAction) as e2:
        play(s, 0, "Y9")
    assert e2.value.code == "not_in_hand"


def test_not_your_turn_is_refused() -> None:
    s = position(MATTEL, ["B4", "B1 G2"], "B7")
    with pytest.raises(NotYourTurn):
        play(s, 1, "B1")


def test_voluntary_draw_allowed_with_playable_card() -> None:
    s = position(MATTEL, ["R3 G4", "G1 G2"], "R7", draw="Y9")
    assert "draw" in legal_texts(s, 0)
    s2, ev = play(s, 0, "draw")
    assert "drew seat=0 cards=Y9 count=1 reason=choice" in texts(ev)
    assert s2.current == 1  # Y9 is not playable: the turn passes


def test_voluntary_draw_off_requires_playing() -> None:
    rules = MATTEL.with_options(voluntary_draw=False)
    s = position(rules, ["R3 G4", "G1 G2"], "R7")
    assert "draw" not in legal_texts(s, 0)
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "draw")
    assert e.value.code == "must_play"


def test_after_drawing_only_the_drawn_card_may_be_played() -> None:
    s = position(MATTEL, ["R3 G4", "G1 G2"], "R7", draw="R9")
    s2, _ = play(s, 0, "draw")
    assert s2.phase is Phase.DRAWN and s2.current == 0
    assert legal_texts(s2, 0) == ["R9", "pass"]
    with pytest.raises(IllegalAction) as e:
        play(s2, 0, "R3")
    assert e.value.code == "only_drawn_card"


def test_drawn_card_may_play_allows_keeping_it() -> None:
    s = position(MATTEL, ["R3 G4", "G1 G2"], "R7", draw="R9")
    s2, _ = play(s, 0, "draw")
    s3, ev = play(s2, 0, "pass")
    assert s3.current == 1 and "R9" in hand(s3, 0)


def test_drawn_card_must_play_forbids_keeping_a_playable_card() -> None:
    rules = find_preset("classic")
    s = position(rules, ["G4 Y1", "G1 G2"], "R7", draw="R9")
    s2, _ = play(s, 0, "draw")
    assert legal_texts(s2, 0) == ["R9"]
    with pytest.raises(IllegalAction) as e:
        play(s2, 0, "pass")
    assert e.value.code == "must_play_drawn"


def test_unplayable_drawn_card_ends_the_turn() -> None:
    s = position(MATTEL, ["G4 Y1", "G1 G2"], "R7", draw="B2")
    s2, ev = play(s, 0, "draw")
    assert s2.current == 1 and s2.phase is Phase.PLAY
    assert "passed seat=0 reason=kept" in texts(ev)


def test_skip_next_player_loses_turn() -> None:
    s = position(MATTEL, ["RS G1", "G1 G2", "B1 B2"], "R7")
    s2, ev = play(s, 0, "RS")
    assert "skipped seat=1" in texts(ev) and s2.current == 2


def test_reverse_flips_direction() -> None:
    s = position(MATTEL, ["RR G1", "G1 G2", "B1 B2"], "R7")
    s2, ev = play(s, 0, "RR")
    assert s2.direction == -1 and s2.current == 2
    assert "reversed direction=-1" in texts(ev)


def test_two_player_reverse_skip_acts_as_skip() -> None:
    s = position(MATTEL, ["RR G1", "G1 G2"], "R7")
    s2, ev = play(s, 0, "RR")
    assert s2.current == 0 and "skipped seat=1" in texts(ev)


def test_two_player_reverse_normal_just_reverses() -> None:
    s = position(MATTEL.with_options(two_player_reverse="normal"), ["RR G1", "G1 G2"], "R7")
    s2, _ = play(s, 0, "RR")
    assert s2.current == 1 and s2.direction == -1


def test_two_player_reverse_removed_takes_reverses_out_of_the_deck() -> None:
    from mazziere.uno import new_game

    s = new_game(MATTEL.with_options(two_player_reverse="removed"), 2, rng=5)
    assert len(s.removed) == 8 and all(str(c).endswith("R") and len(str(c)) == 2 for c in s.removed)
    everywhere = [c for h in s.hands for c in h] + list(s.draw_pile) + list(s.discard)
    assert not any(c in s.removed for c in everywhere)
    s3 = new_game(MATTEL.with_options(two_player_reverse="removed"), 3, rng=5)
    assert s3.removed == ()


def test_draw2_next_player_draws_two_and_loses_turn() -> None:
    s = position(MATTEL, ["RD2 G1", "G1 G2", "B1 B2"], "R7", draw="Y1 Y2")
    s2, ev = play(s, 0, "RD2")
    assert hand(s2, 1) == ["G1", "G2", "Y1", "Y2"] and s2.current == 2
    assert "skipped seat=1" in texts(ev)


def test_draw2_skips_false_victim_draws_and_plays() -> None:
    s = position(MATTEL.with_options(draw2_skips=False), ["RD2 G1", "G1 G2", "B1"], "R7")
    s2, _ = play(s, 0, "RD2")
    assert len(s2.hands[1]) == 4 and s2.current == 1


def test_wild4_next_player_draws_four_and_loses_turn() -> None:
    rules = MATTEL.with_options(challenge=False)
    s = position(rules, ["W4 G1", "G1 G2", "B1 B2"], "R7", draw="Y1 Y2 Y3 Y4")
    s2, ev = play(s, 0, "W4:G")
    assert len(s2.hands[1]) == 6 and s2.current == 2 and s2.color is not None
    assert s2.color.letter == "G"


def test_empty_draw_pile_reshuffles_discards_except_top() -> None:
    s = position(MATTEL, ["G4 Y1", "G1 G2"], "R7", discard_below="B1 B2 B3")
    # move the whole draw pile into the discard pile, under the top card
    s = s.replace(discard=(*s.draw_pile, *s.discard), draw_pile=())
    top = s.discard[-1]
    s2, ev = play(s, 0, "draw")
    assert any(t.startswith("reshuffled") for t in texts(ev))
    assert s2.discard == [top]
    assert len(s2.draw_pile) + len(s2.hands[0]) + len(s2.hands[1]) + 1 == 108


def _exhausted(state: State) -> State:
    """Nothing left to draw: every card outside hands and the top card is set aside."""
    return state.replace(
        removed=(*state.draw_pile, *state.discard[:-1]),
        draw_pile=(),
        discard=state.discard[-1:],
    )


def test_both_piles_exhausted_player_without_play_passes() -> None:
    s = _exhausted(position(MATTEL, ["G4 Y1", "G1 G2 B5"], "R7"))
    assert legal_texts(s, 0) == ["draw"]  # no card to play: UNO cannot become due
    s2, ev = play(s, 0, "draw")
    assert "passed seat=0 reason=nothing_to_draw" in texts(ev) and s2.current == 1


def test_both_piles_exhausted_player_with_a_play_must_play() -> None:
    s = _exhausted(position(MATTEL, ["R4 Y1", "G1 G2 B5"], "R7"))
    assert "draw" not in legal_texts(s, 0)
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "draw")
    assert e.value.code == "must_play"


def test_blocked_hand_ends_without_winner() -> None:
    rules = MATTEL.with_options(match="single_hand")
    s = _exhausted(position(rules, ["G4 Y1 B9", "G1 G2"], "R7"))
    s2, _ = play(s, 0, "draw")
    s3, ev = play(s2, 1, "draw")
    ended = next(t for t in texts(ev) if t.startswith("hand_ended"))
    assert "winner=-" in ended and "reason=blocked" in ended


def test_going_out_ends_the_hand_and_winner_scores() -> None:
    s = position(MATTEL, ["R3", "G1 G9 W"], "R7")
    s2, ev = play(s, 0, "R3")
    ended = [t for t in texts(ev) if t.startswith("hand_ended")]
    assert ended and "winner=0" in ended[0] and "points=0,60" in ended[0]
    assert s2.scores[0] == 60


def test_last_card_draw2_next_player_still_draws_and_counts() -> None:
    s = position(MATTEL, ["RD2", "G1 G9"], "R7", draw="Y5 Y6")
    s2, ev = play(s, 0, "RD2")
    ended = next(t for t in texts(ev) if t.startswith("hand_ended"))
    assert "points=0,21" in ended  # G1 + G9 + Y5 + Y6
    assert s2.scores[0] == 21


def test_last_card_wild4_next_player_draws_four() -> None:
    s = position(MATTEL, ["W4", "G1"], "R7", draw="Y1 Y2 Y3 Y4")
    s2, ev = play(s, 0, "W4:B")
    assert s2.scores[0] == 1 + 1 + 2 + 3 + 4
