"""UNO: every rule of uno.md as options, named presets, and the pure engine API.

>>> from mazziere.uno import find_preset, new_game, legal_actions, apply, view
"""

from mazziere.uno.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    EndHand,
    Leave,
    Pass,
    Play,
    Timeout,
)
from mazziere.uno.engine import (
    all_legal_actions,
    apply,
    legal_actions,
    new_game,
    new_game_with_events,
    replay,
    view,
)
from mazziere.uno.options import Rules
from mazziere.uno.presets import PRESETS, find_preset
from mazziere.uno.state import MatchResult, Phase, State
from mazziere.uno.view import View

__all__ = [
    "PRESETS",
    "Accept",
    "Action",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Draw",
    "EndHand",
    "Leave",
    "MatchResult",
    "Pass",
    "Phase",
    "Play",
    "Rules",
    "State",
    "Timeout",
    "View",
    "all_legal_actions",
    "apply",
    "find_preset",
    "legal_actions",
    "new_game",
    "new_game_with_events",
    "replay",
    "view",
]
