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

from typing import Any, ClassVar

import numpy as np

from mazziere.errors import IllegalAction, OptionError
from mazziere.rl import uno_encoding as U
from mazziere.rl.base import MaskedAECEnv, ObsDict
from mazziere.uno import Game, Rules, find_preset, view
from mazziere.uno import vector as V

REWARDS = ("hand", "match")

__all__ = ["REWARDS", "ObsDict", "UnoEnv", "out_of_turn_possible", "uno_env"]


class UnoEnv(MaskedAECEnv):
    """PettingZoo AEC environment of :mod:`mazziere.uno` (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mazziere_uno_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }
    agent_selection: str

    def __init__(
        self,
        preset: str = "mattel",
        players: int = 2,
        reward: str = "hand",
        max_steps: int = 100_000,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        rules = find_preset(preset)
        if options:
            rules = rules.with_options(**options)
        rules.check_players(players)
        if reward not in REWARDS:
            raise OptionError(f"reward is 'hand' or 'match', not {reward!r}", "bad_option_value")
        super().__init__(U.OBS_SIZE, U.action_count(rules), max_steps, render_mode)
        self.rules = rules
        self.players = players
        self.reward_mode = reward
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.game: Game | None = None
        self.offers_out_of_turn = out_of_turn_possible(rules)
        """Whether a seat may ever act out of turn under these rules (else only the seat to
        play is asked: no scan of the others' legal actions)."""

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = Game.new(self.rules, self.players, self._seed(seed))
        self._start_episode()
        self._history: list[tuple[int, int, int]] = []
        self._declined: set[int] = set()
        V.record(self.game.events, self._history)
        self._select()

    def observe(self, agent: str) -> ObsDict:
        g = self.game
        if g is None:
            g = self._require_game()  # raises
        obs = np.zeros(U.OBS_SIZE, np.float32)
        mask = np.zeros(self.action_count, np.int8)
        # the mask is set for the agent to act only, as MaskedAECEnv._mask
        legal = self._legal if agent == self.agent_selection and not self._done else None
        V.observe_both(obs.data, mask.data, g, self._seat[agent], self._history, legal)
        return {"observation": obs, "action_mask": mask}

    def last(
        self, observe: bool = True
    ) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, with :meth:`observe` inlined (one call fewer per step)."""
        agent = self.agent_selection
        obs: ObsDict | None = None
        if observe:
            g = self.game
            if g is None:
                g = self._require_game()  # raises
            o = np.zeros(U.OBS_SIZE, np.float32)
            mask = np.zeros(self.action_count, np.int8)
            legal = None if self._done else self._legal
            V.observe_both(o.data, mask.data, g, self._seat[agent], self._history, legal)
            obs = {"observation": o, "action_mask": mask}
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _advance(self, agent: str, chosen: Any) -> None:
        """The move, the episode's end and the next agent in one compiled call
        (:func:`V.advance`)."""
        g = self.game
        assert g is not None  # an episode runs
        self._steps += 1
        ended, seat, legal = V.advance(
            g,
            self._seat[agent],
            chosen,
            self._history,
            self._declined,
            self.offers_out_of_turn,
            self.reward_mode == "hand",
            self._steps < self.max_steps,
        )
        if seat >= 0:
            self._legal = legal
            self.agent_selection = self.possible_agents[seat]
            return
        if self.reward_mode == "hand" and ended != -2:
            self._end(None if ended == -1 else self._side_of(ended))
        elif g.result is not None:
            self._end(g.result.winner)
        else:  # the step limit
            self.truncations = dict.fromkeys(self.agents, True)
            self._done = True

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

    # ------------------------------------------------------------------ internals
    def _require_game(self) -> Game:
        if self.game is None:
            raise IllegalAction("call reset() before stepping the environment", "not_reset")
        return self.game

    def _select(self) -> None:
        """The agent to act: a seat offered an action out of turn that has not waited, in
        seat order after the seat to play; else the seat to play (:func:`V.select`)."""
        seat, self._legal = V.select(self._require_game(), self._declined, self.offers_out_of_turn)
        self.agent_selection = self.possible_agents[seat]

    def _side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.teams else seat

    def _end(self, side: int | None) -> None:
        self._terminate(
            {
                a: 0.0 if side is None else 1.0 if self._side_of(self._seat[a]) == side else -1.0
                for a in self.agents
            }
        )


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
