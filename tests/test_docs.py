"""The project carries its own rules and speaks of the product: the markdown pages link only to
files inside the repository, every test a rules page cites exists under ``tests/``, every file a
docstring or comment of the code names exists, and no text refers to the work that made it
(numbered sessions, issues, items or stops)."""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
RULE_PAGES = ("uno.md", "casino.md", "draw-poker.md", "platform.md")
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "data", "screenshots"}
TOOL_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "__pycache__"}
"""Folders of tools and caches, never of the repository's own files."""

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)
EXTERNAL = re.compile(r"^(?:https?|mailto):", re.I)
CITED_TEST = re.compile(r"\[(test_\w+)\]\(([^)\s]+)\)")
TEST_NAME = re.compile(r"(?<![\w/.-])test_\w+\b(?!\.py)")


def doc_pages() -> list[Path]:
    """``README.md`` and every markdown page under ``docs/``."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def all_markdown() -> list[Path]:
    """Every markdown file of the repository (tool and dependency folders left out)."""
    return sorted(
        p
        for p in ROOT.rglob("*.md")
        if not any(
            part in SKIP_DIRS or part.startswith(".") for part in p.relative_to(ROOT).parts[:-1]
        )
    )


def prose(text: str) -> str:
    """The text without fenced code blocks and code spans, where links are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(page: Path) -> list[str]:
    text = prose(page.read_text(encoding="utf-8"))
    return LINK.findall(text) + REF_LINK.findall(text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(m) for m in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


def resolve(page: Path, target: str) -> tuple[Path, str]:
    """The file a relative link points to (the page itself for ``#anchor``) and its anchor."""
    path, _, anchor = target.partition("#")
    return (page.parent / path).resolve() if path else page, anchor


@cache
def defined_tests() -> dict[str, set[Path]]:
    """Every ``test_*`` function under ``tests/`` and the files that define it."""
    found: dict[str, set[Path]] = {}
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                found.setdefault(node.name, set()).add(path.resolve())
    return found


def test_every_relative_link_in_readme_and_docs_points_to_an_existing_file() -> None:
    broken = []
    for page in doc_pages():
        for target in links(page):
            if EXTERNAL.match(target):
                continue
            path, anchor = resolve(page, target)
            if not (path.exists() and path.is_relative_to(ROOT)):
                broken.append(
                    f"{page.relative_to(ROOT)}: {target} (no such file in the repository)"
                )
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_no_markdown_file_links_outside_the_repository() -> None:
    outside = []
    for page in all_markdown():
        where = page.relative_to(ROOT)
        if "../shared" in page.read_text(encoding="utf-8"):
            outside.append(f"{where}: mentions ../shared")
        for target in links(page):
            if EXTERNAL.match(target):
                continue
            if re.match(r"^(?:[a-z][\w+.-]*:|/|~)", target, re.I):
                outside.append(f"{where}: {target} (not a relative link)")
            elif not resolve(page, target)[0].is_relative_to(ROOT):
                outside.append(f"{where}: {target} (outside the repository)")
    assert not outside, "links leaving the repository:\n" + "\n".join(outside)


def test_rules_pages_exist_and_cite_tests() -> None:
    for name in RULE_PAGES:
        page = RULES / name
        assert page.is_file(), f"docs/rules/{name} is missing"
        assert CITED_TEST.search(page.read_text(encoding="utf-8")), f"{name} cites no test"


def test_every_test_cited_in_the_rules_pages_exists_under_tests() -> None:
    known = defined_tests()
    missing = [
        f"docs/rules/{page.name}: {name}"
        for page in sorted(RULES.glob("*.md"))
        for name in sorted(set(TEST_NAME.findall(page.read_text(encoding="utf-8"))))
        if name not in known
    ]
    assert not missing, "cited tests that do not exist:\n" + "\n".join(missing)


def test_every_cited_test_links_to_the_file_that_defines_it() -> None:
    known = defined_tests()
    wrong = [
        f"docs/rules/{page.name}: {name} -> {target}"
        for page in sorted(RULES.glob("*.md"))
        for name, target in CITED_TEST.findall(page.read_text(encoding="utf-8"))
        if resolve(page, target)[0] not in known.get(name, set())
    ]
    assert not wrong, "tests linked to the wrong file:\n" + "\n".join(wrong)


# ------------------------------------------------------------------------------ the code's text
CODE_DIRS = ("mazziere", "tests", "benchmarks", "scripts")
"""Where the product's code, tests, benchmarks and scripts live."""

ROOTED_PATH = re.compile(r"(?<![\w./-])((?:docs|mazziere|tests|benchmarks|scripts)/[\w./*-]*[\w*])")
"""A path from the repository's root (``docs/rules/uno.md``, ``tests/fixtures/uno/*.json``)."""
OTHER_PATH = re.compile(
    r"(?<![\w./-])((?:[\w-]+/)*[\w-][\w.-]*\.(?:py|md|js|css|sh|html|json|toml))(?![\w/-])"
)
"""Any other file name or relative path of the kinds the repository holds (``uno.md``,
``store/hot.py``): some file of the repository has that name or ends with that path."""

PROCESS_WORDS = re.compile(r"\b(session|issue|item|stop)s? ([0-9]+)", re.I)
"""A reference to the work that made the product: a numbered session, issue, item or stop."""


def text_files(*tops: str) -> Iterator[Path]:
    """Every text file (UTF-8, no NUL byte) under ``tops`` (files or folders of the root), tool
    and cache folders left out."""
    for top in tops:
        start = ROOT / top
        for path in sorted(start.rglob("*")) if start.is_dir() else [start]:
            rel = path.relative_to(ROOT).parts
            if any(p in TOOL_DIRS or p.startswith(".") for p in rel[:-1]):
                continue
            if not path.is_file():
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            yield path


BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"(?<![:\w'\"\\])//[^\n]*")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
NEWLINE = "\n"


def notes(path: Path) -> list[tuple[int, str]]:
    """The docstrings and comments of a source file, each with the line it starts on: Python's
    string statements (module, class, function and attribute docstrings) and ``#`` comments,
    JavaScript's and CSS's ``/* */`` and ``//`` comments, shell's ``#`` comments, HTML's
    ``<!-- -->``. Other files have none."""
    text = path.read_text(encoding="utf-8")

    def at(matches: Iterator[re.Match[str]]) -> list[tuple[int, str]]:
        return [(text.count("\n", 0, m.start()) + 1, m.group()) for m in matches]

    if path.suffix == ".py":
        found = [
            (node.lineno, node.value.value)
            for node in ast.walk(ast.parse(text, str(path)))
            if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ]
        found += [
            (tok.start[0], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT
        ]
        return found
    if path.suffix == ".js":
        return at(BLOCK_COMMENT.finditer(text)) + at(LINE_COMMENT.finditer(text))
    if path.suffix == ".css":
        return at(BLOCK_COMMENT.finditer(text))
    if path.suffix == ".sh":
        return at(re.finditer(r"(?:^|(?<=\s))#[^\n]*", text))
    if path.suffix == ".html":
        return at(HTML_COMMENT.finditer(text))
    return []


@cache
def repository_names() -> frozenset[str]:
    """Every file and folder of the repository by each end of its path from the root
    (``mazziere/server/store/hot.py``, ``server/store/hot.py``, ``store/hot.py``, ``hot.py``)."""
    names: set[str] = set()
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in TOOL_DIRS and not d.startswith(".")]
        base = Path(folder).relative_to(ROOT).parts
        for name in [*dirs, *files]:
            parts = (*base, name)
            names.update("/".join(parts[i:]) for i in range(len(parts)))
    return frozenset(names)


def names_a_file(ref: str, rooted: bool) -> bool:
    """Whether ``ref`` is a file or folder of the repository: from the root when ``rooted``
    (a glob matches at least one), else by its name or the end of its path."""
    if rooted:
        return any(ROOT.glob(ref)) if "*" in ref else (ROOT / ref).exists()
    return ref in repository_names()


def dead_references(text: str) -> list[tuple[int, str]]:
    """The paths and file names in ``text`` that name no file of the repository, each with
    its offset: rooted paths (:data:`ROOTED_PATH`) from the root, others (:data:`OTHER_PATH`,
    not part of a rooted one) by name or the end of their path."""
    rooted = {m.start(1): m.group(1) for m in ROOTED_PATH.finditer(text)}
    dead = [(s, ref) for s, ref in rooted.items() if not names_a_file(ref, True)]
    for m in OTHER_PATH.finditer(text):
        inside = any(s <= m.start(1) < s + len(ref) for s, ref in rooted.items())
        if not inside and not names_a_file(m.group(1), False):
            dead.append((m.start(1), m.group(1)))
    return dead


def test_every_file_a_docstring_or_comment_names_exists() -> None:
    dead = []
    for path in text_files(*CODE_DIRS):
        where = path.relative_to(ROOT).as_posix()
        if not dead_references(path.read_text(encoding="utf-8")):
            continue  # nothing dead in the whole file: no need to find its notes
        for line, note in notes(path):
            for start, ref in dead_references(note):
                dead.append(f"{where}:{line + note.count(NEWLINE, 0, start)}: {ref}")
    assert not dead, "files named in docstrings or comments that do not exist:\n" + "\n".join(dead)


def process_words(*tops: str) -> list[str]:
    """Every match of :data:`PROCESS_WORDS` in the text files under ``tops``, as
    ``file:line: match``."""
    found = []
    for path in text_files(*tops):
        where = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{where}:{n}: {m.group()}" for m in PROCESS_WORDS.finditer(line)]
    return found


def test_the_code_tests_benchmarks_and_scripts_speak_of_the_product() -> None:
    found = process_words(*CODE_DIRS)
    assert not found, "references to the work process:\n" + "\n".join(found)


def test_readme_and_docs_speak_of_the_product() -> None:
    found = process_words("README.md", "docs")
    assert not found, "references to the work process:\n" + "\n".join(found)


def test_readme_is_a_front_door_of_at_most_150_lines() -> None:
    """The README says what the project is, how to start it, what the command does and where the
    rest is: the design in docs/architecture.md, the figures in docs/performance.md."""
    readme = ROOT / "README.md"
    lines = readme.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines"
    linked = {resolve(readme, target)[0] for target in links(readme)}
    pages = ("architecture", "performance", "security", "rl", "bots", "protocol", "positions")
    for name in (*pages, "scaling", *(f"rules/{page[:-3]}" for page in RULE_PAGES)):
        page = ROOT / "docs" / f"{name}.md"
        assert page in linked, f"README.md does not link {page.relative_to(ROOT)}"
