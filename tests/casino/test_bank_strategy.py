"""docs/rules/casino.md "The bank's strategy" (seed 000 "Regole di gioco del Banco"), one test per
rule, each on a hand-made position."""

from __future__ import annotations

from collections import Counter

from mazziere.cards.uno import parse_cards
from mazziere.casino.strategy import bank_color, bank_decision
from mazziere.rng import SplitMixRng
from mazziere.uno import legal_actions
from mazziere.uno.state import Phase

from .positions import casino_position


def _bank_choice(bank: str, top: str, color: str | None = None, seed: int = 0) -> str:
    r = casino_position("G1 G2 G3 G4", bank, top, color=color, current=1)
    s = r.uno
    assert s.color is not None
    legal = legal_actions(s, 1)
    return str(
        bank_decision(s.hands[1], s.discard[-1], int(s.color), s.phase, legal, SplitMixRng(seed))
    )


def test_bank_plays_wild4_only_when_it_holds_no_card_of_the_current_colour() -> None:
    # +4, +2, Skip and a red 9 on a red pile: it holds red, so the +4 is not legal: +2 first
    assert _bank_choice("W4 RD2 RS R9", "R5").startswith("RD2")
    # the same cards on a blue pile where it holds no blue: the +4 comes first
    assert _bank_choice("W4 RD2 RS R9", "B5").startswith("W4")


def test_bank_plays_draw2_before_skip_or_reverse() -> None:
    assert _bank_choice("RS RR RD2 R9", "R5") == "RD2"


def test_bank_plays_skip_or_reverse_before_numbers() -> None:
    assert _bank_choice("R9 RR", "R5") == "RR"
    assert _bank_choice("R9 RS", "R5") == "RS"


def test_bank_plays_highest_number_of_the_current_colour() -> None:
    assert _bank_choice("R2 R9 R4 B5 W", "R5") == "R9"


def test_bank_plays_same_number_only_when_it_holds_none_of_the_colour() -> None:
    assert _bank_choice("B5 R2", "R5") == "R2"  # holds red: the red card, not the blue 5
    assert _bank_choice("B5 G1", "R5") == "B5"


def test_bank_two_same_number_cards_one_at_random() -> None:
    picks = Counter(_bank_choice("B5 G5 Y1", "R5", seed=seed) for seed in range(200))
    assert set(picks) == {"B5", "G5"} and min(picks.values()) > 60


def test_bank_plays_wild_last() -> None:
    assert _bank_choice("W B5", "R5") == "B5"
    assert _bank_choice("W B4", "R5").startswith("W:")


def test_bank_without_playable_card_draws() -> None:
    assert _bank_choice("B4 G1", "R5") == "draw"


def test_bank_plays_the_drawn_card_when_playable() -> None:
    from mazziere.casino.round import _advance  # the bank's whole turn

    r = casino_position("G1 G2 G3 G4", "B4 G1", "R5", current=1, draw="R8")
    r2, events = _advance(r, [])
    texts = [str(e) for e in events]
    assert "played seat=1 cards=R8 color=- target=- jump_in=0" in texts
    assert r2.uno.current == 0


def test_bank_colour_choice_most_held_colour() -> None:
    assert bank_color(parse_cards("B1 B2 G9"), SplitMixRng(0)).letter == "B"


def test_bank_colour_tie_goes_to_colour_of_highest_card_action_above_number() -> None:
    assert bank_color(parse_cards("B9 GS"), SplitMixRng(0)).letter == "G"
    assert bank_color(parse_cards("B9 G8"), SplitMixRng(0)).letter == "B"


def test_bank_colour_still_tied_at_random() -> None:
    picks = Counter(bank_color(parse_cards("B9 G9"), SplitMixRng(s)).letter for s in range(200))
    assert set(picks) == {"B", "G"}
    empty = Counter(bank_color((), SplitMixRng(s)).letter for s in range(400))
    assert set(empty) == {"R", "Y", "G", "B"}


def test_bank_wild4_colour_uses_the_colour_rule() -> None:
    assert _bank_choice("W4 B1 B2 G3", "R5") == "W4:B"


def test_bank_decision_after_draw_phase_plays_drawn_card() -> None:
    r = casino_position("G1 G2 G3 G4", "B4 R8", "R5", current=1)
    legal = legal_actions(r.uno, 1)
    assert (
        str(bank_decision(r.uno.hands[1], r.uno.discard[-1], 0, Phase.DRAWN, legal, SplitMixRng(0)))
        == "R8"
    )
