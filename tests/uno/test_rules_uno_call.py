"""uno.md "A hand" 8: calling UNO (auto, catch, off)."""

from __future__ import annotations

import pytest

from mazziere.errors import IllegalAction
from mazziere.uno import find_preset

from .positions import legal_texts, play, position, run, texts

CATCH = find_preset("mattel")  # uno_call='catch'
AUTO = find_preset("online")  # uno_call='auto'


def test_uno_auto_missed_call_draws_penalty_when_next_player_starts() -> None:
    s = position(AUTO, ["R3 R4", "G1 R9 G2", "B1 B2"], "R7", draw="Y1 Y2")
    s2, _ = play(s, 0, "R3")
    assert s2.uno_seat == 0 and not s2.uno_called
    s3, ev = play(s2, 1, "R9")
    assert "uno_missed seat=0" in texts(ev)
    assert len(s3.hands[0]) == 3


def test_uno_auto_called_before_playing_next_to_last_card_no_penalty() -> None:
    s = position(AUTO, ["R3 R4", "G1 R9 G2", "B1 B2"], "R7")
    assert "uno" in legal_texts(s, 0)
    s2, ev = run(s, [(0, "uno"), (0, "R3"), (1, "R9")])
    assert "uno_called seat=0" in texts(ev) and "uno_missed seat=0" not in texts(ev)
    assert len(s2.hands[0]) == 1


def test_uno_auto_call_holding_one_card_until_next_player_starts() -> None:
    s = position(AUTO, ["R3 R4", "G1 R9 G2", "B1 B2"], "R7")
    s2, _ = play(s, 0, "R3")
    assert "uno" in legal_texts(s2, 0)
    s3, ev = run(s2, [(0, "uno"), (1, "R9")])
    assert len(s3.hands[0]) == 1 and "uno_missed seat=0" not in texts(ev)


def test_uno_catch_caught_player_draws_two() -> None:
    s = position(CATCH, ["R3 R4", "G1 R9 G2", "B1 B2"], "R7")
    s2, _ = play(s, 0, "R3")
    assert "catch 0" in legal_texts(s2, 2) and "catch 0" in legal_texts(s2, 1)
    s3, ev = play(s2, 2, "catch 0")
    assert "caught by=2 seat=0" in texts(ev) and len(s3.hands[0]) == 3


def test_uno_catch_not_caught_in_time_no_penalty() -> None:
    s = position(CATCH, ["R3 R4", "G1 R9 G2", "B1 B2"], "R7")
    s2, _ = play(s, 0, "R3")
    s3, ev = play(s2, 1, "R9")
    assert len(s3.hands[0]) == 1 and "catch 0" not in legal_texts(s3, 2)
    with pytest.raises(IllegalAction) as e:
        play(s3, 2, "catch 0")
    assert e.value.code == "catch_rejected"


def test_uno_catch_rejected_against_a_player_who_called() -> None:
    s = position(CATCH, ["R3 R4", "G1 R9 G2", "B1 B2"], "R7")
    s2, _ = run(s, [(0, "R3"), (0, "uno")])
    with pytest.raises(IllegalAction) as e:
        play(s2, 1, "catch 0")
    assert e.value.code == "catch_rejected" and "called" in e.value.message


def test_uno_catch_rejected_against_more_than_one_card() -> None:
    s = position(CATCH, ["R3 R4 R5", "G1 R9 G2", "B1 B2"], "R7")
    s2, _ = play(s, 0, "R3")
    with pytest.raises(IllegalAction) as e:
        play(s2, 1, "catch 0")
    assert e.value.code == "catch_rejected" and "more than one" in e.value.message


def test_uno_call_off_no_calls_no_penalties() -> None:
    rules = CATCH.with_options(uno_call="off")
    s = position(rules, ["R3 R4", "G1 R9 G2", "B1 B2"], "R7")
    assert "uno" not in legal_texts(s, 0)
    s2, _ = play(s, 0, "R3")
    assert not any(t.startswith("catch") for t in legal_texts(s2, 1))
    with pytest.raises(IllegalAction) as e:
        play(s2, 0, "uno")
    assert e.value.code == "uno_off"


def test_uno_call_when_not_due_is_refused() -> None:
    s = position(CATCH, ["R3 R4 R5", "G1 R9 G2"], "R7")
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "uno")
    assert e.value.code == "uno_not_due"


def test_uno_precall_before_a_several_card_play_leaving_one_card() -> None:
    rules = find_preset("house")  # multi_play, catch
    s = position(rules, ["R6 Y6 B3", "G1 G2", "B1 B2"], "R2")
    assert "uno" in legal_texts(s, 0)
    s2, ev = run(s, [(0, "uno"), (0, "R6,Y6")])
    assert s2.uno_seat == 0 and s2.uno_called
    assert not any(t.startswith("catch") for t in legal_texts(s2, 1))


def test_autoplay_says_uno_for_the_player_it_plays_for() -> None:
    s = position(AUTO, ["R3 B9", "G1 R9 G2", "B1 B2", "Y1 Y2"], "R7")
    s2, ev = play(s, 0, "timeout")
    t = texts(ev)
    assert t.index("uno_called seat=0") < t.index(
        "played seat=0 cards=R3 color=- target=- jump_in=0"
    )
    s3, ev3 = play(s2, 1, "R9")
    assert "uno_missed seat=0" not in texts(ev3)


def test_uno_is_offered_only_when_the_call_can_be_due() -> None:
    """Holding two cards, UNO is offered only with a card to play (the call is due when the
    next-to-last card is played); two unplayable cards offer no UNO, and saying it is refused."""
    s = position(CATCH, ["G1 B2", "Y1 Y2"], "R7")  # nothing matches R7
    assert "uno" not in legal_texts(s, 0)
    with pytest.raises(IllegalAction) as e:
        play(s, 0, "uno")
    assert e.value.code == "uno_not_due"
    s2 = position(CATCH, ["R1 B2", "Y1 Y2"], "R7")
    assert "uno" in legal_texts(s2, 0)
    s3, _ = play(position(CATCH, ["G1", "Y1 Y2"], "R7", draw="R5"), 0, "draw")
    assert "uno" in legal_texts(s3, 0)  # playing the drawn R5 would leave one card
