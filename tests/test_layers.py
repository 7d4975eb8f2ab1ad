"""docs/architecture.md "Layers": rules packages do no I/O and imports only point down."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "mazziere"
RULES_PACKAGES = ("cards", "uno", "casino", "poker")
FORBIDDEN_IN_RULES = {
    "os",
    "sys",
    "io",
    "socket",
    "time",
    "datetime",
    "logging",
    "random",
    "asyncio",
    "sqlite3",
    "subprocess",
    "threading",
    "multiprocessing",
    "pathlib",
    "shutil",
    "urllib",
    "http",
}
# package -> packages of mazziere it must not import (imports only point down)
LOWER_THAN = {
    "cards": {"uno", "casino", "poker", "sim", "server", "cli"},
    "uno": {"casino", "poker", "sim", "server", "cli"},
    "casino": {"poker", "sim", "server", "cli"},
    "poker": {"uno", "casino", "sim", "server", "cli"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py")) if (ROOT / package).exists() else []


@pytest.mark.parametrize("package", RULES_PACKAGES)
def test_rules_packages_do_no_io(package: str) -> None:
    for path in _files(package):
        forbidden = set(FORBIDDEN_IN_RULES)
        if "bots" in path.parts:
            forbidden.discard("random")  # bots receive a random.Random; they never seed one
        for name in _imports(path):
            top = name.split(".")[0]
            assert top not in forbidden, f"{path.relative_to(ROOT)} imports {name}"


@pytest.mark.parametrize("package", RULES_PACKAGES)
def test_imports_only_point_down(package: str) -> None:
    for path in _files(package):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "mazziere" and len(parts) > 1:
                assert parts[1] not in LOWER_THAN[package], (
                    f"{path.relative_to(ROOT)} imports {name}"
                )


def test_uno_rules_package_exists_and_is_checked() -> None:
    assert len(_files("uno")) >= 10 and len(_files("cards")) >= 2


RULES_MODULES = (
    "mazziere",
    "mazziere.rng",
    "mazziere.errors",
    "mazziere.textevents",
    "mazziere.game",
    "mazziere.wire",
    "mazziere.fields",
    "mazziere.catalog",
)
"""Modules of the rules layer outside the rules packages."""
_IMPORT_ALONE = """
import importlib, sys
importlib.import_module(sys.argv[1])
allowed = set(sys.stdlib_module_names) | {"mazziere", "__main__"}
outside = sorted(
    n for n in {name.split(".")[0] for name in sys.modules} - allowed
    if not n.endswith("__mypyc")  # mypyc's runtime of the compiled engine modules
)
assert not outside, f"{sys.argv[1]} imported {outside}"
"""


def _rules_modules() -> list[str]:
    names = list(RULES_MODULES)
    for package in RULES_PACKAGES:
        for path in _files(package):
            parts = path.relative_to(ROOT.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@pytest.mark.parametrize("module", _rules_modules())
def test_rules_modules_import_only_the_standard_library(module: str) -> None:
    """pyproject.toml: ``pip install mazziere`` installs no third-party package, so each rules
    module imports in a Python that cannot see one (``-S``: no site-packages)."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", _IMPORT_ALONE, module],
        env={"PYTHONPATH": str(ROOT.parent), "PATH": os.environ.get("PATH", "")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
