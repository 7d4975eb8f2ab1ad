"""The UNO engine's hot modules, compiled with mypyc when the package is built (setup.py),
and the guard that keeps their Python sources the reference.

The compiled extensions are built from these very ``.py`` files, so they implement the same
rules; tests/uno/test_compiled.py proves it on step traces. The guard imports the sources
instead of the extensions when ``MAZZIERE_PURE=1`` is set, or when any extension is older than
its source (an edited checkout not rebuilt yet): the modules load all compiled or all pure,
since a compiled class cannot extend a pure one. This module uses the standard library only
and imports nothing from the package (setup.py reads it before anything is built).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

COMPILED_MODULES: tuple[str, ...] = (
    "mazziere.uno.matching",
    "mazziere.uno.state",
    "mazziere.uno.dealing",
    "mazziere.uno.scoring",
    "mazziere.uno.legal",
    "mazziere.uno.effects",
    "mazziere.uno.game",
    "mazziere.uno.vector",
    "mazziere.uno.bots.policy",
    "mazziere.uno.bots.rollouts",
)
"""Compiled with mypyc: the state, the legal actions, the effects of actions and ``push``,
dealing and scoring, the observation vector and action indices of :mod:`mazziere.rl`'s UNO
environment, and greedy's rules of thumb with the ``strong`` bot's rollouts."""

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _paths(module: str) -> tuple[str, list[str]]:
    """The module's source and its compiled extension files (none in a pure install)."""
    parts = module.split(".")[1:]
    source = os.path.join(_PACKAGE_DIR, *parts) + ".py"
    folder, base = os.path.dirname(source), parts[-1] + "."
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    try:
        names = os.listdir(folder)
    except OSError:  # pragma: no cover - a zipped or frozen package
        names = []
    return source, [
        os.path.join(folder, n) for n in names if n.startswith(base) and n.endswith(suffixes)
    ]


def compiled_state() -> str:
    """``"compiled"``, ``"pure"`` (no extensions built) or ``"pure (reason)"``."""
    found = [_paths(m) for m in COMPILED_MODULES]
    if not any(exts for _, exts in found):
        return "pure"
    if os.environ.get("MAZZIERE_PURE") == "1":
        return "pure (MAZZIERE_PURE=1)"
    for source, exts in found:
        if not exts:
            return f"pure ({os.path.basename(source)} has no compiled extension)"
        if any(os.path.getmtime(e) < os.path.getmtime(source) for e in exts):
            return f"pure ({os.path.basename(source)} changed after it was compiled)"
    return "compiled"


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` sources ahead of their extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, _paths(fullname)[0])


SOURCE_SUFFIX = "__source"
"""``module + SOURCE_SUFFIX`` names a compiled module's ``.py`` run as a module of its own."""


class _SourceCopies(importlib.abc.MetaPathFinder):
    """Finds ``module + SOURCE_SUFFIX`` for every compiled module, in any process.

    numba's on-disk cache records the module whose globals a compiled function used; for a
    function compiled from a source copy (:func:`source_module`) that is the copy's name. A
    later process must be able to import that name whether it runs the compiled modules or
    the pure sources (``MAZZIERE_PURE=1``, or an edited checkout), or loading the cache fails
    with ``ModuleNotFoundError``."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        base = fullname.removesuffix(SOURCE_SUFFIX)
        if base == fullname or base not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, _paths(base)[0])


def source_module(module: str) -> ModuleType:
    """``module`` as Python source: the module itself when it was loaded from its ``.py``,
    else that ``.py`` executed as a separate module named ``module + SOURCE_SUFFIX`` (once;
    importable by that name in any process, :class:`_SourceCopies`).

    For tools that compile Python bytecode, such as numba: a mypyc-compiled function has
    none, and numba compiles the very same function from its source instead."""
    loaded = importlib.import_module(module)
    if (getattr(loaded, "__file__", None) or "").endswith(".py"):
        return loaded
    return importlib.import_module(module + SOURCE_SUFFIX)


def install_guard() -> None:
    """Called by ``mazziere/__init__.py`` before any compiled module is imported."""
    if not any(isinstance(f, _SourceCopies) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceCopies())
    state = compiled_state()
    if state.startswith("pure (") and not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())
