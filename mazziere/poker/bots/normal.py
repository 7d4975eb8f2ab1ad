"""The ``normal`` opponent: hand-strength betting, sensible draws, occasional bluffs
(draw-poker.md "The computer opponent").

Draws follow rules of thumb tuned per deck: stand pat on a straight or better; keep pairs,
trips, two pair; with nothing, draw one to a four-card flush or open straight -- the straight
first with 32 cards, where four of a suit leave only four outs among 27 cards -- else keep the
top card.

Betting, by equity: before the draw, the hand's expected win probability after its best draw
against fixed thresholds, less a penalty per opponent bet when calling; after the draw, its win
probability against the final hands of players who replaced as many cards as the opponent did,
narrowed to the part of that range that keeps betting (each open or raise keeps about the top
half, plus a share of bluffs). It calls when that equity pays the pot odds, bets about the pot
with strong hands, and bluffs the weakest hands at a set rate.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.poker.actions import Action
from mazziere.poker.bots.base import BotRng, bet, call, discard, fold_or_call, opponent_moves
from mazziere.poker.bots.base import uniform as _uniform
from mazziere.poker.bots.drawcalc import best_discard
from mazziere.poker.bots.shapes import (
    flush_draw_mask,
    group_mask,
    high_card_mask,
    straight_draw_mask,
)
from mazziere.poker.bots.strength import after_draw, against_bets
from mazziere.poker.cards import Card
from mazziere.poker.eval_tables import CATEGORIES, Category
from mazziere.poker.evaluator import evaluate
from mazziere.poker.options import Rules
from mazziere.poker.state import Phase
from mazziere.poker.view import View

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


KEEP = 0.5
"""Share of its range an opponent keeps betting with, per open or raise."""
BLUFFS = 0.08
"""Share of bluffs assumed in an opponent's betting range."""


@dataclass(frozen=True, slots=True)
class NormalBot:
    """Equity against the opponent's draw-and-bet range, pot odds, measured bluffs."""

    name: str = "normal"
    open_first: float = 0.56
    open_second: float = 0.50
    raise_before: float = 0.70
    value_after: float = 0.70
    raise_after: float = 0.72
    bluff_after: float = 0.20
    bluff_before: float = 0.12
    call_penalty: float = 0.20
    call_margin: float = 0.0
    keep: float = KEEP

    def act(self, view: View, rng: BotRng) -> Action:
        hand, rules = view.hand, view.rules
        if view.phase is Phase.DRAW:
            return discard(hand, normal_discard(hand, rules), rules.max_replace)
        pot_odds = view.owed / (view.pot + view.owed) if view.owed else 0.0
        size = max(rules.min_bet_amount, view.pot * 0.75)
        u = _uniform(rng)
        if view.phase is Phase.BET1:
            s = best_discard(hand, rules)[1]
            if view.owed == 0:
                threshold = self.open_first if view.is_first else self.open_second
                if s >= threshold or (0.3 <= s < 0.42 and u < self.bluff_before):
                    return bet(view, size)
                return call(view)
            moves = opponent_moves(view, 1)
            if s >= self.raise_before + 0.05 * view.raises and "raise" in view.words:
                return bet(view, size)
            return fold_or_call(view, s - self.call_penalty * moves >= pot_odds - self.call_margin)
        opp = 1 - view.seat if view.seat is not None else 0
        eq = after_draw(hand, rules, view.drawn[opp])
        if view.owed == 0:
            if eq >= self.value_after or (eq < 0.25 and u < self.bluff_after):
                return bet(view, view.pot)
            return call(view)
        narrowed = against_bets(
            eq, opponent_moves(view, 2) + 0.3 * opponent_moves(view, 1), self.keep, BLUFFS
        )
        if narrowed >= self.raise_after and "raise" in view.words:
            return bet(view, view.pot)
        return fold_or_call(view, narrowed >= pot_odds)
