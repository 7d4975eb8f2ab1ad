"""Named draw-poker rule sets, looked up by name (draw-poker.md; seed 002).

>>> find_preset("short32").flush_beats_full_house, sorted(PRESETS)
(True, ['classic', 'classic32', 'short32'])
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from mazziere.errors import unknown_name
from mazziere.poker.options import Rules

CLASSIC = Rules()

CLASSIC32 = Rules(deck=32)

SHORT32 = Rules(deck=32, flush_beats_full_house=True)

PRESETS: Mapping[str, Rules] = MappingProxyType(
    {"classic": CLASSIC, "classic32": CLASSIC32, "short32": SHORT32}
)

DOCS: Mapping[str, str] = MappingProxyType(
    {
        "classic": (
            "The classic rules with a 52-card deck: ante 5, bankroll 500, six items of 100, full "
            "house > flush."
        ),
        "classic32": (
            "The classic rules with the 32-card deck (7..A), A-7-8-9-10 the lowest straight."
        ),
        "short32": (
            "The 32-card deck as many rule books play it: the rarer flush beats the full house."
        ),
    }
)
"""What each preset is, in one line, by name (the same order as :data:`PRESETS`); a catalog
for people choosing one (:mod:`mazziere.catalog`, the lobby)."""


def find_preset(name: str) -> Rules:
    """The preset of that name; an unknown name raises :class:`UnknownOption` with a hint."""
    key = name.strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    raise unknown_name("poker preset", name, list(PRESETS), "unknown_preset", listing="presets")
