"""The panel of exploiters: fixed, simple strategies that punish a known leak each
(draw-poker.md "The computer opponent"). ``hard`` must beat every one of them; anyone can
measure it with ``mazziere sim poker --a hard --b panel``.

* ``maxbet``: always bets or raises the maximum, never folds; draws like a plain player.
* ``maxpat``: the same, but always stands pat (it represents a made hand every deal).
* ``station``: always checks or calls, never raises nor folds; draws like a plain player.
* ``openfold``: opens the maximum whenever nothing is bet, and folds to any bet or raise.
* ``foldraise``: opens the pot and calls opens, but folds whenever it is raised.
* ``random``: uniformly random legal actions (:class:`~mazziere.poker.bots.RandomBot`).
* ``baseline``: the 1978 heuristic (:class:`~mazziere.poker.bots.BaselineBot`).

A plain player's draw: stand pat on a straight or better, keep groups, draw one to the deck's
better four-card draw, else keep the two highest cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.poker.actions import FOLD, Action
from mazziere.poker.bots.base import BotRng, bet, call, discard
from mazziere.poker.bots.shapes import sensible_draw_mask
from mazziere.poker.eval_tables import CATEGORIES, Category
from mazziere.poker.evaluator import evaluate
from mazziere.poker.state import Phase
from mazziere.poker.view import View

PANEL = ("maxbet", "maxpat", "station", "openfold", "foldraise", "random", "baseline")
"""The exploiters ``hard`` is measured against, by registry name."""
_PAIR = CATEGORIES.index(Category.PAIR)
_STRAIGHT = CATEGORIES.index(Category.STRAIGHT)
_MAX = 10**9
"""A bet larger than any table allows: :func:`bet` clamps it to the largest legal one."""


def plain_draw(view: View) -> Action:
    """The plain player's draw (module docstring)."""
    cat = CATEGORIES.index(evaluate(view.hand, view.rules).category)
    mask = sensible_draw_mask(view.hand, view.rules, cat >= _STRAIGHT, cat >= _PAIR)
    return discard(view.hand, mask, view.rules.max_replace)


@dataclass(frozen=True, slots=True)
class MaxBetBot:
    """Always the largest bet or raise, never a fold; plain draws (or none: ``stand_pat``)."""

    name: str = "maxbet"
    stand_pat: bool = False

    def act(self, view: View, rng: BotRng) -> Action:
        if view.phase is Phase.DRAW:
            return discard(view.hand, 0, 0) if self.stand_pat else plain_draw(view)
        return bet(view, _MAX)


def max_pat() -> MaxBetBot:
    """``maxpat``: :class:`MaxBetBot` that always stands pat."""
    return MaxBetBot("maxpat", stand_pat=True)


@dataclass(frozen=True, slots=True)
class StationBot:
    """Checks or calls every time: never a bet, a raise or a fold; plain draws."""

    name: str = "station"

    def act(self, view: View, rng: BotRng) -> Action:
        if view.phase is Phase.DRAW:
            return plain_draw(view)
        return call(view)


@dataclass(frozen=True, slots=True)
class OpenFoldBot:
    """Opens the maximum when nothing is bet; folds to any bet; plain draws."""

    name: str = "openfold"

    def act(self, view: View, rng: BotRng) -> Action:
        if view.phase is Phase.DRAW:
            return plain_draw(view)
        if view.owed:
            return FOLD
        if "open" in view.words:
            return bet(view, _MAX)
        return call(view)


@dataclass(frozen=True, slots=True)
class FoldRaiseBot:
    """Opens the pot, calls an open, folds whenever it is raised; plain draws."""

    name: str = "foldraise"

    def act(self, view: View, rng: BotRng) -> Action:
        if view.phase is Phase.DRAW:
            return plain_draw(view)
        if view.owed == 0:
            return bet(view, view.pot) if "open" in view.words else call(view)
        raised = bool(view.history) and view.history[-1].word == "raise"
        return FOLD if raised else call(view)
