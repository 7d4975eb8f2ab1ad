"""UNO as a PettingZoo AEC environment, for 2-10 players under every preset and option.

>>> env = uno_env(preset="house", players=4)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter(max_iter=50):
...     obs, reward, terminated, truncated, info = env.last()
...     env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
>>> env.observation_space("player_0")["observation"].shape, int(env.action_space("player_0").n)
((791,), 9223)

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). The encodings of actions and
observations are :mod:`mazziere.rl.uno_encoding`'s, identical for every preset, so a policy
can be trained on one rule set and tried on another. The game is the engine users call
(:class:`mazziere.uno.Game`); the action space has 151 indices, or 9,223 where the rules
allow several cards at once (``house``); every action an agent takes is one of the engine's legal
actions, applied with ``push`` (an index that is not legal now raises
:class:`~mazziere.errors.IllegalAction` and changes nothing).

**Who acts.** The seat to play acts, except when other seats are offered an action out of turn
(catching a missed UNO, a jump-in, a +4 challenge open to anyone): each such seat is asked
first, in seat order after the one to play, and may take the offer or ``wait``; a seat that
waited is not asked again until something is played. This is how the simulator asks its bots
(:mod:`mazziere.sim.uno_sim`).

**Rewards and episodes.** ``reward="hand"`` (default): an episode is one hand; when it ends
the seat that went out gets +1 and every other seat -1 (with teams, both partners of the
winning side +1); a hand nobody wins (blocked) gives 0 to all. ``reward="match"``: an
episode is the whole match (the preset's target score, eliminations, victory points...);
the winning side gets +1 and every other seat -1 when it ends. Nothing is given before the
end. An episode longer than ``max_steps`` agent steps is truncated for every agent.

**Seeds.** ``reset(seed=s)`` deals from a stream of ``s`` alone; resets without a seed
continue that stream (PettingZoo's ``seed_test``). The table state behind the agents is
``env.game`` (it holds every hand: give agents only ``observe``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from mazziere.errors import IllegalAction, OptionError
from mazziere.rl import uno_encoding as U
from mazziere.uno import Action, Game, Rules, find_preset, view
from mazziere.uno import events as E

REWARDS = ("hand", "match")

ObsDict = dict[str, npt.NDArray[Any]]


class UnoEnv(AECEnv[str, ObsDict, "int | None"]):  # type: ignore[misc]
    """PettingZoo AEC environment of :mod:`mazziere.uno` (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mazziere_uno_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "mattel",
        players: int = 2,
        reward: str = "hand",
        max_steps: int = 100_000,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        rules = find_preset(preset)
        if options:
            rules = rules.with_options(**options)
        rules.check_players(players)
        if reward not in REWARDS:
            raise OptionError(f"reward is 'hand' or 'match', not {reward!r}", "bad_option_value")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode is 'ansi' or 'human', not {render_mode!r}")
        self.rules = rules
        self.players = players
        self.reward_mode = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs = spaces.Box(0.0, np.inf, (U.OBS_SIZE,), np.float32)
        self.action_count = U.action_count(rules)
        mask = spaces.Box(0, 1, (self.action_count,), np.int8)
        self._obs_space = spaces.Dict({"observation": obs, "action_mask": mask})
        self._act_space = spaces.Discrete(self.action_count)
        self._stream = np.random.default_rng()
        self.game: Game | None = None
        self.offers_out_of_turn = out_of_turn_possible(rules)
        """Whether a seat may ever act out of turn under these rules (else only the seat to
        play is asked: no scan of the others' legal actions)."""
        self._indices: list[dict[Action, int]] = [{} for _ in range(players)]

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._stream = np.random.default_rng(seed)
        game_seed = int(self._stream.integers(0, 2**63))
        self.game = Game.new(self.rules, self.players, game_seed)
        self._hand_no = self.game.hand_no
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._history: list[tuple[int, int, int]] = []
        self._declined: set[int] = set()
        self._steps = 0
        self._record(self.game.events)
        self._select()

    def observe(self, agent: str) -> ObsDict:
        g = self._require_game()
        seat = self._seat[agent]
        obs = U.encode(g, seat, self._history)
        mask = np.zeros(self.action_count, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask[list(self._legal)] = 1
        return {"observation": obs, "action_mask": mask}

    def legal_action_indices(self) -> list[int]:
        """The indices the agent to act may take now (the ones its mask sets)."""
        return sorted(self._legal)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self._legal:
            raise IllegalAction(
                f"action {action} is not legal for {agent} now (see the action mask)",
                "illegal_action",
            )
        g = self._require_game()
        seat = self._seat[agent]
        chosen = self._legal[int(action)]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if chosen is None:  # wait: decline the offer
            self._declined.add(seat)
        else:
            events = g.push(chosen, seat)
            self._declined.clear()
            self._record(events)
            self._finish_if_over(events)
        self._steps += 1
        if self._steps >= self.max_steps and not any(self.terminations.values()):
            self.truncations = dict.fromkeys(self.agents, True)
        if not any(self.terminations.values()) and not any(self.truncations.values()):
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        g = self.game
        if g is None or self.render_mode is None:
            return None
        v = view(g, g.current)
        text = (
            f"hand {g.hand_no} turn of player_{g.current}: top {v.top} colour {v.color} "
            f"cards {list(v.hand_counts)} pending {v.pending} phase {v.phase.value}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ internals
    def _require_game(self) -> Game:
        if self.game is None:
            raise IllegalAction("call reset() before stepping the environment", "not_reset")
        return self.game

    def _record(self, events: Iterable[E.Event]) -> None:
        for e in events:
            if isinstance(e, E.Played):
                card = int(e.cards[-1])
                colour = int(e.color) if e.color is not None else card // 13
                self._history.append(U.history_entry(e.seat, card, colour))
        if len(self._history) > 4 * U.HISTORY:
            del self._history[: -U.HISTORY]

    def _select(self) -> None:
        """The agent to act: a seat offered an action out of turn that has not waited, in
        seat order after the seat to play; else the seat to play."""
        g = self._require_game()
        cur, n = g.current, self.players
        for k in range(1, n if self.offers_out_of_turn else 1):
            s = (cur + k) % n
            if s in self._declined:
                continue
            offers = g.legal_actions(s)
            if offers:
                self._legal = self._index(offers, s)
                self._legal[U.WAIT] = None
                self.agent_selection = self.possible_agents[s]
                return
        self._legal = self._index(g.legal_actions(cur), cur)
        self.agent_selection = self.possible_agents[cur]

    def _index(self, legal: Iterable[Action], seat: int) -> dict[int, Action | None]:
        known = self._indices[seat]
        out: dict[int, Action | None] = {}
        for a in legal:
            i = known.get(a)
            if i is None:
                i = known[a] = U.action_index(a, seat, self.players)
            out[i] = a
        return out

    def _finish_if_over(self, events: list[E.Event]) -> None:
        g = self._require_game()
        if self.reward_mode == "hand":
            for e in events:
                if isinstance(e, E.HandEnded):
                    self._end(None if e.winner is None else self._side_of(e.winner))
                    return
        if g.result is not None:
            self._end(g.result.winner)

    def _side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.teams else seat

    def _end(self, side: int | None) -> None:
        for a in self.agents:
            if side is None:
                self.rewards[a] = 0.0
            else:
                self.rewards[a] = 1.0 if self._side_of(self._seat[a]) == side else -1.0
        self.terminations = dict.fromkeys(self.agents, True)


def out_of_turn_possible(rules: Rules) -> bool:
    """Whether any seat but the one to play can have a legal action under ``rules``: catching
    or calling UNO (``uno_call`` other than ``off``), jumping in, challenging a +4 as anyone."""
    return (
        rules.uno_call != "off"
        or rules.jump_in
        or (rules.challenge and rules.challenge_by == "any")
    )


def uno_env(
    preset: str = "mattel",
    players: int = 2,
    reward: str = "hand",
    max_steps: int = 100_000,
    render_mode: str | None = None,
    **options: Any,
) -> UnoEnv:
    """A UNO environment (:class:`UnoEnv`): ``preset`` and any UNO option by name
    (``uno_env("house", 4, seven_swap=True)``); unknown names raise
    :class:`~mazziere.errors.UnknownOption`."""
    return UnoEnv(preset, players, reward, max_steps, render_mode, **options)
