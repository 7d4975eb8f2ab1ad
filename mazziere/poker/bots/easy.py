"""The ``easy`` opponent: simple heuristics by hand category, no bluffs (draw-poker.md "The
computer opponent").

Before the draw it opens with a pair of jacks or better and calls with any pair or a
four-card flush; after the draw it opens with two pair or better, calls with a pair of eights
or better, and raises only with trips or better. Bets are always the smallest allowed. Draws:
keep groups; else draw one to the deck's better four-card draw (with 32 cards an open-ended
straight before a four-card flush, with 52 the flush first); else keep the two highest cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.poker.actions import Action
from mazziere.poker.bots.base import BotRng, bet, call, discard, fold_or_call
from mazziere.poker.bots.shapes import (
    draw_first_mask,
    group_mask,
    high_card_mask,
)
from mazziere.poker.eval_tables import CATEGORIES, Category
from mazziere.poker.evaluator import evaluate
from mazziere.poker.state import Phase
from mazziere.poker.view import View

_PAIR = CATEGORIES.index(Category.PAIR)
_TWO_PAIR = CATEGORIES.index(Category.TWO_PAIR)
_TRIPS = CATEGORIES.index(Category.THREE_OF_A_KIND)
JACKS = 9
EIGHTS = 6


@dataclass(frozen=True, slots=True)
class EasyBot:
    """Category thresholds, smallest bets, never a bluff."""

    name: str = "easy"

    def act(self, view: View, rng: BotRng) -> Action:
        hand, rules = view.hand, view.rules
        hr = evaluate(hand, rules)
        cat = CATEGORIES.index(hr.category)
        if view.phase is Phase.DRAW:
            if cat >= CATEGORIES.index(Category.STRAIGHT):
                mask = 0
            elif cat >= _PAIR:
                mask = group_mask(hand)
            else:
                fd = draw_first_mask(hand, rules)
                mask = fd if fd is not None else high_card_mask(hand, 2)
            return discard(hand, mask, rules.max_replace)
        small = rules.min_bet_amount
        if view.phase is Phase.BET1:
            strong = cat > _PAIR or (cat == _PAIR and hr.ranks[0] >= JACKS)
            playable = cat >= _PAIR or draw_first_mask(hand, rules) is not None
            if view.owed == 0:
                return bet(view, small) if strong else call(view)
            return fold_or_call(view, playable)
        if view.owed == 0:
            return bet(view, small) if cat >= _TWO_PAIR else call(view)
        if cat >= _TRIPS and "raise" in view.words:
            return bet(view, small)
        return fold_or_call(view, cat > _PAIR or (cat == _PAIR and hr.ranks[0] >= EIGHTS))
