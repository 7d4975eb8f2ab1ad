"""draw-poker.md "The computer opponent": every level answers with a legal action from its view;
draws follow the deck (with 32 cards an open straight draw beats a flush draw); the registry."""

from __future__ import annotations

import random

import pytest

from mazziere.errors import UnknownOption
from mazziere.poker import Rules, apply, new_game, parse_cards, view
from mazziere.poker.bots import BOTS, find_bot
from mazziere.poker.bots.drawcalc import best_discard, discard_values, reference
from mazziere.poker.bots.normal import normal_discard
from mazziere.poker.bots.strength import after_draw
from mazziere.poker.sim import play_pairs
from mazziere.poker.state import Phase
from mazziere.rng import SplitMixRng

R52, R32 = Rules(), Rules(deck=32)


def mask_of(hand: str, cards: str) -> int:
    h, c = parse_cards(hand), set(parse_cards(cards))
    return sum(1 << i for i, x in enumerate(h) if x in c)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_answers_with_a_legal_action(name: str) -> None:
    bot, other = find_bot(name), find_bot("random")
    for g in range(12):
        rules = (R52, R32)[g % 2]
        s = new_game(rules, f"bot{g}")
        rng = random.Random(g) if g % 3 else SplitMixRng(g)
        while not s.is_over and s.deal_no <= 4:
            v = view(s, s.current)
            action = (bot if s.current == g % 2 else other).act(v, rng)
            assert action in v.legal
            s, _ = apply(s, s.current, action)


def test_normal_draws_follow_the_deck() -> None:
    both = "8c 9c Tc Jd Ac"  # four clubs and an open-ended 8-9-10-J
    assert normal_discard(parse_cards(both), R32) == mask_of(both, "Ac")  # the straight draw
    both52 = "8c 9c Tc Jd 2c"
    assert normal_discard(parse_cards(both52), R52) == mask_of(both52, "Jd")  # the flush draw
    assert normal_discard(parse_cards("7c 7d Kh 2s 9c"), R52) == mask_of(
        "7c 7d Kh 2s 9c", "Kh 2s 9c"
    )


def test_hard_values_a_straight_draw_above_a_flush_draw_only_with_32_cards() -> None:
    def draw_value(rules: Rules, hand: str, discard: str) -> float:
        return discard_values(parse_cards(hand), rules)[mask_of(hand, discard)]

    straight32 = draw_value(R32, "8c 9d Th Js Ac", "Ac")  # open-ended 8-9-10-J
    flush32 = draw_value(R32, "7c 9c Jc Kc Ad", "Ad")  # four clubs, no straight chance
    assert straight32 > flush32 + 0.02
    straight52 = draw_value(R52, "8c 9d Th Js 2c", "2c")
    flush52 = draw_value(R52, "3c 7c 9c Kc Ad", "Ad")
    assert flush52 > straight52 + 0.02


def test_hard_keeps_made_hands_and_groups() -> None:
    for hand, discard in (
        ("Jc Jd 3h 3s 9c", "9c"),
        ("5c 6d 7h 8s 9c", ""),
        ("Ah Ac Kd 3s 4c", "3s 4c"),
    ):
        assert best_discard(parse_cards(hand), R52)[0] == mask_of(hand, discard)


def test_draw_values_respect_max_replace() -> None:
    vals = discard_values(parse_cards("2c 5d 9h Js Kc"), R52.with_options(max_replace=3))
    assert max(bin(m).count("1") for m in vals) == 3


def test_opponent_draw_count_changes_the_hard_reading() -> None:
    two_pair = parse_cards("Kc Kd 7h 7s Ac")
    assert (
        after_draw(two_pair, R52, 0) < after_draw(two_pair, R52, 3) < after_draw(two_pair, R52, 4)
    )
    ref = reference(R52)
    assert abs(float(ref.share_by_draw.sum()) - 1) < 1e-9
    assert all(x <= y for x, y in zip(ref.worth[1:], ref.worth[2:], strict=False))


def test_easy_never_bluffs_after_the_draw() -> None:
    bot = find_bot("easy")
    for g in range(60):
        s = new_game(R52, f"easy{g}")
        s, _ = apply(s, s.current, "wait")
        s, _ = apply(s, s.current, "replace")
        s, _ = apply(s, s.current, "draw")
        s, _ = apply(s, s.current, "draw")
        assert s.phase is Phase.BET2
        v = view(s, s.current)
        action = bot.act(v, random.Random(g))
        from mazziere.poker import evaluate

        if evaluate(v.hand, R52).category.value in ("high_card", "pair"):
            assert str(action) == "see"


def test_unknown_bot_named() -> None:
    with pytest.raises(UnknownOption) as e:
        find_bot("hardd")
    assert e.value.code == "unknown_bot" and "hard" in e.value.message


def test_duplicate_simulation_is_reproducible_and_fair_to_a_mirror() -> None:
    a = play_pairs(R32, "normal", "easy", [0, 1], 40, seed=3)
    assert a == play_pairs(R32, "normal", "easy", [0, 1], 40, seed=3)
    assert a.samples == 80 and a.deals == 160
    mirror = play_pairs(R52, "easy", "easy", [0, 1, 2], 60, seed=5)
    assert abs(mirror.total) <= 2 * 3 * 4 * 60  # only carried pots keep a mirror off zero
