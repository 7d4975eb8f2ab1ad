"""docs/rules/casino.md "The round" and "Payout multiplier" (seed 000), and stake validation."""

from __future__ import annotations

from decimal import Decimal

import pytest

from mazziere.casino import (
    CasinoRules,
    StakeError,
    apply,
    legal_actions,
    new_round,
    play_default,
    settle,
    view,
)
from mazziere.errors import IllegalAction
from mazziere.rng import SplitMixRng

from .positions import casino_position


def test_deal_five_to_bank_four_to_player_and_player_moves_first() -> None:
    for seed in range(20):
        r, _ = new_round(CasinoRules(), 100, rng=SplitMixRng(seed))
        assert len(r.uno.hands[1]) == 5 or r.turns > 0
        assert len(r.uno.hands[0]) == 4 and r.uno.current == 0 and r.turns == 0


def test_first_card_redrawn_until_a_number_shows() -> None:
    for seed in range(200):
        r, _ = new_round(CasinoRules(), 100, rng=SplitMixRng(seed))
        assert r.uno.discard[0].is_number


def test_wild4_only_without_a_card_of_the_current_colour_no_bluff() -> None:
    r = casino_position("W4 R2 B3", "G1 G2 G3 G4 G5", "R7")
    assert not any(str(a).startswith("W4") for a in legal_actions(r))
    with pytest.raises(IllegalAction) as e:
        apply(r, "W4:B")
    assert e.value.code == "wild4_not_allowed"
    assert "challenge" not in [str(a) for a in legal_actions(r)]


def test_two_seats_skip_means_the_same_side_plays_again() -> None:
    r = casino_position("RS R2 B3", "G1 G2 G3 G4 G6", "R7")
    r2, ev = apply(r, "RS")
    assert r2.uno.current == 0 and r2.turns == 1  # the bank lost its turn


def test_two_seats_draw2_bank_draws_two_player_plays_again_multiplier_unmoved() -> None:
    r = casino_position("RD2 R2 B3", "G1 G2 G3 G4 G6", "R7")
    r2, ev = apply(r, "RD2")
    assert len(r2.uno.hands[1]) == 7 and r2.uno.current == 0 and r2.multiplier == 3


def test_player_draw_by_choice_drops_multiplier_one_step() -> None:
    r = casino_position("R2 B3", "G1 G2 G3 G4 G6", "R7", draw="Y9")
    r2, ev = apply(r, "draw")
    texts = [str(e) for e in ev]
    assert texts.index("multiplier multiplier=2 reason=player_drew") > texts.index(
        "drew seat=0 cards=Y9 count=1 reason=choice"
    )


def test_player_draw_for_lack_of_play_drops_multiplier() -> None:
    r = casino_position("B2 B3", "G1 G2 G3 G4 R6", "R7", draw="Y9")
    r2, ev = apply(r, "draw")
    assert "multiplier multiplier=2 reason=player_drew" in [str(e) for e in ev]


def test_bank_draw_for_lack_of_play_raises_multiplier_never_above_x3() -> None:
    r = casino_position("R2 B3", "G1 G3 G4 G6 G7", "R7", draw="Y9 Y8", multiplier=2)
    r2, ev = apply(r, "R2")  # bank holds no red and no 2: it draws Y9
    texts = [str(e) for e in ev]
    assert "multiplier multiplier=3 reason=bank_drew" in texts and r2.multiplier == 3
    r3 = casino_position("R2 B3", "G1 G3 G4 G6 G7", "R7", draw="Y9 Y8", multiplier=3)
    r4, _ = apply(r3, "R2")
    assert r4.multiplier == 3


def test_cards_taken_from_draw2_or_draw4_do_not_move_the_multiplier() -> None:
    r = casino_position("W4 B3 B4", "G1 G2 G3 G4 G6", "R7", multiplier=2)
    r2, ev = apply(r, "W4:B")
    assert len(r2.uno.hands[1]) == 9 and r2.multiplier == 2


def test_at_x1_the_player_may_not_draw() -> None:
    r = casino_position("R2 B3", "G1 G2 G3 G4 G6", "R7", multiplier=1)
    assert "draw" not in [str(a) for a in legal_actions(r)]
    with pytest.raises(IllegalAction) as e:
        apply(r, "draw")
    assert e.value.code == "draw_banned_at_x1"


def test_at_x1_with_no_playable_card_the_bank_wins() -> None:
    r3 = casino_position("B2 B3", "G1 G2 G3 G4 G6", "R7", multiplier=1)
    from mazziere.casino.round import _advance

    r4, _ = _advance(r3, [])
    assert r4.result is not None and r4.result.winner == "bank"
    assert r4.result.reason == "no_draw_at_x1" and r4.result.payout == 0


def test_pile_out_and_side_to_move_cannot_play_the_bank_wins() -> None:
    from mazziere.casino.round import _advance

    r = casino_position("B2 B3", "G1 G2 G3 G4 G6", "R7", empty_pile=True)
    r2, _ = _advance(r, [])
    assert r2.result is not None and r2.result.winner == "bank" and r2.result.reason == "pile_out"
    r3 = casino_position("R2 B3", "G1 G2 G3 G4 G6", "R7", empty_pile=True)
    r4, _ = apply(r3, "R2")  # the bank cannot play and cannot draw: the bank still wins
    assert r4.result is not None and r4.result.winner == "bank"


def test_side_that_empties_its_hand_wins_player_paid_stake_times_multiplier() -> None:
    r = casino_position("R2", "G1 G2 G3 G4 G6", "R7", multiplier=2, stake=150)
    r2, ev = apply(r, "R2")
    assert r2.result is not None and r2.result.winner == "player"
    assert settle(r2) == 300 and r2.result.payout == 300


def test_x1_win_returns_the_stake() -> None:
    r = casino_position("R2", "G1 G2 G3 G4 G6", "R7", multiplier=1, stake=150)
    r2, _ = apply(r, "R2")
    assert settle(r2) == 150


def test_bank_win_the_stake_is_lost() -> None:
    r = casino_position("B9 B3", "G1 G2 G3 G4 R6", "R7", multiplier=1)
    from mazziere.casino.round import _advance

    r2, _ = _advance(r, [])
    assert r2.result is not None and settle(r2) == 0


def test_bank_goes_out_bank_wins() -> None:
    r = casino_position("R2 B3 B4", "R6", "R7")
    r2, ev = apply(r, "R2")
    assert r2.result is not None and r2.result.winner == "bank" and r2.result.reason == "bank_out"


def test_timeout_decides_by_default_strategy() -> None:
    r = casino_position("R6 R2 B5 G9", "B1 B2 B3 B4 B6", "R5")
    r2, ev = apply(r, "timeout")
    assert "played seat=0 cards=R6 color=- target=- jump_in=0" in [str(e) for e in ev]


def test_view_hides_bank_cards_and_pile_order() -> None:
    r, _ = new_round(CasinoRules(), 100, rng=SplitMixRng(3))
    v = view(r)
    assert v.bank_cards == 5 and not hasattr(v, "draw_pile") and len(v.hand) == 4
    bank_cards = set(map(str, r.uno.hands[1])) - set(map(str, r.uno.hands[0]))
    text = repr(v)
    assert all(f"{c}," not in text.split("hand=")[0] for c in bank_cards)


def test_rounds_replay_exactly_from_seed() -> None:
    def play(seed: int) -> tuple[str, int, int]:
        r, _ = new_round(CasinoRules(), 100, rng=SplitMixRng(seed))
        while r.result is None:
            r, _ = play_default(r)
        return (r.result.winner, r.result.multiplier, r.result.turns)

    assert [play(s) for s in range(30)] == [play(s) for s in range(30)]


@pytest.mark.parametrize(
    ("stake", "credit", "code"),
    [
        (-100, None, "stake_not_positive"),
        (0, None, "stake_not_positive"),
        (10_001, None, "stake_above_max"),
        (5, None, "stake_below_min"),
        (500, 400, "stake_above_credit"),
        (10.5, None, "stake_not_integer_cents"),
        (Decimal("100.25"), None, "stake_not_integer_cents"),
        ("100", None, "stake_not_integer_cents"),
        (True, None, "stake_not_integer_cents"),
    ],
)
def test_invalid_stake_refused_with_clear_error(
    stake: object, credit: int | None, code: str
) -> None:
    with pytest.raises(StakeError) as e:
        new_round(CasinoRules(), stake, rng=1, credit=credit)
    assert e.value.code == code and e.value.message


def test_the_rounds_fast_copy_changes_exactly_the_fields_named() -> None:
    """``_with`` (the bank loop's ``dataclasses.replace``) knows every field of the round."""
    import dataclasses

    from mazziere.casino.round import _with

    r, _ = new_round(CasinoRules(), 100, rng=SplitMixRng(3))
    for f in dataclasses.fields(r):
        marker = object()
        changed = _with(r, **{f.name: marker})
        for g in dataclasses.fields(r):
            expected = marker if g.name == f.name else getattr(r, g.name)
            assert getattr(changed, g.name) is expected, (f.name, g.name)
