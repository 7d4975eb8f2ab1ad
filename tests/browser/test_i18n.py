"""The client's two dictionaries agree, and every key the code asks for exists (no browser)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "mazziere" / "server" / "web"
KEY = re.compile(r"^\s*'([A-Za-z0-9_.]+)':", re.M)
USED = re.compile(r"\b(?:t|tNodes|raw|node)\(\s*'([a-z0-9_.]+)'")


def message_files() -> list[Path]:
    """The shared messages, each game's own (games/<game>/messages.js) and the back
    office's (admin/messages.js)."""
    return [
        WEB / "js" / "messages.js",
        *sorted((WEB / "js" / "games").glob("*/messages.js")),
        WEB / "js" / "admin" / "messages.js",
    ]


def table(path: Path, lang: str) -> str:
    """The text of one language's table (`export const en = {...};`) in a messages file."""
    text = path.read_text(encoding="utf-8")
    m = re.search(rf"^export const {lang} = \{{\n(.*?)^\}};", text, re.M | re.S)
    assert m, f"{path}: no {lang} table"
    return m.group(1)


def keys(lang: str) -> list[str]:
    return [k for path in message_files() for k in KEY.findall(table(path, lang))]


def value(lang: str, key: str) -> str:
    for path in message_files():
        m = re.search(rf"^\s*'{re.escape(key)}': '((?:[^'\\]|\\.)*)',", table(path, lang), re.M)
        if m:
            return m.group(1)
    raise AssertionError(f"{lang}: {key}")


def test_both_languages_have_the_same_keys() -> None:
    en, it = keys("en"), keys("it")
    assert len(en) == len(set(en)), "a key is defined twice in the English tables"
    assert len(it) == len(set(it)), "a key is defined twice in the Italian tables"
    assert set(en) - set(it) == set(), "missing in Italian"
    assert set(it) - set(en) == set(), "missing in English"


def test_each_messages_file_has_both_languages() -> None:
    """A game's words live together: its English and Italian keys are in the same file."""
    for path in message_files():
        en, it = KEY.findall(table(path, "en")), KEY.findall(table(path, "it"))
        assert en and set(en) == set(it), path


def test_every_key_used_by_the_code_exists() -> None:
    defined = set(keys("en"))
    used: set[str] = set()
    for path in (WEB / "js").rglob("*.js"):
        if path.name != "messages.js":
            used |= set(USED.findall(path.read_text(encoding="utf-8")))
    assert used, "no keys found: the pattern is wrong"
    assert used - defined == set()


def test_the_seed_poker_buttons_in_italian_and_english() -> None:
    seed = {
        "open": ("APRI", "OPEN"),
        "wait": ("ASPETTA", "WAIT"),
        "raise": ("RILANCIA", "RAISE"),
        "replace": ("SOSTITUISCI", "REPLACE"),
        "fold": ("PASSA", "FOLD"),
        "see": ("VEDI", "SEE"),
    }
    for word, (italian, english) in seed.items():
        assert value("it", f"poker.btn.{word}") == italian
        assert value("en", f"poker.btn.{word}") == english


def test_no_outside_resources_in_the_client() -> None:
    """Everything is served locally: no http(s) URL, no @import, no web font in the files."""
    for path in WEB.rglob("*"):
        if path.suffix in {".js", ".css", ".html"}:
            text = path.read_text(encoding="utf-8")
            urls = re.findall(r"https?://[^\s'\"`)]+", text)
            # an XML namespace name is not a request
            assert [u for u in urls if not u.startswith("http://www.w3.org/")] == [], path
            assert "@import" not in text and "@font-face" not in text, path
