"""UNO actions: small frozen values with a text form that round-trips.

>>> a = Action.parse("W4:G"); a, str(a) == "W4:G", Action.parse(str(a)) == a
(Play(cards=(W4,), color=<Color.GREEN: 2>, target=None), True, True)
>>> [str(Action.parse(t)) for t in ("r7,b7", "R7>2", "draw", "catch 1", "color y")]
['R7,B7', 'R7>2', 'draw', 'catch 1', 'color Y']

Text forms: a play is its cards joined by commas, then ``:C`` for a wild's colour and ``>S``
for a target seat (7 swap, 0 gives four); the rest are words: ``draw``, ``pass``, ``accept``,
``challenge``, ``uno``, ``catch S``, ``color C``, ``timeout``, ``leave``, ``end_hand``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

from mazziere.cards.uno import Card, Color, parse_cards
from mazziere.errors import MalformedAction


class Action:
    """Base class of every UNO action."""

    __slots__ = ()
    word: ClassVar[str] = ""

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action from its text form; raises :class:`MalformedAction`."""
        if not isinstance(text, str):
            raise MalformedAction("an action is a text such as 'R7', 'W:G', 'draw'")
        t = text.strip()
        if not t:
            raise MalformedAction("empty action")
        head, _, rest = t.partition(" ")
        word = head.lower()
        rest = rest.strip()
        if word in _WORDS:
            cls = _WORDS[word]
            if rest:
                raise MalformedAction(f"'{word}' takes no argument")
            return cls()
        if word == "catch":
            return Catch(_seat(rest, "catch"))
        if word in ("color", "colour"):
            return ChooseColor(Color.parse(rest))
        return Play.parse(t)

    def __str__(self) -> str:
        return self.word


def _seat(text: str, what: str) -> int:
    try:
        seat = int(text)
    except ValueError:
        raise MalformedAction(f"'{what}' needs a seat number, e.g. '{what} 1'") from None
    if not 0 <= seat < 10:
        raise MalformedAction(f"seat {seat} does not exist (seats are 0-9)")
    return seat


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play one card, or several (multi-play, bruciata), from the hand.

    ``color`` is required exactly when the last card is a Wild or +4; ``target`` names the seat
    for a 7 (``seven_swap``) or a 0 (``zero_gives_four``, optional).
    """

    cards: tuple[Card, ...]
    color: Color | None = None
    target: int | None = None

    @property
    def card(self) -> Card:
        """The last card played: it sets the colour and the effect."""
        return self.cards[-1]

    @staticmethod
    def parse(text: str) -> Play:
        t = text.strip()
        target: int | None = None
        color: Color | None = None
        if ">" in t:
            t, _, seat = t.partition(">")
            target = _seat(seat.strip(), "R7>")
        if ":" in t:
            t, _, col = t.partition(":")
            color = Color.parse(col)
        cards = parse_cards(t)
        if not cards:
            raise MalformedAction("a play names at least one card")
        return Play(cards, color, target)

    def __str__(self) -> str:
        s = ",".join(str(c) for c in self.cards)
        if self.color is not None:
            s += ":" + self.color.letter
        if self.target is not None:
            s += f">{self.target}"
        return s


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw one card (by choice, or for lack of a playable card); with nothing left: pass."""

    word: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Keep the card just drawn and end the turn."""

    word: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Take the pending +2/+4 cards (and lose the turn) instead of stacking or challenging."""

    word: ClassVar[str] = "accept"

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """Challenge the +4 just played; the server checks the hand without showing it."""

    word: ClassVar[str] = "challenge"

    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True)
class CallUno(Action):
    """Say "UNO!": before playing the next-to-last card, or holding one card."""

    word: ClassVar[str] = "uno"

    def __str__(self) -> str:
        return "uno"


@dataclass(frozen=True, slots=True)
class Catch(Action):
    """Catch a player who holds one card and did not call UNO."""

    target: int

    def __str__(self) -> str:
        return f"catch {self.target}"


@dataclass(frozen=True, slots=True)
class ChooseColor(Action):
    """Choose the colour when the first turned card is a Wild."""

    color: Color

    def __str__(self) -> str:
        return f"color {self.color.letter}"


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """Server-only: the decision time ran out (auto-play, or abandonment with two players)."""

    word: ClassVar[str] = "timeout"

    def __str__(self) -> str:
        return "timeout"


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """Leave ("abbandona") a two-player table: the match ends and the leaver loses (004)."""

    word: ClassVar[str] = "leave"

    def __str__(self) -> str:
        return "leave"


@dataclass(frozen=True, slots=True)
class EndHand(Action):
    """Server-only: the table's hand time limit ran out; the hand ends with no winner (004)."""

    word: ClassVar[str] = "end_hand"

    def __str__(self) -> str:
        return "end_hand"


@functools.lru_cache(maxsize=4096)
def play_of(cards: tuple[Card, ...], color: Color | None = None, target: int | None = None) -> Play:
    """The (shared, immutable) ``Play`` of these cards; legal-action lists reuse them."""
    return Play(cards, color, target)


_WORDS: dict[str, type[Action]] = {
    "draw": Draw,
    "pass": Pass,
    "accept": Accept,
    "challenge": Challenge,
    "uno": CallUno,
    "timeout": Timeout,
    "leave": Leave,
    "end_hand": EndHand,
}

DRAW = Draw()
PASS = Pass()
ACCEPT = Accept()
CHALLENGE = Challenge()
CALL_UNO = CallUno()
TIMEOUT = Timeout()
LEAVE = Leave()
END_HAND = EndHand()
SERVER_ONLY: tuple[type[Action], ...] = (Timeout, EndHand)
"""Actions only the server (timers) sends; they never appear among a seat's legal actions."""
