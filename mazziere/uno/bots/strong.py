"""The ``strong`` bot: determinized Monte Carlo search with greedy rollouts (issue 14; docs/bots.md
"UNO strong").

On its own turn, when it has a real choice, it builds games as its view allows them to be
(:func:`determinize`): its own hand, the public counts, the top card and colour, the pending
draw, the scores; every card it cannot see (the other hands, the draw pile, the discards under
the top card) is shuffled from the cards it does not hold and dealt back in the public counts.
The search tree is one ply deep: its children are the bot's candidate actions. Each
determinization is played out once after every candidate, with the same random stream for all
of them (common random numbers: the candidates are compared on the same cards, which removes
most of the noise), by :class:`~mazziere.uno.bots.greedy.GreedyBot` in every seat, for at most
``depth`` actions; a finished hand scores 1 if the bot's side went out, else 0, and an
unfinished one scores by the cards held (:func:`score`). The best candidate is then
replayed against greedy's own choice on fresh determinizations and played only if it wins by
``margin`` standard errors: the search corrects greedy where the rollouts agree, and keeps it
where they cannot tell.

Calls of UNO, catches and every out-of-turn choice are greedy's (they have one right answer
or are taken in no time). The bot never reads another seat's cards or the deck: everything
it uses comes from the :class:`~mazziere.uno.View` (tests/uno/test_strong.py swaps the hidden
cards and gets the same decision). The budget is a number of determinizations (the rules
packages do not read clocks); the default keeps a decision within 100 ms on the reference
machine (docs/bots.md).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from mazziere.cards.uno import FULL_DECK, Card
from mazziere.errors import MazziereError
from mazziere.uno import Action, CallUno, Catch, Phase, Play, View
from mazziere.uno import events as E
from mazziere.uno.bots.greedy import GreedyBot, _call_or_catch
from mazziere.uno.engine import all_legal_actions, view
from mazziere.uno.game import Game
from mazziere.uno.position import parse_position

DETERMINIZATIONS = 8
"""Games sampled per decision by default; each is played out after every candidate."""
DEPTH = 30
"""Actions a rollout plays before the hand is scored by the cards held."""
MARGIN = 1.5
"""Standard errors by which the best candidate must beat greedy's on fresh games to be
played."""
_GREEDY = GreedyBot()
_REVERSE_RANK = 10


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
        pool.subtract([c for c in FULL_DECK if c < 104 and c % 13 == _REVERSE_RANK])
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


def _next_action(g: Game, rng: random.Random) -> tuple[int, Action]:
    """Greedy in every seat, out-of-turn offers first (as :mod:`mazziere.sim.uno_sim`)."""
    current = g.current
    asked: set[int] = set()
    for seat, _ in all_legal_actions(g):
        if seat != current and seat not in asked:
            asked.add(seat)
            a = _GREEDY.act(view(g, seat), rng)
            if a is not None:
                return seat, a
    a = _GREEDY.act(view(g, current), rng)
    assert a is not None
    return current, a


def score(g: Game, seat: int) -> float:
    """An unfinished hand's worth for ``seat``'s side: one half, plus a tenth per card fewer
    than the best opponent holds (0 to 1)."""
    mine = min(len(g.hands[s]) for s in range(g.players) if _same_side(g, seat, s))
    theirs = min(
        (len(g.hands[s]) for s in range(g.players) if g.in_hand[s] and not _same_side(g, seat, s)),
        default=mine,
    )
    return max(0.0, min(1.0, 0.5 + 0.1 * (theirs - mine)))


def rollout(g: Game, seat: int, first: Action, rng: random.Random, depth: int = DEPTH) -> float:
    """Play ``first`` for ``seat``, then greedy everywhere for at most ``depth`` actions: 1.0
    if ``seat``'s side went out first, 0.0 if another did, else :func:`score`."""
    hand_no = g.hand_no
    if (
        isinstance(first, Play)
        and len(g.hands[seat]) - len(first.cards) == 1
        and CallUno() in g.legal_actions(seat)
    ):
        g.push(CallUno(), seat)  # the bot says UNO before such a play (greedy does)
    events = g.push(first, seat)
    steps = 0
    while True:
        for e in events:
            if isinstance(e, E.HandEnded):
                return 1.0 if e.winner is not None and _same_side(g, seat, e.winner) else 0.0
        if g.result is not None or g.hand_no != hand_no:
            return 0.0
        if steps >= depth:
            return score(g, seat)
        s, a = _next_action(g, rng)
        events = g.push(a, s)
        steps += 1


def _same_side(g: Game, seat: int, other: int) -> bool:
    return seat == other or (g.rules.teams and seat % 2 == other % 2)


@dataclass(frozen=True, slots=True)
class StrongBot:
    """Determinized search over its own choices with greedy rollouts (module docstring)."""

    name: str = "strong"
    determinizations: int = DETERMINIZATIONS
    depth: int = DEPTH
    margin: float = MARGIN

    def act(self, view: View, rng: random.Random) -> Action | None:
        legal = view.legal
        if not legal or view.seat is None:
            return None
        if not view.my_turn:
            return _GREEDY.act(view, rng)
        due = _call_or_catch(view)
        if due is not None:
            return due
        greedy = _GREEDY.act(view, rng)
        choices = [a for a in legal if not isinstance(a, (CallUno, Catch))]
        if len(choices) <= 1 or self.determinizations <= 0 or greedy not in choices:
            return greedy
        best = self.search(view, choices, choices.index(greedy), rng)
        if isinstance(best, Play) and len(view.hand) - len(best.cards) == 1 and CallUno() in legal:
            return CallUno()  # announce before playing down to one card, as greedy does
        return best

    def search(self, view: View, choices: list[Action], default: int, rng: random.Random) -> Action:
        """Every candidate played out on the same determinizations (module docstring);
        ``default`` is greedy's candidate. The best of them is then checked against greedy's
        on as many fresh determinizations, and played only if it wins there by ``margin``
        standard errors (selecting and testing on the same games would favour noise)."""
        assert view.seat is not None
        seat = view.seat
        try:
            totals = [0.0] * len(choices)
            for _ in range(self.determinizations):
                g = determinize(view, rng)
                stream = rng.getrandbits(64)
                for i, action in enumerate(choices):
                    totals[i] += rollout(g.copy(), seat, action, random.Random(stream), self.depth)
            best = max(range(len(choices)), key=lambda k: (totals[k], k == default))
            if best == default:
                return choices[default]
            diffs = []
            for _ in range(self.determinizations):
                g = determinize(view, rng)
                stream = rng.getrandbits(64)
                mine = rollout(g.copy(), seat, choices[best], random.Random(stream), self.depth)
                theirs = rollout(g, seat, choices[default], random.Random(stream), self.depth)
                diffs.append(mine - theirs)
        except MazziereError:
            return choices[default]  # a position the view cannot rebuild: greedy's
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
        if mean > 0 and mean > self.margin * math.sqrt(var / n):
            return choices[best]
        return choices[default]
