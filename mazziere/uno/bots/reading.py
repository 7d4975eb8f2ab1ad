"""What the ``strong`` bot reads of the other hands in the hand's public history
(``View.log``): *marks* (cards a seat that drew could not have held), the plays each seat
*showed* by choice, and the discards under the top card (:func:`read`; docs/bots.md "UNO
strong"). The worlds the bot plays out are dealt as the reading allows
(:class:`mazziere.uno.bots.worlds.Deals`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from mazziere.cards.uno import WILD4_FACE, WILD_FACE, Card, Color, card
from mazziere.uno import Rules, View
from mazziere.uno import events as E
from mazziere.uno.bots.policy import greedy_chose
from mazziere.uno.game import Game
from mazziere.uno.matching import DRAW2_RANK, matches

Marks = dict[int, list[tuple[frozenset[Card], int]]]
"""What the bot knows of other seats' hands: per seat, marks ``(bad, allowed)``: at most
``allowed`` of its cards are in ``bad`` (:func:`read`)."""


@dataclass(frozen=True, slots=True)
class Shown:
    """A play an opponent made from its hand, by choice, seen in the log: ``seat`` played
    ``card`` (in ``card_color``) on ``top`` in ``color``, holding then what it holds now and
    the cards it has played since (``later``), with ``counts`` cards in each seat and play
    going ``direction`` (:func:`read`)."""

    seat: int
    top: Card
    color: Color | None
    card: Card
    card_color: Color | None
    later: tuple[Card, ...] = ()
    counts: tuple[int, ...] | None = None
    direction: int = 0

    def agrees(self, g: Game) -> bool:
        """Whether greedy, holding ``seat``'s hand in ``g`` and the cards played since, would
        have made this play."""
        return greedy_chose(
            g,
            self.seat,
            self.top,
            self.color,
            self.card,
            self.card_color,
            self.later,
            self.counts,
            self.direction,
        )


@dataclass(slots=True)
class Reading:
    """What the hand's public log tells the bot (:func:`read`)."""

    marks: Marks = field(default_factory=dict)
    shown: dict[int, list[Shown]] = field(default_factory=dict)
    """Per seat, its plays since it last took a card in, the latest first (at most
    :data:`SHOWN` of them)."""
    under: list[Card] | None = None
    """The discards under the top card, oldest first, when the log accounts for all of
    them (every one was seen played); ``None``: they are dealt at random."""


SHOWN = 3
"""Plays of one seat read at most (the latest ones since it last took a card in)."""
_STACK_OPENERS = frozenset(
    c for c in range(54) if c == WILD4_FACE or (c < WILD_FACE and c % 13 == DRAW2_RANK)
)
"""Cards whose play leaves a draw pending (its plays are stacks, not read)."""


def read(v: View) -> Reading:
    """What the hand's public history (``v.log``) tells of the other hands, assuming every
    other seat plays when it can (greedy does; a person who draws on purpose, where
    ``voluntary_draw`` allows it, breaks the assumption):

    * a seat that drew in its turn (not a penalty) held no card it could play on the top card
      in its colour: a *mark* ``(cards playable there, 0)``. Each card it takes in since allows
      one more such card (the one drawn may be anything); each card of the mark it plays allows
      one fewer (a mark the seat contradicts is dropped), and a mark that allows as many cards
      as the seat holds says nothing and is dropped;
    * each play a seat made by choice from its hand (one card, in its turn, nothing pending,
      not the card it just drew) since it last took a card in is *shown*: the worlds are dealt
      so that greedy, holding what the seat holds now and the cards it played since, with the
      counts and direction of that moment, would have made it (:meth:`Shown.agrees`);
    * the discards under the top card are every card seen played since the last reshuffle.

    Where hands move (a 7 swapped, 0s passed) the seats involved lose what was known of
    them; a rotation of every hand ends the reading for the rest of the hand."""
    out = Reading()
    log = v.log
    me = v.seat
    if not log or type(log[0]) is not E.HandStarted or log[0].hand != v.hand_no:
        return out
    rules = v.rules
    n = v.players
    counts = [0] * n
    direction = 1
    top: Card | None = None
    color: Color | None = None
    pending = False
    marks: Marks = {s: [] for s in range(n)}
    plays: dict[int, list[Shown]] = {s: [] for s in range(n)}
    discard: list[Card] = []
    drew_now = -1  # the seat that just drew in its turn (its next play is the card drawn)
    blind = False

    def forget(s: int) -> None:
        marks[s], plays[s] = [], []

    for e in log[1:]:
        if isinstance(e, E.Played):
            s = e.seat
            cards = e.cards
            if not blind and s != me and top is not None:
                for c in cards:  # a card of a mark played: one fewer allowed (below 0: broken)
                    marks[s] = [(b, a - (c in b)) for b, a in marks[s] if a - (c in b) >= 0]
                plays[s] = [replace(p, later=(*p.later, *cards)) for p in plays[s]]
                if (
                    len(cards) == 1
                    and e.target is None
                    and not e.jump_in
                    and not pending
                    and drew_now != s
                ):
                    c = cards[0]
                    wild = e.color if c >= WILD_FACE else None
                    plays[s].append(Shown(s, top, color, c, wild, (), tuple(counts), direction))
            counts[s] -= len(cards)
            discard.extend(cards)
            top = cards[-1]
            color = e.color if top >= WILD_FACE else top.color
            pending = top in _STACK_OPENERS
            drew_now = -1
        elif isinstance(e, E.Drew):
            s = e.seat
            if not blind and s != me:
                if e.reason == E.TURN_DRAW and not pending and top is not None:
                    marks[s].append((_matching(top, color, rules), 0))
                marks[s] = [(b, a + e.count) for b, a in marks[s]]
                plays[s] = []
            counts[s] += e.count
            drew_now = s if e.reason == E.TURN_DRAW else -1
            if e.reason in ("draw2", "draw4", "challenge"):
                pending = False
        elif isinstance(e, E.Dealt):
            counts[e.seat] = e.count
        elif isinstance(e, E.Turned):
            discard.append(e.card)
            top = e.card
            color = top.color
        elif isinstance(e, E.Returned):
            if e.card in discard:
                discard.remove(e.card)
        elif isinstance(e, E.ColorChosen):
            color = e.color
        elif isinstance(e, E.Reversed):
            direction = e.direction
        elif isinstance(e, E.Reshuffled):
            discard = discard[-1:]
        elif isinstance(e, E.Swapped):
            counts[e.seat], counts[e.other] = counts[e.other], counts[e.seat]
            forget(e.seat)
            forget(e.other)
        elif isinstance(e, E.Rotated):
            blind = True
        elif isinstance(e, E.Passed):
            drew_now = -1
        elif isinstance(e, E.HandEnded):
            return Reading()
    if blind:
        return Reading()
    for s in range(n):
        if s == me or not v.in_hand[s]:
            continue
        held = v.hand_counts[s]
        kept = [(b, a) for b, a in marks[s] if a < held]
        if kept:
            out.marks[s] = kept
        if plays[s]:
            out.shown[s] = plays[s][::-1][:SHOWN]
    if len(discard) == v.discard_count and discard and discard[-1] == v.top:
        out.under = discard[:-1]
    return out


def _matching(top: Card, color: Color | None, rules: Rules) -> frozenset[Card]:
    """Every card that may be played on ``top`` in ``color``."""
    return frozenset(card(f) for f in range(54) if matches(f, top, color, rules))
