"""Random sources for shuffles and every other chance event (platform.md "Fairness").

Two sources implement one small interface:

* :class:`ShakeRng`, the production source: a 256-bit seed (from the OS's cryptographic
  source, :meth:`ShakeRng.from_os`) expanded by SHAKE-256 used as an extendable-output function
  in counter mode. It is the default everywhere.
* :class:`SplitMixRng`, a fast, non-cryptographic SplitMix64 stream for simulations and the
  compiled kernels, which re-implement it bit for bit (:mod:`mazziere.sim`).

Both draw integers with :meth:`randbelow` by rejection sampling (no modulo bias) and shuffle with
Fisher-Yates. ``spawn()`` derives a child source with a fresh seed from the stream: the engines
spawn one per hand, so each hand has its own 256-bit seed whose hash (``commitment``) can be
published before the hand and the seed revealed after it. Sources are copied, never shared, when
a game state is advanced, so states stay immutable values and replays are exact.

>>> a = ShakeRng.from_seed(1); b = ShakeRng.from_seed(1)
>>> [a.randbelow(100) for _ in range(3)] == [b.randbelow(100) for _ in range(3)]
True
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import operator
import os
import struct
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_C1 = 0xBF58476D1CE4E5B9
_C2 = 0x94D049BB133111EB
_TWO64 = 1 << 64
_NLIMITS = 256
_LIMITS: tuple[int, ...] = (0, *(_TWO64 - _TWO64 % n for n in range(1, _NLIMITS)))
"""For ``randbelow(n)``: the largest multiple of ``n`` not above 2**64 (rejection bound)."""
_TWO32 = 1 << 32
_LIMITS32: tuple[int, ...] = (0, *(_TWO32 - _TWO32 % n for n in range(1, _NLIMITS)))
"""The same for :class:`ShakeRng`'s 32-bit draws."""
_SAFE32 = _TWO32 - _NLIMITS
"""A 32-bit draw below this is never rejected by a bound for fewer than 256 items."""

_NUMPY: list[object] = []
"""NumPy's module (or None) once looked up: NumPy is optional (the ``sim`` extra) and only
imported by the first long SplitMix shuffle, so ``import mazziere`` stays standard-library."""


@functools.cache
def _np_bounds(m: int) -> tuple[Any, Any]:
    """For a shuffle of ``m + 1`` items: the sizes drawn (``m + 1`` down to 2) and, for each,
    the largest accepted 64-bit draw (:data:`_LIMITS` minus one), as NumPy arrays."""
    np: Any = _numpy()
    sizes = np.arange(m + 1, 1, -1, dtype=np.uint64)
    last_ok = np.array([_LIMITS[n] - 1 for n in range(m + 1, 1, -1)], dtype=np.uint64)
    return sizes, last_ok


def _numpy() -> object:
    if not _NUMPY:
        try:  # by name: the type checker (and mypyc's, building without NumPy) skips it
            numpy = importlib.import_module("numpy")
        except ImportError:  # pragma: no cover - the core-only install test covers this path
            _NUMPY.append(None)
        else:
            _NUMPY.append(numpy)
    return _NUMPY[0]


class Rng(Protocol):
    """What the rules engines need from a random source."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        ...

    def shuffle(self, items: list[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        ...

    def spawn(self) -> Rng:
        """A child source with a fresh seed drawn from this stream."""
        ...

    def copy(self) -> Rng:
        """An independent copy at the same stream position."""
        ...

    @property
    def commitment(self) -> str:
        """A hex hash of the seed, safe to publish before the hand."""
        ...


def _fisher_yates(rng: Rng, items: list[T]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


class ShakeRng:
    """SHAKE-256 counter-mode stream from a 32-byte seed; unbiased integers by rejection."""

    __slots__ = ("_block", "_buf", "_pos", "seed")

    BLOCK_BYTES = 512

    def __init__(self, seed: bytes) -> None:
        if len(seed) != 32:
            raise ValueError("a ShakeRng seed is exactly 32 bytes (256 bits)")
        self.seed = seed
        self._block = 0
        self._buf = b""
        self._pos = 0

    @classmethod
    def from_os(cls) -> ShakeRng:
        """A fresh source seeded from the operating system's cryptographic generator."""
        return cls(os.urandom(32))

    @classmethod
    def from_seed(cls, seed: int | str | bytes) -> ShakeRng:
        """A reproducible source for tests and simulations (the seed is hashed to 256 bits)."""
        raw = seed if isinstance(seed, bytes) else str(seed).encode()
        return cls(hashlib.sha256(b"mazziere-seed:" + raw).digest())

    def _refill(self) -> None:
        h = hashlib.shake_256(self.seed + self._block.to_bytes(8, "big"))
        self._buf = h.digest(self.BLOCK_BYTES)
        self._block += 1
        self._pos = 0

    def _take(self, nbytes: int) -> bytes:
        if self._pos + nbytes > len(self._buf):
            self._refill()
        out = self._buf[self._pos : self._pos + nbytes]
        self._pos += nbytes
        return out

    @classmethod
    def at(cls, seed: bytes, block: int, pos: int) -> ShakeRng:
        """The source of ``seed`` at a stream position (:attr:`position`): ``block`` blocks
        expanded, ``pos`` bytes of the last one used; the buffer is recomputed."""
        if block < 0 or not 0 <= pos <= cls.BLOCK_BYTES or (block == 0 and pos):
            raise ValueError(f"no ShakeRng stream position block={block} pos={pos}")
        r = cls(seed)
        if block:
            r._block = block - 1
            r._refill()
        r._pos = pos
        return r

    @property
    def position(self) -> tuple[int, int]:
        """``(block, pos)``: the blocks expanded so far and the bytes used of the last one."""
        return self._block, self._pos

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        if n == 1:
            return 0
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            x = int.from_bytes(self._take(4), "big")
            if x < limit:
                return x % n

    def randbytes(self, n: int) -> bytes:
        return b"".join(self._take(1) for _ in range(n))

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates with :meth:`randbelow` inlined: the same stream and the same order as
        ``_fisher_yates(self, items)``, reading the block's remaining 4-byte draws at once
        (a draw never spans two blocks: :meth:`_take` refills first). Where none of the
        draws a run needs can be rejected (all below ``2**32 - 256``, while every bound for
        fewer than 256 items is above it), their indices are computed in one pass."""
        i = len(items) - 1
        while i > 0:
            if self._pos + 4 > len(self._buf):
                self._refill()
            pos = self._pos
            count = min((len(self._buf) - pos) // 4, i)
            draws = struct.unpack_from(f">{count}I", self._buf, pos)
            if i < _NLIMITS - 1 and max(draws) < _SAFE32:
                for j in map(operator.mod, draws, range(i + 1, i + 1 - count, -1)):
                    items[i], items[j] = items[j], items[i]
                    i -= 1
                self._pos = pos + 4 * count
                continue
            used = 0
            for x in draws:
                used += 1
                n = i + 1
                if x < (_LIMITS32[n] if n < _NLIMITS else _TWO32 - _TWO32 % n):
                    j = x % n
                    items[i], items[j] = items[j], items[i]
                    i -= 1
                    if i == 0:
                        break
            self._pos = pos + 4 * used

    def spawn(self) -> ShakeRng:
        return ShakeRng(self._take(32))

    def copy(self) -> ShakeRng:
        c = ShakeRng(self.seed)
        c._block, c._buf, c._pos = self._block, self._buf, self._pos
        return c

    @property
    def commitment(self) -> str:
        return hashlib.sha256(self.seed).hexdigest()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ShakeRng)
            and self.seed == other.seed
            and (self._block, self._pos) == (other._block, other._pos)
        )

    def __hash__(self) -> int:
        return hash((self.seed, self._block, self._pos))

    def __repr__(self) -> str:
        return f"ShakeRng(commitment={self.commitment[:12]}…)"


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


class SplitMixRng:
    """SplitMix64 stream for fast simulation; compiled kernels reproduce it exactly.

    ``randbelow(n)`` takes 64-bit outputs and rejects those at or above the largest multiple of
    ``n`` below 2**64, then returns ``x % n``.
    """

    __slots__ = ("seed", "state")

    def __init__(self, seed: int) -> None:
        self.seed = seed & _MASK64
        self.state = self.seed

    @classmethod
    def from_seed(cls, seed: int | str | bytes) -> SplitMixRng:
        if isinstance(seed, int):
            return cls(seed)
        raw = seed if isinstance(seed, bytes) else seed.encode()
        return cls(int.from_bytes(hashlib.sha256(raw).digest()[:8], "big"))

    @classmethod
    def at(cls, seed: int, state: int) -> SplitMixRng:
        """The stream of ``seed`` at ``state`` (both 64-bit)."""
        if not (0 <= seed <= _MASK64 and 0 <= state <= _MASK64):
            raise ValueError("a SplitMix seed and state are 64-bit unsigned integers")
        r = cls(seed)
        r.state = state
        return r

    def next64(self) -> int:
        self.state, out = splitmix64(self.state)
        return out

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates with :meth:`randbelow` inlined: the same stream and the same order
        as ``_fisher_yates(self, items)``. SplitMix64 is counter-based, so with NumPy (the
        ``sim`` extra) the draws of a long shuffle are computed at once; without it, or in
        the (2**-50-rare) case of a rejected draw, the plain loop below runs."""
        if len(items) >= 24 and _numpy() is not None and self._shuffle_np(items):
            return
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < _NLIMITS else _TWO64 - _TWO64 % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def _shuffle_np(self, items: list[T]) -> bool:
        np: Any = _numpy()
        golden, c1, c2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(_C1), np.uint64(_C2)
        m = len(items) - 1
        if m + 1 >= _NLIMITS:
            return False
        states = np.uint64(self.state) + np.arange(1, m + 1, dtype=np.uint64) * golden
        z = (states ^ (states >> np.uint64(30))) * c1
        z = (z ^ (z >> np.uint64(27))) * c2
        z ^= z >> np.uint64(31)
        sizes, last_ok = _np_bounds(m)
        if (z > last_ok).any():
            return False
        js = (z % sizes).tolist()
        i = m
        for j in js:
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = int(states[-1])
        return True

    def spawn(self) -> SplitMixRng:
        return SplitMixRng(self.next64())

    def copy(self) -> SplitMixRng:
        c = SplitMixRng(self.seed)
        c.state = self.state
        return c

    @property
    def commitment(self) -> str:
        return hashlib.sha256(self.seed.to_bytes(8, "big")).hexdigest()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SplitMixRng) and (self.seed, self.state) == (
            other.seed,
            other.state,
        )

    def __hash__(self) -> int:
        return hash((self.seed, self.state))

    def __repr__(self) -> str:
        return f"SplitMixRng(seed={self.seed})"


def make_rng(seed: int | str | bytes | Rng | None) -> Rng:
    """The source for a seed: ``None`` -> fresh OS seed; a number/str/bytes -> reproducible."""
    if seed is None:
        return ShakeRng.from_os()
    if isinstance(seed, (int, str, bytes)):
        return ShakeRng.from_seed(seed)
    return seed
