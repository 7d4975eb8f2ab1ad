"""The per-round seeds of a casino RTP run, shared by the compiled kernel and the readable
engine: round ``index`` of the run ``master`` plays on ``SplitMixRng(round_seed(master,
index))``, so a run's rounds do not depend on how they are cut into chunks."""

from __future__ import annotations

import numpy as np

from mazziere.sim.splitmix_kernel import U64Array, jit, mix

__all__ = ["MASK64", "round_seed", "round_seeds"]

MASK64 = (1 << 64) - 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_U1 = np.uint64(1)


@jit
def _round_seed(master: np.uint64, index: np.uint64) -> np.uint64:
    """Output number ``index`` (from 0) of ``SplitMixRng(master)``: random access into the
    stream, state ``master + (index + 1) * golden``."""
    return mix(master + (index + _U1) * _GOLDEN)


def round_seed(master: int, index: int) -> int:
    """The seed of round ``index`` (0-based) of a run with master seed ``master``: the
    ``index``-th 64-bit output of ``SplitMixRng(master)``. Both RTP engines use it.

    >>> from mazziere.rng import SplitMixRng
    >>> g = SplitMixRng(5); [g.next64() for _ in range(3)] == [round_seed(5, i) for i in range(3)]
    True
    """
    if index < 0:
        raise ValueError("round indices start at 0")
    return int(_round_seed(np.uint64(master & MASK64), np.uint64(index & MASK64)))


def round_seeds(master: int, start: int, count: int) -> U64Array:
    """``round_seed(master, i)`` for ``i`` in ``[start, start + count)``, as uint64."""
    out = np.empty(count, dtype=np.uint64)
    _fill_seeds(np.uint64(master & MASK64), start, out)
    return out


@jit
def _fill_seeds(master: np.uint64, start: int, out: U64Array) -> None:
    for k in range(out.shape[0]):
        out[k] = _round_seed(master, np.uint64(start + k))
