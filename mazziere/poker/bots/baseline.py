"""The ``baseline`` opponent: the heuristic of the 1978 BASIC "POKER" program (Creative
Computing's *BASIC Computer Games*), kept as a fixed reference point.

As that program did: keep pairs and better and draw to four-card straights and flushes, else
keep the high card; size bets by the hand's class (bigger with better hands); call when the
hand is worth it; and bluff sometimes -- holding nothing, about one time in ten it bets as if
strong, and now and then it stands pat on rubbish. It ignores the opponent's draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.poker.actions import Action
from mazziere.poker.bots.base import BotRng, bet, call, discard, fold_or_call, uniform
from mazziere.poker.bots.shapes import (
    flush_draw_mask,
    group_mask,
    high_card_mask,
    straight_draw_mask,
)
from mazziere.poker.eval_tables import CATEGORIES, Category
from mazziere.poker.evaluator import evaluate
from mazziere.poker.state import Phase
from mazziere.poker.view import View

BLUFF = 0.10
"""How often it bluffs holding nothing (the BASIC program's ``RND(1) < .1``)."""
SNOW = 0.05
"""How often it stands pat on nothing, to bluff after the draw."""
_PAIR = CATEGORIES.index(Category.PAIR)
_TWO_PAIR = CATEGORIES.index(Category.TWO_PAIR)
_STRAIGHT = CATEGORIES.index(Category.STRAIGHT)


@dataclass(frozen=True, slots=True)
class BaselineBot:
    """The 1978 heuristic: class-sized bets, sometimes a bluff."""

    name: str = "baseline"

    def act(self, view: View, rng: BotRng) -> Action:
        hand, rules = view.hand, view.rules
        hr = evaluate(hand, rules)
        cat = CATEGORIES.index(hr.category)
        unit = rules.min_bet_amount
        if view.phase is Phase.DRAW:
            if cat >= _STRAIGHT:
                mask = 0
            elif cat >= _PAIR:
                mask = group_mask(hand)
            else:
                draw = flush_draw_mask(hand)
                if draw is None:
                    draw = straight_draw_mask(hand, rules, open_only=False)
                mask = draw if draw is not None else high_card_mask(hand, 1)
                if uniform(rng) < SNOW:
                    mask = 0
            return discard(hand, mask, rules.max_replace)
        drew = view.drawn[view.seat] if view.seat is not None else -1
        bluffing = cat < _PAIR and (
            uniform(rng) < BLUFF or (drew == 0 and view.phase is Phase.BET2)
        )
        if view.phase is Phase.BET1:
            drawing = flush_draw_mask(hand) is not None or (
                straight_draw_mask(hand, rules, open_only=True) is not None
            )
            worth = cat + (1 if cat == _PAIR and hr.ranks[0] >= 9 else 0)
            if (bluffing or worth >= 2) and (view.owed == 0 or (worth >= 3 and view.raises < 1)):
                return bet(view, unit * (2 + worth))
            if view.owed == 0:
                return call(view)
            return fold_or_call(view, cat >= _PAIR or drawing or view.owed <= unit)
        if (bluffing or cat >= _TWO_PAIR) and (
            view.owed == 0 or (cat >= _STRAIGHT and view.raises < 2)
        ):
            return bet(view, unit * (1 + 2 * max(cat, 2)))
        if view.owed == 0:
            return call(view)
        return fold_or_call(view, cat >= _PAIR and (hr.ranks[0] >= 7 or view.owed <= 2 * unit))
