"""A casino kernel round's steps, recorded for the check against the readable round
(docs/architecture.md "prove it equal to the pure path on the same seeds").

Equality with the readable round is proven on step traces: the kernel records every step
(:data:`STEP_KINDS`, written by :func:`_emit` as the round is played;
:func:`mazziere.sim.casino_kernel.rounds.kernel_trace` gives a round's), and
:func:`mazziere.sim.casino_check.pure_trace` derives the same steps from the readable round's
events; the tests compare them, and a hash of each, over thousands of rounds.
"""

from __future__ import annotations

import numpy as np

from mazziere.sim.splitmix_kernel import I64Array, jit

__all__ = ["STEP_KINDS", "STEP_WIDTH"]

STEP_KINDS = ("dealt", "turned", "returned", "played", "drew", "multiplier", "ended", "decided")
"""A step of a round's trace is five integers ``(kind, a, b, c, d)``, ``kind`` an index into
this tuple: ``dealt`` (seat, card), ``turned`` (card), ``returned`` (card), ``played`` (seat,
card, colour in force after it), ``drew`` (seat, card, reason: rulebook ``DRAW_*``, one step
per card), ``multiplier`` (seat whose draw moved it, the new value), ``ended`` (player won,
multiplier, turns, reason code into :data:`~mazziere.sim.casino_kernel.layout.REASONS`);
unused fields are 0. :func:`mazziere.sim.casino_check.pure_trace` derives the same steps from
the readable round's events. ``decided`` (move kind into
:data:`~mazziere.sim.casino_kernel.layout.MOVE_KINDS`, card, colour; -1 where none) records
a decision of a player that is not playing the default strategy, just before its effects, so
that the readable round can replay it; the default's rounds have none."""
STEP_WIDTH = 5
_S_DEALT, _S_TURNED, _S_RETURNED, _S_PLAYED, _S_DREW, _S_MULT, _S_END, _S_DECIDED = range(8)

_NO_TRACE = np.zeros((0, STEP_WIDTH), dtype=np.int64)
"""A trace with no rows: the round is played without recording its steps."""


@jit
def _emit(trace: I64Array, k: int, kind: int, a: int, b: int, c: int, d: int) -> int:
    """Record step ``k`` of the trace when one is kept (``trace`` has rows); returns ``k+1``."""
    if k < trace.shape[0]:
        trace[k, 0] = kind
        trace[k, 1] = a
        trace[k, 2] = b
        trace[k, 3] = c
        trace[k, 4] = d
    return k + 1
