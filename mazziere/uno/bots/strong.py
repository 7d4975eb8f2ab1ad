"""The ``strong`` bot: determinized Monte Carlo search with greedy rollouts (issue 14; docs/bots.md
"UNO strong").

On its own turn, when it has a real choice, it builds games as its view allows them to be
(:func:`determinize` once, checked; then :class:`Deals` deals copies of it again): its own hand,
the public counts, the top card and colour, the pending draw, the scores; every card it cannot
see (the other hands, the draw pile, the discards under the top card) is shuffled from the
cards it does not hold and dealt back in the public counts.

*What the table showed* (:func:`voids`). The view has no history, so the bot keeps its own: the
card it last played, the colour and direction it left and the counts it saw (its memory, per
seat; nothing but its own views and choices). When that card is still on top in that colour at
its next turn and every other seat in the hand holds exactly one card more, each of them drew
instead of playing. The bot assumes a player who can play does (greedy always does; a person
who draws on purpose, where ``voluntary_draw`` allows it, breaks the assumption): such a seat
held no card it could play on that top, a wild included, and is dealt none in all but one of
its cards (the card it drew may be anything: greedy keeps a drawn wild). With three seats or
more the turns are read seat by seat (:func:`_in_turn`): when each other seat had one turn and
either drew one card or played one, and at most one played, the seats that drew before that
play drew on the bot's card and those after it on the card played (now on top). Each such seat
gets a *mark*: at most one of its cards (the one it drew) is one it could have played there.
At three seats or more the marks are carried from round to round (:func:`carried`) while the
rounds are plain (each seat one turn, the direction kept): a seat's count tells how many cards
it took in, and its marks allow that many more. The marks are used for the rest of that turn
(its play, a drawn card, a wild's colour): the worlds deal each marked seat its cards in layers
by age (:func:`_layers`).

*What a play showed* (:func:`shown`). When the bot's last card (a number or a plain wild) was
answered heads-up by one turn after which the opponent holds one card fewer, or at a bigger
table every other seat drew on it but the last before the bot, which holds one card fewer, that
seat played the card now on top from its hand. The worlds are then dealt so that greedy,
holding that hand and that card, would have chosen that very play
(:func:`~mazziere.uno.bots.policy.greedy_chose`; up to :data:`TRIES` worlds are dealt for
one). Against greedy the real hand always agrees; a random deal agrees about half the time.

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
it uses comes from its :class:`~mazziere.uno.View` and its own earlier ones
(tests/uno/test_strong.py swaps the hidden cards and gets the same decision). The budget is a
number of rollouts (the rules packages do not read clocks); the default keeps a decision
within 100 ms on average on the reference machine (docs/bots.md; benchmarks/bench_uno_strong.py).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

from mazziere.cards.uno import FULL_DECK, WILD4_FACE, WILD_FACE, Card, Color, card
from mazziere.errors import MazziereError
from mazziere.rng import SplitMixRng
from mazziere.uno import Action, CallUno, Catch, ChooseColor, Phase, Play, Rules, View
from mazziere.uno.bots.greedy import GreedyBot
from mazziere.uno.bots.policy import Sight, call_or_catch, greedy_chose, rollout
from mazziere.uno.game import Game
from mazziere.uno.matching import REVERSE_RANK, matches
from mazziere.uno.position import parse_position

ROLLOUTS = 450
"""Rollouts per decision by default, shared out evenly among the candidates."""
MARGIN = 1.0
"""Standard errors (of the paired differences) by which the best candidate's mean must beat
greedy's choice to be played."""
TRIES = 16
"""Worlds dealt at most for one that agrees with what an opponent's play showed."""
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


class Deals:
    """Determinizations of one view, fast: the first is :func:`determinize`'s (the view
    rebuilt as a checked position), the next ones are copies of it with the hidden cards
    shuffled again and a fresh random source (the same counts, so the same position)."""

    __slots__ = ("below", "hidden", "layers", "seats", "shown", "template", "tries", "under")

    def __init__(
        self,
        v: View,
        rng: random.Random,
        voids: Marks | None = None,
        shown: Shown | None = None,
        tries: int = TRIES,
    ) -> None:
        self.shown, self.tries = shown, tries
        self.template = determinize(v, rng)
        g = self.template
        self.layers = {s: _layers(len(g.hands[s]), marks) for s, marks in (voids or {}).items()}
        self.seats = [s for s in range(g.players) if s != v.seat]
        self.under = len(g.discard) - 1
        self.hidden: list[Card] = [c for s in self.seats for c in g.hands[s]]
        self.hidden += g.discard[:-1] + g.draw_pile
        self.below: list[Card] = []
        if shown is not None and self.under > 0 and shown.top in self.hidden:
            self.hidden.remove(shown.top)  # the bot's own card, under the top: not hidden
            self.below = [shown.top]
            self.under -= 1

    def deal(self, rng: random.Random) -> Game:
        """A world; with an opponent's last play :class:`Shown`, one where greedy would have
        made that play (up to ``tries`` worlds are dealt, the last kept if none is)."""
        shown = self.shown
        g = self._deal(rng)
        if shown is None:
            return g
        for _ in range(self.tries - 1):
            if greedy_chose(g, shown.seat, shown.top, shown.color, shown.card, shown.card_color):
                return g
            g = self._deal(rng)
        return g

    def _deal(self, rng: random.Random) -> Game:
        g = self.template.copy()
        cards = list(self.hidden)
        rng.shuffle(cards)
        hands = g.hands
        dealt: set[int] = set()
        for s, layers in self.layers.items():
            kept: list[Card] = []
            pool = cards
            for size, bad in layers:
                rest: list[Card] = []
                took = 0
                for c in pool:
                    if took < size and c not in bad:
                        kept.append(c)
                        took += 1
                    else:
                        rest.append(c)
                if took < size:
                    break
                pool = rest
            else:
                hands[s] = tuple(kept)
                cards = pool
                dealt.add(s)
                continue
            # too few such cards: the seat is dealt freely
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


def leads(best: list[float], default: list[float], margin: float) -> bool:
    """Whether ``best``'s values, paired with ``default``'s (the same worlds), beat them by more
    than ``margin`` standard errors of the paired differences (at least two pairs)."""
    n = len(default)
    diffs = [b - d for b, d in zip(best, default, strict=True)]
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean > margin * math.sqrt(var / n)


Marks = dict[int, list[tuple[frozenset[Card], int]]]
"""What the bot knows of other seats' hands: per seat, marks ``(bad, allowed)``: at most
``allowed`` of its cards are in ``bad`` (:meth:`StrongBot._known`)."""


@dataclass(slots=True)
class _Memory:
    """The bot's marks as they stood at the start of its last turn (one per bot seat)."""

    hand_no: int
    turns: int
    direction: int
    counts: tuple[int, ...]
    marks: Marks


def carried(v: View, old: _Memory | None, fresh: dict[int, frozenset[Card]]) -> Marks:
    """The marks at this turn: ``fresh`` (this round's :func:`voids`, each ``allowed`` one
    card: the one drawn), and the older marks carried over the round. A mark is carried when
    the round was plain (each seat in the hand had exactly one turn, the direction is the
    same, and no rule can move hands or play out of turn): each seat's count then tells how
    many cards it took in, and each of its marks allows that many more (one more if the
    count did not move: it may have drawn a card and played another; a card played keeps
    every mark true). A seat that held two cards or fewer (it may have played and been
    caught without calling UNO) loses its marks, and a mark that allows as many cards as the
    seat holds says nothing and is dropped. Marks are carried at three seats or more only:
    heads-up, where the reading of the opponent's play (:func:`shown`) already shapes the
    worlds, carrying them has not been measured yet (docs/bots.md)."""
    rules = v.rules
    out: Marks = {}
    if (
        old is not None
        and sum(v.in_hand) >= 3
        and old.hand_no == v.hand_no
        and old.direction == v.direction
        and v.turns == old.turns + sum(v.in_hand)
        and _counts_tell(rules)
    ):
        for s, marks in old.marks.items():
            before, now = old.counts[s], v.hand_counts[s]
            if not v.in_hand[s] or before <= 2:
                continue
            more = now - before if now > before else 1 if now == before else 0
            kept = [(bad, allowed + more) for bad, allowed in marks if allowed + more < now]
            if kept:
                out[s] = kept
    for s, bad in fresh.items():
        out.setdefault(s, []).append((bad, 1))
    return out


@dataclass(frozen=True, slots=True)
class Shown:
    """An opponent's last play, seen by the bot: ``seat`` played ``card`` (in ``card_color``)
    on the bot's ``top`` in ``color`` (:func:`shown`)."""

    seat: int
    top: Card
    color: Color | None
    card: Card
    card_color: Color | None


def shown(v: View, last: _Played | None) -> Shown | None:
    """What an opponent's play showed (module docstring): heads-up, when the bot's last play
    (a number or a plain wild) was answered by exactly one turn in which the opponent held
    one card fewer after it (so it played the card now on top, from its hand); with three
    seats or more, when every other seat but the last before the bot drew on that card
    (:func:`_in_turn`) and the last holds one card fewer. The worlds are then dealt so that
    greedy, holding that hand and the card, would have played it."""
    assert v.seat is not None
    rules = v.rules
    if (
        last is None
        or last.key[0] != v.hand_no
        or v.phase not in (Phase.PLAY, Phase.PENDING, Phase.DRAWN)
        or not (last.top == WILD_FACE or (last.top < WILD_FACE and last.top % 13 <= 9))
        or v.top == WILD4_FACE
    ):
        return None
    if _moves_hands(rules, v.top):
        return None  # a play with a target, or hands moved: not read
    if sum(v.in_hand) == 2:
        if v.turns != last.turns + 2:
            return None
        opp = next(s for s in range(v.players) if s != v.seat and v.in_hand[s])
        if v.hand_counts[opp] != last.counts[opp] - 1:
            return None
    else:
        opp_or_none = _in_turn(v, last)[1]
        if opp_or_none is None:
            return None
        opp = opp_or_none
    return Shown(opp, last.top, last.color, v.top, v.color if v.top >= WILD_FACE else None)


@dataclass(slots=True)
class _Played:
    """What the bot's own last play left on the table (its memory, per seat)."""

    key: tuple[int, int]
    """The (hand, total turns) of the view it was decided from."""
    top: Card
    color: Color | None
    """The colour it left: a wild's is filled in by the colour choice that follows."""
    counts: tuple[int, ...]
    turns: int
    direction: int
    """The direction of play it left (its card is plain: the one it saw)."""
    plan: Action | None = None
    """The play decided when the bot said UNO first: played next, without a new search."""


def _moves_hands(rules: Rules, c: Card) -> bool:
    """Whether playing ``c`` has a target or moves hands under ``rules`` (a 7 that swaps, a 0
    that passes hands or makes a chosen player draw)."""
    r = c % 13 if c < WILD_FACE else -1
    return (r == 7 and rules.seven_swap) or (
        r == 0 and (rules.zero_rotate or rules.zero_gives_four)
    )


def _counts_tell(rules: Rules) -> bool:
    """Whether a seat's count tells what it did in its turn: no rule moves hands, plays out
    of turn or several cards at once."""
    return not (
        rules.seven_swap
        or rules.zero_rotate
        or rules.zero_gives_four
        or rules.jump_in
        or rules.multi_play
        or rules.burn
    )


def _matching(top: Card, color: Color | None, rules: Rules) -> frozenset[Card]:
    """Every card that may be played on ``top`` in ``color``."""
    return frozenset(card(f) for f in range(54) if matches(f, top, color, rules))


def _plain(v: View, c: Card) -> bool:
    """A number card or a plain wild whose play only passes the turn on (no target, no hands
    moved) under the view's rules."""
    if c == WILD_FACE:
        return True
    return c < WILD_FACE and c % 13 <= 9 and not _moves_hands(v.rules, c)


def _in_turn(v: View, last: _Played) -> tuple[dict[int, frozenset[Card]], int | None]:
    """With three seats or more in the hand, what the turns since the bot's last card showed
    when each other seat either drew one card or played one, and at most one played: the
    seats that drew before that play drew on the bot's card, those after it on the card now
    on top (the one played); each is void on what it drew on (:func:`voids`). The seat that
    played is returned when it was the last before the bot (its play is then read like a
    heads-up answer, :func:`shown`), else ``None``. Read only when the bot's card was plain
    (:func:`_plain`), the direction is still the one it left, each other seat had exactly one
    turn, and no rule can move hands, jump in or play several cards at once; a seat that held
    two cards (it may have played and been caught for a missed UNO) stops the reading."""
    assert v.seat is not None
    rules = v.rules
    if (
        sum(v.in_hand) < 3
        or last.key[0] != v.hand_no
        or v.phase not in (Phase.PLAY, Phase.PENDING, Phase.DRAWN)
        or not _plain(v, last.top)
        or v.direction != last.direction
        or v.turns != last.turns + sum(v.in_hand)
        or not _counts_tell(rules)
    ):
        return {}, None
    order: list[int] = []
    s = v.seat
    while True:
        s = (s + v.direction) % v.players
        while not v.in_hand[s]:
            s = (s + v.direction) % v.players
        if s == v.seat:
            break
        order.append(s)
    before: list[int] = []
    after: list[int] = []
    played: int | None = None
    for s in order:
        delta = v.hand_counts[s] - last.counts[s]
        if delta == 1 and last.counts[s] != 2:
            (before if played is None else after).append(s)
        elif delta == -1 and played is None:
            played = s
        else:  # a penalty, a second play, or a two-card hand: nothing more is read
            after = []
            played = -1
            break
    mine = _matching(last.top, last.color, rules)
    out = dict.fromkeys(before, mine)
    if played is not None and played >= 0 and v.phase is not Phase.PENDING:
        now = _matching(v.top, v.color, rules)
        out.update(dict.fromkeys(after, now))
    return out, (played if played is not None and played >= 0 and not after else None)


def voids(v: View, last: _Played | None) -> dict[int, frozenset[Card]]:
    """Public inference: which cards each other seat cannot hold (module docstring). A seat
    that drew instead of playing on the bot's last card is assumed to have held no card it
    could play on it, and is dealt no such card in all but one of its cards (the one drawn,
    which it may have kept). Such seats are: every other seat in the hand, when the bot's card
    is still on top in the same colour and each holds exactly one card more; or, with three
    seats or more, the run of seats right after the bot that drew one card each
    (:func:`_in_turn`)."""
    assert v.seat is not None
    if (
        last is None
        or last.key[0] != v.hand_no
        or v.phase not in (Phase.PLAY, Phase.DRAWN, Phase.PENDING)
        or v.turns != last.turns + sum(v.in_hand)
    ):
        return {}
    bad = _matching(last.top, last.color, v.rules)
    others = [s for s in range(v.players) if s != v.seat and v.in_hand[s]]
    if (
        v.phase is not Phase.PENDING
        and v.top == last.top
        and v.color == last.color
        and others
        and all(v.hand_counts[s] == last.counts[s] + 1 for s in others)
    ):
        return dict.fromkeys(others, bad)
    return _in_turn(v, last)[0]


@dataclass(frozen=True, slots=True)
class StrongBot:
    """Determinized search over its own choices with greedy rollouts (module docstring)."""

    name: str = "strong"
    rollouts: int = ROLLOUTS
    margin: float = MARGIN
    read_plays: bool = True
    """Deal the worlds so that the opponent's last play heads-up is greedy's (:func:`shown`)."""
    memory: dict[int, list[_Played]] = field(default_factory=dict, compare=False, repr=False)
    """Per seat: its last two plays (the latest last), from its own views and choices."""
    turns: dict[int, tuple[tuple[int, int], Marks, Shown | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Per seat: the turn (hand, total turns) it last searched in, and what it inferred."""
    marks: dict[int, _Memory] = field(default_factory=dict, compare=False, repr=False)
    """Per seat: its marks at the start of its last turn (:func:`carried`)."""

    def act(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        if not legal or view.seat is None:
            return None
        if not view.my_turn:
            return _GREEDY.act(view, rng)
        due = call_or_catch(Sight.of_view(view, view.seat))
        if due is not None:
            return due
        key = (view.hand_no, view.total_turns)
        known = self._known(view, key)  # every turn: the marks are carried round by round
        mine = self.memory.setdefault(view.seat, [])
        here = mine[-1] if mine and mine[-1].key == key else None
        if here is not None and here.plan in legal:
            return here.plan  # the play chosen when UNO was said first
        greedy = _GREEDY.act(view, rng)
        if greedy is None:
            return None
        choices = [a for a in legal if not isinstance(a, (CallUno, Catch))]
        if len(choices) <= 1 or self.rollouts <= 0 or greedy not in choices:
            best = greedy
        else:
            best = self.search(
                view,
                choices,
                choices.index(greedy),
                rng,
                known,
                self._shown(view, key),
            )
        self._remember(view, key, best)
        if isinstance(best, Play) and len(view.hand) - len(best.cards) == 1 and CallUno() in legal:
            mine[-1].plan = best
            return CallUno()  # announce before playing down to one card, as greedy does
        return best

    def _known(self, view: View, key: tuple[int, int]) -> Marks:
        """The marks at this turn (:func:`voids` of this round, and the older ones
        :func:`carried` over it), worked out at its first decision (the bot's last play
        before it is then still the latest) and kept for the turn's later ones."""
        assert view.seat is not None
        turn = self.turns.get(view.seat)
        if turn is None or turn[0] != key:
            mine = [p for p in self.memory.get(view.seat, []) if p.key != key]
            last = mine[-1] if mine else None
            marks = carried(view, self.marks.get(view.seat), voids(view, last))
            self.marks[view.seat] = _Memory(
                view.hand_no, view.turns, view.direction, view.hand_counts, marks
            )
            turn = (key, marks, shown(view, last) if self.read_plays else None)
            self.turns[view.seat] = turn
        return turn[1]

    def _shown(self, view: View, key: tuple[int, int]) -> Shown | None:
        """:func:`shown` at this turn (worked out with :meth:`_known`)."""
        assert view.seat is not None
        self._known(view, key)
        return self.turns[view.seat][2]

    def _remember(self, view: View, key: tuple[int, int], action: Action) -> None:
        """Note what the bot's play leaves on top (for :func:`voids` at its next turn)."""
        assert view.seat is not None
        mine = self.memory[view.seat]
        if isinstance(action, ChooseColor):
            if mine and mine[-1].key == key:
                mine[-1].color = action.color
            return
        if not isinstance(action, Play):
            return
        c = action.cards[-1]
        color = action.color if action.color is not None else c.color
        played = _Played(key, c, color, view.hand_counts, view.turns, view.direction)
        if mine and mine[-1].key == key:
            mine[-1] = played
        else:
            mine.append(played)
            del mine[:-2]

    def search(
        self,
        view: View,
        choices: list[Action],
        default: int,
        rng: random.Random,
        known: Marks | None = None,
        seen: Shown | None = None,
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
            deals = Deals(view, rng, known, seen)
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
