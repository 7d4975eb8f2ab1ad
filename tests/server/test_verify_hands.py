"""Rounds anyone can verify, over a real server (docs/verify.md): a finished hand of each game
verifies through ``GET /api/hands/{id}/verify`` and from its downloaded file; a hand in
progress answers ``hand_in_progress`` and reveals nothing; only the hand's players may ask;
a hand whose record was tampered with in the database fails with the reason."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from mazziere import verify as V
from mazziere.server.store.models import Hand, HandAction

from .live import Client, Live, live_server
from .test_live_games import ledger_ok, play_until_over


async def _seated(live: Live, token: str, body: dict[str, Any]) -> tuple[Client, int]:
    table = (await live.post("/api/tables", token, body)).json()["id"]
    c = await live.connect(token)
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
    return c, table


async def finished_hand(live: Live, token: str, game: str) -> tuple[int, Client, int]:
    """Play one hand of ``game`` to its end (poker: to the player's leaving, a forfeit)."""
    if game == "uno":
        c, table = await _seated(
            live, token, {"game": "uno", "seats": 2, "options": {"match": "single_hand"}}
        )
        await c.send({"type": "start", "table": table})
        await play_until_over(c, table, 0)
    elif game == "casino":
        c, table = await _seated(live, token, {"game": "casino"})
        await c.send({"type": "topup", "table": table, "amount": 10_000})
        upd = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit"))
        await c.send({"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("stake") == 500)
        await play_until_over(c, table, 0)
    else:
        c, table = await _seated(live, token, {"game": "poker", "level": "easy"})
        await c.send({"type": "start", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        await c.send({"type": "leave", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["seat"] is None)
    (last, *_) = await live.get("/api/history", token)
    assert last["status"] == "done" and last["game"] == game
    return int(last["hand"]), c, table


@pytest.mark.parametrize("game", ["uno", "casino", "poker"])
async def test_a_finished_hand_verifies_over_the_api_and_from_its_file(
    db_url: str, tmp_path: Path, game: str
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("vera")
        hand, c, _ = await finished_hand(live, a["token"], game)
        got = await live.get(f"/api/hands/{hand}/verify", a["token"])
        assert got["ok"] and got["problems"] == [], got["problems"]
        assert got["commitment_ok"] and (got["steps"] > 0 or game == "poker")
        assert hashlib.sha256(bytes.fromhex(got["seed"])).hexdigest() == got["commitment"]
        assert got["cards_dealt"] >= 10 and got["dealt"][0]["step"] == 0
        r = await live.http.get(
            f"/api/hands/{hand}/file", headers={"Authorization": f"Bearer {a['token']}"}
        )
        assert r.status_code == 200
        assert f'filename="mazziere-hand-{hand}.json"' in r.headers["content-disposition"]
        record = V.read_hand_file(r.text)
        assert record["seed"] == got["seed"] and record["hand"] == hand
        assert V.verify(record).to_json() == got
        # the table showed the commitment when the hand started and the seed when it ended
        notes = [n for m in c.messages if m["type"] == "table" for n in m.get("log") or []]
        started = [n for n in notes if n["note"] == "hand_started" and n["hand"] == hand]
        assert started and started[0]["commitment"] == got["commitment"]
        if game != "poker":  # a forfeit ends the hand with the player gone: no note
            over = [n for n in notes if n["note"] == "hand_over" and n["hand"] == hand]
            assert over and over[0]["seed"] == got["seed"]
        await c.close()
        await ledger_ok(live)


async def test_a_hand_in_progress_answers_a_typed_error_and_reveals_nothing(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a, b = await live.signup("ugo"), await live.signup("ida")
        c, table = await _seated(
            live, a["token"], {"game": "uno", "seats": 2, "options": {"match": "single_hand"}}
        )
        await c.send({"type": "start", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        (row,) = await live.get("/api/history", a["token"])
        assert row["status"] == "playing"
        hand = row["hand"]
        async with live.server.db.session() as db:
            seed = (await db.get(Hand, hand)).seed  # type: ignore[union-attr]
        for path in (f"/api/hands/{hand}/verify", f"/api/hands/{hand}/file"):
            r = await live.http.get(path, headers={"Authorization": f"Bearer {a['token']}"})
            assert r.status_code == 409 and r.json()["code"] == "hand_in_progress"
            assert seed not in r.text
            # not a player of that hand, or not logged in: nothing either
            r = await live.http.get(path, headers={"Authorization": f"Bearer {b['token']}"})
            assert r.status_code == 400 and r.json()["code"] == "no_hand"
            assert (await live.http.get(path)).status_code == 401
        await c.close()


@pytest.mark.parametrize("tamper", ["action", "seed", "commitment"])
async def test_a_hand_tampered_with_in_the_database_fails_verification(
    db_url: str, tmp_path: Path, tamper: str
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("tea")
        hand, c, _ = await finished_hand(live, a["token"], "casino")
        first: HandAction | None = None
        async with live.server.db.write() as db:
            if tamper == "action":
                first = await db.scalar(
                    select(HandAction)
                    .where(HandAction.hand_id == hand, HandAction.actor == "player")
                    .order_by(HandAction.seq)
                    .limit(1)
                )
                assert first is not None
                forged = "draw" if first.action != "draw" else "R0"
                await db.execute(
                    update(HandAction).where(HandAction.id == first.id).values(action=forged)
                )
            elif tamper == "seed":
                await db.execute(update(Hand).where(Hand.id == hand).values(seed="ab" * 32))
            else:
                await db.execute(update(Hand).where(Hand.id == hand).values(commitment="cd" * 32))
        got = await live.get(f"/api/hands/{hand}/verify", a["token"])
        assert not got["ok"]
        codes = [p["code"] for p in got["problems"]]
        if tamper == "action":
            assert codes[0] in ("step_refused", "events_differ")
            assert first is not None and f"step {first.seq}" in got["problems"][0]["message"]
        else:
            assert codes[0] == "commitment_mismatch" and not got["commitment_ok"]
            assert "does not match the commitment" in got["problems"][0]["message"]
        await c.close()
