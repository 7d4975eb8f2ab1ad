"""The poker bot registry: opponents looked up by level name (draw-poker.md "The computer
opponent").

>>> find_bot("hard").name, sorted(BOTS)[:6]
('hard', ['baseline', 'easy', 'foldraise', 'hard', 'maxbet', 'maxpat'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from mazziere.errors import unknown_name
from mazziere.poker.bots.base import Bot
from mazziere.poker.bots.baseline import BaselineBot
from mazziere.poker.bots.easy import EasyBot
from mazziere.poker.bots.hard import HardBot
from mazziere.poker.bots.normal import NormalBot
from mazziere.poker.bots.panel import FoldRaiseBot, MaxBetBot, OpenFoldBot, StationBot, max_pat
from mazziere.poker.bots.random_bot import RandomBot

BOTS: Mapping[str, Callable[[], Bot]] = MappingProxyType(
    {
        "easy": EasyBot,
        "normal": NormalBot,
        "hard": HardBot,
        "baseline": BaselineBot,
        "random": RandomBot,
        "maxbet": MaxBetBot,
        "maxpat": max_pat,
        "station": StationBot,
        "openfold": OpenFoldBot,
        "foldraise": FoldRaiseBot,
    }
)
LEVELS = ("easy", "normal", "hard")
"""The levels a human may choose in play mode."""


def find_bot(name: str) -> Bot:
    """A new bot of that name; an unknown name raises :class:`UnknownOption` (``unknown_bot``)."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in BOTS:
        return BOTS[key]()
    raise unknown_name("poker bot", name, sorted(BOTS), "unknown_bot", listing="bots")


def warm(decks: tuple[int, ...] = (52, 32)) -> None:
    """Do now what the bots would otherwise do at their first decision for each deck (with the
    default hand ranking): load the compiled draw kernels (numba, from its disk cache, or
    compiled on a fresh install), simulate the draw tables, read the ``hard`` strategy. A
    server calls this before it accepts players: done at a first decision, it would hold a
    server's event loop for seconds (every table of the process waits meanwhile)."""
    from mazziere.poker.bots.drawcalc import best_discard, reference
    from mazziere.poker.bots.hard import strategy
    from mazziere.poker.cards import deck as cards_of_deck
    from mazziere.poker.options import Rules

    for size in decks:
        rules = Rules(deck=size)
        reference(rules)
        best_discard(tuple(cards_of_deck(size)[:5]), rules)
        strategy(size)
