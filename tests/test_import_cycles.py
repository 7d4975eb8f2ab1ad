"""docs/architecture.md "Layers": imports only point down, with no import circle anywhere in the
package, counting imports made inside functions and under ``TYPE_CHECKING`` (a circle there is a
design circle all the same). An AST walk over ``mazziere/``; Tarjan's algorithm finds the
circles."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mazziere"


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        if "migrations" in rel.parts:
            continue
        name = ".".join(rel.parts).removesuffix(".__init__")
        mods[name] = path
    return mods


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (a name resolves to the longest module)."""
    mods = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = package
                    for _ in range(node.level - 1):
                        pkg = pkg.rpartition(".")[0]
                    base = f"{pkg}.{base}" if base else pkg
                # ``from pkg import mod`` imports the module; ``from mod import name`` the module
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
                ]
            for t in targets:
                r = resolve(t)
                if r is not None and r != mod and r.startswith("mazziere"):
                    graph[mod].add(r)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_anywhere_in_the_package() -> None:
    graph = import_graph()
    assert len(graph) > 50 and graph["mazziere.server.table.actor"]  # the walk found the package
    assert circles(graph) == []


def test_the_circle_finder_finds_a_planted_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
