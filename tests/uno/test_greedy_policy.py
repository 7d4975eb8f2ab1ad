"""Greedy's rules of thumb are written once (mazziere/uno/bots/policy.py, compiled with the
engine): the ``greedy`` bot reads them from a view, the ``strong`` bot's rollouts from a game's
own fields. Both readings give the same decisions on every position, and the rollouts skip
asking the other seats only when none of them can act out of turn."""

from __future__ import annotations

import random

import pytest

from mazziere.uno import apply, new_game, view
from mazziere.uno.bots import find_bot
from mazziere.uno.bots.policy import Sight, decide
from mazziere.uno.bots.rollouts import next_action, out_of_turn_possible
from mazziere.uno.presets import PRESETS

TABLES = [
    (name, n)
    for name, rules in PRESETS.items()
    for n in (2, 3, 4, 6)
    if rules.min_players <= n <= rules.max_players
]


def _positions(preset: str, players: int, games: int):  # type: ignore[no-untyped-def]
    """Positions of games played by greedy and random moves mixed (varied positions)."""
    rules = PRESETS[preset]
    greedy, rand = find_bot("greedy"), find_bot("random")
    for game in range(games):
        s = new_game(rules, players, rng=f"policy{preset}{players}{game}")
        rng = random.Random(game)
        steps = 0
        while not s.is_over and steps < 1500:
            steps += 1
            yield s
            v = view(s, s.current)
            a = (rand if rng.random() < 0.3 else greedy).act(v, rng)
            s, _ = apply(s, s.current, a)


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_greedy_rollout_policy_decides_as_the_greedy_bot(preset: str, players: int) -> None:
    greedy = find_bot("greedy")
    rng = random.Random(0)
    compared = 0
    for s in _positions(preset, players, 3):
        for seat in range(players):
            v = view(s, seat)
            if not v.legal:
                continue
            assert decide(Sight.of_game(s, seat)) == greedy.act(v, rng)
            compared += 1
    assert compared > 150


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_rollout_skips_other_seats_only_when_none_can_act_out_of_turn(
    preset: str, players: int
) -> None:
    seen_false = 0
    for s in _positions(preset, players, 3):
        g = s.copy()
        if not out_of_turn_possible(g):
            seen_false += 1
            assert all(not g.legal_actions(t) for t in range(players) if t != g.current)
        seat, action = next_action(g.copy())
        assert action in g.legal_actions(seat)
    assert seen_false > 0
