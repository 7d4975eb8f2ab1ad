"""The bot protocol: a name and ``act(view, rng)``; bots see only :class:`View` values.

A bot answers every view it is shown. On its own turn (``view.my_turn`` with legal actions) it
must return one of ``view.legal``; out of turn it returns ``None`` to let play go on, or one of
its out-of-turn actions (catch, UNO call, jump-in, third-party challenge) from ``view.legal``.
Randomness comes only from the ``rng`` the caller passes (docs/architecture.md "Rules engines").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from mazziere.cards.uno import Card, Color
from mazziere.uno import Action, Phase, Rules, View


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


class Seen(Protocol):
    """The part of a :class:`View` the rule-of-thumb policies read
    (:meth:`mazziere.uno.bots.policy.Sight.of_view` takes them; the ``strong`` bot's rollouts
    take the same fields from a game, :meth:`~mazziere.uno.bots.policy.Sight.of_game`)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def current(self) -> int: ...
    @property
    def direction(self) -> int: ...
    @property
    def hand(self) -> Sequence[Card]: ...
    @property
    def hand_counts(self) -> Sequence[int]: ...
    @property
    def top(self) -> Card: ...
    @property
    def color(self) -> Color | None: ...
    @property
    def challengeable(self) -> bool: ...
    @property
    def in_hand(self) -> Sequence[bool]: ...
    @property
    def legal(self) -> Sequence[Action]: ...
    @property
    def my_turn(self) -> bool: ...


def next_seat(view: Seen, seat: int, direction: int | None = None) -> int:
    """The seat after ``seat`` in the direction of play, among seats still in the hand."""
    step = view.direction if direction is None else direction
    s = seat
    for _ in range(view.players):
        s = (s + step) % view.players
        if view.in_hand[s]:
            return s
    return seat


def is_partner(view: Seen, seat: int, other: int) -> bool:
    """Whether ``other`` plays on ``seat``'s side (teams: seats 0+2 and 1+3, 004 "coppia")."""
    return seat == other or (view.rules.teams and seat % 2 == other % 2)
