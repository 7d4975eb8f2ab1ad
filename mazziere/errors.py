"""Typed errors shared by every rules engine.

Every error carries a stable snake_case ``code`` (what a client or a test matches on) and a
message naming the rule it enforces. Raising one never changes a game state: engines are pure
functions of (state, action), so a refused action leaves the caller's state as it was.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence


class MazziereError(Exception):
    """Base class of every error this package raises on purpose."""

    default_code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.message: str = message

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class OptionError(MazziereError, ValueError):
    """An options object or preset could not be built (unknown name, bad value, bad mix)."""

    default_code = "invalid_options"


class UnknownOption(OptionError):
    """An option or preset name that does not exist."""

    default_code = "unknown_option"


def unknown_name(
    kind: str,
    name: object,
    known: Sequence[str],
    code: str | None = None,
    *,
    listing: str | None = None,
) -> UnknownOption:
    """The error for a name that is not among ``known`` (an option, preset or bot): it names
    the closest known name, and lists them all after ``listing`` when given.

    >>> print(unknown_name("UNO preset", "Clasic", ["classic", "house"], listing="presets"))
    [unknown_option] unknown UNO preset 'Clasic' (did you mean 'classic'?); presets: classic, house
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    near = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    listed = f"; {listing}: {', '.join(known)}" if listing else ""
    return UnknownOption(f"unknown {kind} {name!r}{hint}{listed}", code)


class MalformedAction(MazziereError, ValueError):
    """An action that cannot be parsed or is not well formed (missing colour, bad seat...)."""

    default_code = "malformed_action"


class IllegalAction(MazziereError):
    """A well-formed action the rules do not allow now."""

    default_code = "illegal_action"


class NotYourTurn(IllegalAction):
    """An action from a seat that may not act now."""

    default_code = "not_your_turn"


class GameOver(IllegalAction):
    """Any action after the game (match) has ended."""

    default_code = "game_over"


class BadPosition(MazziereError, ValueError):
    """A position text (:func:`mazziere.uno.parse_position`, :func:`mazziere.casino.parse_position`,
    :func:`mazziere.poker.parse_position`) that cannot be read or describes no reachable kind
    of state. Codes: ``bad_position`` (syntax, unknown or missing field, bad number),
    ``bad_card``, ``cards_not_conserved`` (every card of the deck exactly once), ``bad_count``
    (a list of the wrong length, a hand held by a seat out of the hand), ``bad_seat``,
    ``bad_phase`` (fields that contradict the phase) and ``bad_rng``; UNO CASINO rounds add
    ``bad_stake``, ``bad_multiplier`` and ``bad_memory`` (the bank's remembered turn), poker
    games ``money_not_conserved``, ``bad_pledge`` and ``bad_bet`` (each module's docstring
    details them)."""

    default_code = "bad_position"
