"""The ``greedy`` bot: the rules of thumb a casual player follows, one decision at a time.

Always call UNO when due and catch an opponent who did not; jump in and stack whenever
possible; play rather than draw; keep wilds for later; dump high-point cards first and play
several cards when allowed; hit a player close to going out with Skip, +2 or +4; declare the
colour held most. It never bluffs a +4 when another play exists, and challenges a +4 only when
the player who played it probably held a matching card (a big hand) or is about to go out
anyway (then the 2 extra cards of an innocent verdict matter little).

The rules are written once, in :mod:`mazziere.uno.bots.policy` (compiled with the engine), which
the ``strong`` bot's rollouts also play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from mazziere.uno import Action
from mazziere.uno.bots.base import Seen
from mazziere.uno.bots.policy import (
    GUILTY_HAND_ANY,
    GUILTY_HAND_COLOR,
    THREAT_CARDS,
    Sight,
    best_color,
    decide,
)

__all__ = ["GUILTY_HAND_ANY", "GUILTY_HAND_COLOR", "THREAT_CARDS", "GreedyBot", "best_color"]


@dataclass(frozen=True, slots=True)
class GreedyBot:
    """A simple heuristic player (see the module docstring for its rules of thumb)."""

    name: str = "greedy"

    def act(self, view: Seen, rng: random.Random) -> Action | None:
        """The heuristic choice; out of turn: UNO call, catch, jump-in, else ``None``."""
        seat = view.seat
        if seat is None or not view.legal:
            return None
        return decide(Sight.of_view(view, seat))
