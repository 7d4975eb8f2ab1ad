"""One UNO CASINO round compiled by numba, step for step the round of
:func:`mazziere.casino.simulate_round`, for RTP runs of 10^8 rounds (docs/architecture.md "keep
it separate and prove it equal"; docs/rules/casino.md, seed 000).

The rules are not written here: every rule decision is the rulebook's, compiled from the same
functions the readable round calls (:mod:`mazziere.sim.casino_kernel.layout`). What is here is
the round's course under the ``casino`` preset (pinned at import by
:func:`~mazziere.sim.casino_kernel.layout._check_rules`): the deal, the first card, whose turn
it is (Skip, Reverse, +2 and +4 give the same side the turn again with two seats), the cards a
+2/+4 victim takes (also after a last card; fewer when the pile runs out: no reshuffle), the
pile-out and x1 endings, and ``turns`` (every action applied, the player's and the bank's).
Random numbers come from the same SplitMix64 streams as the readable round:

* ``SplitMixRng(seed)``: its first output seeds the strategies' tie-break stream (``spawn``),
  its second the hand's source (``first_dealer=1``: no dealer draw, then
  ``match_rng.spawn()``). The hand's source shuffles the 108-card ``FULL_DECK`` order with
  Fisher-Yates, run lazily (:func:`~mazziere.sim.casino_kernel.hands._settle`), deals one
  card at a time from the end of the list, seat 0 first (4 to the player, 5 to the bank),
  then turns cards until a number shows, putting each other card back at
  ``randbelow(len + 1)``.
* A tie among a rule's candidates is ``ties[randbelow(n)]`` on the strategies' stream.

The round is one resumable loop, :func:`_play`, over a state array (its slots in
:mod:`~mazziere.sim.casino_kernel.layout`); the player's decisions come from the published
default, random legal choices (:func:`_random_move`), or a move the search stored in the state
(:mod:`mazziere.sim.casino_kernel.search`).
"""

from __future__ import annotations

import numpy as np

from mazziere.casino import readings as RD
from mazziere.sim.casino_kernel.hands import _add, _pick, _remove, _settle
from mazziere.sim.casino_kernel.layout import (
    _BANK,
    _CHOICE_RNG,
    _DECK,
    _DRAW2,
    _DRAW_CHOICE,
    _DRAW_NO_PLAY,
    _DRAW_PENALTY,
    _DRAWN,
    _HAND_RNG,
    _MV_DRAW,
    _MV_NONE,
    _MV_PASS,
    _MV_PLAY,
    _NCARDS,
    _NEEDS_DECISION,
    _PLAY,
    _PLAYER,
    _R_BANK_OUT,
    _R_NO_DRAW,
    _R_PILE_OUT,
    _R_PLAYER_OUT,
    _SCOLOR,
    _SCUR,
    _SDRAWN,
    _SFCARD,
    _SFCOLOR,
    _SFKIND,
    _SIDE,
    _SK,
    _SLOW,
    _SMCHOSEN,
    _SMDREW,
    _SMLAST,
    _SMPASSED,
    _SMULT,
    _SMWILD,
    _SN,
    _SPHASE,
    _SRD,
    _SRUN,
    _SSETTLED,
    _ST_EXTERNAL,
    _ST_RANDOM,
    _START_MULT,
    _STOP,
    _STRATEGY_RNG,
    _STURNS,
    _WILD,
    _WILD4,
    ST_WIDTH,
    _bank_cards,
    _bank_colors,
    _has_playable,
    _multiplier_after_draw,
    _pile_out_payout,
    _playable,
    _player_cards,
    _player_colors,
    _player_may_draw,
)
from mazziere.sim.casino_kernel.trace import (
    _S_DEALT,
    _S_DECIDED,
    _S_DREW,
    _S_END,
    _S_MULT,
    _S_PLAYED,
    _S_RETURNED,
    _S_TURNED,
    _emit,
)
from mazziere.sim.splitmix_kernel import I64Array, U64Array, jit, next64, randbelow

__all__: list[str] = []


@jit
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


@jit
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


@jit
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
    steps), writing the steps to ``trace`` as far as it has rows (see
    :data:`~mazziere.sim.casino_kernel.trace.STEP_KINDS`);
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


@jit
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
