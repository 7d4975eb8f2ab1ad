"""UNO ``strong`` at four seats: how much of the gap to a search that sees every hand is what
the bot does not know (docs/bots.md, "Where the four-player edge is lost").

Plays the same single hands (mattel, seeds ``dep0``, ``dep1``, ...) with one bot in seat 0 and
``greedy`` in the others, only the seat to move asked:

* ``greedy``: the baseline on these deals;
* ``strong``: the shipped bot;
* ``oracle``: the same budget (``ROLLOUTS``) and margin, each candidate played out on the true
  hands (the draw pile's order shuffled in each world, since no one knows it): a ceiling, not a
  bot anyone may use (it reads hidden cards);
* ``blind``: ``strong`` without reading the hand's public history (``read_log=False``): every
  hidden card dealt at random.

An experiment, not a benchmark of speed: it prints hands won by seat 0 with a Wilson interval.

    python benchmarks/uno_strong_ceiling.py --bot oracle --hands 600 [--workers 2]
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool
from typing import Any

from mazziere.rng import SplitMixRng
from mazziere.sim.stats import wilson
from mazziere.uno import CallUno, Catch, Game, apply, find_preset, new_game, view
from mazziere.uno.bots import find_bot
from mazziere.uno.bots import strong as strong_mod
from mazziere.uno.bots.rollouts import rollout

RULES = find_preset("mattel").with_options(match="single_hand")
GREEDY = find_bot("greedy")


def oracle(s: Game, v: Any, rng: random.Random) -> Any:
    """The best candidate over paired playouts of the true hands, unless its lead over greedy's
    choice is within one standard error (``strong``'s rule, with every hand seen)."""
    choice = GREEDY.act(v, rng)
    choices = [a for a in v.legal if not isinstance(a, (CallUno, Catch))]
    if isinstance(choice, CallUno) or len(choices) <= 1 or choice not in choices:
        return choice
    k, d = len(choices), choices.index(choice)
    n = strong_mod.ROLLOUTS // k
    values: list[list[float]] = [[] for _ in range(k)]
    for _ in range(n):
        w = s.copy()
        w.rng = SplitMixRng(rng.getrandbits(64))
        pile = list(w.draw_pile)
        rng.shuffle(pile)
        w.draw_pile = pile
        for i in range(k):
            values[i].append(rollout(w.copy(), v.seat, choices[i]))
    best = max(range(k), key=lambda i: (sum(values[i]), i == d))
    if best == d:
        return choice
    return choices[best] if strong_mod.leads(values[best], values[d], strong_mod.MARGIN) else choice


def hand(args: tuple[str, int]) -> bool:
    kind, h = args
    rng = random.Random(h)
    s = new_game(RULES, 4, rng=f"dep{h}")
    bot = strong_mod.StrongBot(read_log=kind != "blind")
    while not s.is_over:
        v = view(s, s.current)
        if s.current != 0 or kind == "greedy":
            a = GREEDY.act(v, rng)
        elif kind == "oracle" and v.my_turn:
            a = oracle(s, v, rng)
        else:
            a = bot.act(v, rng)
        s, _ = apply(s, s.current, a)
    assert s.result is not None
    return s.result.winner == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", choices=("greedy", "strong", "oracle", "blind"), default="strong")
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    with Pool(a.workers) as p:
        won = sum(p.map(hand, [(a.bot, h) for h in range(a.hands)], chunksize=4))
    ci = wilson(won, a.hands)
    print(
        f"bot={a.bot} hands={a.hands} won={won} rate={ci.estimate:.3f} "
        f"ci95={ci.low:.3f}-{ci.high:.3f}"
    )


if __name__ == "__main__":
    main()
