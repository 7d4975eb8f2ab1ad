"""Every game's actions and events have a structured wire form derived from
their dataclasses and described in the generated protocol schema: a legal action carries its
text (which parses back to the same action), its kind and its fields; an event its type and
fields. Checked over random games of each game, played through the game contract."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from mazziere import wire
from mazziere.game import Step, TableGame, find_game, game_names, new_seed
from mazziere.server.protocol import json_schema


def _games(name: str, seed: int) -> TableGame:
    kind = find_game(name)
    rnd = random.Random(seed)
    s = f"{rnd.getrandbits(256):064x}"
    if name == "uno":
        cfg = {"preset": rnd.choice(["classic", "house", "online", "mattel"]), "options": {}}
        cfg["options"] = {"match": "single_hand"}
        return kind.new(cfg, 3, {1: "random", 2: "greedy"}, s)
    if name == "casino":
        return kind.new({"min_stake": 10, "max_stake": 10_000}, 1, {}, s, 100, 1_000)
    return kind.new({"level": "normal", "deck": rnd.choice([32, 52])}, 2, {}, s)


def _play(name: str, seed: int, most: int) -> Iterator[tuple[list[dict[str, Any]], Step]]:
    """A game of ``name`` played ``most`` moves at most (the bots' moves, else random legal
    ones): each move's structured legal actions and its step."""
    g = _games(name, seed)
    rnd = random.Random(seed)
    for _ in range(most):
        if g.is_over:
            return
        seat = g.deciders()[0]
        move = g.bot_move(seat)
        legal = g.legal_wire(seat)
        text = move if move is not None else rnd.choice(legal)["text"]
        yield legal, g.apply(seat, text, "player")


def _check(obj: dict[str, Any], schema: dict[str, Any]) -> None:
    assert set(obj) == set(schema["properties"]), (obj, sorted(schema["properties"]))


@pytest.mark.parametrize("name", ["uno", "casino", "poker"])
def test_every_action_and_event_has_a_structured_form_in_the_schema(name: str) -> None:
    assert name in game_names()
    schema = json_schema()["games"][name]
    kind = find_game(name)
    seen_kinds: set[str] = set()
    seen_types: set[str] = set()
    for seed in range(12):
        for legal, step in _play(name, seed, 3000):
            for a in legal:
                assert kind.parse_action(a["text"]) == kind.parse_action(a["text"])
                assert str(kind.parse_action(a["text"])) == a["text"]
                _check(a, schema["actions"][a["kind"]])
                seen_kinds.add(a["kind"])
            for event, _, _ in step.events:
                ev = wire.event(event)
                _check(ev, schema["events"][ev["type"]])
                seen_types.add(ev["type"])
    assert len(seen_kinds) >= 3 and len(seen_types) >= 4, (seen_kinds, seen_types)


@pytest.mark.parametrize("name", ["uno", "casino", "poker"])
def test_a_recorded_step_reads_back_to_the_same_structured_forms(name: str) -> None:
    """The hand's record keeps a step as text (:meth:`~mazziere.game.Step.record`); read back,
    every action and event has the structured form the live update sent from the objects."""
    kind = find_game(name)
    checked = 0
    for seed in range(3):
        for _legal, step in _play(name, seed, 400):
            text, rows = step.record()
            back = kind.recorded_step(step.seat, text, step.actor, rows)
            assert wire.action(back.action) == wire.action(step.action)
            assert [(wire.event(e), o, h) for e, o, h in back.events] == [
                (wire.event(e), o, h) for e, o, h in step.events
            ]
            checked += len(rows)
    assert checked > 50


def test_new_seed_is_256_bits() -> None:
    assert len(bytes.fromhex(new_seed())) == 32
