"""draw-poker.md options as data (checked at construction, presets by name), actions and
events whose text forms round-trip, and the modules' doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

from mazziere.errors import OptionError, UnknownOption
from mazziere.poker import Action, Rules, find_preset, new_game_with_events
from mazziere.poker.events import Event

MODULES = [
    "cards",
    "options",
    "presets",
    "evaluator",
    "actions",
    "events",
    "engine",
    "sim",
    "bots",
    "bots.registry",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"mazziere.poker.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_options_checked_at_construction() -> None:
    for bad in (
        {"deck": 36},
        {"ante": 0},
        {"max_replace": 6},
        {"min_bet": 20, "max_bet": 10},
        {"items": ("hat", "hat")},
        {"bankroll": -1},
        {"ace_low_straight": "yes"},
    ):
        with pytest.raises(OptionError):
            Rules(**bad)  # type: ignore[arg-type]
    with pytest.raises(UnknownOption) as e:
        Rules().with_options(max_raise=2)
    assert "max_raises" in e.value.message
    assert Rules(min_bet=None, ante=7).min_bet_amount == 7


def test_presets_by_name() -> None:
    assert find_preset("classic32").deck == 32 and find_preset("Short32").flush_beats_full_house
    with pytest.raises(UnknownOption) as e:
        find_preset("clasic")
    assert e.value.code == "unknown_preset" and "classic" in e.value.message


def test_actions_round_trip() -> None:
    for text in ("open 10", "wait", "raise 5", "replace", "fold", "see", "draw", "draw 7h 2c"):
        a = Action.parse(text)
        assert str(a) == text and Action.parse(str(a)) == a
    assert str(Action.parse("SOSTITUISCI")) == "replace" and str(Action.parse("vedi")) == "see"


def test_events_round_trip() -> None:
    _, events = new_game_with_events(Rules(), 3)
    for e in events:
        assert Event.parse(str(e)) == e
