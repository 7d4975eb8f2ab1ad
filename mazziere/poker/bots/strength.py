"""Hand strength as the bots measure it: win probabilities against the hands a table ends with
(draw-poker.md "The computer opponent": own cards and public information only).

* :func:`before_draw`: the expected showdown win probability after the best draw;
* :func:`after_draw`: the final hand's win probability, against all final hands or against
  those of a player who replaced ``opponent_drew`` cards;
* :func:`against_bets`: that probability against the part of a range that keeps betting.
"""

from __future__ import annotations

import math

from mazziere.poker.bots.drawcalc import best_discard, reference
from mazziere.poker.cards import Card
from mazziere.poker.evaluator import rank_of, tables_for
from mazziere.poker.options import Rules


def before_draw(hand: tuple[Card, ...], rules: Rules) -> float:
    """Expected win probability after the best draw (0..1)."""
    return best_discard(hand, rules)[1]


def after_draw(hand: tuple[Card, ...], rules: Rules, opponent_drew: int = -1) -> float:
    """Win probability of this final hand (ties half) against final hands of a plain player,
    all of them or those who replaced ``opponent_drew`` cards."""
    ref = reference(rules)
    r = rank_of(hand, tables_for(rules))
    if 0 <= opponent_drew <= 5 and ref.share_by_draw[opponent_drew] > 1e-4:
        return float(ref.worth_by_draw[opponent_drew][r])
    return float(ref.worth[r])


def against_bets(equity: float, aggression: float, keep: float, bluffs: float) -> float:
    """Equity against the top ``keep ** aggression`` of a range, plus a share ``bluffs`` of
    bluffs that any hand beats: a range that bet ``aggression`` times."""
    top = math.pow(keep, aggression)
    vs_top = max(0.0, equity - (1.0 - top)) / top
    b = bluffs if aggression > 0 else 0.0
    return b + (1.0 - b) * vs_top
