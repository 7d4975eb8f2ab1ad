"""Corrupted positions of every game (docs/positions.md): a valid position text of a random
reachable state, with numbers changed or moved from one to another, fields swapped, copied or
dropped, list elements (cards, seats, moves) moved, swapped, copied or dropped, and characters
edited, is either refused by the game's ``parse_position`` with
:class:`~mazziere.errors.BadPosition`, or read as a game that random actions play on to its
end (or a bound) with only typed errors (:class:`~mazziere.errors.MazziereError`) ever
raised: never a bare ``AssertionError``, ``IndexError``, ``KeyError``... A position that
parses is one the engine can play. Poker positions also get their chips and items shared out
again, the game's money kept, which the text edits seldom manage."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere import casino, poker, uno
from mazziere.casino import BANK, CasinoRound, CasinoRules
from mazziere.casino.readings import Readings
from mazziere.errors import BadPosition, MazziereError
from mazziere.rng import ShakeRng, SplitMixRng
from mazziere.uno.actions import Timeout

from .uno.test_position import VARIANTS

T = TypeVar("T")
EXAMPLES = 250
"""Corrupted positions per test and run (each played on for up to ``STEPS`` actions)."""
STEPS = 40
MAX_EDITS = 3

# ---------------------------------------------------------------------- corrupting a text
Edit = Callable[[st.DataObject, str], str]
FIELD = re.compile(r"(?<= )([a-z0-9]+)=(\S+)")
NUMBER = re.compile(r"-?\d+")
JUNK = "0123456789-,/:=_* RYGBWDSAKQJTcdhspfw"
NEAR = 2
"""Two fields at most this far apart in the text are related: a second number or list is
drawn near the first (a bankroll and the pot, a hand and the draw pile, scores)."""


def _near(data: st.DataObject, fields: list[re.Match[str]], first: int | None) -> int:
    """The index of a field: any, or one near field ``first``."""
    lo, hi = (0, len(fields) - 1) if first is None else (first - NEAR, first + NEAR)
    return data.draw(st.integers(max(lo, 0), min(hi, len(fields) - 1)), label="field")


def _number(
    data: st.DataObject, text: str, near: int | None = None
) -> tuple[int, re.Match[str]] | None:
    """A whole number of the text and the index of its field, drawn field first (a pot is
    drawn as often as a deck), near field ``near`` when given."""
    fields = list(FIELD.finditer(text))
    if not fields:
        return None
    k = _near(data, fields, near)
    found = list(NUMBER.finditer(text, fields[k].start(2), fields[k].end(2)))
    if not found:
        return None
    return k, data.draw(st.sampled_from(found), label="number")


def _numbers(data: st.DataObject, text: str) -> str:
    """One whole number replaced: by a neighbour, a small number or a large one."""
    picked = _number(data, text)
    if picked is None:
        return text
    m = picked[1]
    old = int(m.group())
    new = data.draw(
        st.integers(-1, 1).map(lambda d: old + d)
        | st.integers(-2, 12)
        | st.sampled_from([50, 99, 100, 107, 108, 500, 1600, 10**9]),
        label="new number",
    )
    return text[: m.start()] + str(new) + text[m.end() :]


def _transfer(data: st.DataObject, text: str) -> str:
    """An amount moved from one whole number to another nearby (from a bankroll to the pot,
    from one score to another...): sums that a position must conserve stay the same."""
    first = _number(data, text)
    if first is None:
        return text
    second = _number(data, text, first[0])
    if second is None or first[1].start() == second[1].start():
        return text
    a, b = first[1], second[1]
    old = int(a.group())
    amount = data.draw(
        st.integers(1, 10) | st.integers(0, 3).map(lambda k: old - k), label="amount"
    )
    new = {a.start(): (a, old - amount), b.start(): (b, int(b.group()) + amount)}
    for _, (m, value) in sorted(new.items(), reverse=True):
        text = text[: m.start()] + str(value) + text[m.end() :]
    return text


def _fields(data: st.DataObject, text: str) -> str:
    """Two fields' values swapped, one field's value copied to another, or a field dropped."""
    found = list(FIELD.finditer(text))
    if len(found) < 2:
        return text
    a, b = (data.draw(st.sampled_from(found), label="field") for _ in range(2))
    how = data.draw(st.sampled_from(["swap", "copy", "drop"]), label="field edit")
    values = {m.start(): m.group(2) for m in found}
    if how == "swap":
        values[a.start()], values[b.start()] = b.group(2), a.group(2)
    elif how == "copy":
        values[a.start()] = b.group(2)
    out, last = [], 0
    for m in found:
        out.append(text[last : m.start()])
        if not (how == "drop" and m.start() == a.start()):
            out.append(f"{m.group(1)}={values[m.start()]}")
        last = m.end()
    out.append(text[last:])
    return re.sub(" +", " ", "".join(out)).strip()


def _elements(data: st.DataObject, text: str) -> str:
    """One element of a list value (a card, a seat, a move...) moved to another place of its
    list or of a list nearby, swapped with another, copied or dropped: moving cards keeps
    every card once. Every value is read as lists (``/``) of elements (``,``); ``-`` is an
    empty list."""
    fields = list(FIELD.finditer(text))
    if not fields:
        return text
    lists = [[[] if g == "-" else g.split(",") for g in m.group(2).split("/")] for m in fields]
    k = _near(data, fields, None)
    places = [(gi, i) for gi, g in enumerate(lists[k]) for i in range(len(g))]
    if not places:
        return text
    gi, i = data.draw(st.sampled_from(places), label="element")
    item = lists[k][gi][i]
    how = data.draw(st.sampled_from(["move", "swap", "copy", "drop"]), label="element edit")
    if how == "drop":
        del lists[k][gi][i]
    else:
        if how == "move":
            del lists[k][gi][i]
        k2 = _near(data, fields, k)
        gi2 = data.draw(st.integers(0, len(lists[k2]) - 1), label="target list")
        target = lists[k2][gi2]
        if how == "swap":
            if not target:
                return text
            i2 = data.draw(st.integers(0, len(target) - 1), label="other element")
            lists[k][gi][i], target[i2] = target[i2], item
        else:
            target.insert(data.draw(st.integers(0, len(target)), label="target place"), item)
    out, last = [], 0
    for m, groups in zip(fields, lists, strict=True):
        value = "/".join(",".join(g) or "-" for g in groups)
        out.append(f"{text[last : m.start()]}{m.group(1)}={value}")
        last = m.end()
    return "".join(out) + text[last:]


def _characters(data: st.DataObject, text: str) -> str:
    """One character deleted, replaced or inserted."""
    i = data.draw(st.integers(0, len(text) - 1), label="character")
    c = data.draw(st.sampled_from(JUNK), label="new character")
    how = data.draw(st.sampled_from(["delete", "replace", "insert"]), label="character edit")
    if how == "delete":
        return text[:i] + text[i + 1 :]
    return text[:i] + c + text[i + (how == "replace") :]


EDITS: tuple[Edit, ...] = (
    _numbers,
    _transfer,
    _transfer,
    _fields,
    _elements,
    _elements,
    _characters,
)
"""The edits, those that keep sums and cards (so that more corrupted texts parse) twice."""


def corrupt(data: st.DataObject, text: str) -> str:
    """One to ``MAX_EDITS`` edits of ``text``."""
    for _ in range(data.draw(st.integers(1, MAX_EDITS), label="edits")):
        text = data.draw(st.sampled_from(EDITS), label="edit")(data, text)
    return text


def _source(seed: int) -> SplitMixRng | ShakeRng:
    """SplitMix or SHAKE random sources alternately, as positions write both."""
    return SplitMixRng(seed) if seed % 2 else ShakeRng.from_seed(seed)


def _sample(states: Iterator[T], every: int) -> Iterator[T]:
    """One state in ``every``, and the last one."""
    last = None
    for k, state in enumerate(states):
        if k % every == 0:
            yield state
        last = state
    if last is not None:
        yield last


# ---------------------------------------------------------------------- UNO
def _uno_steps(g: uno.Game, pick: random.Random, steps: int) -> Iterator[uno.Game]:
    """``g`` and the games after random actions of any seat (out-of-turn ones included), a
    time-out now and then, to the end or ``steps`` actions; every seat's view on the way."""
    for _ in range(steps):
        for seat in (None, *range(g.players)):
            uno.view(g, seat)
        yield g
        if g.is_over:
            return
        choices: list[tuple[int, uno.Action]] = list(uno.all_legal_actions(g))
        if not choices or pick.random() < 0.1:
            choices.append((g.current, Timeout()))
        seat, action = pick.choice(choices)
        try:
            g, _ = uno.apply(g, seat, action)
        except MazziereError:
            continue


@cache
def uno_positions() -> list[tuple[uno.Rules, str]]:
    """Positions of random games under every preset and rule variant, from the deal to the
    end of the match."""
    out: list[tuple[uno.Rules, str]] = []
    for k, (_, rules, seats) in enumerate(VARIANTS):
        for seed in range(2):
            pick = random.Random(seed)
            g = uno.Game.new(rules, seats[seed % len(seats)], _source(100 * k + seed))
            for state in _sample(_uno_steps(g, pick, 400), 25):
                out.append((rules, uno.format_position(state)))
    return out


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_corrupted_uno_positions_are_refused_or_play_on_with_typed_errors_only(
    data: st.DataObject, seed: int
) -> None:
    rules, text = data.draw(st.sampled_from(uno_positions()), label="position")
    text = corrupt(data, text)
    try:
        g = uno.parse_position(text, rules)
    except BadPosition:
        return
    for _ in _uno_steps(g, random.Random(seed), STEPS):
        pass


# ---------------------------------------------------------------------- UNO CASINO
def _casino_steps(r: CasinoRound, pick: random.Random, steps: int) -> Iterator[CasinoRound]:
    """``r`` and the rounds after the player's random actions or time-outs, the bank answering
    at once or move by move, to the end or ``steps`` actions; the view, the default strategy's
    choice and the settlement on the way."""
    for _ in range(steps):
        casino.view(r)
        yield r
        if r.result is not None:
            casino.settle(r)
            return
        try:
            if r.uno.current == BANK:
                r, _ = casino.play_bank(r)
                continue
            casino.default_action(r)
            choices: list[uno.Action] = [*casino.legal_actions(r), Timeout()]
            moves = pick.choice([None, 0, 1])
            r, _ = casino.apply(r, pick.choice(choices), bank_moves=moves)
        except MazziereError:
            continue


CASINO_RULES = (
    CasinoRules(),
    CasinoRules(readings=Readings(forced_draws="both", pile_out="fewer", x1_ban="for_good")),
    CasinoRules(
        readings=Readings(
            skip_chain="played",
            skip_answer="turn",
            draw2_count="before",
            forced_draws="player",
            pile_out="refund",
            first_card="bottom",
        )
    ),
)
"""The adopted readings of the casino's rules, and the others (docs/rules/casino.md)."""


@cache
def casino_positions() -> list[tuple[CasinoRules, str]]:
    """Positions of random rounds under each reading, from the deal to the result."""
    out: list[tuple[CasinoRules, str]] = []
    for k, rules in enumerate(CASINO_RULES):
        for seed in range(12):
            r, _ = casino.new_round(rules, rules.min_stake, rng=_source(100 * k + seed))
            for state in _sample(_casino_steps(r, random.Random(seed), 60), 3):
                out.append((rules, casino.format_position(state)))
    return out


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_corrupted_casino_positions_are_refused_or_play_on_with_typed_errors_only(
    data: st.DataObject, seed: int
) -> None:
    rules, text = data.draw(st.sampled_from(casino_positions()), label="position")
    text = corrupt(data, text)
    try:
        r = casino.parse_position(text, rules)
    except BadPosition:
        return
    for _ in _casino_steps(r, random.Random(seed), STEPS):
        pass


# ---------------------------------------------------------------------- draw poker
POKER_RULES = (
    poker.find_preset("classic"),
    poker.find_preset("short32"),
    poker.find_preset("classic").with_options(bankroll=40, item_value=20, max_bet=None),
    poker.Rules(deck=32, bankroll=30, item_value=15, items=("hat", "scarf"), max_raises=1),
)
"""The presets, and small bankrolls with cheap items so that pledges and game ends come soon."""


def _poker_steps(s: poker.State, pick: random.Random, steps: int) -> Iterator[poker.State]:
    """``s`` and the games after random legal actions of the seat to act, to the end or
    ``steps`` actions; every seat's view and legal actions on the way."""
    for _ in range(steps):
        for seat in (None, 0, 1):
            poker.view(s, seat)
        yield s
        if s.is_over:
            return
        poker.legal_actions(s, 1 - s.current)
        choices = poker.legal_actions(s, s.current)
        if not choices:
            return
        try:
            s, _ = poker.apply(s, s.current, pick.choice(choices))
        except MazziereError:
            continue


@cache
def poker_positions() -> list[tuple[poker.Rules, str]]:
    """Positions of random games under each table, from the first deal to the end."""
    out: list[tuple[poker.Rules, str]] = []
    for k, rules in enumerate(POKER_RULES):
        for seed in range(6):
            pick = random.Random(seed)
            s = poker.new_game(rules, _source(10 * k + seed), first_actor=seed % 2)
            for state in _sample(_poker_steps(s, pick, 300), 4):
                out.append((rules, poker.format_position(state)))
    return out


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_corrupted_poker_positions_are_refused_or_play_on_with_typed_errors_only(
    data: st.DataObject, seed: int
) -> None:
    rules, text = data.draw(st.sampled_from(poker_positions()), label="position")
    text = corrupt(data, text)
    try:
        s = poker.parse_position(text, rules)
    except BadPosition:
        return
    for _ in _poker_steps(s, random.Random(seed), STEPS):
        pass


def _with(text: str, **fields: str) -> str:
    """``text`` with these fields' values replaced."""
    for key, value in fields.items():
        text = re.sub(rf"(?<= ){key}=\S*", f"{key}={value}", text)
    return text


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_poker_positions_with_chips_and_items_moved_are_refused_or_play_on_with_typed_errors_only(
    data: st.DataObject, seed: int
) -> None:
    """The chips shared out again between the bankrolls, the pot and this round's bets, and the
    items between worn, pledged and forfeited, the game's money kept: a shape of corruption
    that the generic edits above seldom reach, and where a position breaks the pledges'
    and the bets' rules (draw-poker.md "Money and pledges", "Betting limits")."""
    rules, text = data.draw(st.sampled_from(poker_positions()), label="position")
    n = len(rules.items)
    items = data.draw(st.lists(st.sampled_from("wpf"), min_size=n, max_size=n), label="items")
    stack = data.draw(st.permutations([i for i, c in enumerate(items) if c != "w"]))
    money = 2 * rules.bankroll + n * rules.item_value
    left = money - items.count("w") * rules.item_value
    b0 = data.draw(st.integers(0, left), label="bankroll 0")
    b1 = data.draw(st.integers(0, left - b0), label="bankroll 1")
    c0, c1 = (data.draw(st.integers(0, 2 * rules.ante + 20), label="committed") for _ in "01")
    text = _with(
        text,
        pot=str(left - b0 - b1),
        bankrolls=f"{b0},{b1}",
        committed=f"{c0},{c1}",
        items="".join(items),
        pledges=",".join(map(str, stack)) or "-",
    )
    try:
        s = poker.parse_position(text, rules)
    except BadPosition:
        return
    for _ in _poker_steps(s, random.Random(seed), STEPS):
        pass
