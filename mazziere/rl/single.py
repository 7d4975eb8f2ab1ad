"""One UNO seat against built-in computer players, as a Gymnasium environment.

>>> env = SingleAgentUno(preset="mattel", players=3, opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> bool(obs["action_mask"].sum() >= 1)
True

The agent is ``seat`` (default 0) of a :class:`~mazziere.rl.uno_env.UnoEnv`, with the same
observation, action space, rules, episodes and rewards; every other seat is played by a bot
of :mod:`mazziere.uno.bots` (``greedy``, ``random``, ``autoplay``, ``strong``), deciding from its
own view, including its out-of-turn offers (a bot that declines one waits). ``step`` applies
the agent's action and then the bots' until the agent must decide again or the episode ends;
the reward is the agent's (+1/-1 at the end, 0 before). The bots' random choices come from
the seed given to ``reset``. An index the mask does not set raises
:class:`~mazziere.errors.IllegalAction` and changes nothing (``illegal="raise"``), or, with
``illegal="lose"`` (for trainers and checkers that sample the whole space), ends the episode
with reward -1 as if the agent had lost.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from mazziere.rl import uno_encoding as U
from mazziere.rl.uno_env import ObsDict, UnoEnv
from mazziere.uno import view
from mazziere.uno.bots import find_bot


class SingleAgentUno(gymnasium.Env[ObsDict, int]):
    """Gymnasium environment: one seat of :class:`UnoEnv` against bots (module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's own class attribute

    def __init__(
        self,
        preset: str = "mattel",
        players: int = 2,
        opponents: str = "greedy",
        seat: int = 0,
        reward: str = "hand",
        max_steps: int = 100_000,
        illegal: str = "raise",
        **options: Any,
    ) -> None:
        self.env = UnoEnv(preset, players, reward, max_steps, None, **options)
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal is 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self._lost = False
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0-{players - 1}, not {seat}")
        self.seat = seat
        self.agent = self.env.possible_agents[seat]
        names = [n.strip() for n in opponents.split(",")]
        self.bots = [find_bot(names[k % len(names)]) for k in range(players)]
        self.observation_space = self.env.observation_space(self.agent)
        self.action_space = self.env.action_space(self.agent)
        self._bot_rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._bot_rng = random.Random(seed)
        self.env.reset(seed=seed)
        self._lost = False
        self._play_bots()
        return self.env.observe(self.agent), {}

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        if self._over():
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        if self.env.agent_selection != self.agent:  # pragma: no cover - _play_bots guards it
            raise RuntimeError("not the agent's turn")
        if self.illegal == "lose" and int(action) not in self.env._legal:
            self._lost = True
            return self.env.observe(self.agent), -1.0, True, False, {"illegal": int(action)}
        self.env.step(int(action))
        self._play_bots()
        e = self.env
        reward = float(e._cumulative_rewards.get(self.agent, 0.0))
        terminated = bool(e.terminations.get(self.agent, False))
        truncated = bool(e.truncations.get(self.agent, False))
        return e.observe(self.agent), reward, terminated, truncated, {}

    def render(self) -> str | None:
        self.env.render_mode = "ansi"
        return self.env.render()

    def _over(self) -> bool:
        e = self.env
        return self._lost or bool(e.terminations.get(self.agent) or e.truncations.get(self.agent))

    def _play_bots(self) -> None:
        e = self.env
        g = e._require_game()
        while not self._over() and e.agent_selection != self.agent:
            seat = e.possible_agents.index(e.agent_selection)
            action = self.bots[seat].act(view(g, seat), self._bot_rng)
            index = U.WAIT if action is None else U.action_index(action, seat, e.players)
            e.step(index)


def random_masked_action(obs: ObsDict, rng: np.random.Generator) -> int:
    """An index drawn uniformly from the set entries of ``obs["action_mask"]``."""
    return int(rng.choice(obs["action_mask"].nonzero()[0]))
