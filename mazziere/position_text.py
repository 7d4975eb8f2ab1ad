"""Pieces shared by the positions-as-text grammars of every game (docs/positions.md): the
random sources, whole numbers, and splitting a line into ``key=value`` fields. Each game's
grammar lives in its own module (:mod:`mazziere.uno.position`,
:mod:`mazziere.casino.position`, :mod:`mazziere.poker.position`); mistakes raise
:class:`~mazziere.errors.BadPosition` with the codes listed there.

>>> format_rng(parse_rng("splitmix:7:12"))
'splitmix:7:12'
>>> split_fields("poker deal=2 turn=1", "poker", ("deal", "turn"))
{'deal': '2', 'turn': '1'}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from mazziere.errors import BadPosition, MalformedAction
from mazziere.rng import Rng, ShakeRng, SplitMixRng


def format_rng(rng: Rng) -> str:
    """A random source as text: ``splitmix:SEED:STATE`` or ``shake:HEXSEED:BLOCK:POS``."""
    if isinstance(rng, SplitMixRng):
        return f"splitmix:{rng.seed}:{rng.state}"
    if isinstance(rng, ShakeRng):
        block, pos = rng.position
        return f"shake:{rng.seed.hex()}:{block}:{pos}"
    raise BadPosition(f"cannot write a {type(rng).__name__} random source", "bad_rng")


def parse_rng(text: str) -> Rng:
    """A random source from :func:`format_rng`'s text."""
    kind, _, rest = text.partition(":")
    parts = rest.split(":")
    try:
        if kind == "splitmix" and len(parts) == 2:
            return SplitMixRng.at(int(parts[0]), int(parts[1]))
        if kind == "shake" and len(parts) == 3:
            seed = bytes.fromhex(parts[0])
            return ShakeRng.at(seed, int(parts[1]), int(parts[2]))
    except ValueError as e:
        raise BadPosition(f"bad random source {text!r}: {e}", "bad_rng") from None
    raise BadPosition(
        f"a random source is splitmix:SEED:STATE or shake:HEXSEED:BLOCK:POS, not {text!r}",
        "bad_rng",
    )


def split_fields(text: str, prefix: str, keys: Sequence[str]) -> dict[str, str]:
    """The ``key=value`` fields of a position line that starts with the word ``prefix``: each
    key one of ``keys``, at most once, with a non-empty value (else ``bad_position``)."""
    if not isinstance(text, str):
        raise BadPosition("a position is a string")
    tokens = text.split()
    if not tokens or tokens[0] != prefix:
        raise BadPosition(f"a {prefix} position starts with {prefix!r}")
    return split_tokens(tokens[1:], keys)


def split_tokens(tokens: Sequence[str], keys: Sequence[str]) -> dict[str, str]:
    """``key=value`` tokens as a dict (see :func:`split_fields`)."""
    out: dict[str, str] = {}
    for tok in tokens:
        key, sep, value = tok.partition("=")
        if not sep or not value:
            raise BadPosition(f"{tok!r} is not key=value")
        if key not in keys:
            raise BadPosition(f"unknown key {key!r}; keys: {', '.join(keys)}")
        if key in out:
            raise BadPosition(f"key {key!r} given twice")
        out[key] = value
    return out


def parse_int(key: str, text: str, low: int | None = 0) -> int:
    """A whole number written in decimal, at least ``low`` (``None``: any), else
    ``bad_position``."""
    try:
        v = int(text)
    except ValueError:
        raise BadPosition(f"{key}: {text!r} is not a whole number") from None
    if low is not None and v < low:
        raise BadPosition(f"{key}: {v} is below {low}")
    return v


def parse_int_list(key: str, text: str, low: int | None = 0) -> tuple[int, ...]:
    """Whole numbers joined by commas, or ``-`` for none."""
    if text == "-":
        return ()
    return tuple(parse_int(key, t, low) for t in text.split(","))


C = TypeVar("C")


def parse_card_list(key: str, text: str, parse_card: Callable[[str], C]) -> list[C]:
    """Cards joined by commas, read by the game's ``parse_card``, or ``-`` for none; a card
    that is not one is ``bad_card``."""
    if text == "-":
        return []
    try:
        return [parse_card(t) for t in text.split(",")]
    except MalformedAction as e:
        raise BadPosition(f"{key}: {e.message}", "bad_card") from None


def parse_bool(key: str, text: str) -> bool:
    """``0`` or ``1``."""
    if text not in ("0", "1"):
        raise BadPosition(f"{key} is 0 or 1, not {text!r}")
    return text == "1"


def ints_text(values: Sequence[int]) -> str:
    """Whole numbers joined by commas, or ``-`` when there are none."""
    return ",".join(str(v) for v in values) if values else "-"


def escape_word(text: str) -> str:
    """Free text as one token with no space, ``:``, ``,``, ``=`` or ``/``: a space becomes
    ``_``, and ``_``, ``%`` and every other character but letters, digits, ``.``, ``'`` and
    ``-`` becomes ``%XX`` (its UTF-8 bytes). :func:`unescape_word` reverses it exactly.

    >>> escape_word("seat 0 cannot pay: 5%"), unescape_word(escape_word("a_b c"))
    ('seat_0_cannot_pay%3A_5%25', 'a_b c')
    """
    out: list[str] = []
    for ch in text:
        if ch == " ":
            out.append("_")
        elif ch.isascii() and (ch.isalnum() or ch in ".'-"):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode())
    return "".join(out)


def unescape_word(text: str) -> str:
    """The text :func:`escape_word` wrote (``bad_position`` on a broken ``%XX``)."""
    raw = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "%":
            pair = text[i + 1 : i + 3]
            if len(pair) != 2 or any(c not in "0123456789abcdefABCDEF" for c in pair):
                raise BadPosition(f"{text!r}: % is followed by two hex digits")
            raw.append(int(pair, 16))
            i += 3
            continue
        raw.extend(b" " if ch == "_" else ch.encode())
        i += 1
    try:
        return raw.decode()
    except UnicodeDecodeError:
        raise BadPosition(f"{text!r} is not UTF-8 once unescaped") from None
