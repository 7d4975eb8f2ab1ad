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


def option(default: T, doc: str) -> T:
    """A field with an immutable ``default`` and its ``doc`` in ``metadata["doc"]`` (typed as
    its default, like :func:`dataclasses.field`, for the type checker)."""
    return field(default=default, metadata={"doc": doc})


def doc_of(f: Field[Any]) -> str:
    """The one-line doc of a field declared with :func:`option` (empty if it has none)."""
    return str(f.metadata.get("doc", ""))
