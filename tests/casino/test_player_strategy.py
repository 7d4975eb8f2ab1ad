"""docs/rules/casino.md "The player's default strategy" (seed 000 "Strategia di gioco migliore
per la Punta"): every weight and the colour rule, on hand-made positions."""

from __future__ import annotations

from collections import Counter

from mazziere.cards.uno import Color, parse_card, parse_cards
from mazziere.casino import BankMemory, default_action
from mazziere.casino.strategy import card_weight, player_color
from mazziere.rng import SplitMixRng

from .positions import casino_position

RED = 0


def _w(card: str, hand: str, bank_cards: int = 3, memory: BankMemory | None = None) -> int:
    return card_weight(
        parse_card(card),
        parse_cards(hand),
        parse_card("R5"),
        RED,
        bank_cards,
        memory or BankMemory(),
    )


def test_player_wild4_weight_2000_if_bank_holds_one_card_else_0() -> None:
    assert _w("W4", "W4 B1", bank_cards=1) == 2000
    assert _w("W4", "W4 B1", bank_cards=2) == 0


def test_player_wild_weight_1000_if_bank_previous_turn_played_a_wild() -> None:
    assert _w("W", "W B1", memory=BankMemory(played_wild=True)) == 1000
    assert _w("W", "W B1") == 0


def test_player_skip_reverse_weight_5000_after_same_action_else_2000() -> None:
    assert _w("RS", "RS B1", memory=BankMemory(last_card=parse_card("GS"))) == 5000
    assert _w("RS", "RS B1", memory=BankMemory(last_card=parse_card("GR"))) == 2000
    assert _w("RR", "RR B1") == 2000


def test_player_skip_reverse_plus_1000_per_further_one_of_that_colour() -> None:
    assert _w("RS", "RS RR RS B1") == 2000 + 2000
    assert _w("RS", "RS GS B1") == 2000


def test_player_draw2_weight_0_if_bank_holds_more_than_player_will() -> None:
    assert _w("RD2", "RD2 B1", bank_cards=3) == 0  # player will hold 1


def test_player_draw2_weight_2500_if_bank_holds_one_card() -> None:
    assert _w("RD2", "RD2 B1 B2", bank_cards=1) == 2500


def test_player_draw2_weight_1100_otherwise() -> None:
    assert _w("RD2", "RD2 B1 B2 B3", bank_cards=2) == 1100


def test_player_number_weight_10_plus_number_by_colour_1_by_number() -> None:
    assert _w("R6", "R6 B5") == 16
    assert _w("B5", "R6 B5") == 1


def test_player_plays_highest_weight_ties_at_random() -> None:
    r = casino_position("R6 R2 B5 G9", "B1 B2 B3 B4 B6", "R5")
    assert str(default_action(r)) == "R6"
    picks = Counter(
        str(default_action(casino_position("B5 G5 Y9", "B1 B2 B3", "R5", seed=s)))
        for s in range(100)
    )
    assert set(picks) == {"B5", "G5"}


def test_player_draws_only_when_nothing_is_playable() -> None:
    assert str(default_action(casino_position("R6 G9", "B1 B2", "R5"))) == "R6"
    assert str(default_action(casino_position("B6 G9", "B1 B2", "R5"))) == "draw"


def test_player_colour_after_bank_wild_bank_on_one_card_other_colour_held_most() -> None:
    mem = BankMemory(played_wild=True, chosen_color=Color.BLUE)
    c = player_color(list(parse_cards("B1 B2 B3 G4")), mem, 1, SplitMixRng(0))
    assert c is Color.GREEN


def test_player_colour_after_bank_wild_more_cards_a_colour_with_a_play_not_banks() -> None:
    mem = BankMemory(chosen_color=Color.BLUE)
    assert player_color(list(parse_cards("B1 B2 Y4")), mem, 3, SplitMixRng(0)) is Color.YELLOW
    assert player_color(list(parse_cards("B1 B2")), mem, 3, SplitMixRng(0)) is Color.BLUE


def test_player_colour_other_cards_all_wilds_bank_passed_takes_that_colour() -> None:
    mem = BankMemory(drew_without_playing=True, passed_color=Color.YELLOW)
    assert player_color(list(parse_cards("W W4")), mem, 3, SplitMixRng(0)) is Color.YELLOW


def test_player_colour_otherwise_colour_held_most() -> None:
    assert player_color(list(parse_cards("G1 G2 R3")), BankMemory(), 3, SplitMixRng(0)) is (
        Color.GREEN
    )


def test_player_plays_drawn_card_when_playable() -> None:
    from mazziere.casino import apply

    r = casino_position("B6 G9", "B1 B2 B3 B4 B7", "R5", draw="R8")
    r2, _ = apply(r, "draw")
    assert str(default_action(r2)) == "R8"
