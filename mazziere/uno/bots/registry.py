"""The bot registry: bots looked up by name, like presets (docs/architecture.md "Rules
engines").

>>> find_bot("greedy").name
'greedy'
>>> from mazziere.errors import UnknownOption
>>> try:
...     find_bot("greedyy")
... except UnknownOption as e:
...     print(e.code, e.message[:70], "...")
unknown_bot unknown UNO bot 'greedyy' (did you mean 'greedy'?); bots: autoplay, gr ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from mazziere.errors import unknown_name
from mazziere.uno.bots.autoplay_bot import AutoplayBot
from mazziere.uno.bots.base import Bot
from mazziere.uno.bots.greedy import GreedyBot
from mazziere.uno.bots.random_bot import RandomBot
from mazziere.uno.bots.strong import StrongBot

BOTS: Mapping[str, Callable[[], Bot]] = MappingProxyType(
    {"autoplay": AutoplayBot, "greedy": GreedyBot, "random": RandomBot, "strong": StrongBot}
)
"""Bot factories by name."""


def find_bot(name: str) -> Bot:
    """A new bot of that name; an unknown name raises :class:`UnknownOption` (``unknown_bot``)."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in BOTS:
        return BOTS[key]()
    raise unknown_name("UNO bot", name, sorted(BOTS), "unknown_bot", listing="bots")
