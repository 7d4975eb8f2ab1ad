"""The bot protocol and the moves every bot builds on (draw-poker.md "The computer opponent").

A bot answers a :class:`~mazziere.poker.View` on its own turn with one of ``view.legal``; it
plays from its own cards and public information only. Randomness comes from the ``rng`` the
caller passes: a :class:`random.Random` or a :class:`~mazziere.rng.Rng`.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from mazziere.poker.actions import FOLD, REPLACE, SEE, WAIT, Action, Draw, Open, Raise
from mazziere.poker.cards import Card
from mazziere.poker.state import Phase
from mazziere.poker.view import View
from mazziere.rng import Rng

BotRng = random.Random | Rng
"""What a bot draws its random choices from."""


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` that picks an action from a :class:`View`."""

    @property
    def name(self) -> str:
        """The registry name (``easy``, ``normal``, ``hard``, ``baseline``, ``random``)."""
        ...

    def act(self, view: View, rng: BotRng) -> Action:
        """One of ``view.legal`` (the view is the bot's own, on its turn)."""
        ...


def uniform(rng: BotRng) -> float:
    """A float in [0, 1) from either kind of random source."""
    if isinstance(rng, random.Random):
        return rng.random()
    return rng.randbelow(1 << 30) / (1 << 30)


def bet(view: View, amount: float) -> Action:
    """OPEN or RAISE by ``amount`` clamped to the legal range; a call when no bet is allowed."""
    if view.bet_range is None or not ({"open", "raise"} & set(view.words)):
        return call(view)
    lo, hi = view.bet_range
    chips = max(lo, min(hi, round(amount)))
    return Open(chips) if "open" in view.words else Raise(chips)


def call(view: View) -> Action:
    """The passive answer: WAIT when allowed, else REPLACE (round one) or SEE (round two)."""
    if "wait" in view.words:
        return WAIT
    return REPLACE if view.phase is Phase.BET1 else SEE


def fold_or_call(view: View, keep_going: bool) -> Action:
    """Call (or check) when ``keep_going`` or nothing is owed, else FOLD."""
    return call(view) if keep_going or view.owed == 0 else FOLD


def discard(hand: tuple[Card, ...], mask: int, max_replace: int) -> Draw:
    """The draw replacing the cards at the positions in ``mask`` (at most ``max_replace``)."""
    cards = [c for i, c in enumerate(hand) if mask >> i & 1]
    return Draw(tuple(sorted(cards, key=lambda c: hand.index(c))[:max_replace]))


def opponent_moves(view: View, phase_round: int) -> int:
    """How many times the opponent opened or raised in round 1 or 2 of this deal."""
    me = view.seat
    seen_draw = False
    count = 0
    for m in view.history:
        if m.word == "draw":
            seen_draw = True
            continue
        in_round = 2 if seen_draw else 1
        if m.seat != me and in_round == phase_round and m.word in ("open", "raise"):
            count += 1
    return count
