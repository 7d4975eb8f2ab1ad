"""The search, the kernel's strongest player: at each of its decisions every candidate move
is played out in sampled worlds by both published strategies, and the move with the highest
total payout is chosen (``mazziere rtp --strategy search``; docs/rules/casino.md).

A world is dealt from what the player can work out itself, the cards it does not see; each is
played out by the round's own loop (:func:`mazziere.sim.casino_kernel.round._play`), which
stops at the player's decisions so that the search can choose and resume it. Besides the
search inside a run (:func:`mazziere.sim.casino_kernel.rounds.kernel_rounds` with
``strategy="search"``), :func:`first_decision` and :func:`search_move` ask it for one move at
a round's first decision, as tests/casino/test_skill_range.py does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mazziere.casino import readings as RD
from mazziere.sim.casino_kernel.hands import _add
from mazziere.sim.casino_kernel.layout import (
    _BANK,
    _CHOICE_RNG,
    _DRAWN,
    _MV_DRAW,
    _MV_PASS,
    _MV_PLAY,
    _NCARDS,
    _NEEDS_DECISION,
    _PLAYER,
    _SCOLOR,
    _SDRAWN,
    _SFCARD,
    _SFCOLOR,
    _SFKIND,
    _SIDE,
    _SK,
    _SLOW,
    _SMULT,
    _SN,
    _SPHASE,
    _SRD,
    _SSETTLED,
    _ST_DEFAULT,
    _ST_EXTERNAL,
    _STOP,
    _STRATEGY_RNG,
    _WILD,
    _WILD4,
    MOVE_KINDS,
    SEARCH_WORLDS,
    ST_WIDTH,
    _playable,
    _player_may_draw,
)
from mazziere.sim.casino_kernel.round import _deal, _play, _workspace
from mazziere.sim.casino_kernel.seeds import MASK64
from mazziere.sim.casino_kernel.trace import STEP_WIDTH
from mazziere.sim.splitmix_kernel import I64Array, U64Array, jit, next64, shuffle

__all__ = ["DecisionState", "first_decision", "search_move"]


@jit
def _candidates(st: I64Array, hands: I64Array, cand: I64Array) -> int:
    """The player's distinct moves at the decision in ``st``, one row (kind, card, colour)
    each: every playable face in face order (a wild once per colour), then the draw (when
    allowed) or, in the drawn phase, the drawn card and the pass."""
    top, color, phase = st[_STOP], st[_SCOLOR], st[_SPHASE]
    nc = 0
    for f in range(_WILD4 + 1):
        if phase == _DRAWN:
            if f != st[_SDRAWN]:
                continue
        elif hands[f] == 0 or not _playable(hands, 0, f, top, color):
            continue
        if f >= _WILD:
            for c in range(4):
                cand[nc, 0], cand[nc, 1], cand[nc, 2] = _MV_PLAY, f, c
                nc += 1
        else:
            cand[nc, 0], cand[nc, 1], cand[nc, 2] = _MV_PLAY, f, f // 13
            nc += 1
    if phase == _DRAWN:
        cand[nc, 0], cand[nc, 1], cand[nc, 2] = _MV_PASS, -1, -1
        nc += 1
    elif st[_SN] > 0 and _player_may_draw(st[_SMULT], st[_SLOW], st[_SRD : _SRD + RD.RD_WIDTH]):
        cand[nc, 0], cand[nc, 1], cand[nc, 2] = _MV_DRAW, -1, -1
        nc += 1
    return nc


@jit
def _search_move(
    st: I64Array,
    pile: I64Array,
    hands: I64Array,
    sizes: I64Array,
    rng: U64Array,
    ties: I64Array,
    worlds: int,
    cand: I64Array,
    score: I64Array,
    pool: I64Array,
    w_st: I64Array,
    w_pile: I64Array,
    w_hands: I64Array,
    w_sizes: I64Array,
    w_rng: U64Array,
) -> tuple[int, int, int]:
    """The search's move at the player's decision in ``st``: each candidate move
    (:func:`_candidates`) is played out in ``worlds`` sampled worlds by both published
    strategies, and the one with the highest total payout is chosen (the first on a tie).

    A world deals the cards the player does not see, the bank's hand and the draw pile, as a
    random arrangement of their multiset, which the player can work out itself (the deck less
    its own hand and the discard pile: nothing is reshuffled at a casino table). The multiset
    is read in face order, so no arrangement of the hidden cards reaches the choice. Every
    candidate meets the same worlds and the same tie-breaks (common random numbers)."""
    nc = _candidates(st, hands, cand)
    if nc == 1:
        return cand[0, 0], cand[0, 1], cand[0, 2]
    n = st[_SN]
    bank_n = sizes[_BANK]
    m = 0
    for f in range(_WILD4 + 1):  # the unseen multiset, face by face
        have = hands[_SIDE + f]
        for i in range(n):
            if pile[i] == f:
                have += 1
        for _ in range(have):
            pool[m] = f
            m += 1
    score[:nc] = 0
    no_trace = np.zeros((0, STEP_WIDTH), dtype=np.int64)
    for _w in range(worlds):
        shuffle(rng, _CHOICE_RNG, pool, m)
        world_seed = next64(rng, _CHOICE_RNG)
        for c in range(nc):
            w_st[:] = st
            w_st[_SSETTLED] = 0  # the world's pile is dealt in full
            w_st[_SK] = 0
            w_st[_SFKIND], w_st[_SFCARD], w_st[_SFCOLOR] = cand[c, 0], cand[c, 1], cand[c, 2]
            w_hands[:] = 0
            w_sizes[:] = 0
            for f in range(_SIDE):
                w_hands[f] = hands[f]
            w_sizes[_PLAYER] = sizes[_PLAYER]
            for i in range(bank_n):
                _add(w_hands, w_sizes, _BANK, pool[i])
            for i in range(n):
                w_pile[i] = pool[bank_n + i]
            w_rng[_STRATEGY_RNG] = world_seed
            won, mult, _t, _r, _k = _play(
                _ST_DEFAULT, w_st, w_pile, w_hands, w_sizes, w_rng, ties, no_trace
            )
            score[c] += won * mult
    best = 0
    for c in range(1, nc):
        if score[c] > score[best]:
            best = c
    return cand[best, 0], cand[best, 1], cand[best, 2]


def _check_worlds(worlds: int) -> int:
    if not 1 <= worlds <= 1 << 20:
        raise ValueError(f"the search samples 1 to 2**20 worlds, not {worlds}")
    return worlds


@dataclass(frozen=True, slots=True)
class DecisionState:
    """A round stopped at the player's decision: the kernel's arrays (see
    :func:`~mazziere.sim.casino_kernel.round._play`)."""

    st: I64Array
    pile: I64Array
    """The draw pile in ``pile[:st[0]]`` (taken from the end)."""
    hands: I64Array
    """Both sides' counts (rulebook layout, the bank's from ``SIDE_WIDTH``)."""
    sizes: I64Array


@jit
def _first_decision(
    seed: np.uint64, st: I64Array, pile: I64Array, hands: I64Array, sizes: I64Array
) -> int:
    rng = np.zeros(3, dtype=np.uint64)
    ties = np.zeros(64, dtype=np.int64)
    trace = np.zeros((0, STEP_WIDTH), dtype=np.int64)
    _deal(seed, st, pile, hands, sizes, rng, trace, np.zeros(RD.RD_WIDTH, dtype=np.int64))
    return _play(_ST_EXTERNAL, st, pile, hands, sizes, rng, ties, trace)[3]


def first_decision(seed: int) -> DecisionState | None:
    """The round on ``SplitMixRng(seed)`` at the player's first decision (``None`` if it
    ended before one: the player could not play)."""
    st = np.zeros(ST_WIDTH, dtype=np.int64)
    pile = np.zeros(_NCARDS, dtype=np.int64)
    hands = np.zeros(2 * _SIDE, dtype=np.int64)
    sizes = np.zeros(2, dtype=np.int64)
    if _first_decision(np.uint64(seed & MASK64), st, pile, hands, sizes) != _NEEDS_DECISION:
        return None
    return DecisionState(st, pile, hands, sizes)


@jit
def _search_at(
    st: I64Array,
    pile: I64Array,
    hands: I64Array,
    sizes: I64Array,
    choice: np.uint64,
    worlds: int,
) -> tuple[int, int, int]:
    rng = np.zeros(3, dtype=np.uint64)
    rng[_CHOICE_RNG] = choice
    ties = np.zeros(64, dtype=np.int64)
    w_pile, w_hands, w_sizes, w_rng, _t, w_st = _workspace()
    return _search_move(
        st.copy(),
        pile.copy(),
        hands.copy(),
        sizes.copy(),
        rng,
        ties,
        worlds,
        np.zeros((64, 3), dtype=np.int64),
        np.zeros(64, dtype=np.int64),
        np.zeros(_NCARDS, dtype=np.int64),
        w_st,
        w_pile,
        w_hands,
        w_sizes,
        w_rng,
    )


def search_move(
    state: DecisionState, choice_seed: int, worlds: int = SEARCH_WORLDS
) -> tuple[str, int, int]:
    """The search's move at ``state`` with its choices drawn from ``SplitMixRng(choice_seed)``:
    (``play``/``draw``/``pass``, card, colour; -1 where none)."""
    kind, card, color = _search_at(
        state.st,
        state.pile,
        state.hands,
        state.sizes,
        np.uint64(choice_seed & MASK64),
        _check_worlds(worlds),
    )
    return MOVE_KINDS[kind], int(card), int(color)
