"""The five-card hand evaluator: ``evaluate(cards, rules) -> HandRank`` (draw-poker.md "Decks
and hands"; seed 002's ranking and ties by kickers).

>>> evaluate("Ah Kh Qh Jh Th").category
<Category.STRAIGHT_FLUSH: 'straight_flush'>
>>> evaluate("Kc Kd 7h 7s Ac").description
'two pair, kings and sevens, ace kicker'
>>> evaluate("Ac 7d 8h 9s Tc", Rules(deck=32)) < evaluate("7c 8d 9h Ts Jc", Rules(deck=32))
True
>>> evaluate("As Ks Qs Js 9s", Rules(deck=32, flush_beats_full_house=True)) > evaluate(
...     "Ac Ad Ah Kc Kd", Rules(deck=32, flush_beats_full_house=True))
True

A :class:`HandRank` compares and hashes by its dense rank (1 = weakest class under these rules);
equal ranks are equal hands (a tie). Ranks from different rules are not comparable. The batch
API over NumPy arrays is :func:`mazziere.sim.poker_batch.evaluate_batch`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mazziere.errors import MalformedAction
from mazziere.poker.cards import RANK_NAMES, RANK_PLURALS, Card, as_cards, lowest_rank
from mazziere.poker.options import Rules
from mazziere.poker.tables import (
    FLUSH_ADD,
    FLUSH_TEST,
    KEY_MASK,
    MASK_MASK,
    RANK_FIELD,
    SUIT_FIELD,
    Category,
    Tables,
    build_tables,
)

DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True, order=True)
class HandRank:
    """A hand's strength: compares by ``value`` (dense rank, higher is better)."""

    value: int
    category: Category = field(compare=False)
    ranks: tuple[int, ...] = field(compare=False)
    """The ranks (0 = two .. 12 = ace) that decide ties, most significant first."""
    description: str = field(compare=False)

    def __str__(self) -> str:
        return self.description


def tables_for(rules: Rules) -> Tables:
    """The evaluator tables of these rules (built once, then cached)."""
    return build_tables(rules.deck, rules.ace_low_straight, rules.flush_beats_full_house)


def _names(ranks: Iterable[int]) -> str:
    words = [RANK_NAMES[r] for r in ranks]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def describe(category: Category, ranks: tuple[int, ...], deck: int = 52) -> str:
    """A readable description, e.g. ``two pair, kings and sevens, ace kicker``."""
    p, n = RANK_PLURALS, RANK_NAMES
    kick = ranks[1:]
    if category is Category.HIGH_CARD:
        return f"high card {n[ranks[0]]}, then {_names(kick)}"
    if category is Category.PAIR:
        return f"pair of {p[ranks[0]]}, {_names(kick)} kickers"
    if category is Category.TWO_PAIR:
        return f"two pair, {p[ranks[0]]} and {p[ranks[1]]}, {n[ranks[2]]} kicker"
    if category is Category.THREE_OF_A_KIND:
        return f"three of a kind, {p[ranks[0]]}, {_names(kick)} kickers"
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = ranks[0]
        low_ace = top == lowest_rank(deck) + 3
        if category is Category.STRAIGHT_FLUSH and top == 12:
            return "straight flush, ace high (royal flush)"
        word = "straight" if category is Category.STRAIGHT else "straight flush"
        return f"{word}, {n[top]} high" + (" (ace low)" if low_ace else "")
    if category is Category.FLUSH:
        return f"flush, {n[ranks[0]]} high, then {_names(kick)}"
    if category is Category.FULL_HOUSE:
        return f"full house, {p[ranks[0]]} full of {p[ranks[1]]}"
    return f"four of a kind, {p[ranks[0]]}, {n[ranks[1]]} kicker"


@functools.cache
def _classes(deck: int, ace_low: bool, flush_beats: bool) -> tuple[HandRank, ...]:
    t = build_tables(deck, ace_low, flush_beats)
    out = [HandRank(0, Category.HIGH_CARD, (), "no hand")]
    for d in range(1, len(t.categories)):
        cat, sig = t.categories[d], t.sig_ranks[d]
        out.append(HandRank(d, cat, sig, describe(cat, sig, deck)))
    return tuple(out)


def hand_classes(rules: Rules) -> tuple[HandRank, ...]:
    """Every hand class under these rules by dense rank (index 0 is a placeholder)."""
    return _classes(rules.deck, rules.ace_low_straight, rules.flush_beats_full_house)


def rank_of(cards: Sequence[int], t: Tables) -> int:
    """The dense rank of five valid, distinct card numbers (no checks: the engine's and the
    bots' fast path)."""
    p = t.packed_list
    s = p[cards[0]] + p[cards[1]] + p[cards[2]] + p[cards[3]] + p[cards[4]]
    if ((s >> SUIT_FIELD) + FLUSH_ADD) & FLUSH_TEST:
        return t.flush_list[(s >> RANK_FIELD) & MASK_MASK]
    return t.unsuited_list[s & KEY_MASK]


def check_hand(cards: tuple[Card, ...], rules: Rules) -> None:
    """Refuse anything but five distinct cards of the rules' deck."""
    if len(cards) != 5:
        raise MalformedAction(f"a hand has five cards, not {len(cards)}", "bad_hand")
    if len(set(cards)) != 5:
        raise MalformedAction("a hand cannot hold the same card twice", "bad_hand")
    low = rules.lowest_rank
    if low:
        for c in cards:
            if c >> 2 < low:
                raise MalformedAction(f"{c} is not in the {rules.deck}-card deck", "bad_card")


@dataclass(frozen=True, slots=True)
class _Fast:
    """The single-call path's tables for one rule variant: card -> small packed int (rank key in
    bits 0-18, 3-bit counts of clubs, diamonds and hearts above), and key sum -> HandRank."""

    rules: Rules
    pack: dict[int, int]
    """Card (or card number) of the deck -> packed int; anything else is missing."""
    flushed: tuple[bool, ...]
    """Suit counts (bits 19-27 of a sum) -> five of one suit."""
    plain: tuple[HandRank | None, ...]
    flushes: dict[int, HandRank]


@functools.cache
def _fast(rules: Rules) -> _Fast:
    t = tables_for(rules)
    classes = hand_classes(rules)
    low = rules.lowest_rank
    pack: dict[int, int] = {}
    for c in range(low * 4, 52):
        suit_bits = 1 << (19 + 3 * (c & 3)) if c & 3 < 3 else 0
        pack[c] = t.key_list[c] | suit_bits
    flushed = tuple(v in (0, 5, 5 << 3, 5 << 6) for v in range(512))
    plain = tuple(classes[r] if r else None for r in t.unsuited_list)
    flushes = {
        sum(t.key_list[4 * r] for r in range(13) if m >> r & 1): classes[d]
        for m, d in enumerate(t.flush_list)
        if d
    }
    return _Fast(rules, pack, flushed, plain, flushes)


_last: list[_Fast] = []
"""The fast tables of the last rules used (a one-entry cache by identity: hashing a ``Rules``
costs more than evaluating a hand)."""


def evaluate(cards: str | Iterable[int], rules: Rules = DEFAULT_RULES) -> HandRank:
    """The rank of five cards (cards, card numbers or text such as ``"AhKhQhJhTh"``)."""
    if not _last or _last[0].rules is not rules:
        _last[:] = [_fast(rules)]
    f = _last[0]
    try:
        seq: Sequence[int] = cards  # type: ignore[assignment]
        c0, c1, c2, c3, c4 = seq
        p = f.pack
        s = p[c0] + p[c1] + p[c2] + p[c3] + p[c4]
        distinct = len({c0, c1, c2, c3, c4}) == 5
    except (KeyError, TypeError, ValueError):
        distinct = False
    if not distinct:  # not five distinct cards of the deck: say why
        hand = as_cards(cards)
        check_hand(hand, rules)
        s = sum(f.pack[c] for c in hand)
    if f.flushed[s >> 19]:
        return f.flushes[s & KEY_MASK]
    return f.plain[s & KEY_MASK]  # type: ignore[return-value]
