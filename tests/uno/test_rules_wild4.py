"""uno.md "Wild Draw Four": legality rules, bluffing, and the server-checked challenge."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction, NotYourTurn
from mazziere.uno import find_preset, view
from mazziere.uno.state import Phase

from .positions import hand, legal_texts, play, position, texts

MATTEL = find_preset("mattel")


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
    s = position(MATTEL, ["W4 R2 B3", "G1 G2", "Y1"], "R7", draw="Y5 Y6 Y7 Y8")
    s2, _ = play(s, 0, "W4:G")
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
