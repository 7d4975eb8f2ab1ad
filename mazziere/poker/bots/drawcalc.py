"""Draw arithmetic for the bots: what each discard is worth, and what hands a table ends with
(draw-poker.md "The computer opponent": draws follow the deck).

* :func:`reference` simulates many deals in which a plain player draws (keep made hands and
  groups, draw to four-card flushes and straights, else keep the top card) and returns the
  distribution of final hands: overall, and by the number of cards replaced. The hard bot reads
  an opponent's draw count through it; every bot measures a final hand's worth as its
  showdown win probability against it.
* :func:`discard_values` gives, for each of the 32 discards of a hand, the expected win
  probability of the final hand (exact for up to three cards, sampled for more, the sample
  seeded by the hand itself so answers are pure functions of the hand).

Both are compiled with numba over the evaluator's tables and cached per rule variant; the
simulation seed is fixed, so the tables are the same on every run. NumPy and numba (the ``sim``
extra) are imported and the kernels compiled on first use, not at import time: the rules
install without them, and only the bots that read these tables (``normal``, ``hard``) need them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from mazziere.poker.cards import Card, deck
from mazziere.poker.eval_tables import (
    CATEGORIES,
    FLUSH_ADD,
    FLUSH_TEST,
    KEY_MASK,
    MASK_MASK,
    RANK_FIELD,
    SUIT_FIELD,
    Category,
    TableArrays,
    straights,
    table_arrays,
)
from mazziere.poker.evaluator import tables_for
from mazziere.poker.options import Rules

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

if (SUIT_FIELD, RANK_FIELD, KEY_MASK, MASK_MASK, FLUSH_ADD, FLUSH_TEST) != (
    40,
    20,
    0x7FFFF,
    0x1FFF,
    0x3333,
    0x8888,
):  # the kernels below spell these constants out: numba calls cost more than the work
    raise ImportError("drawcalc's inlined constants differ from mazziere.poker.eval_tables")

REFERENCE_DEALS = 1_000_000
SAMPLES = 1500
"""Samples per discard of four or five cards (fewer are enumerated exactly)."""
REFERENCE_SEED = 0x5EED_0002
_STRAIGHT = CATEGORIES.index(Category.STRAIGHT)
_THREE = CATEGORIES.index(Category.THREE_OF_A_KIND)
_TWO_PAIR = CATEGORIES.index(Category.TWO_PAIR)
_PAIR = CATEGORIES.index(Category.PAIR)

_KERNELS: dict[str, bool] = {}
"""The numba kernels of this module (plain Python below) -> whether numba inlines them."""


def _kernel(*, inline: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a function as a numba kernel, compiled by :func:`_compile` on first use."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        _KERNELS[fn.__name__] = inline
        return fn

    return mark


@functools.cache
def _compile() -> None:
    """Import NumPy and numba and replace each kernel by its compiled form (once).

    The kernels read ``np`` and each other as module globals, which numba freezes when it
    compiles them, so the globals are set before the first call. Compiled code is cached on
    disk (``cache=True``) as when the decorators were written on the functions.
    """
    try:
        import numba
        import numpy
    except ImportError as e:  # pragma: no cover - the sim extra is installed in the tests
        raise ImportError(
            "the poker bots' draw tables need NumPy and numba: pip install 'mazziere[sim]'"
        ) from e
    module = globals()
    module["np"] = numpy
    for name, inline in _KERNELS.items():
        module[name] = numba.njit(module[name], cache=True, inline="always" if inline else "never")


def _arrays(rules: Rules) -> TableArrays:
    return table_arrays(rules.deck, rules.ace_low_straight, rules.flush_beats_full_house)


@_kernel()
def _lookup(s, unsuited, flush):  # type: ignore[no-untyped-def]
    if ((s >> 40) + 0x3333) & 0x8888:
        return flush[(s >> 20) & 0x1FFF]
    return unsuited[s & 0x7FFFF]


@_kernel(inline=True)
def _next(state):  # type: ignore[no-untyped-def]
    state[0] = state[0] + np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_kernel(inline=True)
def _below(state, n):  # type: ignore[no-untyped-def]
    return np.int64(((_next(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@_kernel()
def plain_discard(h, cat, runs):  # type: ignore[no-untyped-def]
    """The plain player's discard as a 5-bit mask of hand positions."""
    if cat >= _STRAIGHT:
        return 0
    counts = np.zeros(13, np.int64)
    for i in range(5):
        counts[h[i] >> 2] += 1
    if cat >= _PAIR:
        mask = 0
        for i in range(5):
            if counts[h[i] >> 2] == 1:
                mask |= 1 << i
        return mask
    suits = np.zeros(4, np.int64)
    for i in range(5):
        suits[h[i] & 3] += 1
    for i in range(5):
        if suits[h[i] & 3] == 1 and suits[(h[(i + 1) % 5]) & 3] == 4:
            return 1 << i
    for i in range(5):
        rest = 0
        for j in range(5):
            if j != i:
                rest |= 1 << (h[j] >> 2)
        for k in range(runs.shape[0]):
            if rest & runs[k] == rest:
                return 1 << i
    top = 0
    for i in range(5):
        if h[i] >> 2 > h[top] >> 2:
            top = i
    return 31 ^ (1 << top)


@_kernel()
def _simulate(cards, packed, unsuited, flush, cats, runs, deals, seed):  # type: ignore[no-untyped-def]
    n = cards.shape[0]
    counts = np.zeros((6, max(unsuited.max(), flush.max()) + 1), np.int64)
    state = np.array([seed], dtype=np.uint64)
    work = cards.copy()
    h = np.empty(5, np.int64)
    for _ in range(deals):
        for i in range(10):
            j = i + _below(state, n - i)
            work[i], work[j] = work[j], work[i]
        for i in range(5):
            h[i] = work[i]
        x = packed[h[0]] + packed[h[1]] + packed[h[2]] + packed[h[3]] + packed[h[4]]
        flushed = ((x >> 40) + 0x3333) & 0x8888
        r = flush[(x >> 20) & 0x1FFF] if flushed else unsuited[x & 0x7FFFF]
        mask = plain_discard(h, cats[r], runs)
        k = 0
        nxt = 10
        for i in range(5):
            if mask >> i & 1:
                j = nxt + _below(state, n - nxt)
                work[nxt], work[j] = work[j], work[nxt]
                h[i] = work[nxt]
                nxt += 1
                k += 1
        x = packed[h[0]] + packed[h[1]] + packed[h[2]] + packed[h[3]] + packed[h[4]]
        flushed = ((x >> 40) + 0x3333) & 0x8888
        r = flush[(x >> 20) & 0x1FFF] if flushed else unsuited[x & 0x7FFFF]
        counts[k, r] += 1
    return counts


@_kernel()
def _discard_values(hand, rest, packed, unsuited, flush, worth, max_replace, samples, seed):  # type: ignore[no-untyped-def]
    out = np.full(32, -1.0)
    state = np.array([seed], dtype=np.uint64)
    n = rest.shape[0]
    rp = np.empty(n, np.int64)
    for i in range(n):
        rp[i] = packed[rest[i]]
    pool = rp.copy()
    for mask in range(32):
        base = 0
        k = 0
        for i in range(5):
            if mask >> i & 1:
                k += 1
            else:
                base += packed[hand[i]]
        if k > max_replace:
            continue
        total = 0.0
        count = 0
        if k == 0:
            total = worth[_lookup(base, unsuited, flush)]
            count = 1
        elif k == 1:
            for a in range(n):
                x = base + rp[a]
                if ((x >> 40) + 0x3333) & 0x8888:
                    total += worth[flush[(x >> 20) & 0x1FFF]]
                else:
                    total += worth[unsuited[x & 0x7FFFF]]
            count = n
        elif k == 2:
            for a in range(n):
                sa = base + rp[a]
                for b in range(a + 1, n):
                    x = sa + rp[b]
                    if ((x >> 40) + 0x3333) & 0x8888:
                        total += worth[flush[(x >> 20) & 0x1FFF]]
                    else:
                        total += worth[unsuited[x & 0x7FFFF]]
            count = n * (n - 1) // 2
        elif k == 3:
            for a in range(n):
                sa = base + rp[a]
                for b in range(a + 1, n):
                    sb = sa + rp[b]
                    for c in range(b + 1, n):
                        x = sb + rp[c]
                        if ((x >> 40) + 0x3333) & 0x8888:
                            total += worth[flush[(x >> 20) & 0x1FFF]]
                        else:
                            total += worth[unsuited[x & 0x7FFFF]]
            count = n * (n - 1) * (n - 2) // 6
        else:
            for _ in range(samples):
                sm = base
                for i in range(k):
                    j = i + _below(state, n - i)
                    pool[i], pool[j] = pool[j], pool[i]
                    sm += pool[i]
                if ((sm >> 40) + 0x3333) & 0x8888:
                    total += worth[flush[(sm >> 20) & 0x1FFF]]
                else:
                    total += worth[unsuited[sm & 0x7FFFF]]
            count = samples
        out[mask] = total / count
    return out


@dataclass(frozen=True, slots=True)
class Reference:
    """Final-hand distributions of a plain drawing player, as win-probability tables."""

    worth: npt.NDArray[np.float64]
    """Dense rank -> P(beat a final hand) + P(tie) / 2, over all final hands."""
    worth_by_draw: npt.NDArray[np.float64]
    """[cards replaced, dense rank] -> the same against final hands after that many."""
    share_by_draw: npt.NDArray[np.float64]
    """How often the plain player replaces 0..5 cards."""


def _worth(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    import numpy as np

    total = max(int(counts.sum()), 1)
    below = np.concatenate(([0], np.cumsum(counts)[:-1]))
    result: npt.NDArray[np.float64] = (below + counts / 2) / total
    return result


def straight_masks(rules: Rules) -> npt.NDArray[np.int64]:
    import numpy as np

    return np.array(sorted(straights(rules.deck, rules.ace_low_straight)), dtype=np.int64)


def category_codes(rules: Rules) -> npt.NDArray[np.int64]:
    import numpy as np

    t = tables_for(rules)
    return np.array([CATEGORIES.index(c) for c in t.categories], dtype=np.int64)


@functools.cache
def _reference(deck_size: int, ace_low: bool, flush_beats: bool) -> Reference:
    import numpy as np

    _compile()
    rules = Rules(deck=deck_size, ace_low_straight=ace_low, flush_beats_full_house=flush_beats)
    t = _arrays(rules)
    cards = np.array(deck(deck_size), dtype=np.int64)
    counts = _simulate(
        cards,
        t.packed,
        t.unsuited,
        t.flush,
        category_codes(rules),
        straight_masks(rules),
        REFERENCE_DEALS,
        np.uint64(REFERENCE_SEED),
    )
    by_draw = np.array([_worth(counts[k]) for k in range(6)])
    shares = counts.sum(axis=1) / counts.sum()
    return Reference(_worth(counts.sum(axis=0)), by_draw, shares)


def reference(rules: Rules) -> Reference:
    """The plain player's final-hand tables for these rules (simulated once, then cached)."""
    return _reference(rules.deck, rules.ace_low_straight, rules.flush_beats_full_house)


def canonical(hand: tuple[Card, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A suit-relabelled, sorted form of the hand, and each sorted card's original position."""
    order = sorted(range(5), key=lambda i: (-(hand[i] >> 2), hand[i] & 3))
    relabel: dict[int, int] = {}
    out: list[int] = []
    for i in order:
        s = relabel.setdefault(hand[i] & 3, len(relabel))
        out.append((hand[i] >> 2) * 4 + s)
    return tuple(out), tuple(order)


@functools.lru_cache(maxsize=1 << 18)
def _values_canonical(key: tuple[int, ...], rules: Rules) -> tuple[float, ...]:
    import numpy as np

    _compile()
    t = _arrays(rules)
    hand = np.array(key, dtype=np.int64)
    rest = np.array([c for c in deck(rules.deck) if c not in key], dtype=np.int64)
    seed = np.uint64(sum(c << (6 * i) for i, c in enumerate(key)) ^ 0x9E37_79B9)
    vals = _discard_values(
        hand,
        rest,
        t.packed,
        t.unsuited,
        t.flush,
        reference(rules).worth,
        rules.max_replace,
        SAMPLES,
        seed,
    )
    return tuple(float(v) for v in vals)


def discard_values(hand: tuple[Card, ...], rules: Rules) -> dict[int, float]:
    """Discard mask over the hand's positions -> expected final win probability (masks with
    more than ``max_replace`` cards left out)."""
    key, order = canonical(hand)
    vals = _values_canonical(key, rules)
    out: dict[int, float] = {}
    for cmask in range(32):
        if vals[cmask] < 0:
            continue
        mask = 0
        for j in range(5):
            if cmask >> j & 1:
                mask |= 1 << order[j]
        out[mask] = vals[cmask]
    return out


def _compute_best(key: tuple[int, ...], rules: Rules) -> tuple[int, float]:
    vals = _values_canonical(key, rules)
    best = max(
        (m for m in range(32) if vals[m] >= 0),
        key=lambda m: (round(vals[m], 4), -bin(m).count("1")),
    )
    return best, vals[best]


_best_canonical = functools.lru_cache(maxsize=1 << 18)(_compute_best)
"""Rules without a shipped table (:func:`best_table`): computed on first use, then cached."""


def key_code(key: tuple[int, ...]) -> int:
    """A canonical hand as one integer (six bits a card), the index of the shipped tables."""
    return key[0] | key[1] << 6 | key[2] << 12 | key[3] << 18 | key[4] << 24


def table_name(rules: Rules) -> str:
    """The file name of these rules' best-discard table, in the package's ``data`` folder
    (read with :mod:`importlib.resources`, as the ``hard`` strategy is; if it is shipped)."""
    return (
        f"draw{rules.deck}-{'a' if rules.ace_low_straight else 'n'}"
        f"{'f' if rules.flush_beats_full_house else 'h'}{rules.max_replace}.npz"
    )


def shipped(rules: Rules) -> bool:
    """Whether the package holds a best-discard table for these rules."""
    return resources.files(__package__).joinpath("data", table_name(rules)).is_file()


@dataclass(frozen=True, slots=True)
class BestTable:
    """Every canonical hand's best discard and its value, sorted by :func:`key_code`."""

    codes: npt.NDArray[np.int64]
    masks: npt.NDArray[np.uint8]
    values: npt.NDArray[np.float64]

    def find(self, code: int) -> int:
        """The row of ``code``, or -1 (a binary search: no index held beside the arrays)."""
        i = int(self.codes.searchsorted(code))
        return i if i < len(self.codes) and int(self.codes[i]) == code else -1


@functools.cache
def best_table(
    deck_size: int, ace_low: bool, flush_beats: bool, max_replace: int
) -> BestTable | None:
    """The shipped table for these rules, or None. Why a table: computing one hand's discards
    is slow, and a server meets new hands all the time (the ``normal`` bot's cold computations
    would be a large share of a server process's CPU under load, and their cache would hold
    hundreds of thousands of objects that every garbage collection walks). Built by
    ``scripts/build_draw_tables.py`` with :func:`build_table`, and checked against the
    computation in tests/poker/test_draw_tables.py."""
    import numpy as np

    rules = Rules(
        deck=deck_size,
        ace_low_straight=ace_low,
        flush_beats_full_house=flush_beats,
        max_replace=max_replace,
    )
    if not shipped(rules):
        return None
    with (
        resources.files(__package__).joinpath("data", table_name(rules)).open("rb") as f,
        np.load(f) as data,
    ):
        codes, masks, values = data["codes"], data["masks"], data["values"]
    return BestTable(codes, masks, values)


def canonical_keys(deck_size: int) -> list[tuple[int, ...]]:
    """Every canonical hand of the deck, sorted by :func:`key_code`."""
    import itertools

    keys = {canonical(h)[0] for h in itertools.combinations(deck(deck_size), 5)}
    return sorted(keys, key=key_code)


def build_table(rules: Rules, keys: list[tuple[int, ...]]) -> tuple[list[int], list[float]]:
    """The best discard and its value of each key (the computation the table replaces)."""
    masks, values = [], []
    for key in keys:
        m, v = _compute_best(key, rules)
        masks.append(m)
        values.append(v)
    return masks, values


def _best(key: tuple[int, ...], rules: Rules) -> tuple[int, float]:
    table = best_table(
        rules.deck, rules.ace_low_straight, rules.flush_beats_full_house, rules.max_replace
    )
    if table is not None:
        i = table.find(key_code(key))
        if i >= 0:
            return int(table.masks[i]), float(table.values[i])
    return _best_canonical(key, rules)


def best_discard(hand: tuple[Card, ...], rules: Rules) -> tuple[int, float]:
    """The discard with the highest expected win probability (fewest cards on near-ties),
    as a mask over the hand's positions, and that probability."""
    key, order = canonical(hand)
    cmask, value = _best(key, rules)
    mask = 0
    for j in range(5):
        if cmask >> j & 1:
            mask |= 1 << order[j]
    return mask, value


def cards_of(hand: tuple[Card, ...], mask: int) -> tuple[Card, ...]:
    """The cards at the positions set in ``mask``."""
    return tuple(c for i, c in enumerate(hand) if mask >> i & 1)
