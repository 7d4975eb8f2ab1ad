"""Collection settings for the whole tree (``pytest --doctest-modules mazziere tests``).

Where the UNO engine's hot modules are compiled (mazziere/_compiled.py), their ``.py`` files
are not collected for doctests: the imported module is the extension, which pytest refuses to
match with the source file. tests/uno/test_compiled.py runs those doctests on the pure
sources instead, and proves the compiled modules play the same games step for step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mazziere._compiled import COMPILED_MODULES, compiled_state

_ROOT = Path(__file__).resolve().parent
_COMPILED_SOURCES = (
    {_ROOT.joinpath(*m.split(".")).with_suffix(".py") for m in COMPILED_MODULES}
    if compiled_state() == "compiled"
    else set()
)


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.resolve() in _COMPILED_SOURCES:
        return True
    return None


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Why each rerun test failed the first time (pytest-rerunfailures names them only): the
    error line of every failed try, so that a flaky test's cause is on the record."""
    reruns = terminalreporter.stats.get("rerun", [])
    if not reruns:
        return
    terminalreporter.section("why the rerun tests failed")
    for report in reruns:
        crash = getattr(report.longrepr, "reprcrash", None)
        why = f"{crash.path}:{crash.lineno}: {crash.message}" if crash else str(report.longrepr)
        terminalreporter.write_line(f"{report.nodeid}: {why.splitlines()[0] if why else '?'}")
        for line in why.splitlines()[1:4]:
            terminalreporter.write_line(f"    {line}")
