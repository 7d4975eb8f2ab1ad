"""Heads-up five-card draw as a Gymnasium environment: one seat against a built-in computer
level (a thin wrapper of :class:`mazziere.rl.poker_env.DrawPokerEnv` with an opponent).

>>> env = SingleAgentDrawPoker(deck=32, opponent="easy")
>>> obs, info = env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
>>> sorted(obs), obs["observation"].shape
(['action_mask', 'observation'], (459,))

The agent plays seat 0 (``player_0``); the observation is the same dictionary as the AEC
environment's (``observation`` and ``action_mask``, :mod:`mazziere.rl.poker_encoding`), the
reward the same (``episode="deal"``: chips won or lost in the deal; ``"game"``: +1/-1 at the
end), and ``reset(seed=s)`` deals from a stream of ``s`` alone. An index that is not legal
raises :class:`~mazziere.errors.IllegalAction` and changes nothing.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium

from mazziere.errors import OptionError
from mazziere.rl.poker_env import DrawPokerEnv, ObsDict

AGENT = "player_0"


class SingleAgentDrawPoker(gymnasium.Env[ObsDict, int]):
    """Seat 0 of :class:`DrawPokerEnv` against ``opponent`` (module docstring)."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium's own form)

    def __init__(
        self,
        deck: int = 52,
        opponent: str = "normal",
        episode: str = "deal",
        max_steps: int = 100_000,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if opponent is None:
            raise OptionError("a single-agent environment needs an opponent", "bad_option_value")
        self.aec = DrawPokerEnv(deck, opponent, episode, max_steps, render_mode, **options)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(AGENT)
        self.action_space = self.aec.action_space(AGENT)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        return self.aec.observe(AGENT), {}

    def step(self, action: int) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        self.aec.step(int(action))
        return (
            self.aec.observe(AGENT),
            float(self.aec.rewards[AGENT]),
            self.aec.terminations[AGENT],
            self.aec.truncations[AGENT],
            {},
        )

    def render(self) -> str | None:
        return self.aec.render()
