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
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from mazziere.errors import MalformedAction
from mazziere.poker.evaluator import DEFAULT_RULES
from mazziere.poker.options import Rules
from mazziere.poker.tables import (
    FLUSH_ADD,
    FLUSH_TEST,
    KEY_MASK,
    MASK_MASK,
    RANK_FIELD,
    SUIT_FIELD,
    table_arrays,
)

PARALLEL_FROM = 1 << 16
"""Unchecked batches at least this long are split across cores."""
CHUNK = 4096
"""Rows per unit of parallel work."""


@nb.njit(cache=True, inline="always")
def _one(packed, unsuited, flush, a, b, c, d, e):  # type: ignore[no-untyped-def]
    s = packed[a] + packed[b] + packed[c] + packed[d] + packed[e]
    if ((s >> SUIT_FIELD) + FLUSH_ADD) & FLUSH_TEST:
        return flush[(s >> RANK_FIELD) & MASK_MASK]
    return unsuited[s & KEY_MASK]


@nb.njit(cache=True)
def _serial(hands, packed, unsuited, flush, out):  # type: ignore[no-untyped-def]
    for i in range(hands.shape[0]):
        out[i] = _one(
            packed, unsuited, flush, hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4]
        )


@nb.njit(cache=True, parallel=True)
def _parallel(hands, packed, unsuited, flush, out):  # type: ignore[no-untyped-def]
    n = hands.shape[0]
    for k in nb.prange((n + CHUNK - 1) // CHUNK):
        for i in range(k * CHUNK, min(n, (k + 1) * CHUNK)):
            out[i] = _one(
                packed,
                unsuited,
                flush,
                hands[i, 0],
                hands[i, 1],
                hands[i, 2],
                hands[i, 3],
                hands[i, 4],
            )


@nb.njit(cache=True, parallel=True)
def _checked(hands, packed, unsuited, flush, valid, out):  # type: ignore[no-untyped-def]
    """Evaluate and check in one pass; the first row that is not five distinct deck cards,
    or -1."""
    n = hands.shape[0]
    chunks = (n + CHUNK - 1) // CHUNK
    bad = np.full(max(chunks, 1), n, dtype=np.int64)
    for k in nb.prange(chunks):
        first = n
        for i in range(k * CHUNK, min(n, (k + 1) * CHUNK)):
            a, b, c, d, e = hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4]
            ok = valid[a] & valid[b] & valid[c] & valid[d] & valid[e]
            ok &= (a != b) & (a != c) & (a != d) & (a != e) & (b != c)
            ok &= (b != d) & (b != e) & (c != d) & (c != e) & (d != e)
            if ok:
                out[i] = _one(packed, unsuited, flush, a, b, c, d, e)
            else:
                out[i] = 0
                first = min(first, i)
        bad[k] = first
    worst = bad.min()
    return worst if worst < n else -1


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
        valid = np.zeros(256, dtype=np.bool_)
        valid[rules.lowest_rank * 4 : 52] = True
        bad = int(_checked(arr, t.packed, t.unsuited, t.flush, valid, out))
        if bad >= 0:
            raise MalformedAction(
                f"row {bad} is not five distinct cards of the {rules.deck}-card deck", "bad_hand"
            )
        return out
    kernel = _parallel if arr.shape[0] >= PARALLEL_FROM else _serial
    kernel(arr, t.packed, t.unsuited, t.flush, out)
    return out
