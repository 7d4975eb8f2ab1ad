"""Golden replays (docs/architecture.md "Habits"): recorded games replay to the exact same events.

Each ``tests/fixtures/uno/*.json`` is a game recorded by ``make_goldens.py``: rules, players,
seed, actions. Replaying the actions must give exactly the recorded event texts and the
recorded result (or position, for a game cut short), and still meet the situations the golden
was chosen for. When a rule change alters a golden on purpose, regenerate with
``python tests/fixtures/uno/make_goldens.py NAME`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mazziere.uno import PRESETS
from mazziere.uno.events import Event

from .goldens import FIXTURES, load, outcome, play_back, rules_of, to_json

FILES = sorted(FIXTURES.glob("*.json"))


def first_difference(got: list[str], want: list[str]) -> str:
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"event {i} differs:\n  got  {g}\n  want {w}"
    return f"{len(got)} events, {len(want)} recorded"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay_gives_the_recorded_events_and_result(path: Path) -> None:
    g = load(path)
    rules = rules_of(g["preset"], g["options"])
    actions = [(int(seat), str(text)) for seat, text in g["actions"]]
    back = play_back(rules, int(g["players"]), str(g["seed"]), actions)
    assert back.events == g["events"], first_difference(back.events, g["events"])
    expected = {k: g[k] for k in ("result", "position") if k in g}
    assert to_json(outcome(back.state)) == expected
    missing = set(g["covers"]) - back.tags
    assert not missing, f"{path.name} no longer covers {sorted(missing)}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_event_texts_parse_back(path: Path) -> None:
    for text in load(path)["events"]:
        assert str(Event.parse(text)) == text


def test_goldens_cover_every_preset_and_the_listed_situations() -> None:
    goldens = [load(p) for p in FILES]
    assert {g["preset"] for g in goldens} >= set(PRESETS)
    covered = {c for g in goldens for c in g["covers"]}
    assert covered >= {
        "challenge_guilty",
        "challenge_innocent",
        "catch",
        "reshuffle",
        "stack",
        "multi_play",
        "seven_swap",
        "jump_in",
        "first_card_skip",
        "first_card_reverse",
        "first_card_draw2",
        "first_card_wild",
        "first_card_returned_wild_draw_four",
        "hand_ended_time_limit",
    }
