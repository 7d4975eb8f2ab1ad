"""Rounds anyone can verify (docs/verify.md): a true hand of each game verifies from its
revealed seed and recorded actions, every card dealt is listed, and a tampered action, seed or
commitment fails with a reason naming it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mazziere import verify as V
from mazziere.cli import app
from mazziere.game import Step, commitment, find_game

SEED = "5e" * 32

GAMES: dict[str, tuple[dict[str, Any], int, dict[int, str], int | None, int | None]] = {
    "uno": ({"preset": "classic"}, 3, {1: "greedy", 2: "greedy"}, None, None),
    "casino": ({"min_stake": 100, "max_stake": 10_000}, 2, {1: "bank"}, 500, 10_000),
    "poker": ({"level": "normal"}, 2, {1: "normal"}, None, None),
}


def played_hand(game: str, seed: str = SEED) -> dict[str, Any]:
    """A whole hand played through the game contract (seat 0 takes its first legal action,
    the computer players theirs), as the server's file of it would hold it."""
    config, seats, bots, stake, credit = GAMES[game]
    g = find_game(game).new(config, seats, bots, seed, stake, credit)
    steps: list[Step] = []
    for _ in range(5000):
        if g.is_over:
            break
        seat = g.deciders()[0]
        move = g.bot_move(seat) if seat in bots else g.legal_actions(seat)[0]
        steps.append(g.apply(seat, move, "bot" if seat in bots else "player"))
    assert g.is_over
    players = [{"name": "ada"}] + [{"bot": bots[s]} for s in range(1, seats)]
    rows = [(n, s.seat, s.actor, *s.record()) for n, s in enumerate(steps, start=1)]
    record = V.hand_file(
        hand=7,
        game=game,
        setup=g.setup,
        players=players,
        commitment=commitment(seed),
        seed=seed,
        steps=[
            (n, seat, actor, action, [list(e) for e in ev]) for n, seat, actor, action, ev in rows
        ],
        result=g.result(),
    )
    return dict(json.loads(json.dumps(record)))  # as written to and read from a file


@pytest.mark.parametrize("game", list(GAMES))
def test_a_true_hand_verifies_and_lists_every_card_dealt(game: str) -> None:
    record = played_hand(game)
    v = V.verify(record)
    assert v.ok, v.problems
    assert v.commitment_ok and v.steps == len(record["steps"])
    assert v.result == record["result"]
    deal = [d for d in v.dealt if d.step == 0]
    assert deal, "the deal's cards are listed"
    # each seat's cards as dealt: the ones its own first view shows
    g = find_game(game).from_setup(record["setup"], record["seed"])
    for seat in range(len(record["players"])):
        got = [c for d in deal if d.seat == seat and d.how == "dealt" for c in d.cards]
        if game == "casino" and seat == 1:
            assert sorted(got) == sorted(g.view(1)["hand"])
        elif game != "casino":
            assert sorted(got) == sorted(g.view(seat)["hand"])
    # every card drawn during the hand is listed at its step
    assert any(d.step > 0 for d in v.dealt)


def test_a_tampered_action_fails_at_its_step() -> None:
    record = played_hand("uno")
    forged = copy.deepcopy(record)
    (i, st) = next((i, s) for i, s in enumerate(forged["steps"]) if s["actor"] == "player")
    st["action"] = "draw" if st["action"] != "draw" else "pass"
    v = V.verify(forged)
    assert not v.ok
    (p,) = v.problems
    assert p.code in ("step_refused", "events_differ") and p.step == i + 1
    assert f"step {i + 1}" in p.message


def test_a_legal_but_different_action_fails_on_its_events() -> None:
    """An action the engine accepts, but not the one played (a card thrown away where the
    player stood pat): the events it gives are not the recorded ones."""
    record = played_hand("poker")
    i = next(
        i for i, s in enumerate(record["steps"]) if s["actor"] == "player" and s["action"] == "draw"
    )
    g = find_game("poker").from_setup(record["setup"], record["seed"])
    for st in record["steps"][:i]:
        g.apply(st["seat"], st["action"], st["actor"])
    other = next(str(a) for a in g.legal_actions(0) if str(a).startswith("draw "))
    forged = copy.deepcopy(record)
    forged["steps"][i]["action"] = other
    v = V.verify(forged)
    assert [(p.code, p.step) for p in v.problems] == [("events_differ", i + 1)]


def test_a_tampered_seed_fails_on_the_commitment() -> None:
    forged = played_hand("casino")
    forged["seed"] = "6f" + forged["seed"][2:]
    v = V.verify(forged)
    assert not v.ok and not v.commitment_ok
    assert v.problems[0].code == "commitment_mismatch"
    assert "does not match the commitment" in v.problems[0].message
    assert str(V.seed_hash(forged["seed"])) in v.problems[0].message


def test_a_seed_with_its_own_commitment_does_not_replay_the_record() -> None:
    """Both replaced together, the commitment (the one the table showed at the start) is the
    one to compare; the record still does not replay from another seed."""
    forged = played_hand("uno")
    forged["seed"] = "77" * 32
    forged["commitment"] = commitment(forged["seed"])
    v = V.verify(forged)
    assert v.commitment_ok and not v.ok
    assert v.problems[0].code in ("step_refused", "events_differ")


def test_a_tampered_commitment_fails() -> None:
    forged = played_hand("poker")
    forged["commitment"] = "0" * 64
    v = V.verify(forged)
    assert [p.code for p in v.problems] == ["commitment_mismatch"]


def test_a_tampered_result_fails() -> None:
    forged = played_hand("casino")
    forged["result"]["payout"] = forged["result"]["payout"] + 100
    v = V.verify(forged)
    assert [p.code for p in v.problems] == ["result_differs"]


def test_a_malformed_seed_says_so() -> None:
    forged = played_hand("uno")
    forged["seed"] = "xyz"
    assert [p.code for p in V.verify(forged).problems] == ["bad_seed"]


def test_mazziere_verify_prints_every_card_and_exits_by_the_outcome(tmp_path: Path) -> None:
    record = played_hand("uno")
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(record))
    out = CliRunner().invoke(app, ["verify", str(good)])
    assert out.exit_code == 0, out.output
    assert "commitment: matches the seed" in out.output and "verified: OK" in out.output
    first = record["steps"][0]
    assert "dealt" in out.output and "seat 0 (ada)" in out.output
    bad = tmp_path / "forged.json"
    record["seed"] = "00" * 32
    bad.write_text(json.dumps(record))
    out = CliRunner().invoke(app, ["verify", str(bad)])
    assert out.exit_code == 1 and "PROBLEM [commitment_mismatch]" in out.output
    assert first["action"]  # the file names each action in its text form
    junk = tmp_path / "junk.json"
    junk.write_text("{}")
    out = CliRunner().invoke(app, ["verify", str(junk)])
    assert out.exit_code == 2 and "not a hand's file" in out.output
