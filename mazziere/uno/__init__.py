"""UNO: every rule of uno.md as options, named presets, and the engine.

>>> from mazziere.uno import Game, find_preset
>>> g = Game.new(find_preset("house"), 4, rng=1)
>>> while not g.is_over:
...     _ = g.push(g.legal_actions()[0])
>>> g.result.winner in range(4)
True

:class:`Game` is played in place (``legal_actions``, ``push``, ``copy``); the functions
``new_game``, ``legal_actions``, ``apply`` (on a copy) and ``view`` are the same engine as
values.
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
from mazziere.uno.game import Game
from mazziere.uno.options import Rules
from mazziere.uno.position import format_position, parse_position
from mazziere.uno.presets import PRESETS, find_preset
from mazziere.uno.state import MatchResult, Phase
from mazziere.uno.view import View

State = Game
"""The name earlier versions gave the game state; the state is now the :class:`Game`."""

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
    "Game",
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
    "format_position",
    "legal_actions",
    "new_game",
    "new_game_with_events",
    "parse_position",
    "replay",
    "view",
]
