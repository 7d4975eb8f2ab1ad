"""The compiled UNO CASINO round equals the readable round (docs/architecture.md "keep it
separate and prove it equal to the pure path on the same seeds"): step by step (a hash of every
step's trace) and in outcome, on thousands of rounds every run, the rare endings included; and
the kernel writes no rule of its own (it compiles mazziere.casino.rulebook)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mazziere.casino import rulebook, simulate_round
from mazziere.rng import SplitMixRng
from mazziere.sim import casino_kernel
from mazziere.sim.casino_check import (
    check_kernel,
    check_rare,
    first_difference,
    pure_trace,
    trace_hash,
)
from mazziere.sim.casino_kernel import (
    REASONS,
    STEP_KINDS,
    TALLY_TURNS,
    kernel_round,
    kernel_rounds,
    kernel_tally,
    kernel_trace,
    round_seed,
    round_seeds,
)

MASTER = 20_250_603
IDENTITY_ROUNDS = 3000


def test_round_seed_is_output_i_of_the_master_seeds_splitmix_stream() -> None:
    g = SplitMixRng(MASTER)
    assert [round_seed(MASTER, i) for i in range(200)] == [g.next64() for _ in range(200)]
    assert [int(s) for s in round_seeds(MASTER, 40, 10)] == [
        round_seed(MASTER, i) for i in range(40, 50)
    ]
    assert round_seed(2**64 + 5, 3) == round_seed(5, 3)
    with pytest.raises(ValueError):
        round_seed(1, -1)


def test_kernel_steps_equal_the_readable_rounds_steps() -> None:
    for s in range(40):
        k, p = kernel_trace(s), pure_trace(s)
        assert first_difference(k, p) == -1, (s, first_difference(k, p))
        assert trace_hash(k) == trace_hash(p)
        assert kernel_rounds([s]).steps[0] == len(k)
    kinds = {STEP_KINDS[step[0]] for s in range(300) for step in kernel_trace(s)}
    # every kind of step is compared, returned cards included (the default decides nothing:
    # ``decided`` steps are the other strategies', tests/casino/test_skill_range.py)
    assert kinds == set(STEP_KINDS) - {"decided"}


def test_a_changed_step_changes_the_trace_hash() -> None:
    steps = kernel_trace(3)
    changed = [*steps[:5], (steps[5][0], steps[5][1], steps[5][2] ^ 1, *steps[5][3:]), *steps[6:]]
    assert trace_hash(changed) != trace_hash(steps)
    assert first_difference(steps, changed) == 5
    assert first_difference(steps, steps[:-1]) == len(steps) - 1


def test_the_kernel_compiles_every_rule_of_the_rulebook() -> None:
    """One source of truth: each rule decision of the rulebook is what the kernel calls (its
    names bound to the very function objects), none is written again in the kernel."""
    shared = {
        "playable",
        "has_playable",
        "bank_cards",
        "bank_colors",
        "player_cards",
        "player_colors",
        "multiplier_after_draw",
        "player_may_draw",
    }
    for name in shared:
        assert getattr(casino_kernel.layout, "_" + name) is getattr(rulebook, name)
    modules = sorted(Path(casino_kernel.__file__).parent.glob("*.py"))
    assert len(modules) > 1  # every module of the kernel's package is read
    text = "".join(path.read_text(encoding="utf-8") for path in modules)
    for rule_word in ("2500", "1100", "5000", "2000", "1000"):  # the player's weights
        assert rule_word not in text, rule_word


def test_kernel_equals_simulate_round_on_3000_rounds_of_a_run() -> None:
    r = check_kernel(MASTER, IDENTITY_ROUNDS, workers=1)
    assert r.compared == IDENTITY_ROUNDS
    assert r.mismatches == ()
    for reason in ("player_out", "bank_out", "no_draw_at_x1"):
        assert r.endings[reason] > 0


def test_kernel_equals_simulate_round_when_the_draw_pile_runs_out() -> None:
    # about 1 round in 30,000 ends with the pile out: find them with the kernel, replay them
    r = check_rare(7, 300_000, "pile_out")
    assert r.compared >= 3
    assert r.mismatches == ()


def test_kernel_equals_simulate_round_on_extreme_and_small_seeds() -> None:
    for s in [0, 1, 2, 2**32, 2**63 - 1, 2**63, 2**64 - 1, *range(3, 60)]:
        assert kernel_round(s) == simulate_round(s), s


def test_kernel_tally_counts_what_kernel_rounds_plays() -> None:
    k = kernel_rounds(round_seeds(3, 100, 500))
    marks = [1, 250, 499, 500]
    t = kernel_tally(3, 100, 500, marks)
    assert t.shape == (len(marks) + 1, 5)
    paid = k.won * k.multiplier
    for row, m in zip(t, [*marks, 500], strict=True):
        assert [int(x) for x in row[:4]] == [int(np.sum(paid[:m] == x)) for x in range(4)]
        assert row[TALLY_TURNS] == int(k.turns[:m].sum())


def test_kernel_results_are_in_range() -> None:
    k = kernel_rounds(round_seeds(9, 0, 20_000))
    assert set(np.unique(k.won)) <= {0, 1} and set(np.unique(k.multiplier)) <= {1, 2, 3}
    assert int(k.turns.min()) >= 1 and set(np.unique(k.reason)) <= set(range(len(REASONS)))
    # a round the player wins ends with the player out; no_draw_at_x1 only at x1
    assert np.all((k.won == 1) == (k.reason == REASONS.index("player_out")))
    assert np.all(k.multiplier[k.reason == REASONS.index("no_draw_at_x1")] == 1)


@pytest.mark.parametrize(
    ("start", "count", "marks"),
    [(0, 10, [5, 5]), (0, 10, [0]), (0, 10, [11]), (-1, 10, []), (0, -1, [])],
)
def test_kernel_tally_refuses_bad_arguments(start: int, count: int, marks: list[int]) -> None:
    with pytest.raises(ValueError):
        kernel_tally(1, start, count, marks)
