"""The ``hard`` opponent: the strongest this project makes (draw-poker.md "The computer
opponent").

* Draws: the discard with the highest expected showdown win probability, computed for each of
  the 32 discards of the hand against the hands a table ends with (so the deck decides between
  a straight and a flush draw).
* Reading the opponent: after the draw its hand is weighed against final hands of players who
  replaced as many cards as the opponent did, then narrowed to the part of that range that
  keeps betting (each open or raise keeps about the top half, plus a share of bluffs).
* Betting: value bets and raises sized near the pot with strong hands; calls exactly when the
  narrowed equity pays the pot odds; bluffs with the weakest hands at a rate that keeps its
  bets hard to read, and semi-bluffs strong draws before the draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazziere.poker.actions import Action
from mazziere.poker.bots.base import BotRng, bet, call, discard, fold_or_call, opponent_moves
from mazziere.poker.bots.base import uniform as _uniform
from mazziere.poker.bots.drawcalc import best_discard
from mazziere.poker.bots.strength import after_draw, against_bets
from mazziere.poker.state import Phase
from mazziere.poker.view import View

KEEP = 0.5
"""Share of its range an opponent keeps betting with, per open or raise."""
BLUFFS = 0.08
"""Share of bluffs assumed in an opponent's betting range."""


@dataclass(frozen=True, slots=True)
class HardBot:
    """Equity against the opponent's draw-and-bet range, pot odds, balanced bluffs."""

    name: str = "hard"
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
            return discard(hand, best_discard(hand, rules)[0], rules.max_replace)
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
