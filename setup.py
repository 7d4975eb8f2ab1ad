"""Build hook: compile the UNO engine's hot modules with mypyc (optional).

The modules stay plain, typed Python and remain the reference: every behaviour is defined by
the ``.py`` files, which the compiled extensions are built from. ``MAZZIERE_PURE=1`` at build
time skips compiling; at run time it loads the pure modules even where compiled ones exist
(``mazziere/_compiled.py``), and a compiled module older than its source is never used. When
no C compiler or mypyc is at hand, the extensions are skipped and the package is pure Python.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from setuptools import setup


def _compiled_modules() -> tuple[str, ...]:
    """mazziere/_compiled.py's list, read without importing the package."""
    spec = importlib.util.spec_from_file_location(
        "_mazziere_compiled",
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "mazziere", "_compiled.py"),
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.COMPILED_MODULES)


ext_modules = []
if os.environ.get("MAZZIERE_PURE") != "1":
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mazziere: mypyc is not available, installing pure Python", file=sys.stderr)
    else:
        try:
            ext_modules = mypycify(
                [m.replace(".", "/") + ".py" for m in _compiled_modules()], opt_level="3"
            )
        except (Exception, SystemExit) as err:  # mypyc's own checks failed: stay pure
            print(f"mazziere: not compiled ({err!r}), installing pure Python", file=sys.stderr)
            ext_modules = []
        for ext in ext_modules:
            ext.optional = True  # a failed C compile leaves the pure module in place

setup(ext_modules=ext_modules)
