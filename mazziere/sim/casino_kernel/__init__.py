"""A compiled (numba) UNO CASINO round, step for step the round of
:func:`mazziere.casino.simulate_round`, for RTP runs of 10^8 rounds (docs/architecture.md "keep it
separate and prove it equal"; docs/rules/casino.md, seed 000). ``mazziere rtp``,
``mazziere certify casino`` and the search strategy play on it.

The rules are not written here: numba compiles the rulebook's own functions
(:mod:`mazziere.casino.rulebook`) into the kernel. The kernel's modules, each with one concern:

* :mod:`~mazziere.sim.casino_kernel.layout`: the ``casino`` preset it pins, its constants, the
  layout of a round's state and the rulebook's functions under the kernel's names;
* :mod:`~mazziere.sim.casino_kernel.compiling`: sharing those functions with numba, and
  numba's on-disk cache dropped when any file the kernel compiles changes;
* :mod:`~mazziere.sim.casino_kernel.seeds`: the per-round seeds of a run (:func:`round_seed`),
  shared by both RTP engines;
* :mod:`~mazziere.sim.casino_kernel.hands` and :mod:`~mazziere.sim.casino_kernel.round`: the
  cards of a round, and one round's course;
* :mod:`~mazziere.sim.casino_kernel.search`: the sampled-worlds search strategy;
* :mod:`~mazziere.sim.casino_kernel.trace`: a round's steps, recorded for the check against
  the readable round (:mod:`mazziere.sim.casino_check`);
* :mod:`~mazziere.sim.casino_kernel.rounds`: many rounds from Python, per seed or counted as a
  run's tally.

This package gathers what the rest of the code uses.

>>> from mazziere.casino import simulate_round
>>> all(kernel_round(s) == simulate_round(s) for s in range(20))
True
"""

from __future__ import annotations

from mazziere.sim.casino_kernel.layout import (
    MOVE_KINDS,
    REASONS,
    SEARCH_WORLDS,
    STRATEGIES,
    TALLY_TURNS,
    TALLY_WIDTH,
    strategy_index,
)
from mazziere.sim.casino_kernel.rounds import (
    KernelRounds,
    kernel_round,
    kernel_rounds,
    kernel_tally,
    kernel_trace,
    reading_codes,
    warm_up,
)
from mazziere.sim.casino_kernel.search import DecisionState, first_decision, search_move
from mazziere.sim.casino_kernel.seeds import MASK64, round_seed, round_seeds
from mazziere.sim.casino_kernel.trace import STEP_KINDS, STEP_WIDTH
from mazziere.sim.splitmix_kernel import I64Array, U64Array

__all__ = [
    "MASK64",
    "MOVE_KINDS",
    "REASONS",
    "SEARCH_WORLDS",
    "STEP_KINDS",
    "STEP_WIDTH",
    "STRATEGIES",
    "TALLY_TURNS",
    "TALLY_WIDTH",
    "DecisionState",
    "I64Array",
    "KernelRounds",
    "U64Array",
    "first_decision",
    "kernel_round",
    "kernel_rounds",
    "kernel_tally",
    "kernel_trace",
    "reading_codes",
    "round_seed",
    "round_seeds",
    "search_move",
    "strategy_index",
    "warm_up",
]
