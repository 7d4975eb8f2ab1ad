"""The ``autoplay`` bot: what the online server does on a time-out (seed 004 "Gioco
Automatico"): the lowest-value playable number card, else draw and pass; never out of turn."""

from __future__ import annotations

import random
from dataclasses import dataclass

from mazziere.uno import Action, View
from mazziere.uno.autoplay import choose_autoplay


@dataclass(frozen=True, slots=True)
class AutoplayBot:
    """Seed 004's time-out rule on its own turn; never acts out of turn (never calls UNO)."""

    name: str = "autoplay"

    def act(self, view: View, rng: random.Random) -> Action | None:
        """:func:`~mazziere.uno.autoplay.choose_autoplay` on its turn, else ``None``."""
        if not view.my_turn or not view.legal:
            return None
        return choose_autoplay(view.legal, view.hand, view.phase)
