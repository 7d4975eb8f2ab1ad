"""The bot protocol: a name and ``act(view, rng)``; bots see only :class:`View` values.

A bot answers every view it is shown. On its own turn (``view.my_turn`` with legal actions) it
must return one of ``view.legal``; out of turn it returns ``None`` to let play go on, or one of
its out-of-turn actions (catch, UNO call, jump-in, third-party challenge) from ``view.legal``.
Randomness comes only from the ``rng`` the caller passes (design.md "Rules engines").
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from mazziere.uno import Action, View


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` that picks an action from a :class:`View`."""

    @property
    def name(self) -> str:
        """The registry name of this bot (``greedy``, ``random``...)."""
        ...

    def act(self, view: View, rng: random.Random) -> Action | None:
        """An action from ``view.legal``, or ``None``: "I don't act out of turn now"."""
        ...


def next_seat(view: View, seat: int, direction: int | None = None) -> int:
    """The seat after ``seat`` in the direction of play, among seats still in the hand."""
    step = view.direction if direction is None else direction
    s = seat
    for _ in range(view.players):
        s = (s + step) % view.players
        if view.in_hand[s]:
            return s
    return seat


def is_partner(view: View, seat: int, other: int) -> bool:
    """Whether ``other`` plays on ``seat``'s side (teams: seats 0+2 and 1+3, 004 "coppia")."""
    return seat == other or (view.rules.teams and seat % 2 == other % 2)
