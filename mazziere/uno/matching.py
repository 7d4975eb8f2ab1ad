"""Which card may go on which: matching, +4 legality, stacking (uno.md "A hand" 4, "Wild Draw
Four", ``stacking``). Pure functions on faces, shared by the engine, views and bots."""

from __future__ import annotations

from collections.abc import Iterable

from mazziere.cards.uno import FACE_COLOR, WILD4_FACE, WILD_FACE, Card
from mazziere.uno.options import Rules

SKIP_RANK = 10
REVERSE_RANK = 11
DRAW2_RANK = 12


def rank(card: int) -> int:
    """0-9 numbers, 10 Skip, 11 Reverse, 12 +2, 13 Wild, 14 +4."""
    if card >= WILD_FACE:
        return 13 if card == WILD_FACE else 14
    return card % 13


def face_matches(card: int, top: int, color: int, reverse_skip_same: bool) -> bool:
    """The matching rule on plain integers: ``card`` on ``top`` when the current colour is
    ``color`` (``-1``: none yet). By colour, number or symbol; wilds always match; a wild on
    top is matched by colour only. With ``reverse_skip_same`` Skip and Reverse count as one
    symbol (001 var. 6). +4 legality is separate (:func:`wild4_legal`).

    Written once, on integers only, so that the compiled casino kernel (numba) compiles this
    very function (mazziere.sim.casino_kernel).

    >>> from mazziere.cards.uno import parse_card as c
    >>> face_matches(c("B7"), c("R7"), 0, False), face_matches(c("BS"), c("RR"), 0, True)
    (True, True)
    """
    if card >= WILD_FACE:
        return True
    if card // 13 == color:  # a coloured face's colour (cards.uno: face = colour * 13 + rank)
        return True
    if top >= WILD_FACE:
        return False
    r = card % 13
    tr = top % 13
    if r == tr:
        return True
    return (
        reverse_skip_same and (r in (SKIP_RANK, REVERSE_RANK)) and (tr in (SKIP_RANK, REVERSE_RANK))
    )


def wild4_color_legal(same_color_cards: int) -> bool:
    """The ``color`` +4 rule (000/004/Mattel) on a count: a +4 is legal when the player holds
    no other card of the current colour. On integers, for the compiled kernel too."""
    return same_color_cards == 0


def matches(card: int, top: int, color: int | None, rules: Rules) -> bool:
    """Card on top by colour (the current colour), number or symbol; wilds always match
    (:func:`face_matches` under ``rules``)."""
    return face_matches(card, top, -1 if color is None else color, rules.reverse_skip_same)


def wild4_legal(rest: Iterable[int], top: int, color: int | None, rules: Rules) -> bool:
    """Whether a +4 is legal given the player's other cards ``rest``.

    ``color`` (000/004/Mattel): no other card of the current colour. ``any_playable`` (003): no
    other card that could be played at all, a plain Wild included; other +4s do not count (two
    +4s in hand do not forbid each other). ``none``: always legal.
    """
    mode = rules.wild4_rule
    if mode == "none":
        return True
    if mode == "color":
        return wild4_color_legal(sum(1 for c in rest if FACE_COLOR[c] == color))
    return all(c == WILD4_FACE or not matches(c, top, color, rules) for c in rest)


def without_one(hand: Iterable[Card], card: int) -> list[Card]:
    """The hand with one copy of ``card`` removed."""
    out = list(hand)
    out.remove(card)  # type: ignore[arg-type]
    return out


def can_stack(card: int, top: int, rules: Rules) -> bool:
    """Whether ``card`` may be stacked on the pending draw card ``top`` (001 var. 2-4)."""
    s = rules.stacking
    if s == "none":
        return False
    if top == WILD4_FACE:
        return s == "all" and card == WILD4_FACE
    # top is a +2
    if card < WILD_FACE:
        return card % 13 == DRAW2_RANK
    return card == WILD4_FACE and s in ("draw2_draw4", "all")
