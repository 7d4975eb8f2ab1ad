"""A compiled (numba) UNO CASINO round, step for step the round of
:func:`mazziere.casino.simulate_round`, for RTP runs of 10^8 rounds (docs/architecture.md "keep it
separate and prove it equal"; docs/rules/casino.md, seed 000).

The rules are not written here. Every rule decision is a plain function that the readable
round calls too, and numba compiles the same functions into this kernel:

* matching and the +4 rule: :func:`mazziere.uno.matching.face_matches` and
  :func:`~mazziere.uno.matching.wild4_color_legal` (the UNO engine's own; that module is
  compiled by mypyc, so numba reads it from its ``.py``);
* what is playable, the bank's card and colour, the player's weights and colour, the
  multiplier's steps and the x1 draw ban: :mod:`mazziere.casino.rulebook`.

What is left here is the round's course under the ``casino`` preset, which
:func:`_check_rules` pins at import: the deal, the first card, whose turn it is (Skip,
Reverse, +2 and +4 give the same side the turn again with two seats), the cards a +2/+4
victim takes (also after a last card; fewer when the pile runs out: no reshuffle), the
pile-out and x1 endings, and ``turns`` (every action applied, the player's and the bank's).
Random numbers come from the same SplitMix64 streams as the readable round:

* ``SplitMixRng(seed)``: its first output seeds the strategies' tie-break stream (``spawn``),
  its second the hand's source (``first_dealer=1``: no dealer draw, then
  ``match_rng.spawn()``). The hand's source shuffles the 108-card ``FULL_DECK`` order with
  Fisher-Yates, run lazily (:func:`_settle`), deals one card at a time from the end of the
  list, seat 0 first (4 to the player, 5 to the bank), then turns cards until a number shows,
  putting each other card back at ``randbelow(len + 1)``.
* A tie among a rule's candidates is ``ties[randbelow(n)]`` on the strategies' stream.

Equality with the readable round is proven on step traces: :func:`kernel_trace` records
every step (:data:`STEP_KINDS`), :func:`mazziere.sim.casino_check.pure_trace` derives the same
steps from the readable round's events, and the tests compare them, and a hash of each, over
thousands of rounds. Per-round seeds of a run come from :func:`round_seed`, shared by both.

>>> from mazziere.casino import simulate_round
>>> all(kernel_round(s) == simulate_round(s) for s in range(20))
True
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit
from numba.extending import overload, register_jitable

from mazziere._compiled import source_module
from mazziere.cards.uno import FULL_DECK, WILD4_FACE, WILD_FACE
from mazziere.casino import readings as RD
from mazziere.casino import rulebook as R
from mazziere.casino.readings import Readings
from mazziere.casino.rules import CasinoRules
from mazziere.sim.splitmix_kernel import mix, next64, randbelow, shuffle
from mazziere.uno.matching import face_matches, wild4_color_legal
from mazziere.uno.presets import CASINO

__all__ = [
    "REASONS",
    "STEP_KINDS",
    "TALLY_TURNS",
    "TALLY_WIDTH",
    "KernelRounds",
    "kernel_round",
    "kernel_rounds",
    "kernel_tally",
    "kernel_trace",
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

_PLAYER = 0
_BANK = 1
_PLAY = 0
_DRAWN = 1

_SIDE = R.SIDE_WIDTH
_COLORS_AT = R.COLORS_AT
_DRAW_CHOICE = R.DRAW_CHOICE
_DRAW_NO_PLAY = R.DRAW_NO_PLAY
_DRAW_PENALTY = R.DRAW_PENALTY

# rows of the random-source array
_STRATEGY_RNG = 0
_HAND_RNG = 1
_CHOICE_RNG = 2  # the player's own choices (random, search): never the bank's stream

REASONS = ("player_out", "bank_out", "pile_out", "no_draw_at_x1")
"""How a round ends, by the kernel's reason code (the pure path's ``RoundResult.reason``)."""
_R_PLAYER_OUT = 0
_R_BANK_OUT = 1
_R_PILE_OUT = 2
_R_NO_DRAW = 3

TALLY_WIDTH = 5
"""Columns of a tally row: rounds paid x0, x1, x2, x3 (by index), then the sum of turns."""
TALLY_TURNS = 4

STEP_KINDS = ("dealt", "turned", "returned", "played", "drew", "multiplier", "ended", "decided")
"""A step of a round's trace is five integers ``(kind, a, b, c, d)``, ``kind`` an index into
this tuple: ``dealt`` (seat, card), ``turned`` (card), ``returned`` (card), ``played`` (seat,
card, colour in force after it), ``drew`` (seat, card, reason: rulebook ``DRAW_*``, one step
per card), ``multiplier`` (seat whose draw moved it, the new value), ``ended`` (player won,
multiplier, turns, reason code into :data:`REASONS`); unused fields are 0.
:func:`mazziere.sim.casino_check.pure_trace` derives the same steps from the readable round's
events. ``decided`` (move kind into :data:`MOVE_KINDS`, card, colour; -1 where none) records
a decision of a player that is not playing the default strategy, just before its effects, so
that the readable round can replay it; the default's rounds have none."""
STEP_WIDTH = 5
_S_DEALT, _S_TURNED, _S_RETURNED, _S_PLAYED, _S_DREW, _S_MULT, _S_END, _S_DECIDED = range(8)

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


# ---------------------------------------------------------------- the shared rules
def _share(*functions: Callable[..., Any]) -> None:
    """Let numba compile each function where kernel code calls it, from its Python source: the
    function itself, or for a mypyc-compiled module the same function read from the module's
    ``.py`` (:func:`mazziere._compiled.source_module`)."""
    for fn in functions:
        if hasattr(fn, "__code__"):
            register_jitable(fn)
            continue
        src = getattr(source_module(fn.__module__), fn.__name__)
        overload(fn, strict=False)(lambda *args, _src=src, **kwargs: _src)


_share(face_matches, wild4_color_legal)
_share(
    R.playable,
    R.has_playable,
    R.bank_cards,
    R.bank_colors,
    R.player_weight,
    R.player_cards,
    R.player_colors,
    R.multiplier_after_draw,
    R.pile_out_payout,
    R.player_may_draw,
)
# the rulebook's functions under the kernel's names (typed loosely: here they take arrays)
_playable: Callable[..., bool] = R.playable
_has_playable: Callable[..., bool] = R.has_playable
_bank_cards: Callable[..., int] = R.bank_cards
_bank_colors: Callable[..., int] = R.bank_colors
_player_cards: Callable[..., int] = R.player_cards
_player_colors: Callable[..., int] = R.player_colors
_multiplier_after_draw: Callable[..., int] = R.multiplier_after_draw
_player_may_draw: Callable[..., bool] = R.player_may_draw
_pile_out_payout: Callable[..., int] = R.pile_out_payout


# ---------------------------------------------------------------- hands (per-face counts)
@_jit
def _add(hands: I64Array, sizes: I64Array, seat: int, card: int) -> None:
    """``card`` into ``seat``'s counts (rulebook layout: faces, then colours, at seat * 58)."""
    at = seat * _SIDE
    hands[at + card] += 1
    sizes[seat] += 1
    if card < _WILD:
        hands[at + _COLORS_AT + card // 13] += 1


@_jit
def _remove(hands: I64Array, sizes: I64Array, seat: int, card: int) -> None:
    at = seat * _SIDE
    hands[at + card] -= 1
    sizes[seat] -= 1
    if card < _WILD:
        hands[at + _COLORS_AT + card // 13] -= 1


@_jit
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


@_jit
def _emit(trace: I64Array, k: int, kind: int, a: int, b: int, c: int, d: int) -> int:
    """Record step ``k`` of the trace when one is kept (``trace`` has rows); returns ``k+1``."""
    if k < trace.shape[0]:
        trace[k, 0] = kind
        trace[k, 1] = a
        trace[k, 2] = b
        trace[k, 3] = c
        trace[k, 4] = d
    return k + 1


@_jit
def _pick(rng: U64Array, ties: I64Array, nt: int) -> int:
    """strategy ``pick``: the only candidate, or ``ties[randbelow(n)]``."""
    if nt == 1:
        return ties[0]  # type: ignore[no-any-return]
    return ties[randbelow(rng, _STRATEGY_RNG, nt)]  # type: ignore[no-any-return]


# ---------------------------------------------------------------- one round (casino.round)
# A round's course is one resumable loop, :func:`_play`, over a state kept in an int64
# array (``st``, the ``_S*`` slots below) besides the pile, the hands and the random sources.
# The player's decisions come from the strategy it is given: the published default, random
# legal choices, a move stored in the state (``_SF*``: the search's choice, or the first
# move of a rollout), or none: then the loop saves its state and returns, and the caller
# (the search) decides and resumes it. So the search calls the loop to play out the worlds
# it samples without the loop calling itself (numba compiles no recursion here).
_SN, _SSETTLED, _STOP, _SCOLOR, _SCUR, _SPHASE, _SDRAWN, _SMULT, _STURNS = range(9)
_SMLAST, _SMWILD, _SMCHOSEN, _SMDREW, _SMPASSED, _SK, _SFKIND, _SFCARD, _SFCOLOR = range(9, 18)
_SRUN = 18  # cards the player has laid since the bank last moved
_SLOW = 19  # the lowest multiplier the round has reached
_SRD = 20  # the readings' codes (mazziere.casino.readings), RD_WIDTH slots from here
ST_WIDTH = _SRD + RD.RD_WIDTH

_MV_NONE = -1
_MV_PLAY = 0
_MV_DRAW = 1
_MV_PASS = 2
MOVE_KINDS = ("play", "draw", "pass")
"""A player's move in a ``decided`` step (:data:`STEP_KINDS`): its kind by index."""

STRATEGIES = ("default", "random", "search")
"""The player's strategies the kernel plays (:func:`kernel_tally`'s ``strategy`` by index):
the published default (000), a careless player's random legal choices, and the search."""
_ST_DEFAULT = 0
_ST_RANDOM = 1
_ST_SEARCH = 2
_ST_EXTERNAL = 3  # the loop stops at each decision of the player (the search's driver)
_NEEDS_DECISION = -1  # the reason code :func:`_play` returns when it stopped at a decision

SEARCH_WORLDS = 64
"""Worlds the search samples at each decision (every candidate move is played out in each)."""


@_jit
def _deal(
    seed: np.uint64,
    st: I64Array,
    pile: I64Array,
    hands: I64Array,
    sizes: I64Array,
    rng: U64Array,
    trace: I64Array,
    rd: I64Array,
) -> None:
    """Deal the round on ``SplitMixRng(seed)`` and turn the first card, under the readings
    ``rd``; the state in ``st``."""
    # new_round: strategy = src.spawn(); the engine copies src and spawns the hand's source;
    # the third output seeds the player's own choices (random, search)
    rng[_STRATEGY_RNG] = seed
    strategy_seed = next64(rng, _STRATEGY_RNG)
    hand_seed = next64(rng, _STRATEGY_RNG)
    choice_seed = next64(rng, _STRATEGY_RNG)
    rng[_STRATEGY_RNG] = strategy_seed
    rng[_HAND_RNG] = hand_seed
    rng[_CHOICE_RNG] = choice_seed
    for i in range(_NCARDS):
        pile[i] = _DECK[i]
    settled = _NCARDS
    hands[:] = 0
    sizes[:] = 0
    k = 0
    n = _NCARDS
    c = 0
    for j in range(5):  # one card at a time, seat 0 first: 4 to the player, 5 to the bank
        if j < 4:
            n -= 1
            settled = _settle(pile, n, settled, rng)
            _add(hands, sizes, _PLAYER, pile[n])
        n -= 1
        settled = _settle(pile, n, settled, rng)
        _add(hands, sizes, _BANK, pile[n])
    for seat in range(2):  # the engine reports each hand whole, the player's first
        for j in range(4 + seat):
            pos = _NCARDS - 1 - 2 * j - seat if j < 4 else _NCARDS - 9  # the bank's fifth
            k = _emit(trace, k, _S_DEALT, seat, pile[pos], 0, 0)
    while True:  # first_card = redraw_non_number
        n -= 1
        settled = _settle(pile, n, settled, rng)
        c = pile[n]
        k = _emit(trace, k, _S_TURNED, c, 0, 0, 0)
        if c < _WILD and c % 13 <= 9:
            break
        settled = _settle(pile, 0, settled, rng)  # the engine shuffled it all first
        p = np.int64(0)  # the bottom, under every other card (cards are taken from the end)
        if rd[RD.RD_FIRST_CARD] != RD.FIRST_CARD_BOTTOM:
            p = np.int64(randbelow(rng, _HAND_RNG, n + 1))
        for q in range(n, p, -1):
            pile[q] = pile[q - 1]
        pile[p] = c
        n += 1
        k = _emit(trace, k, _S_RETURNED, c, 0, 0, 0)
    st[:] = 0
    st[_SN] = n
    st[_SSETTLED] = settled
    st[_STOP] = c
    st[_SCOLOR] = c // 13
    st[_SCUR] = _PLAYER
    st[_SPHASE] = _PLAY
    st[_SDRAWN] = -1
    st[_SMULT] = _START_MULT
    st[_SLOW] = _START_MULT
    st[_SMLAST] = -1
    st[_SMCHOSEN] = -1
    st[_SMPASSED] = -1
    st[_SK] = k
    st[_SFKIND] = _MV_NONE
    for i in range(RD.RD_WIDTH):
        st[_SRD + i] = rd[i]


@_jit
def _random_move(
    hands: I64Array,
    at: int,
    top: int,
    color: int,
    phase: int,
    drawn: int,
    may_draw: bool,
    rng: U64Array,
    ties: I64Array,
) -> tuple[int, int, int]:
    """A careless player: one of its distinct moves uniformly (each playable face in face
    order, then the draw, or in the drawn phase the drawn card, then the pass), and for a wild
    a colour uniformly; one move or one colour draws no number
    (:func:`mazziere.casino.strategy.random_decision` draws the same)."""
    nm = 0
    if phase == _DRAWN:
        ties[0] = drawn
        nm = 1
    else:
        for f in range(_WILD4 + 1):
            if hands[at + f] > 0 and _playable(hands, at, f, top, color):
                ties[nm] = f
                nm += 1
    extra = phase == _DRAWN or may_draw
    total = nm + 1 if extra else nm
    i = 0 if total == 1 else np.int64(randbelow(rng, _CHOICE_RNG, total))
    if i == nm:
        return (_MV_PASS if phase == _DRAWN else _MV_DRAW), -1, -1
    card = ties[i]
    if card >= _WILD:
        return _MV_PLAY, card, np.int64(randbelow(rng, _CHOICE_RNG, 4))  # type: ignore[return-value]
    return _MV_PLAY, card, card // 13


@_jit
def _play(
    strategy: int,
    st: I64Array,
    pile: I64Array,
    hands: I64Array,
    sizes: I64Array,
    rng: U64Array,
    ties: I64Array,
    trace: I64Array,
) -> tuple[int, int, int, int, int]:
    """Play the round in ``st`` on to its end: (player_won, multiplier, turns, reason code,
    steps), writing the steps to ``trace`` as far as it has rows (see :data:`STEP_KINDS`);
    or, with ``_ST_EXTERNAL``, up to the player's next decision: the state saved in ``st``
    and the reason ``_NEEDS_DECISION``. A move stored in ``st`` (``_SFKIND`` >= 0) is the
    player's next decision, whatever the strategy."""
    n = st[_SN]
    settled = st[_SSETTLED]
    top = st[_STOP]
    color = st[_SCOLOR]
    cur = st[_SCUR]
    phase = st[_SPHASE]
    drawn = st[_SDRAWN]
    mult = st[_SMULT]
    turns = st[_STURNS]
    mem_last = st[_SMLAST]
    mem_wild = st[_SMWILD] != 0
    mem_chosen = st[_SMCHOSEN]
    mem_drew = st[_SMDREW] != 0
    mem_passed = st[_SMPASSED]
    k = st[_SK]
    run = st[_SRUN]
    low = st[_SLOW]
    rd = st[_SRD : _SRD + RD.RD_WIDTH]
    while True:
        at = cur * _SIDE
        kind = _MV_PLAY
        card = -1
        chosen = -1
        reason = _DRAW_NO_PLAY
        if cur == _PLAYER and (phase == _DRAWN or _has_playable(hands, at, top, color)):
            # a decision of the player: play a card (the drawn one in the drawn phase), draw
            # by choice (000: lowers the multiplier), or keep the drawn card
            if st[_SFKIND] != _MV_NONE:
                kind = st[_SFKIND]
                card = st[_SFCARD]
                chosen = st[_SFCOLOR]
                st[_SFKIND] = _MV_NONE
                k = _emit(trace, k, _S_DECIDED, kind, card, chosen, 0)
            elif strategy == _ST_RANDOM:
                may = n > 0 and _player_may_draw(mult, low, rd)
                kind, card, chosen = _random_move(
                    hands, at, top, color, phase, drawn, may, rng, ties
                )
                k = _emit(trace, k, _S_DECIDED, kind, card, chosen, 0)
            elif strategy == _ST_EXTERNAL:
                st[_SN] = n
                st[_SSETTLED] = settled
                st[_STOP] = top
                st[_SCOLOR] = color
                st[_SCUR] = cur
                st[_SPHASE] = phase
                st[_SDRAWN] = drawn
                st[_SMULT] = mult
                st[_STURNS] = turns
                st[_SMLAST] = mem_last
                st[_SMWILD] = 1 if mem_wild else 0
                st[_SMCHOSEN] = mem_chosen
                st[_SMDREW] = 1 if mem_drew else 0
                st[_SMPASSED] = mem_passed
                st[_SK] = k
                st[_SRUN] = run
                st[_SLOW] = low
                return 0, mult, turns, _NEEDS_DECISION, k
            else:  # the published default: the drawn card, else the card of highest weight
                if phase == _DRAWN:
                    card = drawn
                else:
                    card = _pick(
                        rng,
                        ties,
                        _player_cards(
                            hands,
                            at,
                            top,
                            color,
                            sizes[_PLAYER],
                            sizes[_BANK],
                            mem_last,
                            mem_wild,
                            mem_drew,
                            run,
                            rd,
                            ties,
                        ),
                    )
                if card >= _WILD:  # the colour for the cards it keeps
                    _remove(hands, sizes, _PLAYER, card)
                    chosen = _pick(
                        rng,
                        ties,
                        _player_colors(
                            hands,
                            at,
                            sizes[_PLAYER],
                            sizes[_BANK],
                            mem_chosen,
                            mem_drew,
                            mem_passed,
                            ties,
                        ),
                    )
                    _add(hands, sizes, _PLAYER, card)
            if kind == _MV_DRAW:
                reason = _DRAW_CHOICE
        elif phase == _DRAWN:
            card = drawn  # the bank's drawn card is playable: play it
        elif not _has_playable(hands, at, top, color):
            if n == 0:
                paid = _pile_out_payout(mult, sizes[_PLAYER], sizes[_BANK], rd)
                won = 1 if paid > 0 else 0
                shown = paid if paid > 0 else mult
                return (
                    won,
                    shown,
                    turns,
                    _R_PILE_OUT,
                    _emit(trace, k, _S_END, won, shown, turns, _R_PILE_OUT),
                )
            if cur == _PLAYER and not _player_may_draw(mult, low, rd):
                return (
                    0,
                    mult,
                    turns,
                    _R_NO_DRAW,
                    _emit(trace, k, _S_END, 0, mult, turns, _R_NO_DRAW),
                )
            kind = _MV_DRAW
        else:
            card = _pick(rng, ties, _bank_cards(hands, at, top, color, ties))
        if kind == _MV_PASS:  # the player keeps the drawn card
            turns += 1
            phase = _PLAY
            drawn = -1
            cur = 1 - cur
            continue
        if kind == _MV_DRAW:
            n -= 1
            settled = _settle(pile, n, settled, rng)
            c = pile[n]
            _add(hands, sizes, cur, c)
            k = _emit(trace, k, _S_DREW, cur, c, reason, 0)
            after = _multiplier_after_draw(mult, cur == _PLAYER, reason, 0, rd)
            if after != mult:
                mult = after
                low = min(low, mult)
                k = _emit(trace, k, _S_MULT, cur, mult, 0, 0)
            turns += 1
            if cur == _BANK:
                run = 0
            if _playable(hands, at, c, top, color):
                phase = _DRAWN
                drawn = c
            else:
                if cur == _BANK:  # the bank drew and passed
                    mem_wild = False
                    mem_chosen = -1
                    mem_drew = True
                    mem_passed = color
                cur = 1 - cur
            continue
        # play ``card``: out of the hand, then the colour to declare for a wild
        seat = cur
        other = 1 - seat
        _remove(hands, sizes, seat, card)
        if card < _WILD:
            chosen = card // 13
        elif seat == _BANK:
            chosen = _pick(rng, ties, _bank_colors(hands, at, ties))
        if seat == _BANK:
            mem_last = card
            mem_wild = card == _WILD
            mem_chosen = chosen if card >= _WILD else -1
            mem_drew = False
            mem_passed = -1
            run = 0
        else:
            run += 1
        k = _emit(trace, k, _S_PLAYED, seat, card, chosen, 0)
        top = card
        color = chosen
        phase = _PLAY
        drawn = -1
        turns += 1
        r = card % 13 if card < _WILD else -1
        if card == _WILD4 or r == _DRAW2:  # the victim takes them, even after the last card
            take = 4 if card == _WILD4 else 2
            taken = 0
            for _ in range(take):
                if n == 0:  # fewer: no reshuffle at a casino table
                    break
                n -= 1
                settled = _settle(pile, n, settled, rng)
                _add(hands, sizes, other, pile[n])
                k = _emit(trace, k, _S_DREW, other, pile[n], _DRAW_PENALTY, 0)
                taken += 1
            for i in range(taken):  # the readings that let these cards move the multiplier
                after = _multiplier_after_draw(mult, other == _PLAYER, _DRAW_PENALTY, i, rd)
                if after != mult:
                    mult = after
                    low = min(low, mult)
                    k = _emit(trace, k, _S_MULT, other, mult, 0, 0)
        if sizes[seat] == 0:
            if seat == _PLAYER:
                return (
                    1,
                    mult,
                    turns,
                    _R_PLAYER_OUT,
                    _emit(trace, k, _S_END, 1, mult, turns, _R_PLAYER_OUT),
                )
            return 0, mult, turns, _R_BANK_OUT, _emit(trace, k, _S_END, 0, mult, turns, _R_BANK_OUT)
        if card == _WILD or 0 <= r <= 9:
            cur = other
        # Skip, Reverse, +2, +4: the same side plays again (two seats)


_NO_TRACE = np.zeros((0, STEP_WIDTH), dtype=np.int64)


@_jit
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


@_jit
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


@_jit
def _workspace() -> tuple[I64Array, I64Array, I64Array, U64Array, I64Array, I64Array]:
    """A round's arrays: pile, hands, sizes, random sources, tie buffer, state."""
    return (
        np.empty(_NCARDS, dtype=np.int64),
        np.zeros(2 * _SIDE, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(3, dtype=np.uint64),
        np.zeros(64, dtype=np.int64),
        np.zeros(ST_WIDTH, dtype=np.int64),
    )


@_jit
def _round(
    seed: np.uint64,
    strategy: int,
    worlds: int,
    pile: I64Array,
    hands: I64Array,
    sizes: I64Array,
    rng: U64Array,
    ties: I64Array,
    st: I64Array,
    trace: I64Array,
    rd: I64Array,
) -> tuple[int, int, int, int, int]:
    """One round on ``SplitMixRng(seed)`` with the player's ``strategy`` (an index into
    :data:`STRATEGIES`) under the readings ``rd``: (paid, multiple, turns, reason code,
    steps), as :func:`mazziere.casino.round.outcome` counts them."""
    _deal(seed, st, pile, hands, sizes, rng, trace, rd)
    if strategy != _ST_SEARCH:
        return _play(strategy, st, pile, hands, sizes, rng, ties, trace)
    cand = np.zeros((64, 3), dtype=np.int64)
    score = np.zeros(64, dtype=np.int64)
    pool = np.zeros(_NCARDS, dtype=np.int64)
    w_pile, w_hands, w_sizes, w_rng, _t, w_st = _workspace()
    while True:
        out = _play(_ST_EXTERNAL, st, pile, hands, sizes, rng, ties, trace)
        if out[3] != _NEEDS_DECISION:
            return out
        kind, card, color = _search_move(
            st,
            pile,
            hands,
            sizes,
            rng,
            ties,
            worlds,
            cand,
            score,
            pool,
            w_st,
            w_pile,
            w_hands,
            w_sizes,
            w_rng,
        )
        st[_SFKIND], st[_SFCARD], st[_SFCOLOR] = kind, card, color


_SOURCES = (
    "sim/casino_kernel.py",
    "sim/splitmix_kernel.py",
    "casino/rulebook.py",
    "casino/readings.py",
    "casino/rules.py",
    "uno/matching.py",
    "cards/uno.py",
)
"""The files whose code the compiled kernel contains."""


def _drop_stale_cache() -> None:
    """numba keys its on-disk cache on this file's timestamp only: an edit of a shared rule
    in another file would leave a stale compiled kernel (numba's documented limitation). So
    the cache is kept beside a hash of every file the kernel compiles, and dropped when any of
    them changes. Written here because numba offers no dependency tracking."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=16)
    for name in _SOURCES:
        digest.update((root / name).read_bytes())
    cache = Path(cast(Any, _tally).stats.cache_path)
    stamp = cache / "casino_kernel.sources"
    with contextlib.suppress(OSError):
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        for old in cache.glob("casino_kernel.*.nb[ic]"):
            old.unlink()
        stamp.write_text(digest.hexdigest())


@_jit
def _rounds_of_seeds(
    seeds: U64Array, strategy: int, worlds: int, out: I64Array, trace: I64Array, rd: I64Array
) -> None:
    pile, hands, sizes, rng, ties, st = _workspace()
    for i in range(seeds.shape[0]):
        won, mult, turns, reason, steps = _round(
            seeds[i], strategy, worlds, pile, hands, sizes, rng, ties, st, trace, rd
        )
        out[i, 0] = won
        out[i, 1] = mult
        out[i, 2] = turns
        out[i, 3] = reason
        out[i, 4] = steps


@_jit
def _tally(
    master: np.uint64,
    start: int,
    count: int,
    marks: I64Array,
    out: I64Array,
    strategy: int,
    worlds: int,
    rd: I64Array,
) -> None:
    pile, hands, sizes, rng, ties, st = _workspace()
    trace = np.zeros((0, STEP_WIDTH), dtype=np.int64)
    acc = np.zeros(TALLY_WIDTH, dtype=np.int64)
    j = 0
    nm = marks.shape[0]
    for k in range(count):
        seed = _round_seed(master, np.uint64(start + k))
        won, mult, turns, _reason, _steps = _round(
            seed, strategy, worlds, pile, hands, sizes, rng, ties, st, trace, rd
        )
        acc[won * mult] += 1
        acc[TALLY_TURNS] += turns
        while j < nm and marks[j] == k + 1:
            out[j, :] = acc
            j += 1
    out[nm, :] = acc


_drop_stale_cache()


# ---------------------------------------------------------------- Python API
@dataclass(frozen=True, slots=True)
class KernelRounds:
    """Per-round outcomes of :func:`kernel_rounds`, one entry per seed."""

    won: I64Array
    multiplier: I64Array
    turns: I64Array
    reason: I64Array
    """Codes into :data:`REASONS`."""
    steps: I64Array
    """How many steps each round took (:data:`STEP_KINDS`)."""

    def triple(self, i: int) -> tuple[int, int, int]:
        """Round ``i`` as ``simulate_round`` gives it: (player_won, multiplier, turns)."""
        return (int(self.won[i]), int(self.multiplier[i]), int(self.turns[i]))


def _seed_array(seeds: Sequence[int] | npt.NDArray[np.integer[Any]]) -> U64Array:
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return np.ascontiguousarray(seeds)
    return np.array([int(s) & MASK64 for s in seeds], dtype=np.uint64)


def strategy_index(strategy: str) -> int:
    """The index of a player's strategy in :data:`STRATEGIES` (``ValueError`` if unknown)."""
    try:
        return STRATEGIES.index(strategy)
    except ValueError:
        raise ValueError(f"unknown strategy {strategy!r}: use {', '.join(STRATEGIES)}") from None


def _check_worlds(worlds: int) -> int:
    if not 1 <= worlds <= 1 << 20:
        raise ValueError(f"the search samples 1 to 2**20 worlds, not {worlds}")
    return worlds


def reading_codes(readings: Readings | None = None) -> I64Array:
    """The readings (default: the adopted ones) as the kernel's int64 codes."""
    return np.array((readings or Readings()).codes(), dtype=np.int64)


def kernel_rounds(
    seeds: Sequence[int] | npt.NDArray[np.integer[Any]],
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings | None = None,
) -> KernelRounds:
    """Play one round per seed (``SplitMixRng(seed)``, seeds taken modulo 2**64), the player
    on ``strategy`` (:data:`STRATEGIES`; the search samples ``worlds`` worlds a decision),
    seed 000 read as ``readings`` (default: the adopted readings)."""
    arr = _seed_array(seeds)
    out = np.zeros((arr.shape[0], 5), dtype=np.int64)
    code, w = strategy_index(strategy), _check_worlds(worlds)
    _rounds_of_seeds(arr, code, w, out, _NO_TRACE, reading_codes(readings))
    return KernelRounds(out[:, 0], out[:, 1], out[:, 2], out[:, 3], out[:, 4])


def kernel_round(seed: int, readings: Readings | None = None) -> tuple[int, int, int]:
    """One round, as :func:`mazziere.casino.simulate_round` returns it."""
    return kernel_rounds([seed], readings=readings).triple(0)


def kernel_trace(
    seed: int,
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings | None = None,
) -> list[tuple[int, int, int, int, int]]:
    """Every step of the round on ``SplitMixRng(seed)``, as :data:`STEP_KINDS` describes."""
    arr = _seed_array([seed])
    out = np.zeros((1, 5), dtype=np.int64)
    code, w = strategy_index(strategy), _check_worlds(worlds)
    rd = reading_codes(readings)
    rows = 512
    while True:
        trace = np.zeros((rows, STEP_WIDTH), dtype=np.int64)
        _rounds_of_seeds(arr, code, w, out, trace, rd)
        steps = int(out[0, 4])
        if steps <= rows:
            return [tuple(int(x) for x in row) for row in trace[:steps]]  # type: ignore[misc]
        rows = steps


def kernel_tally(
    master: int,
    start: int,
    count: int,
    marks: Sequence[int] = (),
    strategy: str = "default",
    worlds: int = SEARCH_WORLDS,
    readings: Readings | None = None,
) -> I64Array:
    """Play rounds ``start .. start + count - 1`` of the run ``master`` (seeds from
    :func:`round_seed`), the player on ``strategy``, seed 000 read as ``readings``, and
    count them (a refund counts as paid x1): row ``j`` holds the
    totals after ``marks[j]`` rounds of this stretch (``marks`` increasing, each in
    1..count), the last row after all of them. Columns: rounds paid x0, x1, x2, x3, then the
    sum of turns (:data:`TALLY_WIDTH`)."""
    if count < 0 or start < 0:
        raise ValueError("start and count must not be negative")
    m = np.array(list(marks), dtype=np.int64)
    if m.size and (np.any(np.diff(m) <= 0) or m[0] < 1 or m[-1] > count):
        raise ValueError("marks must increase strictly within 1..count")
    out = np.zeros((m.size + 1, TALLY_WIDTH), dtype=np.int64)
    _tally(
        np.uint64(master & MASK64),
        start,
        count,
        m,
        out,
        strategy_index(strategy),
        _check_worlds(worlds),
        reading_codes(readings),
    )
    return out


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) before timing or forking."""
    for strategy in STRATEGIES:
        kernel_tally(1, 0, 2, [1], strategy=strategy, worlds=2)
        kernel_rounds([1], strategy=strategy, worlds=2)
        kernel_trace(1, strategy=strategy, worlds=2)
    round_seeds(1, 0, 1)


@dataclass(frozen=True, slots=True)
class DecisionState:
    """A round stopped at the player's decision: the kernel's arrays (see :func:`_play`)."""

    st: I64Array
    pile: I64Array
    """The draw pile in ``pile[:st[0]]`` (taken from the end)."""
    hands: I64Array
    """Both sides' counts (rulebook layout, the bank's from ``SIDE_WIDTH``)."""
    sizes: I64Array


@_jit
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


@_jit
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
