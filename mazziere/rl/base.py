"""What every environment of :mod:`mazziere.rl` does the same way, written once: the masked
spaces, the seed stream, an episode's bookkeeping, and the step's frame (a dead agent's
``None``, an illegal index refused with nothing changed, truncation after ``max_steps``).

A game's environment supplies the rest (abstract methods): ``_advance(agent, chosen)`` (play
the chosen action, end the episode where the game says, then count the step and select the
next agent: ``_count_step()``, or its own compiled equivalent) and ``_select()`` (the agent to
act and ``_legal``, its legal indices mapped to the game's actions).
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from mazziere.errors import IllegalAction, OptionError

ObsDict = dict[str, npt.NDArray[Any]]

_NOT_LEGAL = object()
"""What an index that is not legal now maps to (a legal one may map to ``None``: wait)."""


class MaskedAECEnv(AECEnv[str, ObsDict, "int | None"], abc.ABC):  # type: ignore[misc]
    """A PettingZoo AEC environment with a ``Dict(observation, action_mask)`` observation and a
    ``Discrete`` action space (module docstring). A game's environment implements
    :meth:`_apply` and :meth:`_select` (abstract: the class cannot be built without them)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mazziere_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, obs_size: int, actions: int, max_steps: int, render_mode: str | None
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode is 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.action_count = actions
        obs = spaces.Box(0.0, np.inf, (obs_size,), np.float32)
        mask = spaces.Box(0, 1, (actions,), np.int8)
        self._obs_space = spaces.Dict({"observation": obs, "action_mask": mask})
        self._act_space = spaces.Discrete(actions)
        self._stream = np.random.default_rng()
        self._legal: dict[int, Any] = {}
        self._steps = 0
        self._done = False
        """Whether the episode is over: every agent terminated or truncated (set by
        :meth:`_terminate` and the truncation; one flag instead of scanning the dicts)."""

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def legal_action_indices(self) -> list[int]:
        """The indices the agent to act may take now (the ones its mask sets)."""
        return sorted(self._legal)

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ episodes
    def _seed(self, seed: int | None) -> int:
        """A new game's seed: ``reset(seed=s)`` restarts the stream from ``s`` alone; a reset
        without a seed continues it (PettingZoo's ``seed_test``)."""
        if seed is not None:
            self._stream = np.random.default_rng(seed)
        return int(self._stream.integers(0, 2**63))

    def _start_episode(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._done = False

    def _terminate(self, rewards: dict[str, float]) -> None:
        """End the episode for every agent with these rewards."""
        self.rewards.update(rewards)
        self.terminations = dict.fromkeys(self.agents, True)
        self._done = True

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        """``agent``'s action mask: its legal indices if it is to act, else none (written
        through the array's memoryview: no NumPy call per index)."""
        mask = np.zeros(self.action_count, dtype=np.int8)
        if agent == self.agent_selection and not self._done:
            m = mask.data
            for i in self._legal:
                m[i] = 1
        return mask

    def _over(self, agent: str) -> bool:
        return self.terminations.get(agent, True) or self.truncations.get(agent, False)

    # ------------------------------------------------------------------ the step
    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self._done and self._over(agent):
            self._was_dead_step(action)
            return
        chosen = self._legal.get(-1 if action is None else int(action), _NOT_LEGAL)
        if chosen is _NOT_LEGAL:
            raise IllegalAction(
                f"action {action} is not legal for {agent} now (see the action mask)",
                "illegal_action",
            )
        self._cumulative_rewards[agent] = 0.0
        # Rewards are only given when the episode ends (_terminate), so during an episode
        # they are all 0: PettingZoo's clearing and accumulating are needed only then.
        self._advance(agent, chosen)
        if self._done:
            self._accumulate_rewards()

    def _count_step(self) -> None:
        """After a move: count it, and truncate the episode at ``max_steps`` or select the
        next agent (what :meth:`_advance` does after playing the move, unless it does both in
        one call of its own)."""
        self._steps += 1
        if not self._done:
            if self._steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
                self._done = True
            else:
                self._select()

    @abc.abstractmethod
    def _advance(self, agent: str, chosen: Any) -> None:
        """Play ``chosen`` (the legal move behind the agent's action index) for ``agent``,
        end the episode where the game says (:meth:`_terminate`), then :meth:`_count_step`."""

    @abc.abstractmethod
    def _select(self) -> None:
        """Point ``agent_selection`` at the next agent to act and ``_legal`` at its moves."""
