"""The cards of a casino kernel round: each side's hand as per-face counts (the rulebook's
layout: faces, then colours, ``SIDE_WIDTH`` slots a side), the draw pile shuffled lazily as
the readable round's source would shuffle it, and the tie-break among a rule's candidates."""

from __future__ import annotations

from mazziere.sim.casino_kernel.layout import _COLORS_AT, _HAND_RNG, _SIDE, _STRATEGY_RNG, _WILD
from mazziere.sim.splitmix_kernel import I64Array, U64Array, jit, randbelow

__all__: list[str] = []


@jit
def _add(hands: I64Array, sizes: I64Array, seat: int, card: int) -> None:
    """``card`` into ``seat``'s counts (rulebook layout: faces, then colours, at seat * 58)."""
    at = seat * _SIDE
    hands[at + card] += 1
    sizes[seat] += 1
    if card < _WILD:
        hands[at + _COLORS_AT + card // 13] += 1


@jit
def _remove(hands: I64Array, sizes: I64Array, seat: int, card: int) -> None:
    at = seat * _SIDE
    hands[at + card] -= 1
    sizes[seat] -= 1
    if card < _WILD:
        hands[at + _COLORS_AT + card // 13] -= 1


@jit
def _settle(pile: I64Array, pos: int, settled: int, rng: U64Array) -> int:
    """Fisher-Yates, lazily: ``SplitMixRng.shuffle`` runs ``i = 107 .. 1``, each step fixing
    position ``i`` for good, and cards are taken from the end; so the steps are run only as
    far as the position about to be read, in the same order on the same stream, giving the
    same pile. Positions ``>= settled`` are final; returns the new bound (``<= pos``)."""
    while settled > pos:
        i = settled - 1
        if i >= 1:
            j = randbelow(rng, _HAND_RNG, i + 1)
            t = pile[i]
            pile[i] = pile[j]
            pile[j] = t
        settled = i
    return settled


@jit
def _pick(rng: U64Array, ties: I64Array, nt: int) -> int:
    """strategy ``pick``: the only candidate, or ``ties[randbelow(n)]``."""
    if nt == 1:
        return ties[0]  # type: ignore[no-any-return]
    return ties[randbelow(rng, _STRATEGY_RNG, nt)]  # type: ignore[no-any-return]
