"""Five-card draw against the computer: evaluator, options, the pure engine API (draw-poker.md;
seed 002).

>>> from mazziere.poker import Rules, evaluate, new_game, legal_actions, apply, view
"""

from mazziere.poker.actions import Action, Draw, Fold, Open, Raise, Replace, See, Wait
from mazziere.poker.cards import Card, deck, parse_card, parse_cards
from mazziere.poker.engine import (
    apply,
    legal_actions,
    new_game,
    new_game_with_events,
    replay,
    view,
)
from mazziere.poker.eval_tables import Category
from mazziere.poker.evaluator import HandRank, describe, evaluate, hand_classes
from mazziere.poker.options import Rules
from mazziere.poker.position import format_position, parse_position
from mazziere.poker.presets import PRESETS, find_preset
from mazziere.poker.state import COMPUTER, HUMAN, GameResult, ItemStatus, Move, Phase, State
from mazziere.poker.view import View

__all__ = [
    "COMPUTER",
    "HUMAN",
    "PRESETS",
    "Action",
    "Card",
    "Category",
    "Draw",
    "Fold",
    "GameResult",
    "HandRank",
    "ItemStatus",
    "Move",
    "Open",
    "Phase",
    "Raise",
    "Replace",
    "Rules",
    "See",
    "State",
    "View",
    "Wait",
    "apply",
    "deck",
    "describe",
    "evaluate",
    "find_preset",
    "format_position",
    "hand_classes",
    "legal_actions",
    "new_game",
    "new_game_with_events",
    "parse_card",
    "parse_cards",
    "parse_position",
    "replay",
    "view",
]
