"""The ``random`` bot: a uniformly random legal action (for property tests and fuzzing)."""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.poker.actions import Action
from mazziere.poker.bots.base import BotRng, uniform
from mazziere.poker.view import View


@dataclass(frozen=True, slots=True)
class RandomBot:
    """Picks one of ``view.legal`` uniformly."""

    name: str = "random"

    def act(self, view: View, rng: BotRng) -> Action:
        legal = view.legal
        return legal[min(len(legal) - 1, int(uniform(rng) * len(legal)))]
