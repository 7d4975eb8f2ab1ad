"""The casino kernel's fixed ground: the ``casino`` preset it pins (:func:`_check_rules`), its
constants, the layout of a round's state array, the codes its callers read (:data:`REASONS`,
:data:`STRATEGIES`, :data:`MOVE_KINDS`), and the rulebook's functions under the kernel's names.

The rules are not written in the kernel. Every rule decision is a plain function that the
readable round calls too, and numba compiles the same functions into the kernel
(:func:`mazziere.sim.casino_kernel.compiling.share`):

* matching and the +4 rule: :func:`mazziere.uno.matching.face_matches` and
  :func:`~mazziere.uno.matching.wild4_color_legal` (the UNO engine's own; that module is
  compiled by mypyc, so numba reads it from its ``.py``);
* what is playable, the bank's card and colour, the player's weights and colour, the
  multiplier's steps and the x1 draw ban: :mod:`mazziere.casino.rulebook`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mazziere.cards.uno import FULL_DECK, WILD4_FACE, WILD_FACE
from mazziere.casino import readings as RD
from mazziere.casino import rulebook as R
from mazziere.casino.rules import CasinoRules
from mazziere.sim.casino_kernel.compiling import share
from mazziere.uno.matching import face_matches, wild4_color_legal
from mazziere.uno.presets import CASINO

__all__ = [
    "MOVE_KINDS",
    "REASONS",
    "SEARCH_WORLDS",
    "STRATEGIES",
    "ST_WIDTH",
    "TALLY_TURNS",
    "TALLY_WIDTH",
    "strategy_index",
]


# ---------------------------------------------------------------- the rules this kernel fixes
def _check_rules() -> None:
    """The kernel hard-codes the ``casino`` preset and the default table; refuse to import
    silently if either changes (the identity test would fail anyway, but later)."""
    r, t = CASINO, CasinoRules()
    fixed = (
        r.hand_sizes == (4, 5)
        and r.first_dealer == 1
        and r.first_card == "redraw_non_number"
        and not r.reshuffle
        and r.voluntary_draw
        and r.drawn_card == "may_play"
        and r.two_player_reverse == "skip"
        and r.draw2_skips
        and not r.reverse_skip_same
        and r.wild4_rule == "color"
        and not r.wild4_bluff
        and not r.challenge
        and r.uno_call == "off"
        and r.stacking == "none"
        and r.go_out_on_action
        and not (r.multi_play or r.burn or r.seven_swap or r.zero_rotate or r.zero_gives_four)
        and not r.jump_in
        and t.start_multiplier == _START_MULT
        and t.uno is CASINO
    )
    if not fixed:  # pragma: no cover - guards a future change of the preset
        raise RuntimeError("the casino preset changed: update mazziere.sim.casino_kernel")


# ---------------------------------------------------------------- constants (frozen by numba)
_DECK = np.array([int(c) for c in FULL_DECK], dtype=np.int64)
_NCARDS = len(FULL_DECK)
_WILD = WILD_FACE
_WILD4 = WILD4_FACE
_SKIP = 10
_REVERSE = 11
_DRAW2 = 12
_START_MULT = 3

_PLAYER = 0
_BANK = 1
_PLAY = 0
_DRAWN = 1

_SIDE = R.SIDE_WIDTH
_COLORS_AT = R.COLORS_AT
_DRAW_CHOICE = R.DRAW_CHOICE
_DRAW_NO_PLAY = R.DRAW_NO_PLAY
_DRAW_PENALTY = R.DRAW_PENALTY

# rows of the random-source array
_STRATEGY_RNG = 0
_HAND_RNG = 1
_CHOICE_RNG = 2  # the player's own choices (random, search): never the bank's stream

REASONS = ("player_out", "bank_out", "pile_out", "no_draw_at_x1")
"""How a round ends, by the kernel's reason code (the pure path's ``RoundResult.reason``)."""
_R_PLAYER_OUT = 0
_R_BANK_OUT = 1
_R_PILE_OUT = 2
_R_NO_DRAW = 3

TALLY_WIDTH = 5
"""Columns of a tally row: rounds paid x0, x1, x2, x3 (by index), then the sum of turns."""
TALLY_TURNS = 4

_check_rules()


# ---------------------------------------------------------------- a round's state
# A round's course is one resumable loop (:func:`mazziere.sim.casino_kernel.round._play`) over
# a state kept in an int64 array (``st``, the ``_S*`` slots below) besides the pile, the hands
# and the random sources. The player's decisions come from the strategy it is given: the
# published default, random legal choices, a move stored in the state (``_SF*``: the search's
# choice, or the first move of a rollout), or none: then the loop saves its state and returns,
# and the caller (the search) decides and resumes it. So the search calls the loop to play out
# the worlds it samples without the loop calling itself (numba compiles no recursion here).
_SN, _SSETTLED, _STOP, _SCOLOR, _SCUR, _SPHASE, _SDRAWN, _SMULT, _STURNS = range(9)
_SMLAST, _SMWILD, _SMCHOSEN, _SMDREW, _SMPASSED, _SK, _SFKIND, _SFCARD, _SFCOLOR = range(9, 18)
_SRUN = 18  # cards the player has laid since the bank last moved
_SLOW = 19  # the lowest multiplier the round has reached
_SRD = 20  # the readings' codes (mazziere.casino.readings), RD_WIDTH slots from here
ST_WIDTH = _SRD + RD.RD_WIDTH

_MV_NONE = -1
_MV_PLAY = 0
_MV_DRAW = 1
_MV_PASS = 2
MOVE_KINDS = ("play", "draw", "pass")
"""A player's move in a ``decided`` step (:data:`~mazziere.sim.casino_kernel.trace.STEP_KINDS`):
its kind by index."""

STRATEGIES = ("default", "random", "search")
"""The player's strategies the kernel plays (the ``strategy`` of
:func:`~mazziere.sim.casino_kernel.rounds.kernel_tally`, by index):
the published default (000), a careless player's random legal choices, and the search."""
_ST_DEFAULT = 0
_ST_RANDOM = 1
_ST_SEARCH = 2
_ST_EXTERNAL = 3  # the loop stops at each decision of the player (the search's driver)
_NEEDS_DECISION = -1  # the reason code the loop returns when it stopped at a decision

SEARCH_WORLDS = 64
"""Worlds the search samples at each decision (every candidate move is played out in each)."""


def strategy_index(strategy: str) -> int:
    """The index of a player's strategy in :data:`STRATEGIES` (``ValueError`` if unknown)."""
    try:
        return STRATEGIES.index(strategy)
    except ValueError:
        raise ValueError(f"unknown strategy {strategy!r}: use {', '.join(STRATEGIES)}") from None


# ---------------------------------------------------------------- the shared rules
share(face_matches, wild4_color_legal)
share(
    R.playable,
    R.has_playable,
    R.bank_cards,
    R.bank_colors,
    R.player_weight,
    R.player_cards,
    R.player_colors,
    R.multiplier_after_draw,
    R.pile_out_payout,
    R.player_may_draw,
)
# the rulebook's functions under the kernel's names (typed loosely: here they take arrays)
_playable: Callable[..., bool] = R.playable
_has_playable: Callable[..., bool] = R.has_playable
_bank_cards: Callable[..., int] = R.bank_cards
_bank_colors: Callable[..., int] = R.bank_colors
_player_cards: Callable[..., int] = R.player_cards
_player_colors: Callable[..., int] = R.player_colors
_multiplier_after_draw: Callable[..., int] = R.multiplier_after_draw
_player_may_draw: Callable[..., bool] = R.player_may_draw
_pile_out_payout: Callable[..., int] = R.pile_out_payout
