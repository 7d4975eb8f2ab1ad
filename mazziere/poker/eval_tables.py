"""Lookup tables of the five-card evaluator, built once per rule variant (draw-poker.md
"Decks and hands").

Every five-card hand maps to one of 7,462 hand classes (6,175 rank multisets without a
flush, 1,287 flushes). A class is ranked by a *value key* -- category order, then the ranks
that decide ties, four bits each -- and numbered by a *dense rank* 1..N in increasing
strength (0 is never a hand). Two tables find a hand's dense rank without sorting:

* ``unsuited[sum of RANK_KEYS]``: the rank keys are chosen so that every multiset of five ranks
  (at most four alike) has a distinct sum (greedy search, checked here at build time);
* ``flush[rank bit mask]``: a flush has five distinct ranks, so its 13-bit mask names it.

``packed[card]`` holds, for one card, its rank key (bits 0-18), its rank bit (bits 20-35) and a
count of one in its suit's nibble (bits 40-55). Adding five packed cards gives the key sum, the
rank mask (a plain sum equals the OR when ranks are distinct) and the suit counts; a suit count
of five is a flush, detected for all suits at once with ``(counts + 0x3333) & 0x8888``.

The checked single call (:func:`mazziere.poker.evaluate`) adds five *check values* and masks the
sum once, so that one lookup both ranks the hand and refuses a repeated card:

* bits 0-18: the rank key, as above;
* bits 19-42: four 6-bit suit fields; each card adds 7 to its suit's, so bit 5 of a field
  (32) is set only by five cards of that suit (4 * 7 = 28 < 32 <= 35 = 5 * 7);
* bits 43-198: one 3-bit field per card; each card adds 1 to its own, so bits 1-2 of a field
  are set only when that card is there twice or more (five copies make 5, still in the field);
* bits 199 and up: a count of cards, so every sum of five cards has the same number of digits
  (CPython's big-int loops then run alike on every hand, which makes the call faster).

``sum & CHECK_MASK`` keeps the rank key, the four flush bits and every repeat bit: for five
distinct cards it is the rank key, plus one flush bit if they are of one suit (a key of
:func:`check_keys`); with a repeated card a repeat bit stays and the key is in no table. So a
tuple indexed by rank key ranks every hand that is not a flush, and the index is out of its
range exactly when the hand is a flush (a small dictionary) or holds a repeated card.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from mazziere.poker.cards import ACE, lowest_rank

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Per-rank keys: sums over five ranks are unique for every multiset (greedy, smallest)."""
KEY_SPACE = 4 * RANK_KEYS[12] + RANK_KEYS[11] + 1
RANK_FIELD = 20
SUIT_FIELD = 40
KEY_MASK = (1 << 19) - 1
MASK_MASK = (1 << 13) - 1
FLUSH_ADD = 0x3333
FLUSH_TEST = 0x8888
NUMBER_OF_CLASSES = 7462
CHECK_SUIT_FIELD = 19
CHECK_SUIT_STEP = 7
"""Each card adds 7 to its suit's 6-bit field: only five of a suit reach bit 5."""
CHECK_CARD_FIELD = CHECK_SUIT_FIELD + 4 * 6
CHECK_COUNT_FIELD = CHECK_CARD_FIELD + 3 * 52
CHECK_FLUSH_BITS = sum(32 << (CHECK_SUIT_FIELD + 6 * s) for s in range(4))
CHECK_REPEAT_BITS = sum(6 << (CHECK_CARD_FIELD + 3 * c) for c in range(52))
CHECK_MASK = KEY_MASK | CHECK_FLUSH_BITS | CHECK_REPEAT_BITS


class Category(StrEnum):
    """The hand categories, listed low to high as seed 002 ranks them."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"


CATEGORIES: tuple[Category, ...] = tuple(Category)


def category_order(category: Category, flush_beats_full_house: bool) -> int:
    """The category's place, 0 (high card) .. 8 (straight flush), under the flush option."""
    i = CATEGORIES.index(category)
    if flush_beats_full_house and category is Category.FLUSH:
        return 6
    if flush_beats_full_house and category is Category.FULL_HOUSE:
        return 5
    return i


def straights(deck: int, ace_low: bool) -> dict[int, int]:
    """Rank mask -> the straight's top rank: runs of five from the deck's lowest rank up, and
    the ace-low run (A-2-3-4-5 or A-7-8-9-10) topped by its highest non-ace card."""
    low = lowest_rank(deck)
    out: dict[int, int] = {}
    for start in range(low, ACE - 3):
        out[sum(1 << r for r in range(start, start + 5))] = start + 4
    if ace_low:
        out[(1 << ACE) | sum(1 << r for r in range(low, low + 4))] = low + 3
    return out


def classify(
    ranks: tuple[int, ...], flush: bool, runs: dict[int, int]
) -> tuple[Category, tuple[int, ...]]:
    """The category of five ranks and the ranks deciding ties, most significant first."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    sig = tuple(r for r, _ in groups)
    shape = tuple(c for _, c in groups)
    mask = sum(1 << r for r in counts)
    if len(counts) == 5 and mask in runs:
        return (Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT), (runs[mask],)
    if flush:
        return Category.FLUSH, sig
    by_shape = {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
        (1, 1, 1, 1, 1): Category.HIGH_CARD,
    }
    return by_shape[shape], sig


def value_key(category: Category, sig: tuple[int, ...], flush_beats_full_house: bool) -> int:
    """A sortable integer: category order, then the deciding ranks four bits each."""
    v = category_order(category, flush_beats_full_house)
    for i in range(5):
        v = (v << 4) | (sig[i] if i < len(sig) else 0)
    return v


@dataclass(frozen=True, slots=True)
class Tables:
    """The evaluator's tables for one (deck, ace_low_straight, flush_beats_full_house)."""

    deck: int
    ace_low: bool
    flush_beats_full_house: bool
    categories: tuple[Category, ...]
    """Dense rank -> category (index 0 unused)."""
    sig_ranks: tuple[tuple[int, ...], ...]
    """Dense rank -> deciding ranks (index 0 unused)."""
    deck_mask: int
    """Bit ``c`` set for every card number ``c`` in the deck."""
    packed_list: tuple[int, ...]
    unsuited_list: tuple[int, ...]
    flush_list: tuple[int, ...]
    key_list: tuple[int, ...]
    """Card -> its rank key (the single-call path sums these small ints)."""


def _multisets() -> list[tuple[int, ...]]:
    return [
        ms
        for ms in itertools.combinations_with_replacement(range(13), 5)
        if max(ms.count(r) for r in set(ms)) <= 4
    ]


@functools.cache
def build_tables(deck: int, ace_low: bool, flush_beats_full_house: bool) -> Tables:
    """Build (once per variant) every table; checks that the rank keys hash perfectly."""
    runs = straights(deck, ace_low)
    entries: list[tuple[int, bool, tuple[int, ...], Category, tuple[int, ...]]] = []
    for ms in _multisets():
        cat, sig = classify(ms, False, runs)
        entries.append((value_key(cat, sig, flush_beats_full_house), False, ms, cat, sig))
    for combo in itertools.combinations(range(13), 5):
        cat, sig = classify(combo, True, runs)
        entries.append((value_key(cat, sig, flush_beats_full_house), True, combo, cat, sig))
    values = sorted({e[0] for e in entries})
    if len(values) != NUMBER_OF_CLASSES:
        raise AssertionError(f"expected {NUMBER_OF_CLASSES} hand classes, got {len(values)}")
    dense = {v: i + 1 for i, v in enumerate(values)}
    unsuited = [0] * KEY_SPACE
    flush = [0] * (1 << 13)
    categories: list[Category] = [Category.HIGH_CARD] * (len(values) + 1)
    sigs: list[tuple[int, ...]] = [()] * (len(values) + 1)
    for value, is_flush, ranks, cat, sig in entries:
        d = dense[value]
        categories[d], sigs[d] = cat, sig
        if is_flush:
            flush[sum(1 << r for r in ranks)] = d
        else:
            key = sum(RANK_KEYS[r] for r in ranks)
            if unsuited[key]:
                raise AssertionError(f"rank keys collide on {ranks}")
            unsuited[key] = d
    packed = tuple(
        RANK_KEYS[c >> 2] | (1 << ((c >> 2) + RANK_FIELD)) | (1 << (SUIT_FIELD + 4 * (c & 3)))
        for c in range(52)
    )
    low = lowest_rank(deck)
    deck_mask = sum(1 << c for c in range(52) if c >> 2 >= low)
    return Tables(
        deck=deck,
        ace_low=ace_low,
        flush_beats_full_house=flush_beats_full_house,
        categories=tuple(categories),
        sig_ranks=tuple(sigs),
        deck_mask=deck_mask,
        packed_list=packed,
        unsuited_list=tuple(unsuited),
        flush_list=tuple(flush),
        key_list=tuple(RANK_KEYS[c >> 2] for c in range(52)),
    )


def check_value(card: int) -> int:
    """The value one card number adds to a checked single call's sum (the module's notes)."""
    suit_count = CHECK_SUIT_STEP << (CHECK_SUIT_FIELD + 6 * (card & 3))
    card_count = 1 << (CHECK_CARD_FIELD + 3 * card)
    return RANK_KEYS[card >> 2] + suit_count + card_count + (1 << CHECK_COUNT_FIELD)


def check_keys(deck: int, ace_low: bool, flush_beats_full_house: bool) -> dict[int, int]:
    """Every key of five distinct cards of the deck (``sum of check values & CHECK_MASK``) ->
    its dense rank: each rank multiset's rank key, and each set of five ranks' rank key with
    the flush bit of each suit. Built from :func:`build_tables`' own tables."""
    t = build_tables(deck, ace_low, flush_beats_full_house)
    ranks = range(lowest_rank(deck), 13)
    out: dict[int, int] = {}
    for ms in itertools.combinations_with_replacement(ranks, 5):
        if max(ms.count(r) for r in ms) <= 4:
            key = sum(RANK_KEYS[r] for r in ms)
            out[key] = t.unsuited_list[key]
    for combo in itertools.combinations(ranks, 5):
        key = sum(RANK_KEYS[r] for r in combo)
        dense = t.flush_list[sum(1 << r for r in combo)]
        for suit in range(4):
            out[key | 32 << (CHECK_SUIT_FIELD + 6 * suit)] = dense
    return out


@dataclass(frozen=True, slots=True)
class TableArrays:
    """The packed, unsuited and flush tables as read-only NumPy arrays, for compiled kernels."""

    packed: npt.NDArray[np.int64]
    unsuited: npt.NDArray[np.uint16]
    flush: npt.NDArray[np.uint16]


@functools.cache
def table_arrays(deck: int, ace_low: bool, flush_beats_full_house: bool) -> TableArrays:
    """:func:`build_tables` as NumPy arrays (built once per variant). NumPy is imported here,
    not at import time: the rules install without it (it comes with the ``sim`` extra)."""
    import numpy as np

    t = build_tables(deck, ace_low, flush_beats_full_house)
    packed = np.array(t.packed_list, dtype=np.int64)
    unsuited = np.array(t.unsuited_list, dtype=np.uint16)
    flush = np.array(t.flush_list, dtype=np.uint16)
    for arr in (packed, unsuited, flush):
        arr.flags.writeable = False
    return TableArrays(packed, unsuited, flush)
