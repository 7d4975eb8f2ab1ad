"""The casino's skill range ("mazziere rtp --strategy default|random|search"): a
careless player (random legal choices) and a search player measured like the published
default. The kernel's non-default players are proven against the readable round: the random
player's rounds step by step, the search's decisions replayed on the engine, which checks
each one legal; the search is proven to decide from the player's own view only."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from mazziere.cards.uno import WILD_FACE, Card, Color
from mazziere.casino import CasinoRules, apply, legal_actions, new_round, rulebook
from mazziere.casino.round import choice_rng, simulate_round_random
from mazziere.casino.strategy import random_decision
from mazziere.cli.casino import app
from mazziere.rng import SplitMixRng
from mazziere.sim import casino_kernel as K
from mazziere.sim.casino_check import first_difference, replayed, strategy_trace
from mazziere.sim.rtp import run_rtp
from mazziere.uno import actions as A

DECIDED = K.STEP_KINDS.index("decided")
runner = CliRunner()


def test_random_player_kernel_equals_the_readable_round_step_by_step() -> None:
    kinds: set[str] = set()
    for seed in range(400):
        k, p = K.kernel_trace(seed, "random"), strategy_trace(seed, "random")
        assert first_difference(k, p) == -1, (seed, first_difference(k, p))
        kinds |= {K.MOVE_KINDS[s[1]] for s in k if s[0] == DECIDED}
    assert kinds == set(K.MOVE_KINDS)  # plays, draws by choice and passes were all compared
    seeds = list(range(400, 1400))
    rounds = K.kernel_rounds(seeds, "random")
    assert [rounds.triple(i) for i in range(len(seeds))] == [
        simulate_round_random(s) for s in seeds
    ]


def test_search_decisions_replay_legally_on_the_readable_round() -> None:
    """Every decision the kernel's search made, applied to the readable round of the same
    seed (which refuses an illegal move), gives the same round step by step."""
    kinds: set[str] = set()
    for seed in range(120):
        k = K.kernel_trace(seed, "search", worlds=16)
        assert first_difference(k, replayed(seed, k)) == -1, seed
        kinds |= {K.MOVE_KINDS[s[1]] for s in k if s[0] == DECIDED}
    assert kinds == set(K.MOVE_KINDS)


def test_the_default_player_makes_no_decided_steps_and_every_strategy_gets_the_same_deal() -> None:
    for seed in range(50):
        default = K.kernel_trace(seed)
        assert all(s[0] != DECIDED for s in default)
        deal = [s for s in default[:12] if K.STEP_KINDS[s[0]] in ("dealt", "turned", "returned")]
        for strategy in ("random", "search"):
            assert K.kernel_trace(seed, strategy, worlds=4)[: len(deal)] == deal


def _rearranged(d: K.DecisionState, rnd: random.Random) -> K.DecisionState:
    """The same position with the hidden cards (the bank's hand and the draw pile) dealt
    again at random: what the player sees is unchanged."""
    n, side = int(d.st[0]), rulebook.SIDE_WIDTH
    bank = [f for f in range(54) for _ in range(int(d.hands[side + f]))]
    hidden = bank + [int(x) for x in d.pile[:n]]
    rnd.shuffle(hidden)
    hands, pile = d.hands.copy(), d.pile.copy()
    hands[side : 2 * side] = rulebook.counts(hidden[: len(bank)])
    pile[:n] = hidden[len(bank) :]
    return K.DecisionState(d.st.copy(), pile, hands, d.sizes.copy())


def test_search_never_reads_the_banks_hand_or_the_order_of_the_pile() -> None:
    rnd = random.Random(7)
    compared = changed = 0
    for seed in range(150):
        d = K.first_decision(seed)
        if d is None:
            continue
        move = K.search_move(d, 99, worlds=16)
        for _ in range(3):
            other = _rearranged(d, rnd)
            changed += not (other.hands == d.hands).all()
            assert K.search_move(other, 99, worlds=16) == move, seed
            compared += 1
    assert compared > 300 and changed > 0.9 * compared  # the hidden cards really moved


def test_search_moves_differ_with_its_own_random_source_only_through_sampling() -> None:
    """Same view and same source: the same move (the search is reproducible)."""
    d = K.first_decision(3)
    assert d is not None
    assert K.search_move(d, 5, worlds=32) == K.search_move(d, 5, worlds=32)


def test_random_decision_counts_a_wild_once_and_offers_the_pass_after_a_draw() -> None:
    legal = (
        A.play_of((Card(3),)),
        *(A.play_of((Card(WILD_FACE),), c) for c in Color),
        A.DRAW,
    )
    seen = {random_decision(legal, SplitMixRng(s)) for s in range(400)}
    wilds = sum(1 for s in range(3000) if _is_wild(random_decision(legal, SplitMixRng(s))))
    assert seen == set(legal)
    assert 800 < wilds < 1200  # a third of the moves, not four sixths
    drawn = (A.play_of((Card(5),)), A.PASS)
    assert {random_decision(drawn, SplitMixRng(s)) for s in range(50)} == set(drawn)


def _is_wild(action: A.Action) -> bool:
    return isinstance(action, A.Play) and action.cards[0] >= WILD_FACE


def test_random_player_draws_by_choice_only_where_the_rules_allow() -> None:
    """A draw is offered to the careless player only as the engine offers it (never at x1)."""
    for seed in range(200):
        r, _ = new_round(CasinoRules(), 10, rng=SplitMixRng(seed))
        choice = choice_rng(seed)
        while r.result is None:
            legal = legal_actions(r)
            action = random_decision(legal, choice)
            assert action in legal
            if isinstance(action, A.Draw):
                assert r.multiplier > 1
            r, _ = apply(r, action)


def test_the_skill_range_orders_random_default_search() -> None:
    """On the same 3,000 deals, the careless player returns least and the search most, each
    interval clear of the next (the figures of the closing note come from larger runs)."""
    results = {
        s: run_rtp(3000, seed=5, workers=1, strategy=s, worlds=32)
        for s in ("random", "default", "search")
    }
    lo = {s: r.rtp.low for s, r in results.items()}
    hi = {s: r.rtp.high for s, r in results.items()}
    assert hi["random"] < lo["default"] and hi["default"] < lo["search"], results
    assert results["search"].as_json()["strategy"] == "search"


def test_python_engine_plays_the_random_player_like_the_kernel() -> None:
    k = run_rtp(600, seed=2, workers=1, strategy="random")
    p = run_rtp(600, seed=2, workers=1, strategy="random", engine="python")
    assert (k.paid_counts, k.turns) == (p.paid_counts, p.turns)


def test_cli_reports_the_strategy_and_refuses_what_it_cannot_run() -> None:
    out = runner.invoke(app, ["rtp", "--rounds", "200", "--strategy", "random", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["strategy"] == "random"
    table = runner.invoke(app, ["rtp", "-n", "50", "--strategy", "search", "--worlds", "4"])
    assert table.exit_code == 0 and "the search (4 worlds a decision)" in table.stdout
    for args, message in (
        (["--strategy", "clever"], "unknown strategy 'clever'"),
        (["--strategy", "search", "--engine", "python"], "compiled kernel only"),
        (["--strategy", "search", "--worlds", "0"], "--worlds must be between 1"),
    ):
        bad = runner.invoke(app, ["rtp", "--rounds", "10", *args])
        assert bad.exit_code == 2 and message in bad.stderr, bad.output


@pytest.mark.parametrize("worlds", [0, -1, 2**21])
def test_kernel_refuses_a_search_without_worlds(worlds: int) -> None:
    with pytest.raises(ValueError, match="worlds"):
        K.kernel_rounds([1], "search", worlds=worlds)
