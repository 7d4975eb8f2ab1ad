"""Structured wire forms of actions and events, derived from their dataclasses (one source of
truth): an action becomes ``{"text": "W4:G", "kind": "play", "cards": ["W4"], "color": "G",
...}``, an event ``{"type": "played", "seat": 1, "cards": ["R7"], ...}``. Cards and colours
travel as their text codes, enums as their values. :func:`json_schema` describes every action
and event class of a game for the generated protocol schema, so a client never parses text.
The text forms stay for storage, goldens and the terminal.

Standard library only (the rules layer).

>>> from mazziere.uno import Action
>>> action(Action.parse("W4:G"))
{'text': 'W4:G', 'kind': 'play', 'cards': ['W4'], 'color': 'G', 'target': None}
>>> from mazziere.uno.events import Event
>>> event(Event.parse("drew seat=1 cards= count=2 reason=penalty"))["count"]
2
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from mazziere.textevents import TextEvent

K = TypeVar("K")
V = TypeVar("V")


def value(v: object) -> Any:
    """One field's JSON form: cards and colours as their codes, tuples as lists."""
    if v is None or isinstance(v, bool) or type(v) in (int, float, str):
        return v
    if isinstance(v, tuple | list):
        return [value(x) for x in v]
    if isinstance(v, Enum) and not isinstance(v, int):
        return v.value
    return str(v)  # a card, a colour: their text codes ("R7", "G", "7h")


def kind_of(cls: type) -> str:
    """``CallUno`` -> ``call_uno``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


_NAMES: dict[type, tuple[str, ...]] = {}


def _fields(obj: object) -> dict[str, Any]:
    kind = type(obj)
    names = _NAMES.get(kind)
    if names is None:  # read once per class: every update wires every legal action
        names = _NAMES[kind] = tuple(f.name for f in dataclasses.fields(obj))  # type: ignore[arg-type]
    return {name: value(getattr(obj, name)) for name in names}


_ACTIONS: dict[tuple[type, str], dict[str, Any]] = {}
CACHE_MAX = 100_000
"""Structured forms kept, by action class and text (the text determines the action): the
same actions recur in every update (a poker bet round lists every amount), so each form is
built once. A full cache is emptied and starts again. Callers must not change the dict."""


def action(a: object) -> dict[str, Any]:
    """An action's structured form: its text (what a client sends back), its kind, its
    fields."""
    text = str(a)
    return cached(
        _ACTIONS, (type(a), text), lambda: {"text": text, "kind": kind_of(type(a)), **_fields(a)}
    )


def cached(store: dict[K, V], key: K, make: Callable[[], V]) -> V:
    """``store[key]``, made by ``make`` the first time; a store of :data:`CACHE_MAX` entries is
    emptied and starts again (the server's caches of structured forms)."""
    got = store.get(key)
    if got is None:
        got = make()
        if len(store) >= CACHE_MAX:
            store.clear()
        store[key] = got
    return got


def event(e: TextEvent) -> dict[str, Any]:
    """An event's structured form: its ``type`` (the text form's tag) and its fields."""
    return {"type": e.tag, **_fields(e)}


# ------------------------------------------------------------------------------ schemas
def _schema(tp: Any) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    if tp is type(None):
        return {"type": "null"}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema(t) for t in typing.get_args(tp)]}
    if origin is tuple:
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        return {"type": "array", "items": _schema(args[0]) if args else {}}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if isinstance(tp, type) and issubclass(tp, Enum):
        if issubclass(tp, int):
            return {"type": "string", "enum": [str(m) for m in tp]}
        return {"type": "string", "enum": [m.value for m in tp]}
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(tp))}
    return {"type": "string", "description": f"{getattr(tp, '__name__', tp)} as its text code"}


def class_schema(cls: type, tag: tuple[str, str]) -> dict[str, Any]:
    """The JSON Schema of one action or event class; ``tag`` is (field, constant)."""
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {tag[0]: {"const": tag[1]}}
    if tag[0] == "kind":
        props["text"] = {"type": "string", "description": "the text form, sent back to act"}
    for f in dataclasses.fields(cls):
        props[f.name] = _schema(hints[f.name])
    return {
        "title": cls.__name__,
        "description": (cls.__doc__ or "").strip().split("\n")[0],
        "type": "object",
        "properties": props,
        "required": list(props),
    }


def json_schema(actions: list[type], events: list[type[TextEvent]]) -> dict[str, Any]:
    """The schemas of a game's actions (by kind) and events (by type)."""
    return {
        "actions": {kind_of(a): class_schema(a, ("kind", kind_of(a))) for a in actions},
        "events": {e.tag: class_schema(e, ("type", e.tag)) for e in events},
    }
