"""The ``strong`` bot: determinized Monte Carlo search with greedy rollouts (docs/bots.md "UNO
strong").

On its own turn, when it has a real choice, it builds games as its view allows them to be
(:func:`determinize` once, checked; then :class:`Deals` deals copies of it again): its own hand,
the public counts, the top card and colour, the pending draw, the scores; every card it cannot
see (the other hands, the draw pile, the discards under the top card) is shuffled from the
cards it does not hold and dealt back in the public counts, as the hand's history allows.

*What the hand's history shows* (:func:`read`). The view carries the hand's public log
(``View.log``: every play, every draw by count and reason, colours chosen, hands swapped), the
same for every seat. The bot assumes a player who can play does (greedy always does; a person
who draws on purpose, where ``voluntary_draw`` allows it, breaks the assumption), and that
each play is greedy's choice. So:

* a seat that drew in its turn held no card it could play on the top card in its colour, a
  wild included: a *mark*, "at most 0 of its cards are playable there". Each card it takes in
  since allows one more (the card drawn may be anything: greedy keeps a drawn wild), each card
  of the mark it plays one fewer. The worlds deal each marked seat its cards in layers
  (:func:`_layers`) so that no mark is broken;
* each play a seat made by choice from its hand since it last took a card in (up to
  :data:`SHOWN`, the latest first) is *shown*: the hand it held then is the one it holds now
  and the cards it played since. Each world's marked deal is dealt again for that seat from
  its cards and the draw pile until greedy, holding them with the counts and direction of that
  moment, would have made every one of those plays
  (:func:`~mazziere.uno.bots.policy.greedy_chose`; up to :data:`TRIES` deals, else the one
  that agrees with the most recent plays). Against greedy the real hands always agree;
* the discards under the top card are the cards seen played since the last reshuffle, so no
  world deals them to anyone.

*The search* is one ply deep: its children are the bot's candidate actions. Each world is
played out after every candidate still in (common random numbers: the candidates are compared
on the same cards and the same shuffles) by greedy's rules of thumb in every seat
(:func:`mazziere.uno.bots.policy.rollout`: the same compiled code as the ``greedy`` bot, read
from the game's fields), to the end of the hand (:data:`~mazziere.uno.bots.policy.MAX_STEPS`
at most). A hand is worth what the match counts (:func:`~mazziere.uno.bots.policy.hand_value`):
+1 for going out, -1 for another side going out, and with points to a target a hundredth per
point won or given away. The budget is spent in rounds of successive halving (each round the
better half of the candidates, and greedy's choice, stay in); the best mean is played unless
its paired lead over greedy's choice is within ``margin`` standard errors (then greedy's).

Calls of UNO, catches and every out-of-turn choice are greedy's (they have one right answer
or are taken in no time). The bot never reads another seat's cards or the deck: everything
it uses comes from its :class:`~mazziere.uno.View` (tests/uno/test_strong.py swaps the hidden
cards and gets the same decision); it keeps nothing between decisions but the play it chose
when it said UNO first (for that seat, turn and hand), so one instance may serve many tables.
The budget is a number of rollouts (the rules packages do not read clocks); the default keeps
a decision within 100 ms on average on the reference machine (docs/bots.md;
benchmarks/bench_uno_strong.py).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field, replace

from mazziere.cards.uno import FULL_DECK, WILD4_FACE, WILD_FACE, Card, Color, card
from mazziere.errors import MazziereError
from mazziere.rng import SplitMixRng
from mazziere.uno import Action, CallUno, Catch, Phase, Play, Rules, View
from mazziere.uno import events as E
from mazziere.uno.bots.greedy import GreedyBot
from mazziere.uno.bots.policy import Sight, call_or_catch, greedy_chose, rollout
from mazziere.uno.game import Game
from mazziere.uno.matching import DRAW2_RANK, REVERSE_RANK, matches
from mazziere.uno.position import parse_position

ROLLOUTS = 450
"""Rollouts per decision by default, shared out evenly among the candidates."""
MARGIN = 1.0
"""Standard errors (of the paired differences) by which the best candidate's mean must beat
greedy's choice to be played."""
TRIES = 16
"""Deals of one seat at most, in one world, for one that agrees with every play of it read."""
_GREEDY = GreedyBot()


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


def leads(best: list[float], default: list[float], margin: float) -> bool:
    """Whether ``best``'s values, paired with ``default``'s (the same worlds), beat them by more
    than ``margin`` standard errors of the paired differences (at least two pairs)."""
    n = len(default)
    diffs = [b - d for b, d in zip(best, default, strict=True)]
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean > margin * math.sqrt(var / n)


def _matching(top: Card, color: Color | None, rules: Rules) -> frozenset[Card]:
    """Every card that may be played on ``top`` in ``color``."""
    return frozenset(card(f) for f in range(54) if matches(f, top, color, rules))


@dataclass(frozen=True, slots=True)
class StrongBot:
    """Determinized search over its own choices with greedy rollouts (module docstring)."""

    name: str = "strong"
    rollouts: int = ROLLOUTS
    margin: float = MARGIN
    read_log: bool = True
    """Deal the worlds as the hand's public history allows (:func:`read`); ``False``: every
    hidden card at random (for measuring what the reading is worth)."""
    plans: dict[int, tuple[tuple[int, int, tuple[Card, ...]], Action]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Per seat: the play decided when the bot said UNO first, and the turn it is for (a new
    bot, as the server makes for each move, searches again instead)."""

    def act(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        if not legal or view.seat is None:
            return None
        if not view.my_turn:
            return _GREEDY.act(view, rng)
        due = call_or_catch(Sight.of_view(view, view.seat))
        if due is not None:
            return due
        key = (view.hand_no, view.total_turns, view.hand)
        plan = self.plans.pop(view.seat, None)
        if plan is not None and plan[0] == key and plan[1] in legal:
            return plan[1]  # the play chosen when UNO was said first
        greedy = _GREEDY.act(view, rng)
        if greedy is None:
            return None
        choices = [a for a in legal if not isinstance(a, (CallUno, Catch))]
        if len(choices) <= 1 or self.rollouts <= 0 or greedy not in choices:
            best = greedy
        else:
            reading = read(view) if self.read_log else None
            best = self.search(view, choices, choices.index(greedy), rng, reading)
        if isinstance(best, Play) and len(view.hand) - len(best.cards) == 1 and CallUno() in legal:
            self.plans[view.seat] = (key, best)
            return CallUno()  # announce before playing down to one card, as greedy does
        return best

    def search(
        self,
        view: View,
        choices: list[Action],
        default: int,
        rng: random.Random,
        reading: Reading | None = None,
    ) -> Action:
        """The candidate with the best mean over the same determinizations (common random
        numbers), unless its lead over greedy's choice ``default`` on them is within ``margin``
        standard errors of the paired differences: then greedy's (module docstring). The
        budget is spent in rounds (successive halving): each round plays every candidate
        still in on the same fresh worlds, then keeps the better half (and greedy's)."""
        assert view.seat is not None
        seat = view.seat
        k = len(choices)
        rounds = max(1, math.ceil(math.log2(k)))
        if self.rollouts // rounds // k < 2:
            return choices[default]
        try:
            deals = Deals(view, rng, reading)
        except MazziereError:
            return choices[default]  # a position the view cannot rebuild: greedy's
        values: list[list[float]] = [[] for _ in range(k)]
        alive = list(range(k))
        left = self.rollouts
        for r in range(rounds):
            n = left // (rounds - r) // len(alive)
            for _ in range(n):
                g = deals.deal(rng)
                for i in alive:
                    values[i].append(rollout(g.copy(), seat, choices[i]))
            left -= n * len(alive)
            if r < rounds - 1 and len(alive) > 2:
                ranked = sorted(alive, key=lambda i: -sum(values[i]))
                keep = set(ranked[: max(2, (len(alive) + 1) // 2)]) | {default}
                alive = [i for i in alive if i in keep]
        totals = {i: sum(values[i]) for i in alive}
        best = max(alive, key=lambda i: (totals[i], i == default))
        if best == default:
            return choices[default]
        if leads(values[best], values[default], self.margin):
            return choices[best]
        return choices[default]
