"""Heads-up five-card draw as a PettingZoo AEC environment, 52 or 32 cards, two agents or one
agent against a built-in computer level.

>>> env = draw_poker_env(deck=32)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter(max_iter=50):
...     obs, reward, terminated, truncated, info = env.last()
...     env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
>>> env.observation_space("player_0")["observation"].shape, int(env.action_space("player_0").n)
((459,), 240)

Agents are ``player_0`` and ``player_1``: the engine's seats 0 (:data:`~mazziere.poker.HUMAN`)
and 1 (:data:`~mazziere.poker.COMPUTER`, the seat whose items are pledged when it runs short;
draw-poker.md "Money and pledges"). With ``opponent="easy"``, ``"normal"`` or ``"hard"`` (or
any name of :data:`mazziere.poker.bots.BOTS`) there is one agent, ``player_0``, and that bot
plays seat 1 inside ``step``, deciding from its own :class:`~mazziere.poker.View` only. The
encodings of actions and observations are :mod:`mazziere.rl.poker_encoding`'s, identical for
both decks and every rule option. The game is the engine users call
(:func:`mazziere.poker.new_game`, :func:`~mazziere.poker.apply`); every action an agent takes
is one of the engine's legal actions (an index that is not legal now raises
:class:`~mazziere.errors.IllegalAction` and changes nothing). The seat that acts first in the
game's first deal is drawn from the seed; it alternates every deal.

**Rewards and episodes.** ``episode="deal"`` (default): an episode is the first deal of a new
game (full bankrolls); when the deal ends each seat's reward is the chips it won or lost in
it: the winner of the pot gets what the other seat put in (antes, bets and calls), the other
seat loses it, so the rewards sum to zero; a tie (the pot is carried to the next deal) gives 0
to both. With an opponent, ``player_0``'s reward is its own result (the bot's is its
negative). ``episode="game"``: an episode is the whole game, until a seat cannot pay the ante
(seat 0's bankroll runs out, or seat 1's with no item left to pledge); the winner gets +1 and
the loser -1 at the end, nothing before. An episode longer than ``max_steps`` agent steps is
truncated for every agent.

When a deal ends the engine has already dealt the next one (its antes paid), so the
observation after the end of a ``deal`` episode shows that next deal's table (the agent's own
new hand; nothing hidden).

**Seeds.** ``reset(seed=s)`` deals from a stream of ``s`` alone (the game's seed, the first
actor and the bot's random choices); resets without a seed continue that stream (PettingZoo's
``seed_test``). The table state behind the agents is ``env.game``, a
:class:`mazziere.poker.State` (it holds both hands and the deck: give agents only ``observe``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, ClassVar

from mazziere.errors import IllegalAction, OptionError
from mazziere.poker import Rules, State, apply, new_game_with_events, view
from mazziere.poker import actions as A
from mazziere.poker import events as E
from mazziere.poker.bots import Bot, find_bot
from mazziere.poker.state import COMPUTER, HUMAN
from mazziere.rl import poker_encoding as P
from mazziere.rl.base import MaskedAECEnv, ObsDict

EPISODES = ("deal", "game")

__all__ = ["EPISODES", "DrawPokerEnv", "ObsDict", "draw_poker_env"]


class DrawPokerEnv(MaskedAECEnv):
    """PettingZoo AEC environment of :mod:`mazziere.poker` (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mazziere_draw_poker_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        deck: int = 52,
        opponent: str | None = None,
        episode: str = "deal",
        max_steps: int = 100_000,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        rules = Rules(deck=deck)
        if options:
            rules = rules.with_options(**options)
        if rules.bankroll < rules.ante:
            raise OptionError(
                f"bankroll {rules.bankroll} cannot pay the ante {rules.ante}: no deal could start",
                "bad_combination",
            )
        if episode not in EPISODES:
            raise OptionError(f"episode is 'deal' or 'game', not {episode!r}", "bad_option_value")
        super().__init__(P.OBS_SIZE, P.ACTIONS, max_steps, render_mode)
        self.rules = rules
        self.bot: Bot | None = None if opponent is None else find_bot(opponent)
        self.episode = episode
        seats = (HUMAN,) if self.bot is not None else (HUMAN, COMPUTER)
        self.possible_agents = [f"player_{s}" for s in seats]
        self._seat = {a: s for a, s in zip(self.possible_agents, seats, strict=True)}
        self._bot_rng = random.Random()
        self.game: State | None = None

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        game_seed = self._seed(seed)
        first = int(self._stream.integers(0, 2))
        self._bot_rng = random.Random(int(self._stream.integers(0, 2**63)))
        self._start_episode()
        self._stake = [0, 0]
        self.game, events = new_game_with_events(self.rules, game_seed, first)
        self._record(events)
        self._bot_turns()
        self._select()

    def observe(self, agent: str) -> ObsDict:
        g = self._require_game()
        v = view(g, self._seat[agent])
        return {"observation": P.encode(v), "action_mask": self._mask(agent)}

    def _advance(self, agent: str, chosen: A.Action) -> None:
        self._act(self._seat[agent], chosen)
        self._bot_turns()
        self._count_step()

    def render(self) -> str | None:
        g = self.game
        if g is None or self.render_mode is None:
            return None
        text = (
            f"deal {g.deal_no} {g.phase.value}: player_{g.current} to act, pot {g.pot}, "
            f"bankrolls {list(g.bankrolls)}, bets {list(g.committed)}, "
            f"history {' / '.join(f'{m.seat}:{m.word} {m.amount}' for m in g.history)}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ internals
    def _require_game(self) -> State:
        if self.game is None:
            raise IllegalAction("call reset() before stepping the environment", "not_reset")
        return self.game

    def _select(self) -> None:
        g = self._require_game()
        if self._done:  # the bot ended the deal before the agent acted
            self._legal = {}
            self.agent_selection = self.agents[0]
            return
        self._legal = P.offered(view(g, g.current))
        self.agent_selection = f"player_{g.current}"

    def _act(self, seat: int, action: A.Action) -> None:
        self.game, events = apply(self._require_game(), seat, action)
        self._record(events)

    def _bot_turns(self) -> None:
        """The computer plays seat 1 from its own view until an agent is to act."""
        if self.bot is None:
            return
        while not self._done:
            g = self._require_game()
            if g.is_over or g.current != COMPUTER:
                return
            self._act(COMPUTER, self.bot.act(view(g, COMPUTER), self._bot_rng))

    def _record(self, events: Iterable[E.Event]) -> None:
        """Follow each seat's chips in the pot; end the episode where the mode says."""
        stake = self._stake
        for e in events:
            if self._done:
                return
            if isinstance(e, E.AntePaid | E.Opened):
                stake[e.seat] += e.amount
            elif isinstance(e, E.Raised):
                stake[e.seat] += e.call + e.amount
            elif isinstance(e, E.Replaced | E.Saw):
                stake[e.seat] += e.paid
            elif isinstance(e, E.PotWon):
                won = [0.0, 0.0]
                w = e.seat
                won[w], won[1 - w] = stake[1 - w], -stake[1 - w]
                self._stake = stake = [0, 0]
                if self.episode == "deal":
                    self._end(won)
            elif isinstance(e, E.PotCarried) and self.episode == "deal":
                self._end([0.0, 0.0])
            elif isinstance(e, E.GameEnded):
                self._end([1.0, -1.0] if e.winner == 0 else [-1.0, 1.0])

    def _end(self, by_seat: list[float]) -> None:
        self._terminate({a: by_seat[self._seat[a]] for a in self.agents})


def draw_poker_env(
    deck: int = 52,
    opponent: str | None = None,
    episode: str = "deal",
    max_steps: int = 100_000,
    render_mode: str | None = None,
    **options: Any,
) -> DrawPokerEnv:
    """A five-card draw environment (:class:`DrawPokerEnv`): the deck (52 or 32 cards), an
    optional computer opponent (``"easy"``, ``"normal"``, ``"hard"``), the episode (``"deal"``
    or ``"game"``) and any poker option by name (``draw_poker_env(32,
    flush_beats_full_house=True)``); unknown names raise
    :class:`~mazziere.errors.UnknownOption`."""
    return DrawPokerEnv(deck, opponent, episode, max_steps, render_mode, **options)
