"""uno.md "Wild Draw Four": legality rules, bluffing, and the server-checked challenge."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction, NotYourTurn
from mazziere.uno import find_preset, parse_position, view
from mazziere.uno.position import diff_positions
from mazziere.uno.state import Phase

from .positions import hand, legal_texts, play, position, texts

MATTEL = find_preset("mattel")

PENDING_GUILTY_W4 = (
    "uno hands=R2,B3/G1,G2/Y1 discard=W4,R7 draw=Y5,Y6,Y7,Y8,* color=G turn=1 phase=pending "
    "pending=4 stackw4=1 stackcolor=R w4by=0 w4legal=0 turns=1 totalturns=1 clock=1"
)
"""Seat 0 has just played a +4 as a bluff (holding R2 on a red 7): seat 1 owes 4 cards."""


def test_wild4_rule_color_legal_without_a_card_of_the_current_colour() -> None:
    s = position(MATTEL.with_options(wild4_bluff=False), ["W4 B7 GS", "G1"], "R7")
    assert "W4:G" in legal_texts(s, 0)  # B7 matches by number, GS is an action: still legal


def test_wild4_rule_color_illegal_with_a_card_of_the_current_colour() -> None:
    s = position(MATTEL.with_options(wild4_bluff=False), ["W4 R2", "G1"], "R7")
    assert not any(t.startswith("W4") for t in legal_texts(s, 0))
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "W4:G")
    assert e.value.code == "wild4_not_allowed" and "colour" in e.value.message


def test_wild4_rule_any_playable_forbids_it_with_any_other_playable_card() -> None:
    rules = find_preset("classic").with_options(wild4_bluff=False)
    s = position(rules, ["W4 B7", "G1"], "R7")  # B7 plays by number
    assert not any(t.startswith("W4") for t in legal_texts(s, 0))
    s2 = position(rules, ["W4 W", "G1"], "R7")  # a plain Wild is playable too
    assert not any(t.startswith("W4") for t in legal_texts(s2, 0))
    s3 = position(rules, ["W4 W4 B2", "G1"], "R7")  # another +4 does not count
    assert "W4:B" in legal_texts(s3, 0)


def test_wild4_rule_none_always_legal() -> None:
    s = position(MATTEL.with_options(wild4_rule="none", wild4_bluff=False), ["W4 R2", "G1"], "R7")
    assert "W4:Y" in legal_texts(s, 0)


def test_wild4_bluff_true_allows_an_illegal_wild4() -> None:
    s = position(MATTEL, ["W4 R2", "G1"], "R7")
    s2, _ = play(s, 0, "W4:G")
    assert s2.phase is Phase.PENDING and s2.w4_by == 0 and s2.w4_legal is False


def test_wild4_challenge_guilty_draws_4_and_challenger_keeps_turn() -> None:
    s = parse_position("uno hands=W4,R2,B3/G1,G2/Y1 discard=R7 draw=Y5,Y6,Y7,Y8,*", MATTEL)
    s2, _ = play(s, 0, "W4:G")
    assert s2 == parse_position(PENDING_GUILTY_W4, MATTEL), diff_positions(
        s2, parse_position(PENDING_GUILTY_W4, MATTEL)
    )
    s3, ev = play(s2, 1, "challenge")
    assert "challenged by=1 seat=0 guilty=1" in texts(ev)
    assert len(s3.hands[0]) == 2 + 4 and len(s3.hands[1]) == 2
    assert s3.current == 1 and s3.phase is Phase.PLAY and s3.color is not None
    assert s3.color.letter == "G"  # the declared colour stands


def test_wild4_challenge_innocent_challenger_draws_6_and_loses_turn() -> None:
    s = position(MATTEL, ["W4 B2 B3", "G1 G2", "Y1"], "R7")
    s2, _ = play(s, 0, "W4:G")
    s3, ev = play(s2, 1, "challenge")
    assert "challenged by=1 seat=0 guilty=0" in texts(ev)
    assert len(s3.hands[1]) == 2 + 6 and s3.current == 2


def test_wild4_not_challenged_victim_draws_4_and_loses_turn() -> None:
    s = position(MATTEL, ["W4 B2 B3", "G1 G2", "Y1"], "R7")
    s2, _ = play(s, 0, "W4:G")
    assert legal_texts(s2, 1) == ["challenge", "accept"]
    s3, _ = play(s2, 1, "accept")
    assert len(s3.hands[1]) == 6 and s3.current == 2


def test_challenge_victim_only_refuses_other_players() -> None:
    s = position(MATTEL, ["W4 R2 B3", "G1 G2", "Y1"], "R7")
    s2, _ = play(s, 0, "W4:G")
    assert "challenge" not in legal_texts(s2, 2)
    with pytest.raises(NotYourTurn) as e:
        play(s2, 2, "challenge")
    assert e.value.code == "not_the_victim"


def test_challenge_by_any_third_player_innocent_draws_two_victim_still_owes() -> None:
    rules = MATTEL.with_options(challenge_by="any")
    s = position(rules, ["W4 B2 B3", "G1 G2", "Y1 Y2"], "R7")
    s2, _ = play(s, 0, "W4:G")
    assert "challenge" in legal_texts(s2, 2)
    s3, _ = play(s2, 2, "challenge")
    assert len(s3.hands[2]) == 4 and s3.phase is Phase.PENDING and s3.current == 1
    assert "challenge" not in legal_texts(s3, 1)
    s4, _ = play(s3, 1, "accept")
    assert len(s4.hands[1]) == 6


def test_challenge_by_any_third_player_guilty_frees_the_victim() -> None:
    rules = MATTEL.with_options(challenge_by="any")
    s = position(rules, ["W4 R2 B3", "G1 G2", "Y1 Y2"], "R7")
    s2, _ = play(s, 0, "W4:G")
    s3, _ = play(s2, 2, "challenge")
    assert len(s3.hands[0]) == 6 and len(s3.hands[1]) == 2 and s3.current == 1


def test_challenge_off_the_wild4_applies_at_once() -> None:
    s = position(MATTEL.with_options(challenge=False), ["W4 R2 B3", "G1 G2", "Y1"], "R7")
    s2, _ = play(s, 0, "W4:G")
    assert s2.phase is Phase.PLAY and s2.current == 2 and len(s2.hands[1]) == 6
    with pytest.raises(IllegalAction) as e:
        play(s2, 2, "challenge")
    assert e.value.code == "nothing_to_challenge"


def test_challenge_check_does_not_reveal_the_hand_or_its_legality() -> None:
    s = position(MATTEL, ["W4 R2 B3", "G1 G2", "Y1"], "R7")
    s2, ev = play(s, 0, "W4:G")
    v = view(s2, 1)
    assert v.challengeable and not hasattr(v, "w4_legal")
    assert hand(s2, 0) == ["B3", "R2"] and v.hand_counts[0] == 2 and "R2" not in repr(v)
    assert all("R2" not in str(e.for_seat(1)) for e in ev)


def test_drawn_card_must_play_never_forces_a_wild4_bluff() -> None:
    """A drawn +4 that would be a bluff (a card of the current colour in hand) may be kept
    even with ``drawn_card='must_play'``; bluffing with it stays possible (wild4_bluff)."""
    rules = MATTEL.with_options(drawn_card="must_play")
    s = parse_position("uno hands=R5,G1/B1,B2 discard=R7 draw=W4,*", rules)
    s2, _ = play(s, 0, "draw")  # voluntary draw while holding R5
    assert s2.phase is Phase.DRAWN and str(s2.drawn) == "W4"
    drawn = "uno hands=R5,G1,W4/B1,B2 discard=R7 phase=drawn drawn=W4 lastdraw=1,-1 clock=1"
    assert s2 == parse_position(drawn, rules), diff_positions(s2, parse_position(drawn, rules))
    assert "pass" in legal_texts(s2, 0) and "W4:G" in legal_texts(s2, 0)
    s3, ev = play(s2, 0, "pass")
    assert "W4" in hand(s3, 0) and s3.current == 1 and "passed seat=0 reason=kept" in texts(ev)


def test_drawn_card_must_play_still_forces_a_legal_wild4() -> None:
    rules = MATTEL.with_options(drawn_card="must_play")
    s = position(rules, ["G1 G2", "B1 B2"], "R7", draw="W4")  # no red card: the +4 is legal
    s2, _ = play(s, 0, "draw")
    assert s2.phase is Phase.DRAWN and "pass" not in legal_texts(s2, 0)
    with pytest.raises(IllegalAction) as e:
        play(s2, 0, "pass")
    assert e.value.code == "must_play_drawn"


def test_drawn_wild4_bluff_is_kept_when_bluffing_is_off() -> None:
    rules = MATTEL.with_options(drawn_card="must_play", wild4_bluff=False)
    s = position(rules, ["R5 G1", "B1 B2"], "R7", draw="W4")
    s2, ev = play(s, 0, "draw")
    assert "W4" in hand(s2, 0) and s2.current == 1 and s2.phase is Phase.PLAY
