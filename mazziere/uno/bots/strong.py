"""The ``strong`` bot: determinized Monte Carlo search with greedy rollouts (docs/bots.md "UNO
strong").

On its own turn, when it has a real choice, it builds games as its view allows them to be
(:func:`~mazziere.uno.bots.worlds.determinize` once, checked; then
:class:`~mazziere.uno.bots.worlds.Deals` deals copies of it again): its own hand, the public
counts, the top card and colour, the pending draw, the scores; every card it cannot see (the
other hands, the draw pile, the discards under the top card) is shuffled from the cards it
does not hold and dealt back in the public counts, as the hand's history allows.

*What the hand's history shows* (:func:`mazziere.uno.bots.reading.read`). The view carries the
hand's public log (``View.log``: every play, every draw by count and reason, colours chosen,
hands swapped), the same for every seat. The bot assumes a player who can play does (greedy
always does; a person who draws on purpose, where ``voluntary_draw`` allows it, breaks the
assumption), and that each play is greedy's choice. So:

* a seat that drew in its turn held no card it could play on the top card in its colour, a
  wild included: a *mark*, "at most 0 of its cards are playable there". Each card it takes in
  since allows one more (the card drawn may be anything: greedy keeps a drawn wild), each card
  of the mark it plays one fewer. The worlds deal each marked seat its cards in layers
  (:func:`mazziere.uno.bots.worlds._layers`) so that no mark is broken;
* each play a seat made by choice from its hand since it last took a card in (up to
  :data:`~mazziere.uno.bots.reading.SHOWN`, the latest first) is *shown*: the hand it held
  then is the one it holds now and the cards it played since. Each world's marked deal is
  dealt again for that seat from its cards and the draw pile until greedy, holding them with
  the counts and direction of that moment, would have made every one of those plays
  (:func:`~mazziere.uno.bots.policy.greedy_chose`; up to
  :data:`~mazziere.uno.bots.worlds.TRIES` deals, else the one that agrees with the most recent
  plays). Against greedy the real hands always agree;
* the discards under the top card are the cards seen played since the last reshuffle, so no
  world deals them to anyone.

*The search* is one ply deep: its children are the bot's candidate actions. Each world is
played out after every candidate still in (common random numbers: the candidates are compared
on the same cards and the same shuffles) by greedy's rules of thumb in every seat
(:func:`mazziere.uno.bots.rollouts.rollout`: the same compiled code as the ``greedy`` bot, read
from the game's fields), to the end of the hand (:data:`~mazziere.uno.bots.rollouts.MAX_STEPS`
at most). A hand is worth what the match counts (:func:`~mazziere.uno.bots.rollouts.hand_value`):
+1 for going out, -1 for another side going out, and with points to a target a hundredth per
point won or given away. The budget is spent in rounds of successive halving (each round the
better half of the candidates, and greedy's choice, stay in); the best mean is played unless
its paired lead over greedy's choice is within ``margin`` standard errors (then greedy's).

Calls of UNO, catches and every out-of-turn choice are greedy's (they have one right answer
or are taken in no time). The bot never reads another seat's cards or the deck: everything
it uses comes from its :class:`~mazziere.uno.View` (tests/uno/test_strong.py swaps the hidden
cards and gets the same decision); it keeps nothing between decisions but the play it chose
when it said UNO first (for that seat, turn and hand), so one instance may serve many tables.
The budget is a number of rollouts (the rules packages do not read clocks); the default is
chosen to keep a decision within a table's pace (its time per decision is measured in
docs/bots.md, by benchmarks/bench_uno_strong.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from mazziere.cards.uno import Card
from mazziere.errors import MazziereError
from mazziere.uno import Action, CallUno, Catch, Play, View
from mazziere.uno.bots.greedy import GreedyBot
from mazziere.uno.bots.policy import Sight, call_or_catch
from mazziere.uno.bots.reading import Reading, read
from mazziere.uno.bots.rollouts import rollout
from mazziere.uno.bots.worlds import Deals

ROLLOUTS = 450
"""Rollouts per decision by default, shared out evenly among the candidates."""
MARGIN = 1.0
"""Standard errors (of the paired differences) by which the best candidate's mean must beat
greedy's choice to be played."""
_GREEDY = GreedyBot()


def leads(best: list[float], default: list[float], margin: float) -> bool:
    """Whether ``best``'s values, paired with ``default``'s (the same worlds), beat them by more
    than ``margin`` standard errors of the paired differences (at least two pairs)."""
    n = len(default)
    diffs = [b - d for b, d in zip(best, default, strict=True)]
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean > margin * math.sqrt(var / n)


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
