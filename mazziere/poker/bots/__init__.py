"""Draw-poker opponents: players that see only :class:`~mazziere.poker.View` values.

>>> import random
>>> from mazziere.poker import Rules, new_game, view
>>> s = new_game(Rules(), rng=1)
>>> find_bot("normal").act(view(s, s.current), random.Random(0)) in view(s, s.current).legal
True
"""

from mazziere.poker.bots.base import Bot, BotRng
from mazziere.poker.bots.baseline import BaselineBot
from mazziere.poker.bots.easy import EasyBot
from mazziere.poker.bots.hard import HardBot
from mazziere.poker.bots.normal import NormalBot
from mazziere.poker.bots.panel import PANEL
from mazziere.poker.bots.random_bot import RandomBot
from mazziere.poker.bots.registry import BOTS, LEVELS, find_bot

__all__ = [
    "BOTS",
    "LEVELS",
    "PANEL",
    "BaselineBot",
    "Bot",
    "BotRng",
    "EasyBot",
    "HardBot",
    "NormalBot",
    "RandomBot",
    "find_bot",
]
