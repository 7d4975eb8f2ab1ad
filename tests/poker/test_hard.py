"""The poker ``hard`` bot: a CFR+ strategy on a documented abstraction (docs/bots.md "Poker
hard"), shipped as package data for each deck, played by lookup and sampling; the solver's best
response and exploitability; ``hard`` against the panel of exploiters, ``normal`` against
``baseline``."""

from __future__ import annotations

import random
import time

import pytest

from mazziere.poker import Rules, apply, new_game, parse_cards, view
from mazziere.poker.bots import abstraction as ab
from mazziere.poker.bots import find_bot
from mazziere.poker.bots.hard import abstract_history, strategy
from mazziere.poker.eval_tables import CATEGORIES, straights
from mazziere.poker.evaluator import evaluate
from mazziere.poker.sim import play_pairs

from .helpers import rigged, run

R52, R32 = Rules(), Rules(deck=32)


def _bucket(hand: str, rules: Rules) -> int:
    h = parse_cards(hand)
    cat = CATEGORIES.index(evaluate(h, rules).category)
    runs = tuple(straights(rules.deck, rules.ace_low_straight))
    return ab.pre_bucket(h, cat, runs, rules.deck == 32)


def _discard(hand: str, n: int, rules: Rules) -> str:
    h = parse_cards(hand)
    cat = CATEGORIES.index(evaluate(h, rules).category)
    runs = tuple(straights(rules.deck, rules.ace_low_straight))
    mask = ab.discard_mask(h, n, cat, runs, rules.deck == 32)
    return " ".join(str(c) for i, c in enumerate(h) if mask >> i & 1)


def test_pre_draw_buckets_by_category_and_draw_shape() -> None:
    assert _bucket("2c 5d 9h Js 3c", R52) == 0  # nothing
    assert _bucket("2c 5d 9h Ks 3c", R52) == 1  # king high
    assert _bucket("5c 6d 8h 9s Kc", R52) == 2  # inside straight draw
    assert _bucket("5c 6d 7h 8s Kc", R52) == 3  # open-ended
    assert _bucket("2c 5c 9c Kc 3d", R52) == 4  # four-card flush
    assert _bucket("8c 9c Tc Jd Ac", R32) == 3  # both, 32 cards: the straight
    assert _bucket("8c 9c Tc Jd 2c", R52) == 4  # both, 52 cards: the flush
    pairs = ["2c 2d 9h Js 3c", "8c 8d 9h Js 3c", "Jc Jd 9h 4s 3c", "Qc Qd", "Kc Kd", "Ac Ad"]
    full = [p if len(p) > 6 else p + " 9h 4s 3c" for p in pairs]
    assert [_bucket(h, R52) for h in full] == [5, 6, 7, 8, 9, 10]
    assert _bucket("7c 7d 9h Js Kc", R32) == 5 and _bucket("9c 9d 8h Js Kc", R32) == 6
    assert _bucket("Jc Jd 3h 3s 9c", R52) == 11 and _bucket("Qc Qd 3h 3s 9c", R52) == 12
    assert [_bucket(h, R52) for h in ("Qc Qd Qh 3s 9c", "5c 6d 7h 8s 9c", "2c 5c 9c Kc 3c")] == [
        13,
        14,
        15,
    ]
    assert _bucket("Qc Qd Qh 3s 3c", R52) == 16


def test_draw_choices_follow_the_deck_and_keep_groups() -> None:
    both = "8c 9c Tc Jd Ac"  # four clubs and an open-ended 8-9-10-J
    assert _discard(both, 1, R32) == "Ac" and _discard("8c 9c Tc Jd 2c", 1, R52) == "Jd"
    assert _discard("7c 7d Kh 2s 9c", 3, R52) == "Kh 2s 9c"
    assert _discard("7c 7d Kh 2s 9c", 2, R52) == "2s 9c"  # the pair keeps its top kicker
    assert _discard("Jc Jd 3h 3s 9c", 1, R52) == "9c" and _discard("Jc Jd 3h 3s 9c", 0, R52) == ""
    assert _discard("Qc Qd Qh 3s 9c", 2, R52) == "3s 9c"


def test_betting_tree_follows_the_rules_order() -> None:
    t1 = ab.round_tree(1, (5, 5))
    assert t1[0].actions == "kpm"  # the first actor: WAIT or OPEN, no free fold
    after_wait = t1[t1[0].children[0]]
    assert after_wait.history == "k" and after_wait.actions == "cpm"
    t2 = ab.round_tree(2, (5, 5))
    assert t2[0].actions == "cpm" and t2[t2[0].children[0]].kind == "close"  # SEE shows down
    # three raises at most, then call or fold
    deepest = max((n for n in t1 if n.kind == "decide"), key=lambda n: len(n.history))
    bets = deepest.history.count("p") + deepest.history.count("m")
    assert deepest.actions == "cf" and bets == 1 + 3  # the open and three raises
    pot_raise = t1[t1[0].children[1]]  # after a pot-size open of 10
    assert pot_raise.contrib == (15, 5)
    assert t1[pot_raise.children[2]].contrib == (15, 5 + 10 + 30)  # call 10, raise the pot 30


def test_opponent_bets_read_into_the_abstract_tree() -> None:
    s = rigged(R52, "Ac Kd 9h 5s 3c", "Qh Jc 8d 6s 2h", first=0)
    s, _ = run(s, (0, "open 12"), (1, "raise 45"))
    assert abstract_history(view(s, 0)) == ("pm", "")
    s, _ = run(s, (0, "replace"), (0, "draw"), (1, "draw Qh"), (0, "open 50"))
    assert abstract_history(view(s, 1)) == ("pmc", "p")  # the pot (124) is above the maximum


@pytest.mark.parametrize("deck", [52, 32])
def test_hard_strategy_ships_for_each_deck_with_falling_exploitability(deck: int) -> None:
    s = strategy(deck)
    assert len(s.probs) == s.lay.size and s.meta["deck"] == deck
    trend = s.meta["exploitability"]
    assert isinstance(trend, list) and len(trend) >= 4
    assert trend[-1][1] < trend[0][1] / 4  # chips per deal fall with the iterations
    for node, off in s.lay.offsets1.items():  # every stored distribution sums to 255
        n = len(s.lay.tree1[node].actions)
        for b in range(ab.PRE_BUCKETS):
            assert sum(s.probs[off + b * n : off + (b + 1) * n]) == 255


def test_hard_decides_by_lookup_legally_in_every_phase() -> None:
    """Every decision of a game against random actions is a legal one. The time a decision
    takes (a lookup, <= 20 ms asked) is measured by ``benchmarks/bench_poker_hard.py``, not
    asserted here (the project measures speed in benchmarks, never by timed tests)."""
    bot, other = find_bot("hard"), find_bot("random")
    rng = random.Random(3)
    times = []
    for rules in (R52, R32):
        s = new_game(rules, "hard-time")
        bot.act(view(s, s.current), rng)  # the data file is read once
        while not s.is_over and s.deal_no <= 30:
            v = view(s, s.current)
            if s.current == 1:
                t = time.perf_counter()
                a = bot.act(v, rng)
                times.append(time.perf_counter() - t)
            else:
                a = other.act(v, rng)
            assert a in v.legal
            s, _ = apply(s, s.current, a)
    assert times


def test_solver_best_response_bounds_the_strategy_and_exploitability_falls() -> None:
    pytest.importorskip("numba")
    from mazziere.sim.poker_cfr import Solver, measure

    solver = Solver(measure(R32, 20_000, seed=5), R32)
    solver.iterate()
    early, v_early = solver.exploitability()
    for _ in range(9):
        solver.iterate()
    late, v0 = solver.exploitability()
    br0 = float(solver.run(update=False, br=0, average=True)[0].sum())
    br1 = float(solver.run(update=False, br=1, average=True)[1].sum())
    # a best response does at least as well as the strategy itself, in each seat
    assert br0 >= v0 - 1e-6 and br1 >= -v0 - 1e-6
    assert late < early / 2 and late >= 0


@pytest.mark.parametrize(
    ("deck", "exploiter", "deals"),
    [
        (52, "maxpat", 200),
        (32, "maxpat", 200),
        (52, "maxbet", 1000),
        (32, "openfold", 200),
        (52, "random", 200),
    ],
)
def test_hard_beats_the_loud_exploiters(deck: int, exploiter: str, deals: int) -> None:
    """A few hundred deals show the big margins (``maxbet``'s all-in pots swing a deal by about
    a hundred chips, so it gets more); the 20,000-deal panel is in docs/bots.md."""
    t = play_pairs(Rules(deck=deck), "hard", exploiter, range(2), deals, seed=14)
    mean = t.total / t.samples
    var = (t.total_sq - t.samples * mean * mean) / (t.samples - 1)
    assert mean - 2.0 * (var / t.samples) ** 0.5 > 0
