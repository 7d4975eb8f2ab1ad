"""Documented options: a dataclass field whose one-line doc travels with it at run time.

The rules dataclasses declare each option as ``name: type = option(default, "doc")``, so the
doc is data (``dataclasses.fields(cls)[i].metadata["doc"]``) that :mod:`mazziere.catalog` can
publish without reading source files. Standard library only.

>>> from dataclasses import dataclass, fields
>>> @dataclass(frozen=True)
... class Example:
...     size: int = option(7, "Cards dealt to each player.")
>>> Example().size, fields(Example)[0].metadata["doc"]
(7, 'Cards dealt to each player.')
"""

from __future__ import annotations

from dataclasses import Field, field
from typing import Any, TypeVar

T = TypeVar("T")


def option(
    default: T,
    doc: str,
    *,
    ge: float | None = None,
    le: float | None = None,
    gt: float | None = None,
) -> T:
    """A field with an immutable ``default`` and its ``doc`` in ``metadata["doc"]`` (typed as
    its default, like :func:`dataclasses.field`, for the type checker). ``ge``, ``le``, ``gt``
    bound a number (each element of a tuple of numbers; ``None`` is always allowed): written
    once here, checked by :func:`check_limits` and published by the catalog."""
    limits = {k: v for k, v in (("ge", ge), ("le", le), ("gt", gt)) if v is not None}
    return field(default=default, metadata={"doc": doc, **limits})


def doc_of(f: Field[Any]) -> str:
    """The one-line doc of a field declared with :func:`option` (empty if it has none)."""
    return str(f.metadata.get("doc", ""))


def limits_of(f: Field[Any]) -> dict[str, float]:
    """The bounds of a field declared with :func:`option` (``ge``, ``le``, ``gt``)."""
    return {k: f.metadata[k] for k in ("ge", "le", "gt") if k in f.metadata}


def check_limits(obj: Any) -> None:
    """Refuse a dataclass whose numeric options break their bounds (an OptionError naming the
    option and its bounds, code ``bad_option_value``).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Example:
    ...     size: int = option(7, "Cards dealt.", ge=1, le=20)
    >>> check_limits(Example(size=21))
    Traceback (most recent call last):
    mazziere.errors.OptionError: [bad_option_value] size must be between 1 and 20, not 21
    """
    from dataclasses import fields

    from mazziere.errors import OptionError

    for f in fields(obj):
        bounds = limits_of(f)
        if not bounds:
            continue
        value = getattr(obj, f.name)
        values = value if isinstance(value, tuple) else (value,)
        for v in values:
            if v is None:
                continue
            whole = "int" in str(f.type) and "float" not in str(f.type)
            if isinstance(v, bool) or not isinstance(v, int if whole else int | float):
                kind = "an integer" if whole else "a number"
                raise OptionError(f"{f.name} must be {kind}, not {v!r}", "bad_option_value")
            ok = (
                ("ge" not in bounds or v >= bounds["ge"])
                and ("le" not in bounds or v <= bounds["le"])
                and ("gt" not in bounds or v > bounds["gt"])
            )
            if not ok:
                raise OptionError(f"{f.name} {_say(bounds)}, not {v}", "bad_option_value")


def _say(bounds: dict[str, float]) -> str:
    def n(x: float) -> str:
        return f"{x:g}"

    if "ge" in bounds and "le" in bounds:
        return f"must be between {n(bounds['ge'])} and {n(bounds['le'])}"
    parts = []
    if "ge" in bounds:
        parts.append(f"at least {n(bounds['ge'])}")
    if "gt" in bounds:
        parts.append(f"more than {n(bounds['gt'])}")
    if "le" in bounds:
        parts.append(f"at most {n(bounds['le'])}")
    return "must be " + " and ".join(parts)


def check_values(cls: type[Any], values: dict[str, Any]) -> None:
    """Refuse option values (from JSON, before a rules value is built from them) whose type is
    not their field's annotation: an OptionError ``bad_option_value`` naming the option. A
    list stands for a tuple; ``None`` only where the annotation allows it; unknown names are
    left to the rules (which suggest the nearest name).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Example:
    ...     size: int = option(7, "Cards dealt.")
    ...     limit: float | None = option(None, "Seconds.")
    >>> check_values(Example, {"size": 5, "limit": None, "other": "left to the rules"})
    >>> check_values(Example, {"size": None})
    Traceback (most recent call last):
    mazziere.errors.OptionError: [bad_option_value] option size must be an integer, not None
    """

    from mazziere.errors import OptionError

    hints = _hints(cls)
    for name, value in values.items():
        tp = hints.get(name)
        if tp is not None and not _fits(value, tp):
            raise OptionError(
                f"option {name} must be {_kind(tp)}, not {value!r}", "bad_option_value"
            )


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """``typing.get_type_hints(cls)``, once per class (each new game checks its options)."""
    import typing

    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _fits(value: Any, tp: Any) -> bool:
    """Whether a JSON-ready ``value`` has the type ``tp`` (types it does not know: yes)."""
    import types
    import typing
    from enum import Enum

    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if origin is typing.Literal:
        return any(value == a and type(value) is type(a) for a in args)
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(
            _fits(v, a) for v, a in zip(value, args, strict=True)
        )
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return isinstance(value, tp) or value in {m.value for m in tp}
    return True


def _kind(tp: Any) -> str:
    """A type in words, for an error message."""
    import types
    import typing

    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_kind(a) for a in args)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is tuple:
        return f"a list (each {_kind(args[0])})"
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a text"}
    return names.get(tp, "None" if tp is type(None) else getattr(tp, "__name__", str(tp)))
