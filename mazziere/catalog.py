"""The catalog of games: what a table of each game may be created with, as JSON-ready data.

Generated from the rules themselves, so a client builds its create-table form from one source
of truth (``GET /api/catalog``): every game of :data:`mazziere.game.REGISTRY`, its presets (with
their seat limits, match format and doc), its options read from the frozen rules dataclass by
introspection (name, type, choices of a ``Literal`` or ``Enum``, default, doc from
:func:`mazziere.fields.option`), and the settings a create request sends (seats, computer
players, levels, decks, stakes, decision time) with their limits and defaults.

Standard library only, no I/O; the result is deterministic and in a stable order.

>>> c = catalog()
>>> [g["name"] for g in c["games"]]
['uno', 'casino', 'poker']
>>> uno = c["games"][0]
>>> [(p["name"], p["min_players"], p["max_players"]) for p in uno["presets"]][2]
('online', 2, 4)
>>> next(o for o in uno["options"] if o["name"] == "stacking")["choices"]
['none', 'draw2', 'draw2_draw4', 'all']
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Mapping
from enum import Enum
from typing import Any, Literal, get_args, get_origin

from mazziere.casino.readings import Readings
from mazziere.casino.readings import alternatives as reading_alternatives
from mazziere.casino.rules import MAX_MULTIPLIER, PUBLISHED_RTP, SMALLEST_STAKE, CasinoRules
from mazziere.casino.table_game import DEFAULTS as CASINO_DEFAULTS
from mazziere.errors import OptionError
from mazziere.fields import doc_of, limits_of
from mazziere.game import (
    BOT_DELAY,
    BOT_DELAY_MAX,
    DECISION_SECONDS,
    DECISION_SECONDS_MAX,
    REGISTRY,
    TABLE_NAME_MAX,
    TableGame,
    find_game,
)
from mazziere.poker import presets as poker_presets
from mazziere.poker.bots import LEVELS
from mazziere.poker.options import Rules as PokerRules
from mazziere.poker.table_game import DEFAULT_LEVEL
from mazziere.poker.table_game import DEFAULT_PRESET as POKER_PRESET
from mazziere.uno import presets as uno_presets
from mazziere.uno.bots import BOTS as UNO_BOTS
from mazziere.uno.options import MAX_SEATS, MIN_SEATS
from mazziere.uno.options import Rules as UnoRules
from mazziere.uno.table_game import DEFAULT_BOTS, DEFAULT_PRESET, DEFAULT_SEATS

CATALOG_VERSION = 1
"""Bumped when the shape of :func:`catalog` changes incompatibly."""

RULES_OF: dict[str, type[Any]] = {"uno": UnoRules, "casino": CasinoRules, "poker": PokerRules}
"""Each registry game's rules dataclass (its options)."""

PUBLISHED_RETURNS: dict[str, tuple[float, int]] = {"casino": (PUBLISHED_RTP, MAX_MULTIPLIER)}
"""The games whose return to player is published: the theoretical return and the largest
payout, in stakes (the server's RTP watch, :mod:`mazziere.server.rtp_monitor`)."""

PRESETS_OF: dict[type[Any], Mapping[str, Any]] = {
    UnoRules: uno_presets.PRESETS,
    PokerRules: poker_presets.PRESETS,
    Readings: {r.label(): r for r in reading_alternatives()},
}
"""Named values of a rules dataclass: a field of that type is a choice among them."""


# ------------------------------------------------------------------------------ values
def jsonable(value: Any) -> Any:
    """``value`` as JSON data: tuples become lists, enums their value, a rules value the name
    of the preset it equals (a value no preset names is refused: it has no JSON form here)."""
    if isinstance(value, Enum):
        return jsonable(value.value)
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        presets = PRESETS_OF.get(type(value), {})
        for name, preset in presets.items():
            if preset == value:
                return name
        raise TypeError(f"no preset equals {value!r}")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no JSON form for {value!r}")


def one_line(text: str | None) -> str:
    """A doc on one line (whitespace runs collapsed)."""
    return " ".join((text or "").split())


# ------------------------------------------------------------------------------ options
def describe_type(tp: Any, owner: type[Any] | None = None, name: str = "") -> dict[str, Any]:
    """The catalog type of an annotation: ``{"type": ..., "choices"?, "item"?, "nullable"?}``.

    ``bool``, ``int``, ``float``, ``str``; ``choice`` for a ``Literal`` or an ``Enum`` (its
    values); ``tuple`` with the ``item`` type of ``tuple[X, ...]``; ``X | None`` is X with
    ``nullable``; a field holding a rules value is a ``preset`` choice among the presets that
    ``owner`` accepts for it."""
    origin, args = get_origin(tp), get_args(tp)
    if origin in (types.UnionType, typing.Union):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return {**describe_type(rest[0], owner, name), "nullable": True}
        raise TypeError(f"{name}: unions other than X | None have no catalog type: {tp!r}")
    if origin is Literal:
        return {"type": "choice", "choices": [jsonable(a) for a in args]}
    if isinstance(tp, type) and issubclass(tp, Enum):
        return {"type": "choice", "choices": [jsonable(m.value) for m in tp]}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "tuple", "item": describe_type(args[0], owner, name)}
    for plain in (bool, int, float, str):  # bool first: a bool is an int
        if tp is plain:
            return {"type": plain.__name__}
    if tp in PRESETS_OF:
        return {"type": "preset", "choices": _accepted_presets(tp, owner, name)}
    raise TypeError(f"{name}: no catalog type for {tp!r}")


def _accepted_presets(tp: type[Any], owner: type[Any] | None, name: str) -> list[str]:
    """The presets of ``tp`` that ``owner`` accepts in its field ``name`` (all without one)."""
    out: list[str] = []
    for preset_name, preset in PRESETS_OF[tp].items():
        if owner is not None:
            try:
                owner(**{name: preset})
            except OptionError:
                continue
        out.append(preset_name)
    return out


def options(rules: type[Any]) -> list[dict[str, Any]]:
    """Every field of the rules dataclass ``rules``, in declaration order: name, type (with
    choices), default and doc."""
    hints = typing.get_type_hints(rules)
    out: list[dict[str, Any]] = []
    for f in dataclasses.fields(rules):
        if f.default is dataclasses.MISSING:
            raise TypeError(f"{rules.__name__}.{f.name} has no default")
        out.append(
            {
                "name": f.name,
                **describe_type(hints[f.name], rules, f.name),
                "default": jsonable(f.default),
                "doc": one_line(doc_of(f)),
                **limits_of(f),
            }
        )
    return out


def _field(rules: type[Any], name: str) -> dataclasses.Field[Any]:
    return next(f for f in dataclasses.fields(rules) if f.name == name)


# ------------------------------------------------------------------------------ presets
def _values(preset: Any) -> dict[str, Any]:
    return {f.name: jsonable(getattr(preset, f.name)) for f in dataclasses.fields(preset)}


def uno_presets_list() -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "doc": one_line(uno_presets.DOCS[name]),
            "min_players": r.min_players,
            "max_players": r.max_players,
            "match": r.match,
            "target": r.target,
            "fixed_hands": r.fixed_hands,
            "values": _values(r),
        }
        for name, r in uno_presets.PRESETS.items()
    ]


def poker_presets_list() -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "doc": one_line(poker_presets.DOCS[name]),
            "deck": r.deck,
            "values": _values(r),
        }
        for name, r in poker_presets.PRESETS.items()
    ]


# ------------------------------------------------------------------------------ settings
def table_settings() -> list[dict[str, Any]]:
    """What every create-table request may send, whatever the game."""
    return [
        {
            "name": "name",
            "type": "str",
            "default": "",
            "max_length": TABLE_NAME_MAX,
            "doc": "The table's name in the lobby (empty: named after the game).",
        },
        {
            "name": "decision_seconds",
            "type": "float",
            "default": DECISION_SECONDS,
            "exclusive_min": 0,
            "max": DECISION_SECONDS_MAX,
            "doc": "Seconds per decision; when they run out the server acts for the player.",
        },
        {
            "name": "bot_delay",
            "type": "float",
            "default": BOT_DELAY,
            "min": 0,
            "max": BOT_DELAY_MAX,
            "doc": "Seconds each computer player thinks before a move (0: at once).",
        },
    ]


def _choice(name: str, choices: list[Any], default: Any, doc: str) -> dict[str, Any]:
    return {"name": name, "type": "choice", "choices": choices, "default": default, "doc": doc}


def game_settings(game: str) -> list[dict[str, Any]]:
    """What a create request for ``game`` sends besides :func:`table_settings` (what its
    session's ``table_config`` reads), with choices, limits and defaults."""
    if game == "uno":
        return [
            _choice(
                "preset",
                list(uno_presets.PRESETS),
                DEFAULT_PRESET,
                "The named rule set the table plays; options change it.",
            ),
            {
                "name": "seats",
                "type": "int",
                "default": DEFAULT_SEATS,
                "min": MIN_SEATS,
                "max": MAX_SEATS,
                "doc": "Seats at the table, within the preset's players; empty seats get "
                "computer players at the start.",
            },
            _choice(
                "bots",
                list(UNO_BOTS),
                DEFAULT_BOTS,
                "The computer players given the empty seats at the start.",
            ),
            {
                "name": "options",
                "type": "options",
                "default": {},
                "doc": "Any UNO option by name, on top of the preset.",
            },
        ]
    if game == "casino":
        return [
            {
                "name": name,
                "type": "int",
                "unit": "cents",
                "default": getattr(CASINO_DEFAULTS, name),
                "min": SMALLEST_STAKE,
                "doc": one_line(doc_of(_field(CasinoRules, name))),
            }
            for name in ("min_stake", "max_stake")
        ]
    if game == "poker":
        return [
            _choice(
                "preset",
                list(poker_presets.PRESETS),
                POKER_PRESET,
                "The named rule set the table plays (its deck among them); options change it.",
            ),
            _choice(
                "level",
                list(LEVELS),
                DEFAULT_LEVEL,
                "How well the computer opponent plays.",
            ),
            {
                "name": "options",
                "type": "options",
                "default": {},
                "doc": "Any draw-poker option by name (ante, bankroll...), on top of the preset.",
            },
        ]
    raise KeyError(f"no table settings for game {game!r}")


def presets_of(game: str) -> list[dict[str, Any]]:
    if game == "uno":
        return uno_presets_list()
    if game == "poker":
        return poker_presets_list()
    return []


# ------------------------------------------------------------------------------ the catalog
def describe_game(name: str) -> dict[str, Any]:
    session: type[TableGame] = find_game(name)
    config, _ = session.table_config({})
    table_rules = session.table_rules(config)
    return {
        "name": name,
        "doc": one_line(inspect.getdoc(session)),
        "presets": presets_of(name),
        "settings": game_settings(name),
        "options": options(RULES_OF[name]),
        "table_rules": jsonable(dataclasses.asdict(table_rules)),
    }


def catalog() -> dict[str, Any]:
    """Every registry game, in registry order, with what a table of it may be created with."""
    return {
        "version": CATALOG_VERSION,
        "table": table_settings(),
        "games": [describe_game(name) for name in REGISTRY],
    }
