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
