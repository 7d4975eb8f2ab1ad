"""A compiled (numba) UNO CASINO round, bit for bit the round of
:func:`mazziere.casino.simulate_round`, for RTP runs of 10^8 rounds (design.md "keep it
separate and prove it equal"; uno-casino.md, seed 000).

What it reproduces, step by step (the pure path's module is named in brackets):

* Seeding [casino.round.new_round, uno.dealing, rng]: ``SplitMixRng(seed)``; its first output
  seeds the strategies' tie-break stream (``spawn``), its second the hand's source
  (``first_dealer=1``: no dealer draw, then ``match_rng.spawn()``). The hand source shuffles
  the 108-card ``FULL_DECK`` order with Fisher-Yates (``randbelow`` by rejection on 64-bit
  outputs), deals one card at a time from the end of the list, seat 0 first (4 to the player,
  5 to the bank), then turns cards until a number shows, putting each other card back at
  ``randbelow(len + 1)``.
* Legality [uno.machine, uno.matching]: colour, number or symbol; Wild always; +4 only with no
  card of the current colour (no bluff, no challenge, no UNO call, no stacking); Skip,
  Reverse, +2 and +4 give the same side the turn again; a drawn card that is playable may be
  played; no reshuffle.
* Strategies [casino.strategy]: the bank's and the player's, with ties broken by
  ``randbelow`` over distinct faces in face order and over colours in index order, and the
  player's memory of the bank's previous turn.
* The round [casino.round]: the multiplier (x3 start, player draws -1, bank draws for lack of
  a play +1, never above x3), the x1 draw ban, the pile-out endings, and ``turns`` counting
  every action applied, the player's and the bank's.

Per-round seeds of a run come from :func:`round_seed`, shared by the kernel and the pure path.

>>> from mazziere.casino import simulate_round
>>> all(kernel_round(s) == simulate_round(s) for s in range(20))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from mazziere.cards.uno import FULL_DECK, WILD4_FACE, WILD_FACE
from mazziere.casino.rules import MAX_MULTIPLIER, CasinoRules
from mazziere.sim.splitmix_kernel import mix, next64, randbelow
from mazziere.uno.presets import CASINO

__all__ = [
    "REASONS",
    "TALLY_TURNS",
    "TALLY_WIDTH",
    "KernelRounds",
    "kernel_round",
    "kernel_rounds",
    "kernel_tally",
    "round_seed",
    "round_seeds",
    "warm_up",
]

I64Array = npt.NDArray[np.int64]
U64Array = npt.NDArray[np.uint64]
F = TypeVar("F", bound=Callable[..., Any])

MASK64 = (1 << 64) - 1


def _jit(fn: F) -> F:
    """``numba.njit(cache=True)``, typed for mypy (numba itself is untyped)."""
    return cast(F, njit(cache=True)(fn))


# ---------------------------------------------------------------- the rules this kernel fixes
def _check_rules() -> None:
    """The kernel hard-codes the ``casino`` preset and the default table; refuse to import
    silently if either changes (the identity test would fail anyway, but later)."""
    r, t = CASINO, CasinoRules()
    fixed = (
        r.hand_sizes == (4, 5)
        and r.first_dealer == 1
        and r.first_card == "redraw_non_number"
        and not r.reshuffle
        and r.voluntary_draw
        and r.drawn_card == "may_play"
        and r.two_player_reverse == "skip"
        and r.draw2_skips
        and not r.reverse_skip_same
        and r.wild4_rule == "color"
        and not r.wild4_bluff
        and not r.challenge
        and r.uno_call == "off"
        and r.stacking == "none"
        and r.go_out_on_action
        and not (r.multi_play or r.burn or r.seven_swap or r.zero_rotate or r.zero_gives_four)
        and not r.jump_in
        and t.start_multiplier == _START_MULT
        and t.uno is CASINO
    )
    if not fixed:  # pragma: no cover - guards a future change of the preset
        raise RuntimeError("the casino preset changed: update mazziere.sim.casino_kernel")


# ---------------------------------------------------------------- constants (frozen by numba)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_U0 = np.uint64(0)
_U1 = np.uint64(1)

_DECK = np.array([int(c) for c in FULL_DECK], dtype=np.int64)
_NCARDS = len(FULL_DECK)
_WILD = WILD_FACE
_WILD4 = WILD4_FACE
_SKIP = 10
_REVERSE = 11
_DRAW2 = 12
_START_MULT = 3
_MAX_MULT = MAX_MULTIPLIER  # the rule, written once in casino/rules.py

_PLAYER = 0
_BANK = 1
_PLAY = 0
_DRAWN = 1

_TOPS = 16
"""Where ``_bank_color`` keeps the tied colours' highest cards in the ``ties`` buffer."""

# rows of the random-source array
_STRATEGY_RNG = 0
_HAND_RNG = 1

REASONS = ("player_out", "bank_out", "pile_out", "no_draw_at_x1")
"""How a round ends, by the kernel's reason code (the pure path's ``RoundResult.reason``)."""
_R_PLAYER_OUT = 0
_R_BANK_OUT = 1
_R_PILE_OUT = 2
_R_NO_DRAW = 3

TALLY_WIDTH = 5
"""Columns of a tally row: rounds paid x0, x1, x2, x3 (by index), then the sum of turns."""
TALLY_TURNS = 4

_check_rules()


# ---------------------------------------------------------------- SplitMix64 (mazziere.rng)
# written once, in mazziere.sim.splitmix_kernel: next64, randbelow, mix


@_jit
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


@_jit
def _fill_seeds(master: np.uint64, start: int, out: U64Array) -> None:
    for k in range(out.shape[0]):
        out[k] = _round_seed(master, np.uint64(start + k))


# ---------------------------------------------------------------- hands (per-face counts)
@_jit
def _add(hands: I64Array, colors: I64Array, sizes: I64Array, seat: int, card: int) -> None:
    hands[seat, card] += 1
    sizes[seat] += 1
    if card < _WILD:
        colors[seat, card // 13] += 1


@_jit
def _remove(hands: I64Array, colors: I64Array, sizes: I64Array, seat: int, card: int) -> None:
    hands[seat, card] -= 1
    sizes[seat] -= 1
    if card < _WILD:
        colors[seat, card // 13] -= 1


@_jit
def _playable(colors: I64Array, seat: int, card: int, top: int, color: int) -> bool:
    """uno.machine ``playable``: +4 only with no card of the current colour; Wild always;
    colour, or number/symbol of the top card (a Wild on top matches by colour only)."""
    if card == _WILD4:
        return colors[seat, color] == 0  # type: ignore[no-any-return]
    if card == _WILD:
        return True
    if card // 13 == color:
        return True
    return top < _WILD and card % 13 == top % 13


@_jit
def _has_playable(hands: I64Array, colors: I64Array, seat: int, top: int, color: int) -> bool:
    if colors[seat, color] > 0:
        return True
    if hands[seat, _WILD] > 0 or hands[seat, _WILD4] > 0:  # no colour card: a +4 is legal
        return True
    if top < _WILD:
        r = top % 13
        for col in range(4):
            if hands[seat, col * 13 + r] > 0:
                return True
    return False


@_jit
def _deal_out(
    pile: I64Array,
    n: int,
    hands: I64Array,
    colors: I64Array,
    sizes: I64Array,
    seat: int,
    count: int,
) -> int:
    """The victim of a +2/+4 takes ``count`` cards, fewer if the pile runs out (no reshuffle);
    returns the new pile length."""
    for _ in range(count):
        if n == 0:
            break
        n -= 1
        _add(hands, colors, sizes, seat, pile[n])
    return n


# ---------------------------------------------------------------- strategies (casino.strategy)
@_jit
def _pick(rng: U64Array, ties: I64Array, nt: int) -> int:
    """strategy ``_pick``: the only option, or one at random."""
    if nt == 1:
        return ties[0]  # type: ignore[no-any-return]
    return ties[randbelow(rng, _STRATEGY_RNG, nt)]  # type: ignore[no-any-return]


@_jit
def _player_weight(
    hands: I64Array,
    face: int,
    color: int,
    hand_n: int,
    bank_n: int,
    mem_last: int,
) -> int:
    """strategy ``card_weight`` for a coloured face (weights 3-5)."""
    r = face % 13
    col = face // 13
    if r in (_SKIP, _REVERSE):
        same = mem_last >= 0 and mem_last < _WILD and mem_last % 13 == r
        others = hands[_PLAYER, col * 13 + _SKIP] + hands[_PLAYER, col * 13 + _REVERSE] - 1
        return (5000 if same else 2000) + 1000 * others  # type: ignore[no-any-return]
    if r == _DRAW2:
        if bank_n > hand_n - 1:
            return 0
        if bank_n == 1:
            return 2500
        return 1100
    if col == color:
        return 10 + r
    return 1


@_jit
def _player_card(
    hands: I64Array,
    colors: I64Array,
    sizes: I64Array,
    top: int,
    color: int,
    mem_last: int,
    mem_wild: bool,
    rng: U64Array,
    ties: I64Array,
) -> int:
    """strategy ``player_decision`` with something playable: the highest weight, ties at
    random among the distinct faces in face order."""
    hand_n = sizes[_PLAYER]
    bank_n = sizes[_BANK]
    tr = top % 13 if top < _WILD else -1
    best = -1
    nt = 0
    for col in range(4):
        lo = 0 if col == color else tr
        hi = 13 if col == color else tr + 1
        if lo < 0:
            continue
        for r in range(lo, hi):
            f = col * 13 + r
            if hands[_PLAYER, f] == 0:
                continue
            w = _player_weight(hands, f, color, hand_n, bank_n, mem_last)
            if w > best:
                best = w
                nt = 0
            if w == best:
                ties[nt] = f
                nt += 1
    if hands[_PLAYER, _WILD] > 0:
        w = 1000 if mem_wild else 0
        if w > best:
            best = w
            nt = 0
        if w == best:
            ties[nt] = _WILD
            nt += 1
    if hands[_PLAYER, _WILD4] > 0 and colors[_PLAYER, color] == 0:
        w = 2000 if bank_n == 1 else 0
        if w > best:
            best = w
            nt = 0
        if w == best:
            ties[nt] = _WILD4
            nt += 1
    return _pick(rng, ties, nt)


@_jit
def _player_color(
    colors: I64Array,
    rest_n: int,
    bank_n: int,
    mem_chosen: int,
    mem_drew: bool,
    mem_passed: int,
    rng: U64Array,
    ties: I64Array,
) -> int:
    """strategy ``player_color`` (weight 6) for the cards kept after a Wild or +4 (their
    colour counts are the hand's: a wild has none)."""
    if mem_chosen >= 0:
        best = -1
        for c in range(4):
            if c != mem_chosen and (bank_n == 1 or colors[_PLAYER, c] > 0):
                best = max(best, colors[_PLAYER, c])
        if best < 0:
            return mem_chosen  # no other colour the player can follow
        nt = 0
        for c in range(4):
            if c != mem_chosen and colors[_PLAYER, c] == best:
                ties[nt] = c
                nt += 1
        return _pick(rng, ties, nt)
    held = 0
    best = 0
    for c in range(4):
        held += colors[_PLAYER, c]
        best = max(best, colors[_PLAYER, c])
    if rest_n > 0 and held == 0 and mem_drew and mem_passed >= 0:
        return mem_passed
    nt = 0
    for c in range(4):
        if colors[_PLAYER, c] == best:
            ties[nt] = c
            nt += 1
    return _pick(rng, ties, nt)


@_jit
def _bank_card(
    hands: I64Array, colors: I64Array, top: int, color: int, rng: U64Array, ties: I64Array
) -> int:
    """strategy ``bank_decision`` with something playable: +4; +2; Skip; Reverse (each: the
    current colour's, else the lowest face); the highest number of the colour, else a number
    matching by number at random; Wild."""
    if hands[_BANK, _WILD4] > 0 and colors[_BANK, color] == 0:
        return _WILD4
    tr = top % 13 if top < _WILD else -1
    for r in (_DRAW2, _SKIP, _REVERSE):
        if hands[_BANK, color * 13 + r] > 0:
            return color * 13 + r
        if tr == r:
            for col in range(4):
                if hands[_BANK, col * 13 + r] > 0:
                    return col * 13 + r
    for r in range(9, -1, -1):
        if hands[_BANK, color * 13 + r] > 0:
            return color * 13 + r
    if 0 <= tr <= 9:
        nt = 0
        for col in range(4):
            if hands[_BANK, col * 13 + tr] > 0:
                ties[nt] = col * 13 + tr
                nt += 1
        if nt > 0:
            return _pick(rng, ties, nt)
    return _WILD


@_jit
def _bank_color(hands: I64Array, colors: I64Array, rng: U64Array, ties: I64Array) -> int:
    """strategy ``bank_color``: the colour held most; tie: the colour of the highest card
    (Skip, Reverse, +2 count 10); still tied: at random."""
    best = 0
    for c in range(4):
        best = max(best, colors[_BANK, c])
    nt = 0
    for c in range(4):
        if colors[_BANK, c] == best:
            ties[nt] = c
            nt += 1
    if nt > 1:
        high = -1
        for i in range(nt):
            base = ties[i] * 13
            t = -1
            actions = hands[_BANK, base + _SKIP] + hands[_BANK, base + _REVERSE]
            if (
                actions + hands[_BANK, base + _DRAW2] > 0
            ):  # Skip, Reverse and +2 all count 10, above any number
                t = 10
            else:
                for r in range(9, -1, -1):
                    if hands[_BANK, base + r] > 0:
                        t = r
                        break
            ties[_TOPS + i] = t
            high = max(high, t)
        k = 0
        for i in range(nt):
            if ties[_TOPS + i] == high:
                ties[k] = ties[i]
                k += 1
        nt = k
    return _pick(rng, ties, nt)


# ---------------------------------------------------------------- one round (casino.round)
@_jit
def _round(
    seed: np.uint64,
    pile: I64Array,
    hands: I64Array,
    colors: I64Array,
    sizes: I64Array,
    rng: U64Array,
    ties: I64Array,
) -> tuple[int, int, int, int]:
    """One round on ``SplitMixRng(seed)``: (player_won, multiplier, turns, reason code)."""
    # new_round: strategy = src.spawn(); the engine copies src and spawns the hand's source
    rng[_STRATEGY_RNG] = seed
    strategy_seed = next64(rng, _STRATEGY_RNG)
    hand_seed = next64(rng, _STRATEGY_RNG)
    rng[_STRATEGY_RNG] = strategy_seed
    rng[_HAND_RNG] = hand_seed
    for i in range(_NCARDS):
        pile[i] = _DECK[i]
    for i in range(_NCARDS - 1, 0, -1):
        j = randbelow(rng, _HAND_RNG, i + 1)
        t = pile[i]
        pile[i] = pile[j]
        pile[j] = t
    hands[:, :] = 0
    colors[:, :] = 0
    sizes[:] = 0
    n = _NCARDS
    c = 0
    for k in range(5):  # one card at a time, seat 0 first: 4 to the player, 5 to the bank
        if k < 4:
            n -= 1
            _add(hands, colors, sizes, _PLAYER, pile[n])
        n -= 1
        _add(hands, colors, sizes, _BANK, pile[n])
    while True:  # first_card = redraw_non_number
        n -= 1
        c = pile[n]
        if c < _WILD and c % 13 <= 9:
            break
        p = randbelow(rng, _HAND_RNG, n + 1)
        for q in range(n, p, -1):
            pile[q] = pile[q - 1]
        pile[p] = c
        n += 1
    top = c
    color = c // 13
    cur = _PLAYER
    phase = _PLAY
    drawn = -1
    mult = _START_MULT
    turns = 0
    mem_last = -1
    mem_wild = False
    mem_chosen = -1
    mem_drew = False
    mem_passed = -1
    while True:
        if cur == _PLAYER:
            if phase == _DRAWN:
                card = drawn  # the drawn card is playable: play it
            elif not _has_playable(hands, colors, _PLAYER, top, color):
                if n == 0:
                    return 0, mult, turns, _R_PILE_OUT
                if mult <= 1:
                    return 0, mult, turns, _R_NO_DRAW
                n -= 1
                c = pile[n]
                _add(hands, colors, sizes, _PLAYER, c)
                mult -= 1  # a pescata
                turns += 1
                if _playable(colors, _PLAYER, c, top, color):
                    phase = _DRAWN
                    drawn = c
                else:
                    cur = _BANK
                continue
            else:
                card = _player_card(hands, colors, sizes, top, color, mem_last, mem_wild, rng, ties)
            chosen = -1
            if card >= _WILD:
                rest_n = sizes[_PLAYER] - 1
                chosen = _player_color(
                    colors, rest_n, sizes[_BANK], mem_chosen, mem_drew, mem_passed, rng, ties
                )
        else:
            if phase == _DRAWN:
                card = drawn
            elif not _has_playable(hands, colors, _BANK, top, color):
                if n == 0:
                    return 0, mult, turns, _R_PILE_OUT
                n -= 1
                c = pile[n]
                _add(hands, colors, sizes, _BANK, c)
                if mult < _MAX_MULT:
                    mult += 1
                turns += 1
                if _playable(colors, _BANK, c, top, color):
                    phase = _DRAWN
                    drawn = c
                else:  # the bank drew and passed
                    mem_wild = False
                    mem_chosen = -1
                    mem_drew = True
                    mem_passed = color
                    cur = _PLAYER
                continue
            else:
                card = _bank_card(hands, colors, top, color, rng, ties)
            chosen = -1
            if card >= _WILD:
                chosen = _bank_color(hands, colors, rng, ties)
            mem_last = card
            mem_wild = card == _WILD
            mem_chosen = chosen
            mem_drew = False
            mem_passed = -1
        # apply the play of ``card`` by ``cur``
        seat = cur
        other = 1 - seat
        _remove(hands, colors, sizes, seat, card)
        top = card
        color = chosen if card >= _WILD else card // 13
        phase = _PLAY
        drawn = -1
        turns += 1
        if sizes[seat] == 0:  # out: what the other side still draws changes nothing
            if seat == _PLAYER:
                return 1, mult, turns, _R_PLAYER_OUT
            return 0, mult, turns, _R_BANK_OUT
        if card == _WILD4:
            n = _deal_out(pile, n, hands, colors, sizes, other, 4)
        elif card == _WILD:
            cur = other
        else:
            r = card % 13
            if r == _DRAW2:
                n = _deal_out(pile, n, hands, colors, sizes, other, 2)
            elif r <= 9:
                cur = other
            # Skip, Reverse, +2, +4: the same side plays again


@_jit
def _workspace() -> tuple[I64Array, I64Array, I64Array, I64Array, U64Array, I64Array]:
    return (
        np.empty(_NCARDS, dtype=np.int64),
        np.zeros((2, 54), dtype=np.int64),
        np.zeros((2, 4), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(32, dtype=np.int64),
    )


@_jit
def _rounds_of_seeds(seeds: U64Array, out: I64Array) -> None:
    pile, hands, colors, sizes, rng, ties = _workspace()
    for i in range(seeds.shape[0]):
        won, mult, turns, reason = _round(seeds[i], pile, hands, colors, sizes, rng, ties)
        out[i, 0] = won
        out[i, 1] = mult
        out[i, 2] = turns
        out[i, 3] = reason


@_jit
def _tally(master: np.uint64, start: int, count: int, marks: I64Array, out: I64Array) -> None:
    pile, hands, colors, sizes, rng, ties = _workspace()
    acc = np.zeros(TALLY_WIDTH, dtype=np.int64)
    j = 0
    nm = marks.shape[0]
    for k in range(count):
        seed = _round_seed(master, np.uint64(start + k))
        won, mult, turns, _reason = _round(seed, pile, hands, colors, sizes, rng, ties)
        acc[won * mult] += 1
        acc[TALLY_TURNS] += turns
        while j < nm and marks[j] == k + 1:
            out[j, :] = acc
            j += 1
    out[nm, :] = acc


# ---------------------------------------------------------------- Python API
@dataclass(frozen=True, slots=True)
class KernelRounds:
    """Per-round outcomes of :func:`kernel_rounds`, one entry per seed."""

    won: I64Array
    multiplier: I64Array
    turns: I64Array
    reason: I64Array
    """Codes into :data:`REASONS`."""

    def triple(self, i: int) -> tuple[int, int, int]:
        """Round ``i`` as ``simulate_round`` gives it: (player_won, multiplier, turns)."""
        return (int(self.won[i]), int(self.multiplier[i]), int(self.turns[i]))


def _seed_array(seeds: Sequence[int] | npt.NDArray[np.integer[Any]]) -> U64Array:
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return np.ascontiguousarray(seeds)
    return np.array([int(s) & MASK64 for s in seeds], dtype=np.uint64)


def kernel_rounds(seeds: Sequence[int] | npt.NDArray[np.integer[Any]]) -> KernelRounds:
    """Play one round per seed (``SplitMixRng(seed)``, seeds taken modulo 2**64)."""
    arr = _seed_array(seeds)
    out = np.zeros((arr.shape[0], 4), dtype=np.int64)
    _rounds_of_seeds(arr, out)
    return KernelRounds(out[:, 0], out[:, 1], out[:, 2], out[:, 3])


def kernel_round(seed: int) -> tuple[int, int, int]:
    """One round, as :func:`mazziere.casino.simulate_round` returns it."""
    return kernel_rounds([seed]).triple(0)


def kernel_tally(master: int, start: int, count: int, marks: Sequence[int] = ()) -> I64Array:
    """Play rounds ``start .. start + count - 1`` of the run ``master`` (seeds from
    :func:`round_seed`) and count them: row ``j`` holds the totals after ``marks[j]`` rounds
    of this stretch (``marks`` increasing, each in 1..count), the last row after all of them.
    Columns: rounds paid x0, x1, x2, x3, then the sum of turns (:data:`TALLY_WIDTH`)."""
    if count < 0 or start < 0:
        raise ValueError("start and count must not be negative")
    m = np.array(list(marks), dtype=np.int64)
    if m.size and (np.any(np.diff(m) <= 0) or m[0] < 1 or m[-1] > count):
        raise ValueError("marks must increase strictly within 1..count")
    out = np.zeros((m.size + 1, TALLY_WIDTH), dtype=np.int64)
    _tally(np.uint64(master & MASK64), start, count, m, out)
    return out


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) before timing or forking."""
    kernel_tally(1, 0, 2, [1])
    kernel_rounds([1])
    round_seeds(1, 0, 1)
