"""A compiled (numba) UNO kernel that plays uniformly random games bit for bit like the pure
engine, for simulations and benchmarks (design.md "keep it separate and prove it equal").

It supports exactly one rule set, :data:`~mazziere.sim.uno_random.KERNEL_RULES` =
``find_preset("mattel").with_options(match="single_hand")``, for 2-10 players, and reproduces
what :func:`~mazziere.sim.uno_random.play_random_game_engine` does with the same seeds:

* SplitMix64, its ``randbelow`` rejection rule, ``spawn`` and Fisher-Yates as in
  :mod:`mazziere.rng`; the match source shuffles a full deck to choose the dealer (``highest``:
  number cards only, ties draw again), then spawns each hand's source (deal, first-card
  reshuffle of a +4, reshuffles of the discards).
* The deal (one card at a time from the seat after the dealer), ``first_card='apply'``,
  matching, +4 legality ``color`` with bluffing, the victim-only challenge (guilty: the
  offender draws 4 and the victim keeps the turn; innocent: the victim draws 6 and loses it),
  voluntary draw, ``drawn_card='may_play'``, ``uno_call='catch'`` (window, calls and catches as
  in :mod:`mazziere.uno.machine`), two-player Reverse as Skip, blocked hands (everyone passes
  with nothing left to draw), the single-hand tie rules with one tie-break hand, and winner
  scoring.
* The exact order of :func:`mazziere.uno.engine.all_legal_actions`, so the same chooser picks
  the same action; every step is folded into the record's ``trace_hash`` the same way.

Other option values (stacking, multi-play, ``uno_call='auto'``, other dealer selections...)
are not implemented: :func:`play_random_games` refuses any other rules.

Hands are per-face counts (order never matters under these rules); cards are the engine's face
numbers 0-53.

>>> batch = play_random_games(2, [1, 2], [2, 3])
>>> batch.record(0) == play_random_game_engine(2, 1, 2)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mazziere.cards.uno import FACE_POINTS, FULL_DECK
from mazziere.errors import OptionError
from mazziere.rng import SplitMixRng
from mazziere.sim.splitmix_kernel import I64Array, U64Array, next64, randbelow, shuffle
from mazziere.sim.splitmix_kernel import jit as _jit
from mazziere.sim.uno_random import (
    CODE_ACCEPT,
    CODE_CALL_UNO,
    CODE_CATCH,
    CODE_CHALLENGE,
    CODE_CHOOSE_COLOR,
    CODE_DRAW,
    CODE_PASS,
    CODE_PLAY_WILD,
    CODE_PLAY_WILD4,
    FNV_OFFSET,
    FNV_PRIME,
    KERNEL_RULES,
    GameRecord,
    check_kernel_rules,
    play_random_from_state_engine,
    play_random_game_engine,
)
from mazziere.uno.options import Rules
from mazziere.uno.state import Phase, State

__all__ = [
    "KERNEL_RULES",
    "GameBatch",
    "GameRecord",
    "play_random_from_state",
    "play_random_from_state_engine",
    "play_random_game_engine",
    "play_random_games",
]

# ---------------------------------------------------------------- constants (frozen by numba)
_FNV_OFFSET = np.uint64(FNV_OFFSET)
_FNV_PRIME = np.uint64(FNV_PRIME)

_DECK = np.array([int(c) for c in FULL_DECK], dtype=np.int64)
_POINTS = np.array(FACE_POINTS, dtype=np.int64)
_WILD = 52
_WILD4 = 53
_HAND_SIZE = KERNEL_RULES.hand_size
_CHALLENGE_GUILTY = KERNEL_RULES.challenge_guilty_draw
_CHALLENGE_EXTRA = KERNEL_RULES.challenge_innocent_extra
_UNO_PENALTY = KERNEL_RULES.uno_penalty
_MAX_ACTS = 128

# action codes (see mazziere.sim.uno_random)
_C_WILD = CODE_PLAY_WILD
_C_WILD4 = CODE_PLAY_WILD4
_C_DRAW = CODE_DRAW
_C_PASS = CODE_PASS
_C_ACCEPT = CODE_ACCEPT
_C_CHALLENGE = CODE_CHALLENGE
_C_CALL_UNO = CODE_CALL_UNO
_C_CATCH = CODE_CATCH
_C_CHOOSE = CODE_CHOOSE_COLOR

# phases
_PLAY = 0
_DRAWN = 1
_PENDING = 2
_COLOR = 3
_OVER = 4

# scalar state: indices into ``st``
_N = 0
_CUR = 1
_PHASE = 2
_COLOR_NOW = 3
_DIR = 4
_PENDING_N = 5
_W4_BY = 6
_W4_LEGAL = 7
_DRAWN_CARD = 8
_UNO_SEAT = 9
_UNO_CALLED = 10
_UNO_READY = 11
_PASSES = 12
_TURNS = 13
_TOTAL_TURNS = 14
_CLOCK = 15
_DEALER = 16
_HAND_NO = 17
_DRAW_LEN = 18
_DISC_LEN = 19
_NIN = 20
_TIEBREAK = 21
_WINNER = 22
_HAND_WINNER = 23
_NST = 24

# per-seat rows of ``seats``
_HSIZE = 0
_IN_HAND = 1
_LAST_DRAW = 2
_SCORE = 3
_IN_TIEBREAK = 4
_NSEATROWS = 5

# rows of ``piles`` and of ``rng``
_DRAWP = 0
_DISC = 1
_MATCH_RNG = 0
_HAND_RNG = 1
_CHOOSER = 2


# ---------------------------------------------------------------- seats, drawing, turns
@_jit
def _next_seat(st: I64Array, seats: I64Array, seat: int) -> int:
    n = st[_N]
    d = st[_DIR]
    seat = (seat + d + n) % n
    while seats[_IN_HAND, seat] == 0:
        seat = (seat + d + n) % n
    return seat


@_jit
def _reshuffle(st: I64Array, piles: I64Array, rng: U64Array) -> bool:
    m = st[_DISC_LEN]
    if m <= 1:
        return False
    for i in range(m - 1):
        piles[_DRAWP, i] = piles[_DISC, i]
    piles[_DISC, 0] = piles[_DISC, m - 1]
    st[_DISC_LEN] = 1
    st[_DRAW_LEN] = m - 1
    shuffle(rng, _HAND_RNG, piles[_DRAWP], m - 1)
    return True


@_jit
def _draw_cards(
    st: I64Array,
    hands: I64Array,
    seats: I64Array,
    piles: I64Array,
    rng: U64Array,
    seat: int,
    count: int,
) -> int:
    """Draw up to ``count`` cards (reshuffling the discards); returns the last card or -1."""
    last = -1
    for _ in range(count):
        if st[_DRAW_LEN] == 0 and not _reshuffle(st, piles, rng):
            break
        st[_DRAW_LEN] -= 1
        last = piles[_DRAWP, st[_DRAW_LEN]]
        hands[seat, last] += 1
        seats[_HSIZE, seat] += 1
    if last >= 0:
        seats[_LAST_DRAW, seat] = st[_CLOCK]
    return last


@_jit
def _advance(st: I64Array, seats: I64Array, seat: int) -> None:
    st[_CUR] = _next_seat(st, seats, seat)
    st[_PHASE] = _PLAY
    st[_TURNS] += 1
    st[_TOTAL_TURNS] += 1


@_jit
def _clear_pending(st: I64Array) -> None:
    st[_PENDING_N] = 0
    st[_W4_BY] = -1
    st[_W4_LEGAL] = 1


@_jit
def _take_pending(
    st: I64Array, hands: I64Array, seats: I64Array, piles: I64Array, rng: U64Array, victim: int
) -> None:
    count = st[_PENDING_N]
    _clear_pending(st)
    _draw_cards(st, hands, seats, piles, rng, victim, count)
    _advance(st, seats, victim)


@_jit
def _hit_with_draw2(
    st: I64Array, hands: I64Array, seats: I64Array, piles: I64Array, rng: U64Array, victim: int
) -> None:
    st[_TURNS] += 1
    st[_TOTAL_TURNS] += 1
    st[_PENDING_N] += 2
    _take_pending(st, hands, seats, piles, rng, victim)


@_jit
def _matches(face: int, top: int, color: int) -> bool:
    if face >= _WILD:
        return True  # a Wild, or a +4 (bluffing allowed)
    if face // 13 == color:
        return True
    if top >= _WILD:
        return False
    return face % 13 == top % 13


@_jit
def _close_uno_window(st: I64Array) -> None:
    if st[_UNO_SEAT] < 0:
        return
    st[_UNO_SEAT] = -1
    st[_UNO_CALLED] = 0


# ---------------------------------------------------------------- dealing
@_jit
def _choose_dealer(st: I64Array, rng: U64Array) -> int:
    n = st[_N]
    deck = _DECK.copy()
    length = deck.shape[0]
    shuffle(rng, _MATCH_RNG, deck, length)
    contenders = np.arange(n)
    nc = n
    drawn = np.zeros(n, dtype=np.int64)
    while True:
        for ci in range(nc):
            seat = contenders[ci]
            while True:
                if length == 0:
                    deck[:] = _DECK
                    length = deck.shape[0]
                    shuffle(rng, _MATCH_RNG, deck, length)
                length -= 1
                c = deck[length]
                if c < _WILD and c % 13 <= 9:
                    drawn[seat] = c % 13
                    break
        best = -1
        for ci in range(nc):
            best = max(best, drawn[contenders[ci]])
        k = 0
        for ci in range(nc):
            if drawn[contenders[ci]] == best:
                contenders[k] = contenders[ci]
                k += 1
        nc = k
        if nc == 1:
            return contenders[0]  # type: ignore[no-any-return]


@_jit
def _start_hand(
    st: I64Array, hands: I64Array, seats: I64Array, piles: I64Array, rng: U64Array, first: bool
) -> None:
    n = st[_N]
    st[_HAND_NO] += 1
    if not first:
        st[_DEALER] = (st[_DEALER] + 1) % n
    nin = 0
    for s in range(n):
        inh = 1 if st[_TIEBREAK] == 0 else seats[_IN_TIEBREAK, s]
        seats[_IN_HAND, s] = inh
        nin += inh
        seats[_HSIZE, s] = 0
        for f in range(54):
            hands[s, f] = 0
    st[_NIN] = nin
    rng[_HAND_RNG] = next64(rng, _MATCH_RNG)  # match_rng.spawn()
    piles[_DRAWP, :] = _DECK
    shuffle(rng, _HAND_RNG, piles[_DRAWP], 108)
    st[_DRAW_LEN] = 108
    st[_DISC_LEN] = 0
    st[_DIR] = 1
    _clear_pending(st)
    st[_DRAWN_CARD] = -1
    st[_UNO_SEAT] = -1
    st[_UNO_CALLED] = 0
    st[_UNO_READY] = -1
    st[_PASSES] = 0
    st[_TURNS] = 0
    st[_COLOR_NOW] = -1
    first_seat = _next_seat(st, seats, st[_DEALER])
    for _ in range(_HAND_SIZE):
        seat = first_seat
        for _k in range(nin):
            st[_DRAW_LEN] -= 1
            hands[seat, piles[_DRAWP, st[_DRAW_LEN]]] += 1
            seats[_HSIZE, seat] += 1
            seat = _next_seat(st, seats, seat)
    _turn_first_card(st, hands, seats, piles, rng, first_seat)


@_jit
def _turn_first_card(
    st: I64Array, hands: I64Array, seats: I64Array, piles: I64Array, rng: U64Array, first: int
) -> None:
    while True:
        st[_DRAW_LEN] -= 1
        c = piles[_DRAWP, st[_DRAW_LEN]]
        if c == _WILD4:
            st[_DRAW_LEN] += 1  # back on the pile, then the whole pile is reshuffled
            shuffle(rng, _HAND_RNG, piles[_DRAWP], st[_DRAW_LEN])
            continue
        break
    piles[_DISC, 0] = c
    st[_DISC_LEN] = 1
    st[_CUR] = first
    st[_PHASE] = _PLAY
    if c == _WILD:
        st[_PHASE] = _COLOR
        return
    st[_COLOR_NOW] = c // 13
    r = c % 13
    if r == 10 or (r == 11 and st[_NIN] == 2):
        st[_CUR] = _next_seat(st, seats, first)
    elif r == 11:
        st[_DIR] = -1
        dealer = st[_DEALER]
        st[_CUR] = dealer if seats[_IN_HAND, dealer] != 0 else _next_seat(st, seats, first)
    elif r == 12:
        _hit_with_draw2(st, hands, seats, piles, rng, first)


# ---------------------------------------------------------------- end of the hand / match
@_jit
def _finish(st: I64Array, winner: int) -> None:
    st[_WINNER] = winner
    st[_PHASE] = _OVER
    st[_PENDING_N] = 0
    st[_W4_BY] = -1
    st[_DRAWN_CARD] = -1


@_jit
def _hand_points(hands: I64Array, seat: int) -> int:
    p = 0
    for f in range(54):
        p += hands[seat, f] * _POINTS[f]
    return p


@_jit
def _end_hand(
    st: I64Array, hands: I64Array, seats: I64Array, piles: I64Array, rng: U64Array, winner: int
) -> None:
    n = st[_N]
    st[_UNO_SEAT] = -1
    st[_UNO_READY] = -1
    st[_HAND_WINNER] = winner
    if winner >= 0:
        gained = 0
        for s in range(n):
            if s != winner and seats[_IN_HAND, s] != 0:
                gained += _hand_points(hands, s)
        seats[_SCORE, winner] += gained
        _finish(st, winner)
        return
    # nobody out (single hand, 004): fewest points, then fewest cards, then a tie-break hand,
    # then whoever drew last loses (ties kept in seat order)
    best = -1
    bp = 0
    bc = 0
    bl = 0
    for s in range(n):
        if seats[_IN_HAND, s] == 0:
            continue
        p = _hand_points(hands, s)
        c = seats[_HSIZE, s]
        ld = seats[_LAST_DRAW, s]
        if best < 0 or (p, c, ld) < (bp, bc, bl):
            best, bp, bc, bl = s, p, c, ld
    tied = 0
    for s in range(n):
        if seats[_IN_HAND, s] != 0:
            same = _hand_points(hands, s) == bp and seats[_HSIZE, s] == bc
            seats[_IN_TIEBREAK, s] = 1 if same else 0
            tied += 1 if same else 0
    if tied == 1 or st[_TIEBREAK] != 0:
        _finish(st, best)
        return
    st[_TIEBREAK] = 1
    _start_hand(st, hands, seats, piles, rng, False)


# ---------------------------------------------------------------- legal actions
@_jit
def _add_play(face: int, seat: int, k: int, act_seat: I64Array, act_code: I64Array) -> int:
    if face < _WILD:
        act_seat[k] = seat
        act_code[k] = face
        return k + 1
    base = _C_WILD if face == _WILD else _C_WILD4
    for col in range(4):
        act_seat[k] = seat
        act_code[k] = base + col
        k += 1
    return k


@_jit
def _legal_all(
    st: I64Array,
    hands: I64Array,
    seats: I64Array,
    piles: I64Array,
    act_seat: I64Array,
    act_code: I64Array,
) -> int:
    """Every (seat, action) now, in the order of ``engine.all_legal_actions``."""
    n = st[_N]
    cur = st[_CUR]
    phase = st[_PHASE]
    uno_seat = st[_UNO_SEAT]
    window = uno_seat >= 0 and st[_UNO_CALLED] == 0 and seats[_HSIZE, uno_seat] == 1
    k = 0
    for off in range(n):
        seat = (cur + off) % n
        if seats[_IN_HAND, seat] == 0:
            continue
        called = False
        if seat == cur:
            if phase == _PLAY:
                top = piles[_DISC, st[_DISC_LEN] - 1]
                color = st[_COLOR_NOW]
                nplay = 0
                for f in range(54):
                    if hands[seat, f] > 0 and _matches(f, top, color):
                        k = _add_play(f, seat, k, act_seat, act_code)
                        nplay += 1
                if st[_DRAW_LEN] > 0 or st[_DISC_LEN] > 1 or nplay == 0:
                    act_seat[k] = seat
                    act_code[k] = _C_DRAW
                    k += 1
            elif phase == _DRAWN:
                k = _add_play(st[_DRAWN_CARD], seat, k, act_seat, act_code)
                act_seat[k] = seat
                act_code[k] = _C_PASS
                k += 1
            elif phase == _PENDING:
                if st[_W4_BY] >= 0:
                    act_seat[k] = seat
                    act_code[k] = _C_CHALLENGE
                    k += 1
                act_seat[k] = seat
                act_code[k] = _C_ACCEPT
                k += 1
            elif phase == _COLOR:
                for col in range(4):
                    act_seat[k] = seat
                    act_code[k] = _C_CHOOSE + col
                    k += 1
                continue  # the colour choice comes alone
            if seats[_HSIZE, seat] == 2 and st[_UNO_READY] != seat and phase in (_PLAY, _DRAWN):
                act_seat[k] = seat
                act_code[k] = _C_CALL_UNO
                k += 1
                called = True
        if window:
            if seat == uno_seat:
                if not called:
                    act_seat[k] = seat
                    act_code[k] = _C_CALL_UNO
                    k += 1
            else:
                act_seat[k] = seat
                act_code[k] = _C_CATCH + uno_seat
                k += 1
    return k


# ---------------------------------------------------------------- applying
@_jit
def _play(
    st: I64Array,
    hands: I64Array,
    seats: I64Array,
    piles: I64Array,
    rng: U64Array,
    seat: int,
    code: int,
) -> None:
    if code < _WILD:
        face = code
        new_color = code // 13
        r = code % 13
    elif code < _C_WILD4:
        face = _WILD
        new_color = code - _C_WILD
        r = 13
    else:
        face = _WILD4
        new_color = code - _C_WILD4
        r = 14
    color_before = st[_COLOR_NOW]
    _close_uno_window(st)
    hands[seat, face] -= 1
    seats[_HSIZE, seat] -= 1
    left = seats[_HSIZE, seat]
    legal_w4 = True
    if face == _WILD4:
        for f in range(color_before * 13, color_before * 13 + 13):
            if hands[seat, f] > 0:
                legal_w4 = False
                break
    st[_PASSES] = 0
    piles[_DISC, st[_DISC_LEN]] = face
    st[_DISC_LEN] += 1
    st[_COLOR_NOW] = new_color
    st[_DRAWN_CARD] = -1
    st[_PHASE] = _PLAY
    if left == 1:
        st[_UNO_SEAT] = seat
        st[_UNO_CALLED] = 1 if st[_UNO_READY] == seat else 0
    st[_UNO_READY] = -1
    if left == 0:  # out: a last +2/+4 is still drawn (uno.md 9)
        victim = _next_seat(st, seats, seat)
        count = st[_PENDING_N] + (2 if r == 12 else (4 if r == 14 else 0))
        _clear_pending(st)
        if count > 0:
            _draw_cards(st, hands, seats, piles, rng, victim, count)
        _end_hand(st, hands, seats, piles, rng, seat)
        return
    if r <= 9 or r == 13:
        _advance(st, seats, seat)
    elif r == 10 or (r == 11 and st[_NIN] == 2):
        _advance(st, seats, _next_seat(st, seats, seat))
    elif r == 11:
        st[_DIR] = -st[_DIR]
        _advance(st, seats, seat)
    elif r == 12:
        _hit_with_draw2(st, hands, seats, piles, rng, _next_seat(st, seats, seat))
    else:
        victim = _next_seat(st, seats, seat)
        st[_TURNS] += 1
        st[_TOTAL_TURNS] += 1
        st[_PENDING_N] += 4
        st[_W4_LEGAL] = 1 if legal_w4 else 0
        st[_W4_BY] = seat
        st[_CUR] = victim
        st[_PHASE] = _PENDING


@_jit
def _apply(
    st: I64Array,
    hands: I64Array,
    seats: I64Array,
    piles: I64Array,
    rng: U64Array,
    seat: int,
    code: int,
) -> None:
    st[_CLOCK] += 1
    if code < _C_DRAW:
        _play(st, hands, seats, piles, rng, seat, code)
    elif code == _C_DRAW:
        _close_uno_window(st)
        st[_UNO_READY] = -1
        if st[_DRAW_LEN] == 0 and st[_DISC_LEN] <= 1:  # nothing to draw: a pass
            st[_PASSES] += 1
            if st[_PASSES] >= st[_NIN]:
                _end_hand(st, hands, seats, piles, rng, -1)
            else:
                _advance(st, seats, seat)
            return
        st[_PASSES] = 0
        c = _draw_cards(st, hands, seats, piles, rng, seat, 1)
        if _matches(c, piles[_DISC, st[_DISC_LEN] - 1], st[_COLOR_NOW]):
            st[_PHASE] = _DRAWN
            st[_DRAWN_CARD] = c
        else:
            _advance(st, seats, seat)
    elif code == _C_PASS:
        _close_uno_window(st)
        st[_DRAWN_CARD] = -1
        st[_UNO_READY] = -1
        _advance(st, seats, seat)
    elif code == _C_ACCEPT:
        _close_uno_window(st)
        _take_pending(st, hands, seats, piles, rng, seat)
    elif code == _C_CHALLENGE:
        offender = st[_W4_BY]
        victim = st[_CUR]
        _close_uno_window(st)
        if st[_W4_LEGAL] == 0:  # guilty: the offender draws, the victim plays on
            _clear_pending(st)
            _draw_cards(st, hands, seats, piles, rng, offender, _CHALLENGE_GUILTY)
            st[_CUR] = victim
            st[_PHASE] = _PLAY
        else:
            count = st[_PENDING_N] + _CHALLENGE_EXTRA
            _clear_pending(st)
            _draw_cards(st, hands, seats, piles, rng, victim, count)
            _advance(st, seats, victim)
    elif code == _C_CALL_UNO:
        phase = st[_PHASE]
        hsize = seats[_HSIZE, seat]
        if seat == st[_CUR] and phase in (_PLAY, _DRAWN) and hsize == 2 and st[_UNO_READY] != seat:
            st[_UNO_READY] = seat
        elif st[_UNO_SEAT] == seat and st[_UNO_CALLED] == 0 and hsize == 1:
            st[_UNO_CALLED] = 1
    elif code < _C_CHOOSE:  # catch
        st[_UNO_SEAT] = -1
        st[_UNO_CALLED] = 0
        _draw_cards(st, hands, seats, piles, rng, code - _C_CATCH, _UNO_PENALTY)
    else:
        st[_COLOR_NOW] = code - _C_CHOOSE
        st[_PHASE] = _PLAY


# ---------------------------------------------------------------- whole games
@_jit
def _run(
    st: I64Array,
    hands: I64Array,
    seats: I64Array,
    piles: I64Array,
    rng: U64Array,
    act_seat: I64Array,
    act_code: I64Array,
) -> tuple[int, np.uint64]:
    """Random legal actions (the chooser is ``rng[2]``) until the match is over; returns the
    number of steps and the trace hash."""
    h = _FNV_OFFSET
    steps = 0
    while st[_PHASE] != _OVER:
        count = _legal_all(st, hands, seats, piles, act_seat, act_code)
        i = randbelow(rng, _CHOOSER, count)
        seat = act_seat[i]
        code = act_code[i]
        key = seat | (i << 8) | (count << 16) | (code << 24)
        h = (h ^ np.uint64(key)) * _FNV_PRIME
        _apply(st, hands, seats, piles, rng, seat, code)
        steps += 1
    return steps, h


@_jit
def _record(
    st: I64Array,
    hands: I64Array,
    seats: I64Array,
    steps: int,
    h: np.uint64,
    g: int,
    out: I64Array,
    seat_out: I64Array,
    hashes: U64Array,
) -> None:
    """Row ``g`` of the outputs: ``out`` columns steps, hand winner, winner, hands, total
    turns; ``seat_out[g]`` rows scores, cards, points; ``hashes[g]`` the trace hash."""
    out[g, 0] = steps
    out[g, 1] = st[_HAND_WINNER]
    out[g, 2] = st[_WINNER]
    out[g, 3] = st[_HAND_NO] + 1
    out[g, 4] = st[_TOTAL_TURNS]
    for s in range(st[_N]):
        seat_out[g, 0, s] = seats[_SCORE, s]
        seat_out[g, 1, s] = seats[_HSIZE, s]
        seat_out[g, 2, s] = _hand_points(hands, s)
    hashes[g] = h


@_jit
def _play_batch(
    n: int,
    game_seeds: U64Array,
    action_seeds: U64Array,
    out: I64Array,
    seat_out: I64Array,
    hashes: U64Array,
) -> None:
    """Play one new match per seed pair (``Machine.start``, then :func:`_run`)."""
    st = np.zeros(_NST, dtype=np.int64)
    hands = np.zeros((n, 54), dtype=np.int64)
    seats = np.zeros((_NSEATROWS, n), dtype=np.int64)
    piles = np.zeros((2, 108), dtype=np.int64)
    rng = np.zeros(3, dtype=np.uint64)
    act_seat = np.zeros(_MAX_ACTS, dtype=np.int64)
    act_code = np.zeros(_MAX_ACTS, dtype=np.int64)
    for g in range(game_seeds.shape[0]):
        st[:] = 0
        seats[:, :] = 0
        st[_N] = n
        st[_HAND_NO] = -1
        st[_DIR] = 1
        st[_UNO_SEAT] = -1
        st[_UNO_READY] = -1
        st[_HAND_WINNER] = -1
        st[_WINNER] = -1
        for s in range(n):
            seats[_IN_HAND, s] = 1
            seats[_LAST_DRAW, s] = -1
        rng[_MATCH_RNG] = game_seeds[g]
        rng[_CHOOSER] = action_seeds[g]
        st[_DEALER] = _choose_dealer(st, rng)
        _start_hand(st, hands, seats, piles, rng, True)
        steps, h = _run(st, hands, seats, piles, rng, act_seat, act_code)
        _record(st, hands, seats, steps, h, g, out, seat_out, hashes)


@_jit
def _play_from(
    st: I64Array,
    hands: I64Array,
    seats: I64Array,
    piles: I64Array,
    rng: U64Array,
    out: I64Array,
    seat_out: I64Array,
    hashes: U64Array,
) -> None:
    act_seat = np.zeros(_MAX_ACTS, dtype=np.int64)
    act_code = np.zeros(_MAX_ACTS, dtype=np.int64)
    steps, h = _run(st, hands, seats, piles, rng, act_seat, act_code)
    _record(st, hands, seats, steps, h, 0, out, seat_out, hashes)


# ---------------------------------------------------------------- Python API
@dataclass(frozen=True)
class GameBatch:
    """Results of many kernel games, one row per game (see :class:`GameRecord`)."""

    players: int
    steps: I64Array
    hand_winner: I64Array
    winner: I64Array
    hands: I64Array
    total_turns: I64Array
    scores: I64Array
    """Shape (games, players)."""
    cards: I64Array
    points: I64Array
    trace_hash: U64Array

    def __len__(self) -> int:
        return int(self.steps.shape[0])

    def record(self, g: int) -> GameRecord:
        """Game ``g`` as the same record :func:`play_random_game_engine` returns."""
        return GameRecord(
            steps=int(self.steps[g]),
            hand_winner=int(self.hand_winner[g]),
            winner=int(self.winner[g]),
            hands=int(self.hands[g]),
            total_turns=int(self.total_turns[g]),
            scores=tuple(int(x) for x in self.scores[g]),
            cards=tuple(int(x) for x in self.cards[g]),
            points=tuple(int(x) for x in self.points[g]),
            trace_hash=int(self.trace_hash[g]),
        )


def _seed_array(seeds: Sequence[int] | npt.NDArray[np.integer]) -> U64Array:
    """Seeds as SplitMixRng takes them (reduced to 64 bits)."""
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return np.ascontiguousarray(seeds)
    return np.array([int(s) & 0xFFFFFFFFFFFFFFFF for s in seeds], dtype=np.uint64)


def play_random_games(
    players: int,
    game_seeds: Sequence[int] | npt.NDArray[np.integer],
    action_seeds: Sequence[int] | npt.NDArray[np.integer],
    rules: Rules = KERNEL_RULES,
) -> GameBatch:
    """Play one random game per (game seed, action seed) pair in the compiled kernel; game
    ``g`` equals ``play_random_game_engine(players, game_seeds[g], action_seeds[g])``.

    Raises :class:`~mazziere.errors.OptionError` for any rules but :data:`KERNEL_RULES` or a
    seat count they do not allow.
    """
    check_kernel_rules(rules, players)
    gs, acs = _seed_array(game_seeds), _seed_array(action_seeds)
    if gs.shape != acs.shape or gs.ndim != 1:
        raise ValueError("game_seeds and action_seeds must be two sequences of one length")
    games = gs.shape[0]
    out = np.zeros((games, 5), dtype=np.int64)
    seat_out = np.zeros((games, 3, players), dtype=np.int64)
    hashes = np.zeros(games, dtype=np.uint64)
    _play_batch(players, gs, acs, out, seat_out, hashes)
    return _batch(players, out, seat_out, hashes)


def _batch(players: int, out: I64Array, seat_out: I64Array, hashes: U64Array) -> GameBatch:
    return GameBatch(
        players=players,
        steps=out[:, 0],
        hand_winner=out[:, 1],
        winner=out[:, 2],
        hands=out[:, 3],
        total_turns=out[:, 4],
        scores=seat_out[:, 0, :],
        cards=seat_out[:, 1, :],
        points=seat_out[:, 2, :],
        trace_hash=hashes,
    )


_PHASE_CODE = {
    Phase.PLAY: _PLAY,
    Phase.DRAWN: _DRAWN,
    Phase.PENDING: _PENDING,
    Phase.COLOR: _COLOR,
    Phase.OVER: _OVER,
}


def _kernel_arrays(
    state: State, action_seed: int
) -> tuple[I64Array, I64Array, I64Array, I64Array, U64Array]:
    """The kernel's arrays for an engine state of the kernel's rules (SplitMix sources)."""
    check_kernel_rules(state.rules, state.players)
    if not isinstance(state.match_rng, SplitMixRng) or not isinstance(state.rng, SplitMixRng):
        raise OptionError("the kernel reproduces SplitMixRng sources only", "kernel_rng")
    if state.stack_w4 != (state.pending > 0) or state.pending not in (0, 4):
        raise OptionError("a pending draw other than one +4 never waits under these rules")
    n = state.players
    st = np.zeros(_NST, dtype=np.int64)
    hands = np.zeros((n, 54), dtype=np.int64)
    seats = np.zeros((_NSEATROWS, n), dtype=np.int64)
    piles = np.zeros((2, 108), dtype=np.int64)
    rng = np.array(
        [state.match_rng.state, state.rng.state, int(action_seed) & 0xFFFFFFFFFFFFFFFF],
        dtype=np.uint64,
    )
    if len(state.draw_pile) > 108 or len(state.discard) > 108:
        raise OptionError("a pile holds more than 108 cards", "kernel_state")
    piles[_DRAWP, : len(state.draw_pile)] = state.draw_pile
    piles[_DISC, : len(state.discard)] = state.discard
    for s, hand in enumerate(state.hands):
        for c in hand:
            hands[s, c] += 1
        seats[_HSIZE, s] = len(hand)
    seats[_IN_HAND] = state.in_hand
    seats[_LAST_DRAW] = state.last_draw
    seats[_SCORE] = state.scores
    seats[_IN_TIEBREAK] = [s in state.tiebreak for s in range(n)]

    def opt(v: int | None) -> int:
        return -1 if v is None else int(v)

    fields = {
        _N: n,
        _CUR: state.current,
        _PHASE: _PHASE_CODE[state.phase],
        _COLOR_NOW: opt(state.color),
        _DIR: state.direction,
        _PENDING_N: state.pending,
        _W4_BY: opt(state.w4_by),
        _W4_LEGAL: int(state.w4_legal),
        _DRAWN_CARD: opt(state.drawn),
        _UNO_SEAT: opt(state.uno_seat),
        _UNO_CALLED: int(state.uno_called),
        _UNO_READY: opt(state.uno_ready),
        _PASSES: state.passes,
        _TURNS: state.turns,
        _TOTAL_TURNS: state.total_turns,
        _CLOCK: state.clock,
        _DEALER: state.dealer,
        _HAND_NO: state.hand_no,
        _DRAW_LEN: len(state.draw_pile),
        _DISC_LEN: len(state.discard),
        _NIN: sum(state.in_hand),
        _TIEBREAK: int(bool(state.tiebreak)),
        _WINNER: -1 if state.result is None else state.result.winner,
        _HAND_WINNER: -1,
    }
    for k, v in fields.items():
        st[k] = v
    return st, hands, seats, piles, rng


def play_random_from_state(state: State, action_seed: int) -> GameRecord:
    """Continue ``state`` (kernel rules, SplitMix sources) in the kernel with random legal
    actions; equals :func:`~mazziere.sim.uno_random.play_random_from_state_engine`."""
    st, hands, seats, piles, rng = _kernel_arrays(state, action_seed)
    n = state.players
    out = np.zeros((1, 5), dtype=np.int64)
    seat_out = np.zeros((1, 3, n), dtype=np.int64)
    hashes = np.zeros(1, dtype=np.uint64)
    _play_from(st, hands, seats, piles, rng, out, seat_out, hashes)
    return _batch(n, out, seat_out, hashes).record(0)
