"""UNO bots: players that see only :class:`~mazziere.uno.View` values.

>>> from mazziere.uno import find_preset, new_game, view
>>> s = new_game(find_preset("classic"), 3, rng=1)
>>> import random
>>> find_bot("greedy").act(view(s, s.current), random.Random(0)) in view(s, s.current).legal
True
"""

from mazziere.uno.bots.autoplay_bot import AutoplayBot
from mazziere.uno.bots.base import Bot
from mazziere.uno.bots.greedy import GreedyBot
from mazziere.uno.bots.random_bot import RandomBot
from mazziere.uno.bots.registry import BOTS, find_bot

__all__ = ["BOTS", "AutoplayBot", "Bot", "GreedyBot", "RandomBot", "find_bot"]
