"""UNO ``strong``: how long a decision takes at the default budget, and how long a rollout.

Plays heads-up mattel hands, ``strong`` in seat 0 against ``greedy``, and times every call of
``StrongBot.act`` on the bot's own turn (searched or not: what a table waits for), then the
rollouts alone (one determinization of a hand's first position played out to the end of the
hand, greedy in every seat). The budget is a number of rollouts (``ROLLOUTS``), chosen so
that the mean stays within 100 ms on this machine; run it on a quiet machine, and say how busy
it was (``uptime``) with the figures.

The last line is ``strong_mean_ms=X strong_p99_ms=Y rollout_ms=Z``.

    python benchmarks/bench_uno_strong.py [--hands 20] [--players 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from mazziere.uno import apply, find_preset, new_game, view
from mazziere.uno.bots import find_bot
from mazziere.uno.bots.strong import ROLLOUTS, Deals, StrongBot, rollout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--preset", default="mattel")
    args = ap.parse_args()
    rules = find_preset(args.preset).with_options(match="single_hand")
    bot, greedy = StrongBot(), find_bot("greedy")
    rng = random.Random(1)
    times: list[float] = []
    rollouts: list[float] = []
    for hand in range(args.hands):
        s = new_game(rules, args.players, rng=f"bench{hand}")
        first = True
        while not s.is_over:
            v = view(s, s.current)
            if s.current == 0:
                if first and len(v.legal) > 1:
                    first = False
                    deals = Deals(v, rng)
                    for _ in range(10):
                        g = deals.deal(rng)
                        t = time.perf_counter()
                        rollout(g, 0, v.legal[0])
                        rollouts.append(time.perf_counter() - t)
                t = time.perf_counter()
                a = bot.act(v, rng)
                times.append(time.perf_counter() - t)
            else:
                a = greedy.act(v, rng)
            s, _ = apply(s, s.current, a)
    times.sort()
    mean = 1000 * statistics.mean(times)
    p99 = 1000 * times[min(len(times) - 1, int(0.99 * len(times)))]
    roll = 1000 * statistics.mean(rollouts)
    print(f"{args.hands} hands, {len(times)} decisions of strong, budget {ROLLOUTS} rollouts")
    print(f"decision: mean {mean:.1f} ms, p99 {p99:.1f} ms, max {1000 * times[-1]:.1f} ms")
    print(f"rollout to the end of the hand: mean {roll:.2f} ms ({len(rollouts)} timed)")
    print(f"strong_mean_ms={mean:.1f} strong_p99_ms={p99:.1f} rollout_ms={roll:.2f}")


if __name__ == "__main__":
    main()
