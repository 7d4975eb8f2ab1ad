"""The project carries its own rules (issue 10): the markdown pages link only to files inside the
repository, and every test a rules page cites exists under ``tests/``."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
RULE_PAGES = ("uno.md", "casino.md", "draw-poker.md", "platform.md")
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "data", "screenshots"}

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
