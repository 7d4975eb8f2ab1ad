"""Reinforcement-learning environments (extra ``[rl]``: PettingZoo and Gymnasium).

* :func:`uno_env`: UNO for 2-10 players under every preset and option (PettingZoo AEC);
* :func:`draw_poker_env`: five-card draw heads-up, 52 or 32 cards (PettingZoo AEC, or one
  agent against a built-in computer level);
* :class:`SingleAgentUno`: a Gymnasium environment, one UNO seat against built-in bots;
* :class:`SingleAgentDrawPoker`: a Gymnasium environment, seat 0 of draw poker against a
  computer level.
"""

from mazziere.rl.poker_env import DrawPokerEnv, draw_poker_env
from mazziere.rl.poker_gym import SingleAgentDrawPoker
from mazziere.rl.single import SingleAgentUno
from mazziere.rl.uno_env import UnoEnv, uno_env

__all__ = [
    "DrawPokerEnv",
    "SingleAgentDrawPoker",
    "SingleAgentUno",
    "UnoEnv",
    "draw_poker_env",
    "uno_env",
]
