"""Issue 10 item 2: a table's running log reaches clients as typed notes (``log`` of the
``table`` message, :data:`mazziere.server.protocol.TableNote`), never as sentences: who sat down
or left (by name), hands started (with the seed's commitment) and over, held seats, computer
substitutes, closed money sessions. The client words them in its own language."""

from __future__ import annotations

import asyncio
import hashlib
import re
from pathlib import Path
from typing import Any

import msgspec

from mazziere.server import protocol as P
from mazziere.server.clock import ManualClock

from .live import live_server
from .test_presence import seat_at, settle, uno_table


def notes(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every note of every ``table`` message, once each, in order."""
    seen: list[dict[str, Any]] = []
    for m in messages:
        if m["type"] == "table":
            for n in m["log"]:
                if n not in seen:
                    seen.append(n)
    return seen


def test_notes_are_in_the_protocol_schema() -> None:
    schema = P.json_schema()
    log = schema["$defs"]["TableUpdate"]["properties"]["log"]
    refs = {r["$ref"].rsplit("/", 1)[1] for r in log["items"]["anyOf"]}
    assert refs == {
        "Seated",
        "SeatLeft",
        "Substituted",
        "SeatHeld",
        "HandStarted",
        "HandOver",
        "TimedOut",
        "SessionClosed",
    }
    assert schema["$defs"]["TimedOut"]["properties"]["note"] == {"enum": ["timed_out"]}


async def test_table_notes_are_typed_and_name_the_players(db_url: str, tmp_path: Path) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a, b = await live.signup("anita"), await live.signup("bruno")
        table = await uno_table(live, a["token"], seats=3, decision_seconds=3600)
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await seat_at(ca, table)
        await seat_at(cb, table)
        await ca.send({"type": "start", "table": table})
        first = await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        hand = next(e["id"] for e in first["events"] if e["type"] == "hand_started")
        await cb.close()  # bruno's seat is held, then given to a computer player
        await asyncio.sleep(0.1)
        await settle(live, clock, live.server.settings.hold_seconds + 1)
        await ca.wait(lambda m: m["type"] == "table" and m["seats"][1]["bot"])
        got = notes(ca.messages)
        for n in got:  # each is one of the protocol's notes, exactly
            msgspec.convert(n, P.TableNote)
        kinds = [n["note"] for n in got]
        assert kinds[:2] == ["seated", "seated"]
        assert got[0] == {"note": "seated", "seat": 0, "name": "anita"}
        assert got[1] == {"note": "seated", "seat": 1, "name": "bruno"}
        started = next(n for n in got if n["note"] == "hand_started")
        assert started["hand"] == hand and re.fullmatch(r"[0-9a-f]{64}", started["commitment"])
        assert {"note": "held", "seat": 1, "name": "bruno"} in got
        assert {"note": "substituted", "seat": 1, "name": "bruno", "bot": "autoplay"} in got
        assert {"note": "left", "seat": 1, "name": "bruno"} in got
        assert all(
            isinstance(n, dict) for m in ca.messages if m["type"] == "table" for n in m["log"]
        )
        await ca.close()


async def test_hand_over_note_and_the_commitment_of_the_revealed_seed(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("carla")
        table = await uno_table(live, a["token"], seats=2, bots="greedy")
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "start", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        acted = -1
        for _ in range(2000):  # play the single hand with the first legal action
            t = c.tables[table]
            if t["status"] == "open":
                break
            if t["legal"] and t["view"]["current"] == 0 and t["state_no"] != acted:
                acted = t["state_no"]
                action = t["legal"][0]["text"]
                await c.send(
                    {"type": "action", "table": table, "state_no": acted, "action": action}
                )
            c.new.clear()
            await asyncio.wait_for(c.new.wait(), 30)
        got = notes(c.messages)
        over = next(n for n in got if n["note"] == "hand_over")
        started = next(n for n in got if n["note"] == "hand_started")
        assert over["hand"] == started["hand"] and "winner" in over["result"]
        # the seed, revealed once the hand is over, hashes to the commitment shown at its start
        record = await live.get(f"/api/history/{over['hand']}", a["token"])
        assert record["commitment"] == started["commitment"]
        assert hashlib.sha256(bytes.fromhex(record["seed"])).hexdigest() == started["commitment"]
        await c.close()


async def test_casino_session_closed_note(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, demo_credit=10_000) as live:
        a = await live.signup("dora")
        table = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "topup", "table": table, "amount": 1_500})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 1_500)
        await c.send({"type": "leave", "table": table})
        bye = await c.wait(lambda m: m["type"] == "table" and m["seat"] is None)
        assert {"note": "session_closed", "reason": "left", "credited": 1_500} in bye["log"]
        await c.close()
