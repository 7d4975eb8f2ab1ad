"""The UNO PettingZoo environment: PettingZoo's own API and seed tests for
every preset and for several house-rule options and seat counts; every legal action has its
own index; an observation never depends on another seat's hidden cards or on the deck."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mazziere.errors import IllegalAction, UnknownOption
from mazziere.rl import uno_encoding as U
from mazziere.rl import uno_env
from mazziere.rl.uno_env import out_of_turn_possible
from mazziere.uno import PRESETS, Game, find_preset

HOUSE_EVERYTHING: dict[str, Any] = {
    "multi_play": True,
    "seven_swap": True,
    "zero_gives_four": True,
    "jump_in": True,
    "challenge_by": "any",
}
"""Options that open every kind of action at once: several cards, targets, jump-ins, challenges
by anyone (with ``house``'s stacking and UNO catches)."""

CASES: list[tuple[str, int, dict[str, Any]]] = [
    *[(p, 2, {}) for p in PRESETS],
    *[(p, 4, {}) for p in PRESETS if p != "casino"],
    ("classic", 10, {}),
    ("house", 7, {}),
    ("house", 4, HOUSE_EVERYTHING),
    ("house", 3, {"burn": True, "multi_play": False}),
    ("house", 5, {"zero_rotate": True, "seven_swap": True}),
    ("classic", 4, {"teams": True}),
    ("classic", 3, {"scoring": "penalty", "elimination": True, "match": "target_points"}),
    ("mattel", 2, {"uno_call": "off", "challenge": False}),
    ("classic", 5, {"uno_call": "auto"}),
]


def _id(case: tuple[str, int, dict[str, Any]]) -> str:
    preset, players, options = case
    return f"{preset}-{players}" + ("-" + "-".join(sorted(options)) if options else "")


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_pettingzoo_api_and_seed_tests_pass(case: tuple[str, int, dict[str, Any]]) -> None:
    preset, players, options = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a Dict observation with a mask is PettingZoo's own form
        api_test(uno_env(preset, players, **options), num_cycles=400)
        seed_test(lambda: uno_env(preset, players, **options), num_cycles=400)


def test_match_episodes_pass_the_api_test_and_end_with_the_match() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(uno_env("mattel", 3, reward="match"), num_cycles=2000)
    env = uno_env("mattel", 3, reward="match")
    env.reset(seed=4)
    hands, last = _play_out(env, random.Random(4))
    assert env.game is not None and env.game.result is not None and hands > 1
    assert sorted(last.values()) == [-1.0, -1.0, 1.0]


def _play_out(env: Any, rnd: random.Random) -> tuple[int, dict[str, float]]:
    """Random legal actions to the end of the episode: (hands started, final rewards)."""
    last: dict[str, float] = {}
    hands = set()
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        hands.add(env.game.hand_no)
        if term or trunc:
            last[agent] = reward
            env.step(None)
            continue
        env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return len(hands), last


def test_a_hand_episode_rewards_the_winner_and_the_winning_team() -> None:
    env = uno_env("classic", 4, teams=True)
    for seed in range(5):
        env.reset(seed=seed)
        _, last = _play_out(env, random.Random(seed))
        if all(r == 0 for r in last.values()):
            continue  # a blocked hand: nobody won
        assert last["player_0"] == last["player_2"] and last["player_1"] == last["player_3"]
        assert sorted(last.values()) == [-1.0, -1.0, 1.0, 1.0]


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_legal_action_has_its_own_index(case: tuple[str, int, dict[str, Any]]) -> None:
    """No two legal actions share an index (the mask would hide one), in random games."""
    preset, players, options = case
    rules = find_preset(preset).with_options(**options) if options else find_preset(preset)
    seen_kinds: set[str] = set()
    for seed in range(6):
        g = Game.new(rules, players, seed)
        rnd = random.Random(seed)
        for _ in range(400):
            if g.result is not None:
                break
            for seat in range(players):
                legal = g.legal_actions(seat)
                indices = {U.action_index(a, seat, players) for a in legal}
                assert len(indices) == len({_outcome(a) for a in legal}), (seat, legal)
                assert all(0 <= i < U.action_count(rules) and i != U.WAIT for i in indices)
                seen_kinds |= {type(a).__name__ for a in legal}
            if not out_of_turn_possible(rules):  # the environment asks only the seat to play
                assert all(not g.legal_actions(s) for s in range(players) if s != g.current)
            moves = [(s, a) for s in range(players) for a in g.legal_actions(s)]
            seat, action = rnd.choice(moves)
            g.push(action, seat)
    assert "Play" in seen_kinds and "Draw" in seen_kinds


def _outcome(action: Any) -> Any:
    """What an action changes: a several-card play by its cards (as a multiset), last card and
    target (its first card and middle order change nothing)."""
    from mazziere.uno import actions as A

    if isinstance(action, A.Play) and len(action.cards) > 1:
        return ("multi", tuple(sorted(action.cards)), action.cards[-1], action.target)
    return action


def test_several_card_plays_and_targets_use_the_upper_blocks() -> None:
    from mazziere.cards.uno import Card
    from mazziere.uno import actions as A

    pair = A.play_of((Card(5), Card(13 + 5)))  # R5 then Y5
    assert U.MULTI <= U.action_index(pair, 0, 4) < U.MULTI_TARGET
    reversed_pair = A.play_of((Card(13 + 5), Card(5)))  # Y5 last: another colour in force
    assert U.action_index(reversed_pair, 0, 4) != U.action_index(pair, 0, 4)
    three = A.play_of((Card(5), Card(26 + 5), Card(13 + 5)))
    same_outcome = A.play_of((Card(26 + 5), Card(5), Card(13 + 5)))
    assert U.action_index(three, 0, 4) == U.action_index(same_outcome, 0, 4)
    swap = A.play_of((Card(7),), None, 2)  # R7 swapping with seat 2
    assert U.action_index(swap, 0, 4) == U.PLAY_TARGET + 4 * 9 + 1
    assert U.action_index(swap, 1, 4) == U.PLAY_TARGET + 4 * 9 + 0  # seat 2 is next to seat 1
    sevens = A.play_of((Card(7), Card(26 + 7)), None, 3)
    assert U.MULTI_TARGET <= U.action_index(sevens, 0, 4) < U.ACTIONS


def _hidden_swapped(g: Game, seat: int, rnd: random.Random) -> Game:
    """A copy of ``g`` with every card ``seat`` cannot see (other hands, the draw pile, the
    discards under the top card) dealt again at random, sizes unchanged."""
    h = g.copy()
    others = [s for s in range(h.players) if s != seat]
    pool = [c for s in others for c in h.hands[s]] + list(h.draw_pile) + list(h.discard[:-1])
    rnd.shuffle(pool)
    at = 0
    for s in others:
        k = len(h.hands[s])
        h.hands[s] = pool[at : at + k]
        at += k
    k = len(h.draw_pile)
    h.draw_pile = pool[at : at + k]
    at += k
    h.discard = [*pool[at:], h.discard[-1]]
    return h


@pytest.mark.parametrize(("preset", "players"), [("mattel", 2), ("house", 4), ("classic", 6)])
def test_no_observation_depends_on_another_seats_hidden_cards(preset: str, players: int) -> None:
    env = uno_env(preset, players)
    rnd = random.Random(11)
    compared = changed = 0
    for seed in range(4):
        env.reset(seed=seed)
        for _ in range(120):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            g = env.game
            assert g is not None
            for seat, name in enumerate(env.possible_agents):
                before = env.observe(name)
                real = env.game
                env.game = _hidden_swapped(g, seat, rnd)
                after = env.observe(name)
                changed += any(env.game.hands[s] != real.hands[s] for s in range(players))
                env.game = real
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
                compared += 1
            mask = env.observe(agent)["action_mask"]
            env.step(rnd.choice(np.flatnonzero(mask).tolist()))
    assert compared > 300 and changed > compared * 0.9


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    env = uno_env("mattel", 2)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(IllegalAction):
        env.step(bad)
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before)


def test_unknown_options_and_seat_counts_are_refused() -> None:
    with pytest.raises(UnknownOption):
        uno_env("house", 4, no_such_rule=True)
    with pytest.raises(Exception, match="players"):
        uno_env("online", 7)


def test_action_space_size_follows_the_rules() -> None:
    assert uno_env("mattel", 2).action_space("player_0").n == U.BASE_ACTIONS == 151
    assert uno_env("house", 4).action_space("player_0").n == U.ACTIONS == 9223
    assert uno_env("classic", 3, burn=True).action_space("player_1").n == U.ACTIONS


def test_observation_encodes_the_agents_own_view() -> None:
    env = uno_env("mattel", 3)
    env.reset(seed=9)
    g = env.game
    assert g is not None
    for seat, name in enumerate(env.possible_agents):
        o = env.observe(name)["observation"]
        assert o[U.O_HAND : U.O_HAND + U.FACES].sum() == len(g.hands[seat])
        assert o[U.O_COUNTS] == len(g.hands[seat])  # offset 0 is the agent itself
        assert o[U.O_COUNTS + 1] == len(g.hands[(seat + 1) % 3])
        assert o[U.O_TOP + g.discard[-1]] == 1
        assert o[U.O_CURRENT + (g.current - seat) % 3] == 1


def test_single_agent_wrapper_passes_gymnasiums_checker_and_plays_against_bots() -> None:
    from gymnasium.utils.env_checker import check_env

    from mazziere.rl import SingleAgentUno
    from mazziere.rl.single import random_masked_action

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SingleAgentUno("mattel", 3, "greedy", illegal="lose"), skip_render_check=True)
    env = SingleAgentUno("house", 4, "greedy,random", seat=2)
    rng = np.random.default_rng(0)
    results = []
    for seed in range(30):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            assert env.env.agent_selection == "player_2"
            obs, reward, term, trunc, _ = env.step(random_masked_action(obs, rng))
            done = term or trunc
        results.append(reward)
    assert set(results) <= {-1.0, 0.0, 1.0} and -1.0 in results
    # the same seed, the same actions: the same episode
    a, _ = env.reset(seed=3)
    b, _ = env.reset(seed=3)
    assert np.array_equal(a["observation"], b["observation"])
    bad = int(np.flatnonzero(b["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step(bad)


def _reference_encode(g: Game, me: int, history: list[tuple[int, int, int]]) -> Any:
    """The observation table of mazziere/rl/uno_encoding.py written plainly with NumPy (the
    encoder before it was compiled): the compiled writer must give the same vector."""
    o = np.zeros(U.OBS_SIZE, dtype=np.float32)
    n = g.players
    for c in g.hands[me]:
        o[c] += 1
    o[U.O_TOP + g.discard[-1]] = 1
    if g.color is not None:
        o[U.O_COLOR + int(g.color)] = 1
    o[U.O_DIR] = 1 if g.direction > 0 else 0
    ns = len(g.scores)
    for k in range(n):
        s = (me + k) % n
        o[U.O_COUNTS + k] = len(g.hands[s])
        o[U.O_IN_HAND + k] = g.in_hand[s]
        o[U.O_ACTIVE + k] = g.active[s]
        o[U.O_SCORES + k] = g.scores[s % ns]
    o[U.O_CURRENT + (g.current - me) % n] = 1
    o[U.O_PENDING] = g.pending
    phases = ("play", "drawn", "pending", "color", "over")
    o[U.O_PHASE + phases.index(g.phase.value)] = 1
    if g.drawn is not None and g.current == me:
        o[U.O_DRAWN + g.drawn] = 1
    if g.uno_seat is not None:
        o[U.O_UNO_SEAT + (g.uno_seat - me) % n] = 1
        o[U.O_UNO_CALLED] = g.uno_called
    if g.w4_by is not None:
        o[U.O_CHALLENGEABLE] = 1
        o[U.O_W4_BY + (g.w4_by - me) % n] = 1
    o[U.O_DRAW_PILE] = len(g.draw_pile)
    o[U.O_DISCARD] = len(g.discard)
    at = U.O_HISTORY
    for seat, face_at, colour_at in reversed(history[-U.HISTORY :]):
        o[at + (seat - me) % n] = 1
        o[at + face_at] = 1
        o[at + colour_at] = 1
        at += U.HISTORY_WIDTH
    return o


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_compiled_observation_matches_the_plain_encoding(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """Every seat's observation, in random episodes (match rewards: scores, several hands)."""
    preset, players, options = case
    env = uno_env(preset, players, reward="match", **options)
    rnd = random.Random(5)
    checked = 0
    for seed in range(2):
        env.reset(seed=seed)
        for _ in range(300):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            g = env.game
            assert g is not None
            for name in env.possible_agents:
                seat = int(name.split("_")[1])
                want = _reference_encode(g, seat, env._history)
                got = env.observe(name)["observation"]
                assert got.dtype == np.float32 and np.array_equal(got, want), (name, seed)
                assert np.array_equal(U.encode(g, seat, tuple(env._history)), want)
                checked += 1
            mask = env.observe(agent)["action_mask"]
            env.step(rnd.choice(np.flatnonzero(mask).tolist()))
    assert checked > 100
