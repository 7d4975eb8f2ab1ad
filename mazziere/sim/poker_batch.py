"""The batch evaluator: dense ranks of many five-card hands at once, compiled with numba
(draw-poker.md "Decks and hands"; same tables and order as :func:`~mazziere.poker.evaluate`).

>>> import numpy as np
>>> from mazziere.poker.cards import parse_cards
>>> hands = np.array([parse_cards("AhKhQhJhTh"), parse_cards("2c3d4h5s7c")], dtype=np.uint8)
>>> r = evaluate_batch(hands); bool(r[0] > r[1]), int(r[1])
(True, 1)

Hands are rows of five card numbers (``rank * 4 + suit``); the result holds ``uint16`` dense
ranks (higher is stronger). ``check=True`` (the default) refuses, in the same pass, rows with a
repeated card or a card outside the rules' deck.

A batch of ``PARALLEL_FROM`` rows or more is cut in pieces, which a pool of threads (one per
core) runs through the compiled kernels, each thread taking the next piece when it is done;
the kernels release the GIL.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from mazziere.errors import MalformedAction
from mazziere.poker.eval_tables import (
    FLUSH_ADD,
    FLUSH_TEST,
    KEY_MASK,
    MASK_MASK,
    RANK_FIELD,
    SUIT_FIELD,
    table_arrays,
)
from mazziere.poker.evaluator import DEFAULT_RULES
from mazziere.poker.options import Rules

PARALLEL_FROM = 1 << 16
"""Batches at least this long are split across cores (below it one core is quicker)."""
PIECE = 1 << 18
"""Most rows a thread takes at a time from a parallel batch."""
CHUNK = 4096
"""Rows checked, then ranked while still in the L1 cache."""

# The kernels read the hands as one flat array (row i at 5 * i: a stride known when compiling,
# not a row stride read at run time), and the row loops index the tables themselves: a helper
# taking the arrays, even inlined, makes numba count references to them on every row (several
# times slower). Helpers take scalars only.


@nb.njit(cache=True, inline="always")
def _distinct_in_deck(a, b, c, d, e, deck_bits):  # type: ignore[no-untyped-def]
    """Whether five card numbers are distinct cards of the deck (``deck_bits``: bit ``c`` set
    for each card ``c`` in it). Their bits are distinct exactly when their sum is their OR;
    numbers from 64 up are refused before shifting."""
    one = np.uint64(1)
    ba, bb, bc = one << (a & 63), one << (b & 63), one << (c & 63)
    bd, be = one << (d & 63), one << (e & 63)
    bits = ba | bb | bc | bd | be
    small = (a | b | c | d | e) < 64
    return small & (bits == ba + bb + bc + bd + be) & ((bits & ~deck_bits) == 0)


@nb.njit(cache=True)
def _rows_ok(flat, deck_bits, lo, hi):  # type: ignore[no-untyped-def]
    """Whether rows ``lo``..``hi`` are each five distinct cards of the deck (no early exit:
    the loop has no branch)."""
    ok = True
    for i in range(lo, hi):
        j = 5 * i
        ok &= _distinct_in_deck(
            flat[j], flat[j + 1], flat[j + 2], flat[j + 3], flat[j + 4], deck_bits
        )
    return ok


@nb.njit(cache=True)
def _first_bad_row(flat, deck_bits, lo, hi):  # type: ignore[no-untyped-def]
    """The first of rows ``lo``..``hi`` that is not five distinct cards of the deck, or
    ``hi``."""
    for i in range(lo, hi):
        j = 5 * i
        if not _distinct_in_deck(
            flat[j], flat[j + 1], flat[j + 2], flat[j + 3], flat[j + 4], deck_bits
        ):
            return i
    return hi


@nb.njit(cache=True)
def _rank_rows(flat, packed, unsuited, flush, out, lo, hi):  # type: ignore[no-untyped-def]
    """Dense ranks of rows ``lo``..``hi`` (each five distinct deck cards: not checked here),
    the same arithmetic as :func:`~mazziere.poker.evaluator.rank_of`."""
    for i in range(lo, hi):
        j = 5 * i
        s = packed[flat[j]] + packed[flat[j + 1]] + packed[flat[j + 2]]
        s += packed[flat[j + 3]] + packed[flat[j + 4]]
        if ((s >> SUIT_FIELD) + FLUSH_ADD) & FLUSH_TEST:
            r = flush[(s >> RANK_FIELD) & MASK_MASK]
        else:
            r = unsuited[s & KEY_MASK]
        out[i] = r


@nb.njit(cache=True, nogil=True)
def _unchecked(flat, packed, unsuited, flush, out):  # type: ignore[no-untyped-def]
    """Rank every row (-1: no row is refused)."""
    _rank_rows(flat, packed, unsuited, flush, out, 0, out.shape[0])
    return -1


@nb.njit(cache=True, nogil=True)
def _checked(flat, packed, unsuited, flush, deck_bits, out):  # type: ignore[no-untyped-def]
    """Check and rank ``CHUNK`` rows at a time; the first row that is not five distinct deck
    cards, or -1."""
    n = out.shape[0]
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        if not _rows_ok(flat, deck_bits, lo, hi):
            return _first_bad_row(flat, deck_bits, lo, hi)
        _rank_rows(flat, packed, unsuited, flush, out, lo, hi)
    return -1


THREADS: int = nb.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
"""Threads of a parallel batch: as many as numba would use (the cores, or NUMBA_NUM_THREADS)."""
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    """The batch's worker threads (started on first need)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(THREADS, "poker-batch")
        return _pool


def _forget_threads() -> None:
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()  # a forked child has none of its parent's threads


os.register_at_fork(after_in_child=_forget_threads)


def _run(kernel: Any, flat: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16], *args: Any) -> int:
    """Run a row kernel (which returns its first bad row, or -1) over every row. From
    ``PARALLEL_FROM`` rows, threads take pieces as they free up: with numba's ``prange`` the
    split is fixed in advance, and one thread held back by other work on a shared machine holds
    up the whole batch."""
    n = out.shape[0]
    if n < PARALLEL_FROM:
        return int(kernel(flat, *args, out))
    pool = _threads()
    pieces = max(2 * THREADS, -(-n // PIECE))
    size = -(-n // pieces)

    def piece(lo: int) -> int:
        hi = min(n, lo + size)
        bad = int(kernel(flat[5 * lo : 5 * hi], *args, out[lo:hi]))
        return lo + bad if bad >= 0 else n

    first = min(pool.map(piece, range(0, n, size)))
    return first if first < n else -1


@nb.njit(cache=True)
def _combinations(deck_lo):  # type: ignore[no-untyped-def]
    first = deck_lo * 4
    m = 52 - first
    count = m * (m - 1) * (m - 2) * (m - 3) * (m - 4) // 120
    out = np.empty((count, 5), dtype=np.uint8)
    k = 0
    for a in range(first, 52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        out[k, 0] = a
                        out[k, 1] = b
                        out[k, 2] = c
                        out[k, 3] = d
                        out[k, 4] = e
                        k += 1
    return out


def all_hands(deck: int = 52) -> npt.NDArray[np.uint8]:
    """Every five-card hand of the deck, one per row, in lexicographic card order."""
    if deck not in (52, 32):
        raise MalformedAction(f"a deck has 52 or 32 cards, not {deck}", "bad_deck")
    result: npt.NDArray[np.uint8] = _combinations(0 if deck == 52 else 5)
    return result


def evaluate_batch(
    hands: npt.ArrayLike, rules: Rules = DEFAULT_RULES, *, check: bool = True
) -> npt.NDArray[np.uint16]:
    """Dense ranks of an ``(n, 5)`` array of card numbers under ``rules``."""
    arr = np.ascontiguousarray(hands)
    if arr.ndim != 2 or arr.shape[1] != 5:
        raise MalformedAction("hands must be an array of shape (n, 5)", "bad_hand")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise MalformedAction("card numbers are 0-51", "bad_card")
        arr = arr.astype(np.uint8)
    t = table_arrays(rules.deck, rules.ace_low_straight, rules.flush_beats_full_house)
    out = np.empty(arr.shape[0], dtype=np.uint16)
    if check:
        low = 4 * rules.lowest_rank
        deck_bits = np.uint64(((1 << 52) - 1) ^ ((1 << low) - 1))
        bad = _run(_checked, arr.reshape(-1), out, t.packed, t.unsuited, t.flush, deck_bits)
        if bad >= 0:
            raise MalformedAction(
                f"row {bad} is not five distinct cards of the {rules.deck}-card deck", "bad_hand"
            )
        return out
    _run(_unchecked, arr.reshape(-1), out, t.packed, t.unsuited, t.flush)
    return out
