"""How the casino kernel is compiled: the rules it shares with the readable round, and numba's
on-disk cache kept in step with every file the kernel compiles (docs/architecture.md "keep it
separate and prove it equal").

The kernel's functions are ``numba.njit(cache=True)``
(:func:`mazziere.sim.splitmix_kernel.jit`); they call the rulebook's plain functions, which
:func:`share` lets numba compile where they are called. numba's cache knows only the file that
defines each function, hence :func:`drop_stale_cache`.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from numba.extending import overload, register_jitable

from mazziere._compiled import source_module

__all__ = ["SOURCES", "drop_stale_cache", "share"]

_PACKAGE = Path(__file__).resolve().parent
_ROOT = _PACKAGE.parent.parent

SOURCES = (
    "sim/casino_kernel/*.py",
    "sim/splitmix_kernel.py",
    "casino/rulebook.py",
    "casino/readings.py",
    "casino/rules.py",
    "uno/matching.py",
    "cards/uno.py",
)
"""The files whose code the compiled kernel contains (from the package's folder; a pattern
stands for its files in name order)."""


def share(*functions: Callable[..., Any]) -> None:
    """Let numba compile each function where kernel code calls it, from its Python source: the
    function itself, or for a mypyc-compiled module the same function read from the module's
    ``.py`` (:func:`mazziere._compiled.source_module`)."""
    for fn in functions:
        if hasattr(fn, "__code__"):
            register_jitable(fn)
            continue
        src = getattr(source_module(fn.__module__), fn.__name__)
        overload(fn, strict=False)(lambda *args, _src=src, **kwargs: _src)


def _source_files() -> list[Path]:
    return [path for name in SOURCES for path in sorted(_ROOT.glob(name))]


def drop_stale_cache(dispatcher: object) -> None:
    """numba keys its on-disk cache on the timestamp of the file that defines each function
    only: an edit of a shared rule in another file, or of a kernel function another module's
    kernel function calls, would leave a stale compiled kernel (numba's documented
    limitation). So the cache (the folder where ``dispatcher``, any kernel function, keeps
    its own) is kept beside a hash of every file the kernel compiles (:data:`SOURCES`), and
    every cached function of the kernel's modules is dropped when any of them changes.
    Written here because numba offers no dependency tracking."""
    digest = hashlib.blake2b(digest_size=16)
    for path in _source_files():
        digest.update(path.read_bytes())
    cache = Path(cast(Any, dispatcher).stats.cache_path)
    stamp = cache / "casino_kernel.sources"
    with contextlib.suppress(OSError):
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        for module in _PACKAGE.glob("*.py"):
            for old in cache.glob(f"{module.stem}.*.nb[ic]"):
                old.unlink()
        stamp.write_text(digest.hexdigest())
