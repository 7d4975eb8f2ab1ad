"""docs/architecture.md golden replays: (rules, seed, actions) -> the exact events, pinned in
tests/fixtures/poker/. Regenerate (after a deliberate rule change only) with
``python -m tests.poker.test_golden``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mazziere.poker import Rules, apply, new_game_with_events, replay, view
from mazziere.poker.bots import find_bot

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "poker"
SCENARIOS: dict[str, dict[str, Any]] = {
    "hard_vs_normal_52": {"rules": {}, "seed": "golden-52", "bots": ["hard", "normal"], "deals": 8},
    "baseline_vs_easy_32": {
        "rules": {"deck": 32, "flush_beats_full_house": True},
        "seed": "golden-32",
        "bots": ["baseline", "easy"],
        "deals": 8,
    },
    "pledges_to_game_over": {
        "rules": {"bankroll": 40, "item_value": 20, "items": ["hat", "scarf"], "max_bet": None},
        "seed": "golden-pledge",
        "bots": ["hard", "random"],
        "deals": 400,
    },
}


def record(name: str) -> dict[str, Any]:
    """Play a scenario with its bots and record the actions and every event."""
    sc = SCENARIOS[name]
    rules = Rules(**{k: tuple(v) if isinstance(v, list) else v for k, v in sc["rules"].items()})
    state, events = new_game_with_events(rules, sc["seed"])
    bots = [find_bot(b) for b in sc["bots"]]
    rng = random.Random(sc["seed"])
    actions: list[tuple[int, str]] = []
    while not state.is_over and state.deal_no <= sc["deals"]:
        seat = state.current
        action = bots[seat].act(view(state, seat), rng)
        actions.append((seat, str(action)))
        state, ev = apply(state, seat, action)
        events.extend(ev)
    return {**sc, "actions": actions, "events": [str(e) for e in events]}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_golden_replay_gives_the_exact_events(name: str) -> None:
    fixture = json.loads((FIXTURES / f"{name}.json").read_text())
    rules = Rules(
        **{k: tuple(v) if isinstance(v, list) else v for k, v in fixture["rules"].items()}
    )
    actions = [(seat, text) for seat, text in fixture["actions"]]
    _, events = replay(rules, fixture["seed"], actions)
    assert [str(e) for e in events] == fixture["events"]


def test_event_text_round_trips() -> None:
    from mazziere.poker.events import Event

    fixture = json.loads((FIXTURES / "pledges_to_game_over.json").read_text())
    for line in fixture["events"]:
        assert str(Event.parse(line)) == line
    assert any(line.startswith("pledged") for line in fixture["events"])
    assert fixture["events"][-1].startswith("game_ended")


if __name__ == "__main__":
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for scenario in SCENARIOS:
        (FIXTURES / f"{scenario}.json").write_text(json.dumps(record(scenario), indent=1) + "\n")
