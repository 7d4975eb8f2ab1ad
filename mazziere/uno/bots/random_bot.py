"""The ``random`` bot: a uniform choice among the legal actions (a baseline for simulations).

On its own turn it picks uniformly from ``view.legal``; out of turn it acts with probability
1/2, uniformly among its out-of-turn actions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from mazziere.uno import Action, View


@dataclass(frozen=True, slots=True)
class RandomBot:
    """Uniform over ``view.legal``; out of turn, acts half the time."""

    name: str = "random"

    def act(self, view: View, rng: random.Random) -> Action | None:
        """A uniformly random legal action; out of turn ``None`` with probability 1/2."""
        if not view.legal:
            return None
        if not view.my_turn and rng.random() < 0.5:
            return None
        return rng.choice(view.legal)
