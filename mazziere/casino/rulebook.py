"""UNO CASINO's rule decisions, written once as plain functions on integers (docs/rules/casino.md,
seed 000): what is playable, the bank's fixed choice of card and colour, the player's default
strategy (weights 1-6), and the payout multiplier's steps.

Both engines call these very functions: the readable round (:mod:`mazziere.casino.strategy`,
:mod:`mazziere.casino.round`) on Python lists, and the compiled RTP kernel
(:mod:`mazziere.sim.casino_kernel`), where numba compiles them on NumPy arrays. So they use
only integers, indexing and loops, and take what they need as arguments:

* ``hand`` and ``at``: a side's counts, :data:`SIDE_WIDTH` integers from ``hand[at]``: how
  many of each face it holds (54), then how many cards of each colour (4; wilds have none).
  One flat array holds both sides in the kernel (``at`` = 0 or 58), so no array views are
  made in its hot loop; the readable path passes one side's list and ``at=0``;
* ``top`` and ``color``: the face on the discard pile and the colour in force;
* ``rd``: the readings of seed 000's open sentences as integers
  (:meth:`mazziere.casino.readings.Readings.codes`, indexed by ``RD_*``);
* ``ties``: a buffer (at least 54 entries) that a decision fills with its candidates, in
  face order (colours in index order), returning how many. One candidate is the decision;
  several are a tie the rules leave to chance, which the caller breaks with its random
  source as ``ties[randbelow(n)]`` (:func:`pick` in the readable path, the kernel's own
  SplitMix64 in the compiled one), so both draw the same numbers.

Matching itself is :func:`mazziere.uno.matching.face_matches` and the +4 rule
:func:`mazziere.uno.matching.wild4_color_legal`, shared with the UNO engine. A face is a
candidate only when :func:`playable` says so; the loops visit the faces that could match (the
colour in force, the top card's number or symbol, the wilds) to stay fast, and the filter
decides.

Readings where the seed is silent are in :mod:`mazziere.casino.strategy`'s docstring.

>>> hand = counts([0, 5, 13 + 5, 52])  # R0 R5 Y5 W
>>> ties = [0] * 54
>>> n = bank_cards(hand, 0, 26 + 5, 2, ties)  # on G5, green in force: a 5 at random
>>> ties[:n]
[5, 18]
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence

from mazziere.cards.uno import FACE_COLOR, WILD4_FACE, WILD_FACE
from mazziere.casino import readings as RD
from mazziere.casino.rules import MAX_MULTIPLIER
from mazziere.uno.matching import (
    DRAW2_RANK,
    REVERSE_RANK,
    SKIP_RANK,
    face_matches,
    wild4_color_legal,
)

DRAW_CHOICE = 0
"""A draw the side chose with a playable card in hand."""
DRAW_NO_PLAY = 1
"""A draw for lack of a playable card."""
DRAW_PENALTY = 2
"""Cards taken for a +2 or +4."""
DRAW_REASONS = ("choice", "no_play", "penalty")
"""The draw reasons by code (the UNO engine's ``draw2``/``draw4`` are ``penalty`` here)."""

COLORS_AT = 54
"""Where a side's colour counts start, after its 54 face counts."""
SIDE_WIDTH = 58
"""How many integers one side's counts take."""

Counts = Sequence[int]
Ties = MutableSequence[int]


def counts(cards: Iterable[int]) -> list[int]:
    """One side's counts (:data:`SIDE_WIDTH` integers) for ``cards``."""
    hand = [0] * SIDE_WIDTH
    for c in cards:
        hand[c] += 1
        if FACE_COLOR[c] >= 0:
            hand[COLORS_AT + FACE_COLOR[c]] += 1
    return hand


# ---------------------------------------------------------------------------- legality
def playable(hand: Counts, at: int, card: int, top: int, color: int) -> bool:
    """Whether ``card`` may be played on ``top`` with ``color`` in force at a casino table:
    matching, and a +4 only with no card of the current colour (no bluff, 000)."""
    if card == WILD4_FACE:
        return wild4_color_legal(hand[at + COLORS_AT + color])
    return face_matches(card, top, color, False)


def has_playable(hand: Counts, at: int, top: int, color: int) -> bool:
    """Whether any card of ``hand`` is :func:`playable` (the faces that could match are
    tried: the colour in force, the top card's number or symbol, the wilds)."""
    if hand[at + COLORS_AT + color] > 0:  # a card of the colour in force matches by colour
        return True
    tr = top % 13 if top < WILD_FACE else -1
    if tr >= 0:
        for col in range(4):
            f = col * 13 + tr
            if hand[at + f] > 0 and playable(hand, at, f, top, color):
                return True
    for f in (WILD_FACE, WILD4_FACE):
        if hand[at + f] > 0 and playable(hand, at, f, top, color):
            return True
    return False


# -------------------------------------------------------------------------------- bank
def bank_cards(hand: Counts, at: int, top: int, color: int, ties: Ties) -> int:
    """000 bank rule 2, the card to play when something is playable: a +4; else a +2, else a
    Skip, else a Reverse (each: the current colour's, else the lowest face); else the highest
    number of the current colour; else the numbers that match by number (a tie); else a Wild.
    Returns the number of candidates in ``ties`` (0: nothing playable)."""
    if hand[at + WILD4_FACE] > 0 and playable(hand, at, WILD4_FACE, top, color):
        ties[0] = WILD4_FACE
        return 1
    for r in (DRAW2_RANK, SKIP_RANK, REVERSE_RANK):
        own = color * 13 + r
        if hand[at + own] > 0 and playable(hand, at, own, top, color):
            ties[0] = own
            return 1
        for col in range(4):
            f = col * 13 + r
            if hand[at + f] > 0 and playable(hand, at, f, top, color):
                ties[0] = f
                return 1
    for r in range(9, -1, -1):
        f = color * 13 + r
        if hand[at + f] > 0 and playable(hand, at, f, top, color):
            ties[0] = f
            return 1
    n = 0
    if top < WILD_FACE and top % 13 <= 9:
        for col in range(4):
            f = col * 13 + top % 13
            if hand[at + f] > 0 and playable(hand, at, f, top, color):
                ties[n] = f
                n += 1
    if n > 0:
        return n
    if hand[at + WILD_FACE] > 0 and playable(hand, at, WILD_FACE, top, color):
        ties[0] = WILD_FACE
        return 1
    return 0


def bank_colors(hand: Counts, at: int, ties: Ties) -> int:
    """000 bank rule 3, the colour to declare, given the cards the bank keeps: the colour held
    most; tied, the colour of the highest card (Skip, Reverse and +2 count 10, above any
    number); still tied, at random. Returns the number of candidate colours in ``ties``."""
    c0 = at + COLORS_AT
    best = max(hand[c0], hand[c0 + 1], hand[c0 + 2], hand[c0 + 3])
    n = 0
    for c in range(4):
        if hand[c0 + c] == best:
            ties[n] = c
            n += 1
    if n == 1:
        return 1
    high = -1  # each tied colour's highest card goes to ties[4 + i]
    for i in range(n):
        base = at + ties[i] * 13
        t = -1
        if hand[base + SKIP_RANK] + hand[base + REVERSE_RANK] + hand[base + DRAW2_RANK] > 0:
            t = 10
        else:
            for r in range(9, -1, -1):
                if hand[base + r] > 0:
                    t = r
                    break
        ties[4 + i] = t
        high = max(high, t)
    k = 0
    for i in range(n):
        if ties[4 + i] == high:
            ties[k] = ties[i]
            k += 1
    return k


# ------------------------------------------------------------------------------ player
def player_weight(
    hand: Counts,
    at: int,
    card: int,
    color: int,
    hand_n: int,
    bank_n: int,
    last_card: int,
    played_wild: bool,
    drew: bool,
    run: int,
    rd: Counts,
) -> int:
    """000 player strategy weights 1-5 for one playable ``card``: ``hand_n`` cards in hand,
    ``bank_n`` in the bank's; ``last_card`` the bank's last played card (``-1``: none),
    ``played_wild`` whether its previous turn played a plain Wild, ``drew`` whether its
    previous turn was a draw it could not play, ``run`` the cards the player has
    laid since the bank last moved; ``rd`` the readings (skip_chain, skip_answer,
    draw2_count). "The bank played a Wild in its previous turn" is a plain Wild: a +4 (like
    every card but a number or a Wild) gives the bank another move, so a turn of the bank
    never ends on one while the round goes on, and reading it as either wild changes
    nothing (tests/casino/test_readings.py)."""
    if card == WILD4_FACE:
        return 2000 if bank_n == 1 else 0
    if card == WILD_FACE:
        return 1000 if played_wild else 0
    r = card % 13
    col = card // 13
    if r in (SKIP_RANK, REVERSE_RANK):
        same = 0 <= last_card < WILD_FACE and last_card % 13 == r
        if rd[RD.RD_SKIP_ANSWER] == RD.SKIP_ANSWER_TURN and drew:
            same = False
        chain = rd[RD.RD_SKIP_CHAIN]
        if chain == RD.SKIP_CHAIN_PLAYED:
            others = run
        else:
            others = hand[at + col * 13 + SKIP_RANK] + hand[at + col * 13 + REVERSE_RANK] - 1
            if chain == RD.SKIP_CHAIN_CHAINABLE:  # the same symbol in the other colours
                for c in range(4):
                    if c != col:
                        others += hand[at + c * 13 + r]
        return (5000 if same else 2000) + 1000 * others
    if r == DRAW2_RANK:
        held = hand_n - 1 if rd[RD.RD_DRAW2_COUNT] == RD.DRAW2_AFTER else hand_n
        if bank_n > held:  # the bank holds more cards than the player
            return 0
        if bank_n == 1:
            return 2500
        return 1100
    if col == color:
        return 10 + r
    return 1


def player_cards(
    hand: Counts,
    at: int,
    top: int,
    color: int,
    hand_n: int,
    bank_n: int,
    last_card: int,
    played_wild: bool,
    drew: bool,
    run: int,
    rd: Counts,
    ties: Ties,
) -> int:
    """000 player default strategy: the playable faces of highest :func:`player_weight`.
    Returns their number in ``ties`` (0: nothing playable)."""
    tr = top % 13 if top < WILD_FACE else -1
    best = -1
    n = 0
    for col in range(5):  # in face order, the faces that could match; "colour" 4: the wilds
        if col == 4:
            lo, hi = WILD_FACE, WILD4_FACE + 1
        elif col == color:
            lo, hi = col * 13, col * 13 + 13
        elif tr >= 0:
            lo, hi = col * 13 + tr, col * 13 + tr + 1
        else:
            continue
        for f in range(lo, hi):
            if hand[at + f] > 0 and playable(hand, at, f, top, color):
                w = player_weight(
                    hand, at, f, color, hand_n, bank_n, last_card, played_wild, drew, run, rd
                )
                if w > best:
                    best = w
                    n = 0
                if w == best:
                    ties[n] = f
                    n += 1
    return n


def player_colors(
    hand: Counts,
    at: int,
    rest_n: int,
    bank_n: int,
    chosen: int,
    drew_without_playing: bool,
    passed_color: int,
    ties: Ties,
) -> int:
    """000 player strategy 6, the colour to declare after a Wild or +4, given the colour counts
    of the ``rest_n`` cards the player keeps: after the bank chose a colour (``chosen``), one
    of the others (the one held most; with the bank on one card even a colour not held; none
    held: the bank's); after the bank drew and passed holding only wilds, the colour it passed
    on; otherwise the colour held most. ``-1`` is "none". Returns the candidates' number."""
    c0 = at + COLORS_AT
    if chosen >= 0:
        best = -1
        for c in range(4):
            if c != chosen and (bank_n == 1 or hand[c0 + c] > 0):
                best = max(best, hand[c0 + c])
        if best < 0:  # no other colour the player can follow
            ties[0] = chosen
            return 1
        n = 0
        for c in range(4):
            if c != chosen and hand[c0 + c] == best:
                ties[n] = c
                n += 1
        return n
    held = hand[c0] + hand[c0 + 1] + hand[c0 + 2] + hand[c0 + 3]
    if rest_n > 0 and held == 0 and drew_without_playing and passed_color >= 0:
        ties[0] = passed_color
        return 1
    best = max(hand[c0], hand[c0 + 1], hand[c0 + 2], hand[c0 + 3])
    n = 0
    for c in range(4):
        if hand[c0 + c] == best:
            ties[n] = c
            n += 1
    return n


# -------------------------------------------------------------------------- multiplier
def multiplier_after_draw(
    multiplier: int, by_player: bool, reason: int, nth: int, rd: Counts
) -> int:
    """000 "PAGAMENTI": each card the player draws (by choice or for lack of a play) lowers
    the multiplier a step, never below x1; each card the bank draws for lack of a play raises
    it, never above x3. Cards taken for a +2 or +4 (:data:`DRAW_PENALTY`; ``nth`` the card's
    index among them) move it as the ``forced_draws`` reading says: not at all, the bank's
    each a step up (or once a +2/+4), the player's each a step down, or both."""
    if reason == DRAW_PENALTY:
        mode = rd[RD.RD_FORCED_DRAWS]
        if mode == RD.FORCED_NONE:
            return multiplier
        if by_player:
            lowers = mode == RD.FORCED_BOTH or mode == RD.FORCED_PLAYER
            return max(1, multiplier - 1) if lowers else multiplier
        if mode == RD.FORCED_PLAYER or (mode == RD.FORCED_BANK_ONCE and nth > 0):
            return multiplier
        return min(MAX_MULTIPLIER, multiplier + 1)
    if by_player:
        return max(1, multiplier - 1)
    if reason == DRAW_NO_PLAY:
        return min(MAX_MULTIPLIER, multiplier + 1)
    return multiplier


def pile_out_payout(multiplier: int, player_n: int, bank_n: int, rd: Counts) -> int:
    """000 "Nel caso in cui termini il mazzo pesca": the draw pile is out and the side to move
    cannot play; the multiple of the stake paid back by the ``pile_out`` reading: nothing
    (the bank wins), the stake (a refund), or the side with fewer cards wins (equal: a
    refund)."""
    mode = rd[RD.RD_PILE_OUT]
    if mode == RD.PILE_OUT_REFUND:
        return 1
    if mode == RD.PILE_OUT_FEWER:
        if player_n < bank_n:
            return multiplier
        if player_n == bank_n:
            return 1
    return 0


def player_may_draw(multiplier: int, lowest: int, rd: Counts) -> bool:
    """000 "PAGAMENTI": at x1 the player may not draw; ``lowest`` the lowest multiplier the
    round has reached: under the ``x1_ban`` reading ``for_good`` a round that has been at x1
    allows no draw again, even after the bank's draws raised it."""
    if multiplier <= 1:
        return False
    return rd[RD.RD_X1_BAN] == RD.X1_BAN_AT_X1 or lowest > 1
