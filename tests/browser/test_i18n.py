"""The client's two dictionaries agree, and every key the code asks for exists (no browser)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "mazziere" / "server" / "web"
KEY = re.compile(r"^\s*'([a-z0-9_.]+)':", re.M)
USED = re.compile(r"\b(?:t|tNodes|raw|node)\(\s*'([a-z0-9_.]+)'")


def keys(lang: str) -> list[str]:
    return KEY.findall((WEB / "js" / "lang" / f"{lang}.js").read_text(encoding="utf-8"))


def value(lang: str, key: str) -> str:
    text = (WEB / "js" / "lang" / f"{lang}.js").read_text(encoding="utf-8")
    m = re.search(rf"^\s*'{re.escape(key)}': '((?:[^'\\]|\\.)*)',", text, re.M)
    assert m, f"{lang}: {key}"
    return m.group(1)


def test_both_languages_have_the_same_keys() -> None:
    en, it = keys("en"), keys("it")
    assert len(en) == len(set(en)), "a key is defined twice in en.js"
    assert len(it) == len(set(it)), "a key is defined twice in it.js"
    assert set(en) - set(it) == set(), "missing in it.js"
    assert set(it) - set(en) == set(), "missing in en.js"


def test_every_key_used_by_the_code_exists() -> None:
    defined = set(keys("en"))
    used: set[str] = set()
    for path in (WEB / "js").rglob("*.js"):
        if path.parent.name != "lang":
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
