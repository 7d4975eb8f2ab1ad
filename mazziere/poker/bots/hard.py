"""The ``hard`` opponent: a strategy computed by counterfactual regret minimisation (CFR+) on the
abstract game of :mod:`mazziere.poker.bots.abstraction`, one data file per deck
(``data/hard52.json``, ``data/hard32.json``, made by :mod:`mazziere.sim.poker_cfr`;
docs/bots.md "Poker hard").

A decision is a lookup plus a draw from the stored distribution: the hand's bucket, the deal's
public actions read into the abstract tree (an opponent's bet or raise is read as the nearer of
the two abstract sizes, pot or maximum), then the distribution at that node. Bets are made at
the abstract size on the real pot, clamped to what the table allows. A history the abstraction
has no node for (a table with more raises than the rules' default) is answered by checking or
calling.

The file is read with :mod:`importlib.resources` (it ships inside the package) and cached; the
engine's evaluator gives the buckets, so ``hard`` needs no third-party package at play time.
Strategies were solved under each deck's default ranking; a table that ranks the flush above
the full house is played with the same strategy and its own evaluator.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import zlib
from dataclasses import dataclass
from importlib import resources

from mazziere.poker import actions as A
from mazziere.poker.bots import abstraction as ab
from mazziere.poker.bots.base import BotRng, bet, call, discard, uniform
from mazziere.poker.cards import Card
from mazziere.poker.eval_tables import CATEGORIES, straights
from mazziere.poker.evaluator import rank_of, tables_for
from mazziere.poker.options import Rules
from mazziere.poker.state import Move, Phase
from mazziere.poker.view import View


@dataclass(frozen=True, slots=True)
class Strategy:
    """One deck's solved strategy and how to read it."""

    deck: int
    lay: ab.Layout
    probs: bytes
    """Each probability in 1/255ths, in the layout's order."""
    cutoffs: tuple[int, ...]
    index1: dict[str, int]
    index2: dict[str, int]
    leaf_of: dict[str, int]
    meta: dict[str, object]


@functools.cache
def strategy(deck: int) -> Strategy:
    """The shipped strategy for a deck of 52 or 32 cards (read once)."""
    text = resources.files("mazziere.poker.bots").joinpath(f"data/hard{deck}.json").read_text()
    raw = json.loads(text)
    probs = zlib.decompress(base64.b64decode(raw.pop("strategy")))
    lay = ab.layout(int(raw["ante"]), int(raw["max_bet"]))
    if len(probs) != lay.size:
        raise ValueError(f"hard{deck}.json holds {len(probs)} numbers, the layout {lay.size}")
    return Strategy(
        deck,
        lay,
        probs,
        tuple(raw["cutoffs"]),
        {n.history: i for i, n in enumerate(lay.tree1) if n.kind == "decide"},
        {n.history: i for i, n in enumerate(lay.tree2) if n.kind == "decide"},
        {lay.tree1[leaf].history: k for k, leaf in enumerate(lay.leaves)},
        raw,
    )


def _pick(probs: bytes, start: int, count: int, rng: BotRng) -> int:
    weights = probs[start : start + count]
    total = sum(weights)
    if total == 0:
        return 0
    x = uniform(rng) * total
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return count - 1


def _size_letter(amount: int, pot_size: int, max_bet: int) -> str:
    """The abstract size an actual bet is read as: ``m`` at or above the geometric middle of
    the pot size and the maximum, else ``p``."""
    if pot_size >= max_bet:
        return "p"
    return "m" if amount >= math.sqrt(pot_size * max_bet) else "p"


def abstract_history(view: View) -> tuple[str, str]:
    """The deal's public actions as abstract round-one and round-two histories."""
    rules = view.rules
    max_bet = rules.max_bet if rules.max_bet is not None else 10**9
    lo = rules.min_bet_amount
    moves: list[Move] = list(view.history)
    paid_total = 0
    rounds: list[list[tuple[Move, int]]] = [[], []]
    committed = [0, 0]
    rnd = 0
    for m in moves:
        if m.word == "draw":
            rnd, committed = 1, [0, 0]
            continue
        owed = max(0, committed[1 - m.seat] - committed[m.seat])
        pay = {"open": m.amount, "raise": owed + m.amount, "replace": m.amount, "see": m.amount}
        paid = pay.get(m.word, 0)
        committed[m.seat] += paid
        paid_total += paid
        rounds[rnd].append((m, owed))
    pot = view.pot - paid_total
    out = []
    for rnd_moves in rounds:
        letters = []
        for m, owed in rnd_moves:
            if m.word == "wait":
                letters.append("k")
            elif m.word in ("replace", "see"):
                letters.append("c")
            elif m.word == "fold":
                letters.append("f")
            elif m.word in ("open", "raise"):
                size = max(lo, min(max_bet, pot + owed))
                letters.append(_size_letter(m.amount, size, max_bet))
            pot += {"open": m.amount, "raise": owed + m.amount}.get(m.word, 0)
            if m.word in ("replace", "see"):
                pot += m.amount
        out.append("".join(letters))
    return out[0], out[1]


def _shape(hand: tuple[Card, ...], rules: Rules) -> tuple[int, int, tuple[int, ...]]:
    t = tables_for(rules)
    rank = rank_of(hand, t)
    cat = CATEGORIES.index(t.categories[rank])
    runs = tuple(sorted(straights(rules.deck, rules.ace_low_straight)))
    return rank, cat, runs


@dataclass(frozen=True, slots=True)
class HardBot:
    """The CFR+ strategy of its deck (module docstring)."""

    name: str = "hard"

    def act(self, view: View, rng: BotRng) -> A.Action:
        s = strategy(view.rules.deck)
        hand, rules = view.hand, view.rules
        rank, cat, runs = _shape(hand, rules)
        deck32 = rules.deck == 32
        role = 0 if view.is_first else 1
        h1, h2 = abstract_history(view)
        lay = s.lay
        if view.phase is Phase.BET1:
            node = s.index1.get(h1)
            if node is None:
                return call(view)
            acts = lay.tree1[node].actions
            i = ab.pre_bucket(hand, cat, runs, deck32)
            off = lay.offsets1[node] + i * len(acts)
            return self._betting(view, acts[_pick(s.probs, off, len(acts), rng)])
        leaf = s.leaf_of.get(h1)
        if view.phase is Phase.DRAW:
            i = ab.pre_bucket(hand, cat, runs, deck32)
            if leaf is None:
                n = 0
            elif role == 0:
                n = _pick(s.probs, lay.draw0 + (leaf * ab.PRE_BUCKETS + i) * ab.DRAWS, 4, rng)
            else:
                d0 = min(3, view.drawn[view.first])
                off = lay.draw1 + ((leaf * ab.DRAWS + d0) * ab.PRE_BUCKETS + i) * ab.DRAWS
                n = _pick(s.probs, off, 4, rng)
            n = min(n, rules.max_replace)
            return discard(hand, ab.discard_mask(hand, n, cat, runs, deck32), rules.max_replace)
        node = s.index2.get(h2)
        if leaf is None or node is None:
            return call(view)
        acts = lay.tree2[node].actions
        d = min(3, view.drawn[view.first]) * ab.DRAWS + min(3, view.drawn[1 - view.first])
        k = ab.post_bucket(rank, s.cutoffs)
        n_leaves = len(lay.leaves)
        off = lay.offsets2[node] + ((d * n_leaves + leaf) * ab.POST_BUCKETS + k) * len(acts)
        return self._betting(view, acts[_pick(s.probs, off, len(acts), rng)])

    @staticmethod
    def _betting(view: View, letter: str) -> A.Action:
        if letter == "f":
            return A.FOLD if view.owed else call(view)
        if letter in "kc":
            return call(view)
        max_bet = view.rules.max_bet if view.rules.max_bet is not None else 10**9
        if letter == "m":
            return bet(view, max_bet)
        return bet(view, view.pot + view.owed)
