"""SplitMix64 for compiled kernels: ``next64``, ``randbelow`` and Fisher-Yates ``shuffle`` as
numba functions that reproduce :class:`mazziere.rng.SplitMixRng` bit for bit.

A source is one ``uint64`` slot of an array (``rng[k]`` holds ``SplitMixRng.state``), so a
kernel keeps several sources in one array; ``spawn()`` is ``rng[j] = next64(rng, k)``.

>>> from mazziere.rng import SplitMixRng
>>> rng = np.array([7], dtype=np.uint64); py = SplitMixRng(7)
>>> [randbelow(rng, 0, 10) for _ in range(5)] == [py.randbelow(10) for _ in range(5)]
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["I64Array", "U64Array", "jit", "mix", "next64", "randbelow", "shuffle"]

I64Array = npt.NDArray[np.int64]
U64Array = npt.NDArray[np.uint64]
F = TypeVar("F", bound=Callable[..., Any])

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SH30 = np.uint64(30)
_SH27 = np.uint64(27)
_SH31 = np.uint64(31)
_U0 = np.uint64(0)


def jit(fn: F) -> F:
    """``numba.njit(cache=True)``, typed for mypy (numba itself is untyped)."""
    return cast(F, njit(cache=True)(fn))


_REM_TABLE = 129
_REM = np.array([(1 << 64) % n if n else 0 for n in range(_REM_TABLE)], dtype=np.uint64)
"""``2**64 % n`` for the small ``n`` of shuffles and ties (saves one division per draw)."""


@jit
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64's output function of a state."""
    z = (z ^ (z >> _SH30)) * _MIX1
    z = (z ^ (z >> _SH27)) * _MIX2
    return z ^ (z >> _SH31)


@jit
def next64(rng: U64Array, k: int) -> np.uint64:
    """One SplitMix64 output of source ``rng[k]`` (``SplitMixRng.next64``)."""
    s = rng[k] + _GOLDEN
    rng[k] = s
    return mix(s)


@jit
def randbelow(rng: U64Array, k: int, n: int) -> int:
    """A uniform integer in ``[0, n)``: outputs at or above the largest multiple of ``n``
    below 2**64 are rejected, then ``x % n`` (``SplitMixRng.randbelow``; ``n == 1`` still
    consumes one output)."""
    un = np.uint64(n)
    rem = _REM[n] if n < _REM_TABLE else (_U0 - un) % un  # 2**64 % n
    limit = _U0 - rem  # 2**64 - rem (only used when rem != 0)
    while True:
        x = next64(rng, k)
        if rem == _U0 or x < limit:
            return int(x % un)


@jit
def shuffle(rng: U64Array, k: int, items: I64Array, length: int) -> None:
    """Fisher-Yates over ``items[:length]`` as ``mazziere.rng._fisher_yates`` does it."""
    for i in range(length - 1, 0, -1):
        j = randbelow(rng, k, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t
