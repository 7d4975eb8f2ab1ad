"""The draw-poker PettingZoo environment: PettingZoo's own API and seed tests
for both decks, with and without a computer opponent, in both episode modes; every legal
action has its own index; an observation never depends on the other hand or on the deck; deal
rewards are the chips won and sum to zero."""

from __future__ import annotations

import dataclasses
import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mazziere.errors import IllegalAction, OptionError, UnknownOption
from mazziere.poker import Draw, Open, Raise, Rules, State, find_preset, legal_actions, new_game
from mazziere.poker import apply as poker_apply
from mazziere.poker import view as poker_view
from mazziere.poker.state import ItemStatus
from mazziere.rl import SingleAgentDrawPoker, draw_poker_env
from mazziere.rl import poker_encoding as P

CASES: list[tuple[int, str | None, str]] = [
    (deck, opponent, episode)
    for deck in (52, 32)
    for opponent in (None, "easy", "hard")
    for episode in ("deal", "game")
]


def _id(case: tuple[int, str | None, str]) -> str:
    deck, opponent, episode = case
    return f"{deck}-{opponent or 'two'}-{episode}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_pettingzoo_api_and_seed_tests_pass(case: tuple[int, str | None, str]) -> None:
    deck, opponent, episode = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a Dict observation with a mask is PettingZoo's own form
        api_test(draw_poker_env(deck, opponent, episode), num_cycles=300)
        seed_test(lambda: draw_poker_env(deck, opponent, episode), num_cycles=300)


def test_normal_opponent_and_house_options_pass_the_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(draw_poker_env(32, "normal", flush_beats_full_house=True), num_cycles=200)
        api_test(draw_poker_env(52, max_bet=None, max_raises=5, max_replace=3), num_cycles=300)


def _play_out(env: Any, rnd: random.Random) -> dict[str, float]:
    """Random legal actions to the end of the episode: the final rewards (checking on the way
    that the chips the environment counts as each seat's stake make up the pot)."""
    last: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if not any(env.terminations.values()):
            assert sum(env._stake) == env.game.pot
        if term or trunc:
            last[agent] = reward
            env.step(None)
            continue
        env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return last


@pytest.mark.parametrize("deck", [52, 32])
def test_deal_rewards_are_chips_and_sum_to_zero(deck: int) -> None:
    env = draw_poker_env(deck)
    nonzero = 0
    for seed in range(40):
        env.reset(seed=seed)
        last = _play_out(env, random.Random(seed))
        assert set(last) == {"player_0", "player_1"}
        assert last["player_0"] + last["player_1"] == 0
        assert last["player_0"] == int(last["player_0"])
        nonzero += last["player_0"] != 0
        # the winner got what the loser put in: never more than a starting cover
        assert abs(last["player_0"]) <= Rules().bankroll + 6 * Rules().item_value
    assert nonzero > 30


def test_folding_at_once_loses_the_ante() -> None:
    env = draw_poker_env()
    env.reset(seed=5)
    agent = env.agent_selection
    other = next(a for a in env.agents if a != agent)
    env.step(P.FOLD)
    assert env.rewards[agent] == -5 and env.rewards[other] == 5
    assert all(env.terminations.values())


def test_a_game_episode_ends_with_the_game_and_gives_plus_and_minus_one() -> None:
    env = draw_poker_env(32, episode="game")
    env.reset(seed=2)
    last = _play_out(env, random.Random(2))
    assert env.game is not None and env.game.is_over and env.game.deal_no > 1
    assert sorted(last.values()) == [-1.0, 1.0]
    env = draw_poker_env(52, "easy", episode="game")
    env.reset(seed=2)
    last = _play_out(env, random.Random(2))
    assert env.game is not None and env.game.is_over
    assert list(last) == ["player_0"] and last["player_0"] in (-1.0, 1.0)
    assert env.game.result is not None
    assert (last["player_0"] == 1.0) == (env.game.result.winner == 0)


def test_the_opponent_plays_seat_one_inside_step() -> None:
    env = draw_poker_env(52, "hard")
    assert env.possible_agents == ["player_0"]
    for seed in range(10):
        env.reset(seed=seed)
        while not env.terminations["player_0"]:
            g = env.game
            assert g is not None and g.current == 0 and env.agent_selection == "player_0"
            mask = env.observe("player_0")["action_mask"]
            env.step(random.Random(seed).choice(np.flatnonzero(mask).tolist()))
        assert env.rewards["player_0"] == int(env.rewards["player_0"])


RULES: list[Rules] = [
    find_preset("classic"),
    find_preset("classic32"),
    find_preset("short32"),
    Rules(max_replace=3, max_raises=6),
    Rules(max_bet=None, bankroll=120),
]


@pytest.mark.parametrize("rules", RULES, ids=["classic", "classic32", "short32", "r3", "nolimit"])
def test_every_legal_action_has_its_own_index(rules: Rules) -> None:
    """No two legal actions share an index (the mask would hide one), in random games; every
    action of the engine is offered when bets are at most MAX_EXACT chips."""
    kinds: set[str] = set()
    for seed in range(8):
        s = new_game(rules, seed)
        rnd = random.Random(seed)
        for _ in range(300):
            if s.is_over:
                break
            v = poker_view(s, s.current)
            legal = legal_actions(s, s.current)
            assert set(v.legal) == set(legal)
            offered = P.offered(v)
            assert all(0 <= i < P.ACTIONS for i in offered)
            assert len(set(offered.values())) == len(offered)
            capped = rules.max_bet is not None and rules.max_bet <= P.MAX_EXACT
            if capped:
                assert len(offered) == len(legal), legal
            else:
                big = [a for a in legal if isinstance(a, Open | Raise) and a.amount > P.MAX_EXACT]
                assert len(offered) >= len(legal) - len(big)
            for i, a in offered.items():
                assert P.action_index(a, v.hand, v.bet_range) == i
            kinds |= {type(a).__name__ for a in offered.values()}
            s, _ = poker_apply(s, s.current, rnd.choice(list(offered.values())))
    assert {"Open", "Raise", "Wait", "Replace", "See", "Fold", "Draw"} <= kinds


def test_action_index_blocks() -> None:
    s = new_game(Rules(), 1)
    hand = s.hands[s.current]
    assert P.action_index(Draw(()), hand, None) == P.DRAW
    assert P.action_index(Draw((hand[0], hand[4])), hand, None) == P.DRAW + 0b10001
    assert P.action_index(Draw(hand), hand, None) == P.DRAW + 31
    assert P.action_index(Open(5), hand, (5, 50)) == P.OPEN + 4
    assert P.action_index(Raise(50), hand, (5, 50)) == P.RAISE + 49
    assert P.action_index(Open(800), hand, (5, 800)) == P.OPEN_MAX
    assert P.action_index(Raise(150), hand, (150, 800)) == P.RAISE_MIN
    assert P.action_index(Raise(300), hand, (5, 800)) is None
    assert P.ACTIONS == 240 and P.OBS_SIZE == 459


def _hidden_swapped(g: State, seat: int, rnd: random.Random) -> State:
    """A copy of ``g`` with every card ``seat`` cannot see (the other hand, the deck) dealt
    again at random, sizes unchanged, and another random source."""
    other = 1 - seat
    pool = list(g.hands[other]) + list(g.deck)
    rnd.shuffle(pool)
    k = len(g.hands[other])
    hands = list(g.hands)
    hands[other] = tuple(pool[:k])
    return dataclasses.replace(
        g,
        hands=(hands[0], hands[1]),
        deck=tuple(pool[k:]),
        rng=new_game(g.rules, rnd.randrange(2**32)).rng,
    )


@pytest.mark.parametrize(("deck", "opponent"), [(52, None), (32, None), (32, "normal")])
def test_no_observation_depends_on_the_other_hand_or_the_deck(
    deck: int, opponent: str | None
) -> None:
    env = draw_poker_env(deck, opponent, episode="game")
    rnd = random.Random(11)
    compared = changed = 0
    for seed in range(4 if opponent is None else 8):
        env.reset(seed=seed)
        for _ in range(150):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            real = env.game
            assert real is not None
            for name in env.possible_agents:
                seat = int(name[-1])
                before = env.observe(name)
                env.game = _hidden_swapped(real, seat, rnd)
                after = env.observe(name)
                changed += env.game.hands[1 - seat] != real.hands[1 - seat]
                env.game = real
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
                compared += 1
            mask = env.observe(agent)["action_mask"]
            env.step(rnd.choice(np.flatnonzero(mask).tolist()))
    assert compared > 300 and changed > compared * 0.9


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    env = draw_poker_env(32)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    before = env.observe(agent)["observation"].copy()
    state = env.game
    for bad in (int(np.flatnonzero(mask == 0)[0]), P.DRAW, P.ACTIONS, -1):
        with pytest.raises(IllegalAction):
            env.step(bad)
    with pytest.raises(IllegalAction):
        env.step(None)
    assert env.agent_selection == agent and env.game is state
    assert np.array_equal(env.observe(agent)["observation"], before)


def test_unknown_options_are_refused() -> None:
    with pytest.raises(UnknownOption):
        draw_poker_env(52, no_such_rule=True)
    with pytest.raises(UnknownOption):
        draw_poker_env(52, opponent="grandmaster")
    with pytest.raises(OptionError):
        draw_poker_env(40)
    with pytest.raises(OptionError):
        draw_poker_env(52, episode="match")
    with pytest.raises(OptionError):
        draw_poker_env(52, bankroll=0)


def test_observation_encodes_the_agents_own_view() -> None:
    env = draw_poker_env(32, max_bet=None)
    env.reset(seed=9)
    g = env.game
    assert g is not None
    for seat, name in enumerate(env.possible_agents):
        o = env.observe(name)["observation"]
        assert (o >= 0).all() and o.dtype == np.float32
        for slot, c in enumerate(g.hands[seat]):
            assert o[P.O_HAND + slot * P.CARDS + int(c)] == 1
        assert o[P.O_HAND : P.O_HAND + 5 * P.CARDS].sum() == 5
        assert o[P.O_DECK + 1] == 1 and o[P.O_POT] == g.pot == 10
        assert o[P.O_BANKROLL] == g.bankrolls[seat]
        assert o[P.O_CURRENT + (g.current - seat) % 2] == 1
        assert o[P.O_FIRST + (g.first - seat) % 2] == 1
        worn = 100 * sum(1 for s in g.items if s is ItemStatus.WORN)
        assert o[P.O_ITEMS + (1 - seat)] == worn and o[P.O_ITEMS + seat] == 0
        assert o[P.O_DRAWN] == 1 and o[P.O_DRAWN + 7] == 1  # nobody has drawn yet
        assert o[P.O_DECK_LEFT] == 22
    cur = env.agent_selection
    env.step(P.OPEN + 9)  # open 10
    o = env.observe(cur)["observation"]
    assert o[P.O_HISTORY] == 1 and o[P.O_HISTORY + 2] == 1 and o[P.O_HISTORY + 9] == 10
    other = env.agent_selection
    assert other != cur
    o = env.observe(other)["observation"]
    assert o[P.O_OWED] == 10 and o[P.O_HISTORY + 1] == 1
    assert o[P.O_BET_RANGE] == 5 and o[P.O_BET_RANGE + 1] > P.MAX_EXACT


@pytest.mark.parametrize("episode", ["deal", "game"])
def test_the_gymnasium_wrapper_passes_its_checker_and_replays_a_seed(episode: str) -> None:
    """Gymnasium's ``check_env`` steps unmasked random indices, which this environment refuses
    (IllegalAction), so its reset checks and the passive step checker run here instead."""
    from gymnasium.utils import env_checker as C
    from gymnasium.utils.passive_env_checker import env_reset_passive_checker as reset_check
    from gymnasium.utils.passive_env_checker import env_step_passive_checker as step_check

    env = SingleAgentDrawPoker(32, "easy", episode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        C.check_reset_return_type(env)
        C.check_reset_seed_determinism(env)
        C.check_reset_return_info_deprecation(env)
        obs, _ = reset_check(env, seed=1)
        step_check(env, int(np.flatnonzero(obs["action_mask"])[0]))

    def episode_of(seed: int) -> tuple[list[int], float]:
        env = SingleAgentDrawPoker(52, "easy", episode)
        obs, _ = env.reset(seed=seed)
        rnd, taken, total, done = random.Random(seed), [], 0.0, False
        while not done:
            taken.append(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            obs, reward, term, trunc, _ = env.step(taken[-1])
            total += float(reward)
            done = term or trunc
        return taken, total

    assert episode_of(4) == episode_of(4)
    with pytest.raises(OptionError):
        SingleAgentDrawPoker(52, None)  # type: ignore[arg-type]
