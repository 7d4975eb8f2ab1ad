"""The worlds the ``strong`` bot plays out: games consistent with its view
(:func:`determinize`), dealt again and again as the hand's public history allows
(:class:`Deals`, from :func:`mazziere.uno.bots.reading.read`), so that the hidden cards are
random but no world contradicts what was seen (docs/bots.md "UNO strong").
"""

from __future__ import annotations

import random
from collections import Counter

from mazziere.cards.uno import FULL_DECK, WILD_FACE, Card
from mazziere.rng import SplitMixRng
from mazziere.uno import Phase, View
from mazziere.uno.bots.reading import Reading, Shown
from mazziere.uno.game import Game
from mazziere.uno.matching import REVERSE_RANK
from mazziere.uno.position import parse_position

TRIES = 16
"""Deals of one seat at most, in one world, for one that agrees with every play of it read."""


def _text(cards: list[Card] | tuple[Card, ...]) -> str:
    return ",".join(str(c) for c in cards) if cards else "-"


def _flags(values: tuple[bool, ...]) -> str:
    return "".join("1" if v else "0" for v in values)


def _ints(values: tuple[int, ...]) -> str:
    return ",".join(str(v) for v in values) if values else "-"


def determinize(v: View, rng: random.Random) -> Game:
    """A game consistent with the view: what the view shows, every hidden card dealt at
    random from the cards the view does not place (module docstring)."""
    assert v.seat is not None
    rules = v.rules
    two_removed = sum(v.in_hand) == 2 and rules.two_player_reverse == "removed"
    pool = Counter(FULL_DECK)
    pool.subtract(v.hand)
    pool.subtract([v.top])
    if two_removed:
        pool.subtract([c for c in FULL_DECK if c < WILD_FACE and c % 13 == REVERSE_RANK])
    unknown = list(pool.elements())
    rng.shuffle(unknown)
    held: list[list[Card]] = []
    at = 0
    for seat in range(v.players):
        if seat == v.seat:
            held.append(list(v.hand))
            continue
        n = v.hand_counts[seat]
        held.append(unknown[at : at + n])
        at += n
    hands = [_text(h) for h in held]
    under = unknown[at : at + v.discard_count - 1]
    at += v.discard_count - 1
    draw = unknown[at:]
    drawn = v.drawn
    if v.phase is Phase.DRAWN and drawn is None and held[v.current]:
        drawn = held[v.current][-1]  # another seat's drawn card: one of its own, unseen
    stack_w4 = v.pending > 0 and v.top.is_wild
    fields = {
        "seats": str(v.players),
        "hand": str(v.hand_no),
        "dealer": str(v.dealer),
        "turn": str(v.current),
        "phase": v.phase.value,
        "color": "-" if v.color is None else str(v.color),
        "dir": str(v.direction),
        "hands": "/".join(hands),
        "discard": _text([v.top, *under]),
        "draw": _text(draw),
        "pending": str(v.pending),
        "stackw4": "1" if stack_w4 else "0",
        "w4by": "-" if v.w4_by is None else str(v.w4_by),
        "drawn": "-" if drawn is None else str(drawn),
        "unoseat": "-" if v.uno_seat is None else str(v.uno_seat),
        "unocalled": "1" if v.uno_called else "0",
        "active": _flags(v.active),
        "inhand": _flags(v.in_hand),
        "scores": _ints(v.scores),
        "won": _ints(v.hands_won),
        "turns": str(v.turns),
        "totalturns": str(v.total_turns),
        "rng": f"splitmix:{rng.getrandbits(62)}:0",
        "matchrng": f"splitmix:{rng.getrandbits(62)}:0",
    }
    if stack_w4 and v.color is not None:
        fields["stackcolor"] = fields["color"]
    return parse_position("uno " + " ".join(f"{k}={x}" for k, x in fields.items()), rules)


def _layers(n: int, marks: list[tuple[frozenset[Card], int]]) -> list[tuple[int, frozenset[Card]]]:
    """How a seat with ``n`` cards and ``marks`` is dealt: its cards in layers by age, each
    ``(size, bad)`` dealt from cards outside ``bad``. With the marks from the oldest (the
    most cards allowed: taken in since it was made) to the newest, the cards it held before
    the oldest avoid every mark's cards, those taken in between two marks avoid the later
    marks', and the newest ones (the card drawn last) may be anything. One mark of one card
    allowed: all but one card outside it, and one card at random."""
    order = sorted(marks, key=lambda m: -m[1])
    out: list[tuple[int, frozenset[Card]]] = []
    held = n
    for i, (_, allowed) in enumerate(order):
        allowed = min(allowed, n)
        avoid = frozenset().union(*(bad for bad, _ in order[i:]))
        out.append((held - allowed if held > allowed else 0, avoid))
        held = min(held, allowed)
    out.append((held, frozenset()))
    return out


class Deals:
    """Determinizations of one view, fast: the first is :func:`determinize`'s (the view
    rebuilt as a checked position), the next ones are copies of it with the hidden cards
    shuffled again and a fresh random source (the same counts, so the same position), dealt
    as the :class:`Reading` allows."""

    __slots__ = ("below", "hidden", "layers", "seats", "shown", "template", "tries", "under")

    def __init__(
        self, v: View, rng: random.Random, reading: Reading | None = None, tries: int = TRIES
    ) -> None:
        reading = reading or Reading()
        self.shown, self.tries = reading.shown, tries
        self.template = determinize(v, rng)
        g = self.template
        self.layers = {s: _layers(len(g.hands[s]), m) for s, m in reading.marks.items()}
        self.seats = [s for s in range(g.players) if s != v.seat]
        self.under = len(g.discard) - 1
        self.hidden: list[Card] = [c for s in self.seats for c in g.hands[s]]
        self.hidden += g.discard[:-1] + g.draw_pile
        self.below: list[Card] = []
        if reading.under is not None and len(reading.under) == self.under:
            pool = Counter(self.hidden)
            pool.subtract(reading.under)
            if min(pool.values(), default=0) >= 0:
                self.hidden = list(pool.elements())
                self.below = list(reading.under)
                self.under = 0

    def deal(self, rng: random.Random) -> Game:
        """A world: the marked seats dealt in layers (:func:`_layers`); then each seat with
        plays :class:`Shown` is dealt again from its cards and the draw pile until greedy,
        holding them, would have made every one of them (up to ``tries`` deals; else the
        deal that agrees with the most recent plays is kept)."""
        g = self._deal(rng)
        for s, plays in self.shown.items():
            best, hand = _agreeing(g, plays), g.hands[s]
            tries = 1
            while best < len(plays) and tries < self.tries:
                self._redeal(g, s, rng)
                tries += 1
                got = _agreeing(g, plays)
                if got > best:
                    best, hand = got, g.hands[s]
            if g.hands[s] != hand:  # the best deal back: its cards out of the draw pile
                mine, pile = list(g.hands[s]), list(g.draw_pile)
                for c in hand:
                    if c in mine:
                        mine.remove(c)
                    else:
                        pile.remove(c)
                g.hands[s], g.draw_pile = hand, _into(pile, mine, rng)
        g._legal_seat = -1
        return g

    def _take(self, s: int, pool: list[Card]) -> tuple[list[Card], list[Card]] | None:
        """Seat ``s``'s cards from ``pool`` (in a random order) by its layers: the first cards
        outside each layer's marks; and the rest, in their order. ``None`` when the pool has
        too few cards for a layer."""
        kept: list[Card] = []
        for size, bad in self.layers[s]:
            if size == 0:
                continue
            rest: list[Card] = []
            took = 0
            for i, c in enumerate(pool):
                if c in bad:
                    rest.append(c)
                    continue
                kept.append(c)
                took += 1
                if took == size:
                    rest.extend(pool[i + 1 :])
                    break
            if took < size:
                return None
            pool = rest
        return kept, pool

    def _redeal(self, g: Game, s: int, rng: random.Random) -> None:
        """Deal seat ``s`` again from its cards and the draw pile: its cards go back into the
        pile at random places (the pile stays in a random order), and it takes the first
        cards its layers allow."""
        n = len(g.hands[s])
        pool = _into(list(g.draw_pile), list(g.hands[s]), rng)
        took = self._take(s, pool) if s in self.layers else None
        if took is None:
            g.hands[s], g.draw_pile = tuple(pool[:n]), pool[n:]
        else:
            g.hands[s], g.draw_pile = tuple(took[0]), took[1]
        g._legal_seat = -1

    def _deal(self, rng: random.Random) -> Game:
        g = self.template.copy()
        cards = list(self.hidden)
        rng.shuffle(cards)
        hands = g.hands
        dealt: set[int] = set()
        for s in self.layers:
            took = self._take(s, cards)
            if took is not None:  # too few such cards: the seat is dealt freely
                hands[s] = tuple(took[0])
                cards = took[1]
                dealt.add(s)
        at = 0
        for s in self.seats:
            if s not in dealt:
                n = len(hands[s])
                hands[s] = tuple(cards[at : at + n])
                at += n
        g.discard = cards[at : at + self.under] + self.below + g.discard[-1:]
        g.draw_pile = cards[at + self.under :]
        g.rng = SplitMixRng(rng.getrandbits(64))
        g._legal_seat = -1
        return g


def _into(pile: list[Card], cards: list[Card], rng: random.Random) -> list[Card]:
    """``pile`` (in a random order) with ``cards`` put in at random places: the result is in
    a random order too, for the price of one random number a card (a shuffle of the whole
    pile costs one a card of the pile)."""
    for c in cards:
        pile.insert(rng.randrange(len(pile) + 1), c)
    return pile


def _agreeing(g: Game, plays: list[Shown]) -> int:
    """How many of a seat's plays, the latest first, greedy would have made in ``g`` before
    the first it would not have."""
    for i, p in enumerate(plays):
        if not p.agrees(g):
            return i
    return len(plays)
