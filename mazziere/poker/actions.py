"""Draw-poker actions: the seed's buttons as small frozen values whose text round-trips.

>>> [str(Action.parse(t)) for t in ("open 10", "APRI 10", "wait", "rilancia 5", "passa")]
['open 10', 'open 10', 'wait', 'raise 5', 'fold']
>>> a = Action.parse("draw 7h 2c"); a, Action.parse(str(a)) == a, str(Action.parse("draw"))
(Draw(cards=(7h, 2c)), True, 'draw')

Seed 002's buttons: OPEN = APRI (bet), WAIT = ASPETTA (check, first action only), RAISE =
RILANCIA (call and raise by ``amount``), REPLACE = SOSTITUISCI (call and go to the draw),
FOLD = PASSA, SEE = VEDI (call and show down); DRAW = the draw itself (SOSTITUISCI with the
chosen cards highlighted). Amounts are whole chips; RAISE's amount is the increment over the
call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from mazziere.errors import MalformedAction
from mazziere.poker.cards import Card, cards_text, parse_cards

ITALIAN = {
    "open": "APRI",
    "wait": "ASPETTA",
    "raise": "RILANCIA",
    "replace": "SOSTITUISCI",
    "fold": "PASSA",
    "see": "VEDI",
    "draw": "CAMBIA",
}
"""The seed's button name for each action word (the draw's confirm is SOSTITUISCI too; the
terminal calls it CAMBIA so each key names one thing)."""
HELP = {
    "open": "bet an amount (nothing bet yet)",
    "wait": "check: bet nothing, the other may open (first action only)",
    "raise": "pay what is owed and raise by an amount",
    "replace": "pay what is owed (if anything) and go to the draw; closes round one",
    "fold": "give up this deal; the other takes the pot",
    "see": "pay what is owed (if anything) and show down",
    "draw": "replace the chosen cards (none: stand pat)",
}
_FROM_ITALIAN = {v.lower(): k for k, v in ITALIAN.items()}


class Action:
    """Base class of every draw-poker action."""

    __slots__ = ()
    word: ClassVar[str] = ""

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action from its text form (English or the seed's Italian words)."""
        if not isinstance(text, str) or not text.strip():
            raise MalformedAction("an action is a text such as 'open 10', 'wait', 'draw 7h 2c'")
        head, _, rest = text.strip().partition(" ")
        word = _FROM_ITALIAN.get(head.lower(), head.lower())
        rest = rest.strip()
        if word in ("open", "raise"):
            amount = _amount(rest, word)
            return Open(amount) if word == "open" else Raise(amount)
        if word == "draw":
            return Draw(parse_cards(rest) if rest and rest != "-" else ())
        simple = _SIMPLE.get(word)
        if simple is None:
            raise MalformedAction(
                f"unknown action {head!r}: use open N, wait, raise N, replace, fold, see, "
                "draw CARDS (or APRI, ASPETTA, RILANCIA, SOSTITUISCI, PASSA, VEDI, CAMBIA)"
            )
        if rest:
            raise MalformedAction(f"'{word}' takes no argument")
        return simple

    def __str__(self) -> str:
        return self.word


def _amount(text: str, word: str) -> int:
    try:
        amount = int(text)
    except ValueError:
        raise MalformedAction(f"'{word}' needs a whole number of chips, e.g. '{word} 10'") from None
    if amount < 1:
        raise MalformedAction(f"'{word}' needs a positive number of chips", "bad_amount")
    return amount


@dataclass(frozen=True, slots=True)
class Open(Action):
    """OPEN (APRI): bet ``amount`` when nothing has been bet this round."""

    amount: int
    word: ClassVar[str] = "open"

    def __str__(self) -> str:
        return f"open {self.amount}"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """RAISE (RILANCIA): pay what is owed, then raise by ``amount``."""

    amount: int
    word: ClassVar[str] = "raise"

    def __str__(self) -> str:
        return f"raise {self.amount}"


@dataclass(frozen=True, slots=True)
class Wait(Action):
    """WAIT (ASPETTA): check, the round's first action only."""

    word: ClassVar[str] = "wait"

    def __str__(self) -> str:
        return "wait"


@dataclass(frozen=True, slots=True)
class Replace(Action):
    """REPLACE (SOSTITUISCI): pay what is owed and go to the draw; closes round one."""

    word: ClassVar[str] = "replace"

    def __str__(self) -> str:
        return "replace"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    """FOLD (PASSA): give up the deal; the opponent takes the pot."""

    word: ClassVar[str] = "fold"

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class See(Action):
    """SEE (VEDI): pay what is owed, if anything, and show down."""

    word: ClassVar[str] = "see"

    def __str__(self) -> str:
        return "see"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """The draw: replace these cards of the hand (none: stand pat)."""

    cards: tuple[Card, ...]
    word: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return f"draw {cards_text(self.cards)}" if self.cards else "draw"


WAIT = Wait()
REPLACE = Replace()
FOLD = Fold()
SEE = See()
STAND_PAT = Draw(())
_SIMPLE: dict[str, Action] = {"wait": WAIT, "replace": REPLACE, "fold": FOLD, "see": SEE}
