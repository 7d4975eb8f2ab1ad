"""The event base both games share: who may see an event, and a text form that round-trips.

An event is a frozen dataclass with a ``tag``; its text is the tag and ``name=value`` pairs.
``private_fields`` (cards dealt or drawn) belong to the seat in ``owner_field``: for anyone
else :meth:`TextEvent.for_seat` blanks them, so a drawn card becomes just a count. Each game
derives one base with its own registry of tags and decoders for its card types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any, ClassVar, Self, TypeVar, cast

from mazziere.errors import MalformedAction

E = TypeVar("E", bound=type[Any])


class TextEvent:
    """Base class of every event (see module docstring)."""

    __slots__ = ()
    tag: ClassVar[str] = ""
    owner_field: ClassVar[str | None] = "seat"
    private_fields: ClassVar[tuple[str, ...]] = ()
    registry: ClassVar[dict[str, type[TextEvent]]] = {}
    decoders: ClassVar[dict[str, Callable[[str], Any]]] = {}

    def for_seat(self, seat: int | None) -> Self:
        """This event as ``seat`` may see it (``None``: a spectator who sees no hand)."""
        if not self.private_fields:
            return self
        owner = getattr(self, self.owner_field) if self.owner_field else None
        if seat is not None and owner == seat:
            return self
        blank: dict[str, Any] = {name: () for name in self.private_fields}
        return replace(self, **blank)  # type: ignore[type-var]

    def __str__(self) -> str:
        parts = [self.tag]
        for name in _field_names(type(self)):
            parts.append(f"{name}={encode(getattr(self, name))}")
        return " ".join(parts)

    @classmethod
    def register(cls, event: E) -> E:
        """Class decorator: make an event type readable by :meth:`parse` of its game."""
        cls.registry[event.tag] = event
        return event

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read an event of this game from its text form."""
        tag, *pairs = text.strip().split(" ")
        kind = cls.registry.get(tag)
        if kind is None:
            raise MalformedAction(f"unknown event {tag!r}")
        types = _field_types(kind)
        kwargs: dict[str, Any] = {}
        for pair in pairs:
            name, _, raw = pair.partition("=")
            if name not in types:
                raise MalformedAction(f"event {tag} has no field {name!r}")
            kwargs[name] = decode(types[name], raw, cls.decoders)
        return cast(Self, kind(**kwargs))


_NAMES: dict[type, tuple[str, ...]] = {}
_TYPES: dict[type, dict[str, str]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    """An event class's field names, in order (read once per class: hot on the server)."""
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(f.name for f in fields(kind))
    return names


def _field_types(kind: type) -> dict[str, str]:
    types = _TYPES.get(kind)
    if types is None:
        types = _TYPES[kind] = {f.name: str(f.type) for f in fields(kind)}
    return types


def encode(v: object) -> str:
    """One field's text: ``-`` for None, 1/0, comma-joined tuples, ``/``-joined tuples of
    tuples; spaces, ``=`` and ``%`` in strings are percent-escaped."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, tuple):
        if v and isinstance(v[0], tuple):
            return "/".join(encode(x) for x in v)
        return ",".join(str(x) for x in v)
    if isinstance(v, str):
        return v.replace("%", "%25").replace(" ", "%20").replace("=", "%3D")
    return str(v)


def decode(tp: str, raw: str, decoders: dict[str, Callable[[str], Any]]) -> Any:
    """The value of a field of (annotation) type ``tp`` from its text."""
    if "None" in tp and raw == "-":
        return None
    base = tp.replace(" | None", "")
    if base == "bool":
        return raw == "1"
    if base == "int":
        return int(raw)
    if base == "str":
        return raw.replace("%20", " ").replace("%3D", "=").replace("%25", "%")
    if base == "tuple[int, ...]":
        return tuple(int(x) for x in raw.split(",") if x != "")
    if base in decoders:
        return decoders[base](raw)
    raise MalformedAction(f"cannot read a value of type {tp}")
