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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from mazziere.errors import MalformedAction
from mazziere.poker.cards import CARDS, RANK_NAMES, RANK_PLURALS, Card, as_cards, lowest_rank
from mazziere.poker.eval_tables import (
    CHECK_MASK,
    FLUSH_ADD,
    FLUSH_TEST,
    KEY_MASK,
    KEY_SPACE,
    MASK_MASK,
    RANK_FIELD,
    SUIT_FIELD,
    Category,
    Tables,
    build_tables,
    check_keys,
    check_value,
)
from mazziere.poker.options import Rules

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
class _Lookup:
    """The checked single call's tables (eval_tables.py, "The checked single call"), with the
    ``Rules`` object they were last used for."""

    rules: Rules
    values: dict[int, int]
    """Each card of the deck (keyed by the :class:`Card` itself) -> its check value."""
    plain: tuple[HandRank | None, ...]
    """Rank key -> the class of the hands with these ranks that are not a flush."""
    flushes: dict[int, HandRank]
    """Rank key with one flush bit -> the flush's class."""


@functools.cache
def _lookup_tables(
    deck: int, ace_low: bool, flush_beats: bool
) -> tuple[dict[int, int], tuple[HandRank | None, ...], dict[int, HandRank]]:
    classes = _classes(deck, ace_low, flush_beats)
    keys = check_keys(deck, ace_low, flush_beats)
    plain: list[HandRank | None] = [None] * KEY_SPACE
    for key, dense in keys.items():
        if key < KEY_SPACE:
            plain[key] = classes[dense]
    values: dict[int, int] = {CARDS[c]: check_value(c) for c in range(4 * lowest_rank(deck), 52)}
    flushes = {key: classes[dense] for key, dense in keys.items() if key >= KEY_SPACE}
    return values, tuple(plain), flushes


_last = _Lookup(cast(Rules, object()), {}, (), {})
"""The tables of the last ``Rules`` object used (a one-entry cache by identity: hashing a
``Rules`` costs more than evaluating a hand). Replaced whole, so threads read a consistent set."""


def _use(rules: Rules) -> _Lookup:
    global _last
    _last = _Lookup(
        rules,
        *_lookup_tables(rules.deck, rules.ace_low_straight, rules.flush_beats_full_house),
    )
    return _last


def evaluate(cards: str | Iterable[int], rules: Rules = DEFAULT_RULES) -> HandRank:
    """The rank of five cards (cards, card numbers or text such as ``"AhKhQhJhTh"``); anything
    but five distinct cards of the rules' deck raises :class:`MalformedAction`.

    The five cards' check values are added and masked once, and the result indexes the classes
    of hands that are not a flush; a flush or a repeated card falls outside that tuple, and
    only a flush is in the second table (eval_tables.py, "The checked single call"). Whatever these
    do not know (text, card numbers of another type, a bad hand) takes the readable path, which
    says what is wrong.
    """
    f = _last
    if f.rules is not rules:
        f = _use(rules)
    five: Sequence[int] = cards  # type: ignore[assignment]  # text fails below, then is read
    try:
        a, b, c, d, e = five
    except (TypeError, ValueError):
        return _evaluate_slowly(cards, rules)
    v = f.values
    try:
        s = v[a] + v[b] + v[c] + v[d] + v[e]
        return f.plain[s & CHECK_MASK]  # type: ignore[return-value]  # never None: tested
    except IndexError:  # a flush bit or a repeat bit is set
        flush = f.flushes.get(s & CHECK_MASK)
        if flush is not None:
            return flush
    except (KeyError, TypeError):  # not cards of the deck
        pass
    return _evaluate_slowly((a, b, c, d, e) if isinstance(cards, Iterator) else cards, rules)


def _evaluate_slowly(cards: str | Iterable[int], rules: Rules) -> HandRank:
    """The readable path: read the cards, refuse anything but five distinct cards of the deck,
    rank them with :func:`rank_of`."""
    if isinstance(cards, Iterator):  # already read by the fast path: its count is lost
        raise MalformedAction("a hand has five cards", "bad_hand")
    hand = as_cards(cards)
    check_hand(hand, rules)
    return hand_classes(rules)[rank_of(hand, tables_for(rules))]
