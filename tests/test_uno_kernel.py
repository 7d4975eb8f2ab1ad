"""design.md "keep it separate and prove it equal": the compiled UNO kernel plays the same
random games as the pure engine on the same seeds (mazziere.sim.uno_kernel)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mazziere.cards.uno import Color, parse_cards
from mazziere.errors import OptionError
from mazziere.rng import SplitMixRng
from mazziere.sim.splitmix_kernel import randbelow, shuffle
from mazziere.sim.uno_kernel import (
    KERNEL_RULES,
    play_random_from_state,
    play_random_games,
)
from mazziere.sim.uno_random import (
    GameRecord,
    play_random_from_state_engine,
    play_random_game_engine,
)
from mazziere.uno.engine import all_legal_actions, apply, new_game
from mazziere.uno.presets import find_preset
from mazziere.uno.state import Phase, State


def _seeds(players: int, count: int) -> tuple[list[int], list[int]]:
    game = [players * 1_000_003 + 17 * i for i in range(count)]
    action = [(i * 0x9E3779B97F4A7C15 + players) & (2**64 - 1) for i in range(count)]
    return game, action


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_plays_the_same_random_games_as_the_engine(players: int) -> None:
    game, action = _seeds(players, 100)
    batch = play_random_games(players, game, action)
    for g in range(len(batch)):
        assert batch.record(g) == play_random_game_engine(players, game[g], action[g]), g


def test_kernel_plays_like_the_engine_with_5_to_10_players() -> None:
    for players in range(5, 11):
        game, action = _seeds(players, 4)
        batch = play_random_games(players, game, action)
        for g in range(len(batch)):
            assert batch.record(g) == play_random_game_engine(players, game[g], action[g])


def test_kernel_accepts_seeds_beyond_64_bits_like_splitmixrng() -> None:
    seeds = [2**64 + 5, -3]
    batch = play_random_games(2, seeds, seeds)
    for g, s in enumerate(seeds):
        assert batch.record(g) == play_random_game_engine(2, s, s)


def test_splitmix_randbelow_and_shuffle_match_the_python_source() -> None:
    for n in (1, 2, 3, 7, 8, 108, 2**33 + 1, 2**62 + 12345):
        py, arr = SplitMixRng(n), np.array([n], dtype=np.uint64)
        assert [py.randbelow(n) for _ in range(50)] == [randbelow(arr, 0, n) for _ in range(50)]
    py, arr = SplitMixRng(99), np.array([99], dtype=np.uint64)
    items = list(range(108))
    py.shuffle(items)
    kitems = np.arange(108, dtype=np.int64)
    shuffle(arr, 0, kitems, 108)
    assert items == kitems.tolist()


def _positions(players: int, seed: int, every: int) -> list[State]:
    """Engine states along one random game, every ``every`` steps."""
    state = new_game(KERNEL_RULES, players, SplitMixRng(seed))
    chooser = SplitMixRng(seed + 1)
    out = [state]
    k = 0
    while not state.is_over:
        acts = all_legal_actions(state)
        seat, action = acts[chooser.randbelow(len(acts))]
        state, _ = apply(state, seat, action)
        k += 1
        if k % every == 0 and not state.is_over:
            out.append(state)
    return out


def test_kernel_continues_any_engine_position_identically() -> None:
    phases = set()
    for players in (2, 3):
        for state in _positions(players, 11 * players, 97)[:12]:
            phases.add(state.phase)
            assert play_random_from_state(state, 5) == play_random_from_state_engine(state, 5)
    assert {Phase.PLAY, Phase.DRAWN} <= phases


def _position(players: int, hands: list[str], **changes: object) -> State:
    """A crafted position: the given hands, red 5 on the pile (current colour red), seat 0
    to play, nothing pending, no UNO window; ``changes`` override further fields."""
    base = new_game(KERNEL_RULES, players, SplitMixRng(5))
    fields: dict[str, object] = {
        "hands": tuple(parse_cards(h) for h in hands),
        "discard": parse_cards("R5"),
        "color": Color.RED,
        "current": 0,
        "phase": Phase.PLAY,
        "pending": 0,
        "stack_w4": False,
        "w4_by": None,
        "drawn": None,
        "uno_seat": None,
        "uno_ready": None,
        "passes": 0,
    }
    fields.update(changes)
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def _same_from(state: State, seeds: range = range(6)) -> list[GameRecord]:
    records = []
    for seed in seeds:
        ref = play_random_from_state_engine(state, seed)
        assert play_random_from_state(state, seed) == ref, seed
        records.append(ref)
    return records


def test_blocked_hand_fewest_points_wins() -> None:
    state = _position(2, ["B1 G2", "Y3 B4"], draw_pile=())
    for r in _same_from(state):
        assert (r.hand_winner, r.winner, r.hands) == (-1, 0, 1)


def test_blocked_hand_tied_on_points_and_cards_plays_a_tie_break_hand() -> None:
    for players, hands in ((2, ["B1 G2", "Y3 B0"]), (3, ["B1 G2", "Y9 B9", "Y3 B0"])):
        state = _position(players, hands, draw_pile=())
        for r in _same_from(state):
            assert r.hands == 2 and r.hand_winner >= 0


def test_tied_tie_break_hand_the_player_who_drew_last_loses() -> None:
    state = _position(
        3,
        ["B1 G2", "", "Y3 B0"],
        draw_pile=(),
        tiebreak=(0, 2),
        hand_no=1,
        in_hand=(True, False, True),
        last_draw=(9, 3, 4),
    )
    for r in _same_from(state):
        assert (r.hand_winner, r.winner) == (-1, 2)


def test_going_out_on_wild_draw_four_still_makes_the_next_player_draw() -> None:
    state = _position(2, ["W4", "R1 B2"], draw_pile=parse_cards("B6 R1 Y5 B0 G7"))
    records = _same_from(state, range(20))
    assert any(r.cards == (0, 6) for r in records)


def test_kernel_refuses_rules_it_does_not_implement() -> None:
    with pytest.raises(OptionError, match="drawn_card"):
        play_random_games(
            2, [1], [1], rules=find_preset("classic").with_options(match="single_hand")
        )
    with pytest.raises(OptionError, match="match"):
        play_random_games(2, [1], [1], rules=find_preset("mattel"))
    with pytest.raises(OptionError):
        play_random_games(11, [1], [1])
