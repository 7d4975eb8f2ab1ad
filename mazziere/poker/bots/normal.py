"""The ``normal`` opponent: hand-strength betting, sensible draws, occasional bluffs
(draw-poker.md "The computer opponent").

Draws follow rules of thumb tuned per deck: stand pat on a straight or better; keep pairs,
trips, two pair; with nothing, draw one to a four-card flush or open straight -- the straight
first with 32 cards, where four of a suit leave only four outs among 27 cards -- else keep the
top card. Betting compares the hand's win probability (before the draw: after the best draw;
after it: against all final hands, ignoring the opponent's draw) with fixed thresholds, bets
half the pot with strong hands, and bluffs one time in twenty with weak ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.poker.actions import Action
from mazziere.poker.bots.base import BotRng, bet, call, discard, fold_or_call, opponent_moves
from mazziere.poker.bots.base import uniform as _uniform
from mazziere.poker.bots.shapes import (
    flush_draw_mask,
    group_mask,
    high_card_mask,
    straight_draw_mask,
)
from mazziere.poker.bots.strength import after_draw, before_draw
from mazziere.poker.cards import Card
from mazziere.poker.evaluator import evaluate
from mazziere.poker.options import Rules
from mazziere.poker.state import Phase
from mazziere.poker.tables import CATEGORIES, Category
from mazziere.poker.view import View

BLUFF = 0.05
_PAIR = CATEGORIES.index(Category.PAIR)
_STRAIGHT = CATEGORIES.index(Category.STRAIGHT)


def normal_discard(hand: tuple[Card, ...], rules: Rules) -> int:
    """The rule-of-thumb discard mask (see the module docstring)."""
    cat = CATEGORIES.index(evaluate(hand, rules).category)
    if cat >= _STRAIGHT:
        return 0
    if cat >= _PAIR:
        return group_mask(hand)
    flush = flush_draw_mask(hand)
    straight = straight_draw_mask(hand, rules, open_only=True)
    order = (straight, flush) if rules.deck == 32 else (flush, straight)
    for mask in order:
        if mask is not None:
            return mask
    return high_card_mask(hand, 1)


@dataclass(frozen=True, slots=True)
class NormalBot:
    """Fixed strength thresholds, half-pot bets, a bluff one time in twenty."""

    name: str = "normal"

    def act(self, view: View, rng: BotRng) -> Action:
        hand, rules = view.hand, view.rules
        if view.phase is Phase.DRAW:
            return discard(hand, normal_discard(hand, rules), rules.max_replace)
        size = max(rules.min_bet_amount, view.pot / 2)
        bluff = _uniform(rng) < BLUFF
        if view.phase is Phase.BET1:
            s = before_draw(hand, rules)
            if view.owed == 0:
                return bet(view, size) if s >= 0.55 or (bluff and s < 0.4) else call(view)
            if s >= 0.7 and "raise" in view.words:
                return bet(view, size)
            return fold_or_call(view, s >= 0.36 + 0.04 * opponent_moves(view, 1))
        s = after_draw(hand, rules)
        if view.owed == 0:
            return bet(view, size) if s >= 0.65 or (bluff and s < 0.3) else call(view)
        if s >= 0.85 and "raise" in view.words:
            return bet(view, size)
        return fold_or_call(view, s >= 0.5)
