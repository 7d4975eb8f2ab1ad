"""The readings of seed 000 that change UNO CASINO's return to player, each an option.

Seed 000 publishes a theoretical RTP of 96.06% and describes the game in sentences that admit
more than one reading. Every clause whose reading moves the RTP is a field of
:class:`Readings`: its values are the readings the sentence admits, the first value is the
one the project adopts (docs/rules/casino.md "Readings of the rules"), and :data:`CLAUSES`
quotes the sentence it rests on. ``mazziere rtp --reading NAME=VALUE`` measures any of them
and ``mazziere certify casino --readings-rounds N`` measures them all, side by side.

Both engines take the readings as small integers (:meth:`Readings.codes`, indexed by the
``RD_*`` constants), so that the rulebook's functions, compiled into the RTP kernel by numba,
branch on them without strings.

>>> Readings().codes()
(0, 0, 0, 0, 0, 0, 0)
>>> Readings(pile_out="refund").codes()[RD_PILE_OUT]
1
>>> parse_reading("forced_draws=bank").label()
'forced_draws=bank'
>>> parse_reading("pile_out=maybe")
Traceback (most recent call last):
mazziere.errors.OptionError: [bad_reading] reading pile_out must be one of bank, refund, ...

"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from mazziere.errors import OptionError
from mazziere.fields import doc_of, option

SkipChain = Literal["colour", "chainable", "played"]
SkipAnswer = Literal["last", "turn"]
Draw2Count = Literal["after", "before"]
ForcedDraws = Literal["none", "bank", "bank_once", "player", "both"]
PileOut = Literal["bank", "refund", "fewer"]
FirstCardReturn = Literal["random_depth", "bottom"]
X1Ban = Literal["at_x1", "for_good"]

RD_SKIP_CHAIN = 0
RD_SKIP_ANSWER = 1
RD_DRAW2_COUNT = 2
RD_FORCED_DRAWS = 3
RD_PILE_OUT = 4
RD_FIRST_CARD = 5
RD_X1_BAN = 6
RD_WIDTH = 7
"""How many codes :meth:`Readings.codes` gives (one per field, in field order)."""

# the codes the rulebook branches on, by value (the index of the value in its field's choices)
SKIP_CHAIN_COLOUR, SKIP_CHAIN_CHAINABLE, SKIP_CHAIN_PLAYED = range(3)
SKIP_ANSWER_LAST, SKIP_ANSWER_TURN = range(2)
DRAW2_AFTER, DRAW2_BEFORE = range(2)
FORCED_NONE, FORCED_BANK, FORCED_BANK_ONCE, FORCED_PLAYER, FORCED_BOTH = range(5)
PILE_OUT_BANK, PILE_OUT_REFUND, PILE_OUT_FEWER = range(3)
FIRST_CARD_RANDOM_DEPTH, FIRST_CARD_BOTTOM = range(2)
X1_BAN_AT_X1, X1_BAN_FOR_GOOD = range(2)


@dataclass(frozen=True, slots=True)
class Readings:
    """How seed 000's open sentences are read; every field's first value is the adopted one."""

    skip_chain: SkipChain = option(
        "colour",
        "Skip/Reverse weight, '1,000 per card laid in sequence': ``colour`` each further "
        "Skip/Reverse of the played card's colour in hand; ``chainable`` each further "
        "Skip/Reverse that could follow it (same colour or same symbol); ``played`` each card "
        "the player has already laid in this turn.",
    )
    skip_answer: SkipAnswer = option(
        "last",
        "Skip/Reverse weight 5,000 'if the bank had last played this same action card': "
        "``last`` the bank's last card played, whenever; ``turn`` only if the bank's latest "
        "turn ended on a play (not on a draw it could not play).",
    )
    draw2_count: Draw2Count = option(
        "after",
        "+2 weight, 'if the bank has more cards than the player': the player's cards "
        "``after`` the +2 leaves the hand, or ``before``.",
    )
    forced_draws: ForcedDraws = option(
        "none",
        "Cards taken for a +2/+4 and the multiplier: ``none`` move nothing; ``bank`` each "
        "card the bank takes raises it; ``bank_once`` each +2/+4 the bank takes raises it "
        "one step; ``player`` each card the player takes lowers it; ``both`` each card "
        "either side takes moves it.",
    )
    pile_out: PileOut = option(
        "bank",
        "The draw pile is out and the side to move cannot play: the ``bank`` wins; the stake "
        "is returned (``refund``); or the side with ``fewer`` cards wins (equal: refund).",
    )
    first_card: FirstCardReturn = option(
        "random_depth",
        "A first card that is not a number goes back into the draw pile at a random depth "
        "(``random_depth``, the same law as a reshuffle) or at the ``bottom``.",
    )
    x1_ban: X1Ban = option(
        "at_x1",
        "'When the multiplier reaches x1 the player may no longer draw': while it is at x1 "
        "(``at_x1``: a draw of the bank that raises it lets the player draw again), or for "
        "the rest of the round once it has been reached (``for_good``).",
    )

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value not in choices(f.name):
                raise OptionError(
                    f"reading {f.name} must be one of {', '.join(choices(f.name))}, not {value!r}",
                    "bad_reading",
                )

    def codes(self) -> tuple[int, ...]:
        """Each field's value as its index among the field's choices, in field order."""
        return _codes(self)

    def changed(self) -> dict[str, str]:
        """The fields that differ from the adopted readings."""
        base = Readings()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    def label(self) -> str:
        """``adopted``, or the changed fields as ``name=value`` joined by commas."""
        return ",".join(f"{k}={v}" for k, v in self.changed().items()) or "adopted"


@functools.lru_cache(maxsize=64)
def _codes(r: Readings) -> tuple[int, ...]:
    """:meth:`Readings.codes`, once per distinct readings (the strategies ask every move)."""
    return tuple(choices(f.name).index(getattr(r, f.name)) for f in fields(r))


_HINTS = {
    "skip_chain": SkipChain,
    "skip_answer": SkipAnswer,
    "draw2_count": Draw2Count,
    "forced_draws": ForcedDraws,
    "pile_out": PileOut,
    "first_card": FirstCardReturn,
    "x1_ban": X1Ban,
}


def choices(name: str) -> tuple[str, ...]:
    """The values reading ``name`` admits, the adopted one first."""
    return tuple(get_args(_HINTS[name]))


def names() -> tuple[str, ...]:
    """Every reading's name, in field order."""
    return tuple(f.name for f in fields(Readings))


def doc(name: str) -> str:
    """What reading ``name`` decides, and its values."""
    return next(doc_of(f) for f in fields(Readings) if f.name == name)


def parse_reading(*items: str, base: Readings | None = None) -> Readings:
    """``NAME=VALUE`` items applied to ``base`` (default: the adopted readings); an unknown
    name or value is an :class:`~mazziere.errors.OptionError` naming the choices."""
    changes: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise OptionError(f"a reading is NAME=VALUE, not {item!r}", "bad_reading")
        if name not in _HINTS:
            raise OptionError(
                f"unknown reading {name!r}: use one of {', '.join(names())}", "unknown_reading"
            )
        changes[name] = value
    return dataclasses.replace(base or Readings(), **changes)


def alternatives() -> list[Readings]:
    """The adopted readings, then every other value of each field with the rest adopted."""
    out = [Readings()]
    for name in names():
        out.extend(parse_reading(f"{name}={v}") for v in choices(name)[1:])
    return out


@dataclass(frozen=True, slots=True)
class Clause:
    """A sentence of seed 000 whose reading changes the RTP, and what each value reads."""

    name: str
    quote: str
    """The sentence, in the seed's Italian."""
    english: str
    """The sentence in English."""
    values: dict[str, str]
    """Each value: the reading in words."""
    why: str
    """Why the adopted reading is the one the text supports best."""


CLAUSES: tuple[Clause, ...] = (
    Clause(
        "skip_chain",
        "la giocata vale 2.000 punti più 1.000 punti per ogni carta calata in sequenza",
        "the play is worth 2,000 points plus 1,000 points for each card laid in sequence",
        {
            "colour": "each further Skip/Reverse of the played card's colour the player holds",
            "chainable": "each further Skip/Reverse that could follow it (same colour or symbol)",
            "played": "each card the player has already laid in this turn",
        },
        "A weight values the play about to be made, so the sequence is the one it opens; "
        "after a Skip or Reverse the player plays again, and the cards that keep the turn "
        "are its colour's Skips and Reverses.",
    ),
    Clause(
        "skip_answer",
        "la giocata vale 5.000 punti se il banco aveva giocato per ultimo questa stessa carta "
        "azione",
        "the play is worth 5,000 points if the bank had last played this same action card",
        {
            "last": "the bank's last card played, in any turn",
            "turn": "only if the bank's latest turn ended on that play",
        },
        "'Per ultimo' names the bank's last card played; nothing in the sentence asks that "
        "no draw came after it.",
    ),
    Clause(
        "draw2_count",
        "se il Banco ha un numero di carte superiore alla Punta, la giocata vale 0 punti",
        "if the bank has more cards than the player, the play is worth 0 points",
        {
            "after": "the player's cards once the +2 has left the hand",
            "before": "the player's cards before the play",
        },
        "A play's weight measures the position it leads to: the +2 is compared as played.",
    ),
    Clause(
        "forced_draws",
        "Il moltiplicatore scenderà ogni volta che il giocatore effettuerà una pescata, potrà "
        "però risalire ogni volta che a pescare sarà il banco",
        "the multiplier goes down each time the player makes a draw, but may go up again "
        "each time the bank is the one drawing",
        {
            "none": "cards taken for a +2/+4 move nothing",
            "bank": "each card the bank takes for a +2/+4 raises it",
            "bank_once": "each +2/+4 the bank takes raises it one step",
            "player": "each card the player takes for a +2/+4 lowers it",
            "both": "each card either side takes for a +2/+4 moves it",
        },
        "The 'pescate' of the multiplier table are the player's own draws, one a card; a "
        "+2/+4 is the other side's play, and the bank's draws mirror the player's.",
    ),
    Clause(
        "pile_out",
        "Nel caso in cui termini il mazzo pesca e il giocatore di turno sia impossibilitato a "
        "giocare la partita si considererà conclusa",
        "should the draw pile run out and the side to move be unable to play, the game is "
        "considered over",
        {
            "bank": "the bank wins",
            "refund": "the stake is returned",
            "fewer": "the side with fewer cards wins (equal: the stake is returned)",
        },
        "Only the player who empties the hand wins and is paid ('Vince il giocatore che "
        "rimane senza carte'); a round that ends otherwise pays nothing.",
    ),
    Clause(
        "first_card",
        "deve essere rimessa nel mazzo pesca e sostituita con un'altra",
        "it must be put back into the draw pile and replaced with another",
        {
            "random_depth": "back at a random depth (in law, a reshuffle)",
            "bottom": "back at the bottom of the pile",
        },
        "'Rimessa nel mazzo' puts the card back among the others, not under them; a random "
        "depth gives the same deals, in law, as shuffling the pile again.",
    ),
    Clause(
        "x1_ban",
        "Quando il moltiplicatore raggiunge il X1, il giocatore non potrà più pescare dal mazzo",
        "when the multiplier reaches x1, the player may no longer draw from the pile",
        {
            "at_x1": "while the multiplier is at x1",
            "for_good": "for the rest of the round, once x1 has been reached",
        },
        "The same section lets the multiplier 'risalire' when the bank draws, and ties each "
        "draw to a step of the multiplier table: the ban follows the multiplier.",
    ),
)
"""Every clause, in :class:`Readings` field order."""


def clause(name: str) -> Clause:
    """The clause of reading ``name``."""
    return next(c for c in CLAUSES if c.name == name)


def _check(clauses: Iterable[Clause]) -> None:
    """Every reading has its clause, with words for each of its values (import-time check)."""
    listed = [c.name for c in clauses]
    if listed != list(names()):
        raise RuntimeError("CLAUSES must follow Readings' fields")  # pragma: no cover
    for c in CLAUSES:
        if tuple(c.values) != choices(c.name):
            raise RuntimeError(f"clause {c.name} must word every value")  # pragma: no cover


_check(CLAUSES)
