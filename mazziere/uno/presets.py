"""Named presets of uno.md, looked up by name.

>>> find_preset("house").stacking
'draw2'
>>> sorted(PRESETS)
['casino', 'classic', 'house', 'mattel', 'online']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from mazziere.errors import unknown_name
from mazziere.uno.options import Rules

CLASSIC = Rules(
    dealer_selection="highest",
    first_card="apply",
    voluntary_draw=True,
    drawn_card="must_play",
    wild4_rule="any_playable",
    wild4_bluff=True,
    challenge=True,
    uno_call="catch",
    scoring="winner",
    match="target_points",
    target=500,
)

MATTEL = CLASSIC.with_options(wild4_rule="color", drawn_card="may_play")

ONLINE = Rules(
    min_players=2,
    max_players=4,
    dealer_selection="random",
    drawn_card="may_play",
    wild4_rule="color",
    wild4_bluff=True,
    challenge=True,
    uno_call="auto",
    match="fixed_hands",
    fixed_hands=3,
    target_must_lead=True,
    turn_time_limit=30.0,
    autoplay=True,
    abandonment=True,
    victory_points=True,  # awarded at four-player tables (004); 2-3 players play without
)

HOUSE = Rules(
    dealer_selection="lowest",
    multi_play=True,
    stacking="draw2",
    uno_call="catch",
    challenge=True,
    challenge_by="victim",
    scoring="penalty",
    match="target_points",
    target=500,
)

CASINO = Rules(
    min_players=2,
    max_players=2,
    hand_size=4,
    hand_sizes=(4, 5),
    first_dealer=1,
    reshuffle=False,
    first_card="redraw_non_number",
    voluntary_draw=True,
    drawn_card="may_play",
    wild4_rule="color",
    wild4_bluff=False,
    challenge=False,
    uno_call="off",
    stacking="none",
    match="single_hand",
)

PRESETS: Mapping[str, Rules] = MappingProxyType(
    {"classic": CLASSIC, "mattel": MATTEL, "online": ONLINE, "house": HOUSE, "casino": CASINO}
)

DOCS: Mapping[str, str] = MappingProxyType(
    {
        "classic": (
            "Classic rules: 2-10 players, highest card deals, drawn card must be played, +4 only "
            "with no other playable card, bluff and challenge, UNO caught by others, winner "
            "scores, to 500."
        ),
        "mattel": (
            "As classic, with Mattel's +4 rule (no card of the current colour) and a free drawn "
            "card."
        ),
        "online": (
            "Online rules: 2-4 players, random dealer, server-checked challenge, automatic UNO "
            "penalty, fixed hands (or ``match='target_points'``), turn timer with auto-play, "
            "abandonment rule. Victory points apply to four-player tables: "
            "``with_options(victory_points=True)``."
        ),
        "house": (
            "House rules: lowest card deals, several cards of one number at once, +2 stacking, "
            "catch a missed UNO, only the victim challenges, penalty scoring to 500; its other "
            "variations (elimination, bruciata, zero gives four...) are options on top."
        ),
        "casino": (
            'The casino\'s table rules as far as plain UNO goes: seat 0 is the player ("punta", 4 '
            'cards, moves first), seat 1 the bank ("banco", 5 cards, deals); a number card '
            "starts the discard pile; no bluff, no challenge, no UNO call, no stacking, no "
            "reshuffle, one hand. The casino round itself (stake, multiplier, the bank's "
            "strategy) is :mod:`mazziere.casino`."
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
    raise unknown_name("UNO preset", name, list(PRESETS), "unknown_preset", listing="presets")
