"""A table's running log reaches clients as typed notes (``log`` of the
``table`` message, :data:`mazziere.server.protocol.TableNote`), never as sentences: who sat down
or left (by name), hands started (with the seed's commitment) and over, held seats, computer
substitutes, closed money sessions. The client words them in its own language.

An update carries what changed. The table numbers its notes; an update carries
those the seat has not received (``log_from``: the number of the first), and the seat list only
when it changed; a join or a reconnection gets a full update (seats, the last 10 notes)."""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
from collections import deque
from pathlib import Path
from typing import Any

import msgspec
import pytest

from mazziere.server import protocol as P
from mazziere.server.clock import ManualClock
from mazziere.server.table.seats import SeatInfo
from mazziere.server.table.updates import FULL_NOTES, notes_for

from .live import Client, live_server
from .test_presence import seat_at, settle, uno_table


def shown(updates: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    """The notes a client shows from these updates of one table, as the browser takes them:
    each with its number (``log_from`` on), those of a full update it already showed skipped.
    A delta update goes on exactly where the previous update stopped."""
    got: list[tuple[int, Any]] = []
    expect: int | None = None
    for m in updates:
        start, end = m["log_from"], m["log_from"] + len(m["log"])
        if not m["full"]:
            assert expect is not None and start == expect, (start, expect)
        nxt = start if expect is None else expect
        got.extend((start + i, n) for i, n in enumerate(m["log"]) if start + i >= nxt)
        expect = max(nxt, end)
    return got


def table_updates(c: Client, table: int, start: int = 0) -> list[dict[str, Any]]:
    return [m for m in c.messages[start:] if m["type"] == "table" and m["table"] == table]


def notes(c: Client, table: int) -> list[dict[str, Any]]:
    """Every note the client was sent at ``table``, once each, in order, none missing."""
    got = shown(table_updates(c, table))
    numbers = [k for k, _ in got]
    assert numbers == list(range(numbers[0] if numbers else 0, len(numbers) + (numbers or [0])[0]))
    return [n for _, n in got]


def test_notes_are_in_the_protocol_schema() -> None:
    schema = P.json_schema()
    log = schema["$defs"]["TableUpdate"]["properties"]["log"]
    refs = {r["$ref"].rsplit("/", 1)[1] for r in log["items"]["anyOf"]}
    assert refs == {
        "Seated",
        "SeatLeft",
        "Substituted",
        "SeatHeld",
        "Back",
        "HandStarted",
        "HandOver",
        "TimedOut",
        "SessionClosed",
        "Closed",
        "StartsSoon",
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
        await ca.wait(lambda m: m["type"] == "table" and ca.tables[table]["seats"][1]["bot"])
        got = notes(ca, table)
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
        got = notes(c, table)
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


async def test_a_delta_update_carries_only_the_new_notes_and_no_seats_when_none_changed(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a, b = await live.signup("anita"), await live.signup("bruno")
        table = await uno_table(live, a["token"], seats=3, decision_seconds=3600)
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        first = await seat_at(ca, table)  # joining: a full update
        assert first["full"] and first["seats"][0]["name"] == "anita"
        assert (first["log_from"], first["log"]) == (
            0,
            [{"note": "seated", "seat": 0, "name": "anita"}],
        )
        n = len(ca.messages)
        await seat_at(cb, table)
        # anita: bruno sat down, so the seats changed; the one new note only
        m = await ca.wait(lambda m: m["type"] == "table", start=n)
        assert not m["full"] and m["seats"][1]["name"] == "bruno"
        assert (m["log_from"], m["log"]) == (1, [{"note": "seated", "seat": 1, "name": "bruno"}])
        n = len(ca.messages)
        await ca.send({"type": "start", "table": table})
        m = await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing", start=n)
        assert not m["full"] and m["seats"][2]["bot"]  # the empty seat got a computer player
        assert m["log_from"] == 2 and [x["note"] for x in m["log"]] == ["hand_started"]
        await cb.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        # a move: no seat changed and no note happened, so the update carries neither
        for c in (ca, cb):
            t = c.tables[table]
            if t["legal"] and t["view"]["current"] == t["seat"]:
                n, before = len(c.messages), t["state_no"]
                act = {"table": table, "state_no": before, "action": t["legal"][0]["text"]}
                await c.send({"type": "action", **act})
                m = await c.wait(
                    lambda m, b=before: m["type"] == "table" and m["state_no"] > b, start=n
                )
                if m["status"] == "playing":
                    assert not m["full"] and m["seats"] is None
                    assert (m["log_from"], m["log"]) == (3, [])
                    assert c.tables[table]["seats"][0]["name"] == "anita"  # the client kept it
                break
        else:
            raise AssertionError("nobody's turn")
        await ca.close()
        await cb.close()


async def test_a_join_or_a_reconnection_gets_a_full_update(db_url: str, tmp_path: Path) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a, b = await live.signup("anita"), await live.signup("bruno")
        table = await uno_table(live, a["token"], seats=3, decision_seconds=3600)
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await seat_at(ca, table)
        await seat_at(cb, table)
        # joining again on the same connection (the page came back to the table): full
        n = len(cb.messages)
        await cb.send({"type": "join", "table": table})
        m = await cb.wait(lambda m: m["type"] == "table", start=n)
        assert m["full"] and m["seats"] is not None and m["log_from"] == 0 and len(m["log"]) == 2
        await cb.close()  # bruno's seat is held
        await asyncio.sleep(0.1)
        await live.server.idle()
        cb = await live.connect(b["token"])  # the server seats him again: a full update
        m = await cb.wait(lambda m: m["type"] == "table" and m["table"] == table)
        assert m["full"] and m["seats"][1] == {
            "name": "bruno",
            "bot": False,
            "connected": True,
            "free": False,
        }
        assert m["log_from"] == 0
        assert [x["note"] for x in m["log"]] == ["seated", "seated", "held", "back"]
        # anita saw the seat held and back by the seat list, and each note once
        await ca.wait(lambda m: m["type"] == "table" and ca.tables[table]["seats"][1]["connected"])
        assert [x["note"] for x in notes(ca, table)] == ["seated", "seated", "held", "back"]
        await ca.close()
        await cb.close()


async def test_notes_are_never_lost_or_duplicated_even_when_many_happen_between_two_updates(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a, b = await live.signup("anita"), await live.signup("bruno")
        table = await uno_table(live, a["token"], seats=3, decision_seconds=3600)
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await seat_at(ca, table)
        await seat_at(cb, table)
        actor = live.server.tables[table]
        burst = [P.SessionClosed(reason=f"test {i}", credited=i) for i in range(3 * FULL_NOTES)]

        async def many_notes_then_a_move() -> None:
            # more notes than a full update carries happen between two updates of a seat
            async with actor.lock:
                for note in burst:
                    actor._note(note)
            await ca.send({"type": "start", "table": table})

        await many_notes_then_a_move()
        await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        acted: dict[int, int] = {}
        for _ in range(3000):  # play the hand to its end, two players moving
            if all(c.tables[table]["status"] == "open" for c in (ca, cb)):
                break
            for i, c in enumerate((ca, cb)):
                t = c.tables[table]
                if (
                    t["legal"]
                    and t["view"]["current"] == t["seat"]
                    and acted.get(i) != t["state_no"]
                ):
                    acted[i] = t["state_no"]
                    act = {
                        "table": table,
                        "state_no": t["state_no"],
                        "action": t["legal"][0]["text"],
                    }
                    await c.send({"type": "action", **act})
            await asyncio.sleep(0.005)
        await live.server.idle()
        await asyncio.sleep(0.1)
        expected = [msgspec.to_builtins(n) for n in actor.log]
        assert actor.notes_total == len(expected)  # fewer than the log holds
        for c in (ca, cb):
            updates = table_updates(c, table)
            assert sum(not m["full"] for m in updates) > 10
            got = notes(c, table)
            assert got == expected[len(expected) - len(got) :]
        assert notes(ca, table) == expected  # anita was there from the first note
        assert [n["reason"] for n in expected if n["note"] == "session_closed"] == [
            n.reason for n in burst
        ]
        await ca.close()
        await cb.close()


def test_a_seat_gets_every_note_it_lacks_once_and_a_full_update_past_what_the_log_holds() -> None:
    """notes_for against the whole history: random bursts of notes between updates, the log
    holding the last 40. A seat never behind further than the log holds sees every note once, in
    order; one further behind gets a full update (the last 10) and goes on from there."""
    rng = random.Random(12)
    history: list[int] = []
    log: deque[int] = deque(maxlen=40)
    sent: int | None = None
    updates: list[dict[str, Any]] = []
    fulls = 0
    for _ in range(2000):
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 5, 11, 39, 40, 41, 60])):
            history.append(len(history))
            log.append(history[-1])
        if rng.random() < 0.02:
            sent = None  # a reconnection
        full, log_from, got = notes_for(log, len(history), sent)
        assert got == history[log_from : log_from + len(got)]
        assert log_from + len(got) == len(history)
        if full:
            fulls += 1
            assert got == history[-FULL_NOTES:]
        else:
            assert sent is not None and log_from == sent
        sent = len(history)
        updates.append({"full": full, "log_from": log_from, "log": got})
    numbers = [k for k, _ in shown(updates)]
    assert numbers == sorted(set(numbers))  # never twice, always in order
    assert fulls and len(numbers) < len(history)  # some fell behind past the log


async def test_the_seat_list_is_built_once_per_change_not_once_per_recipient(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    public = SeatInfo.public

    def counting(self: SeatInfo) -> dict[str, Any]:
        built.append(1)
        return public(self)

    monkeypatch.setattr(SeatInfo, "public", counting)
    async with live_server(db_url, tmp_path) as live:
        names = ["anita", "bruno", "carla"]
        accounts = [await live.signup(n) for n in names]
        table = await uno_table(live, accounts[0]["token"], seats=3, decision_seconds=3600)
        clients = [await live.connect(a["token"]) for a in accounts]
        for c in clients:
            await seat_at(c, table)
        await live.server.idle()
        built.clear()
        actor = live.server.tables[table]
        async with actor.lock:
            actor.seats[2].connected = False  # one change, three recipients
            await actor._broadcast()
        assert len(built) == 3  # one list of three seats, for all of them
        built.clear()
        async with actor.lock:
            await actor._broadcast()  # nothing changed: nothing built
        assert built == []
        for c in clients:
            await c.close()


async def test_a_full_update_carries_the_seats_play_by_play_in_order(
    db_url: str, tmp_path: Path
) -> None:
    """A join (a reload, a second device) gets the seat's recent events and
    the table's notes as one ordered list; other updates carry none."""
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("aldo")
        table = await uno_table(live, a["token"], seats=3, decision_seconds=3600)
        ca = await live.connect(a["token"])
        first = await seat_at(ca, table)
        assert first["full"] and [r["note"]["note"] for r in first["recent"]] == ["seated"]
        n = len(ca.messages)
        await ca.send({"type": "start", "table": table})
        started = await ca.wait(lambda m: m["type"] == "table" and m["view"], start=n)
        assert not started["full"] and started["recent"] is None
        sent = [e for m in table_updates(ca, table, n) for e in m["events"]]
        # the page opens the table again: the same lines, in the order they happened
        n = len(ca.messages)
        await ca.send({"type": "join", "table": table})
        again = await ca.wait(lambda m: m["type"] == "table" and m["full"], start=n)
        lines = again["recent"]
        kinds = ["note:" + r["note"]["note"] if "note" in r else "event" for r in lines]
        assert kinds[:2] == ["note:seated", "note:hand_started"], kinds
        assert [r["event"] for r in lines if "event" in r] == sent
        await ca.close()


async def test_a_held_seat_whose_player_comes_back_is_noted_back(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a, b = await live.signup("anita"), await live.signup("bruno")
        table = await uno_table(live, a["token"], seats=3, decision_seconds=3600)
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await seat_at(ca, table)
        await seat_at(cb, table)
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        await cb.close()
        actor = live.server.tables[table]
        for _ in range(200):
            if not actor.seats[1].connected:
                break
            await asyncio.sleep(0.02)
        assert actor.seats[1].held_until is not None
        cb = await live.connect(b["token"])  # back within the hold
        await seat_at(cb, table)
        await ca.wait(lambda m: m["type"] == "table" and any(n["note"] == "back" for n in m["log"]))
        got = notes(ca, table)
        assert got[-1] == {"note": "back", "seat": 1, "name": "bruno"}
        assert [n["note"] for n in got].count("back") == 1
        second = await live.connect(b["token"])  # a second device: not a return
        await seat_at(second, table)
        assert [n["note"] for n in notes(ca, table)].count("back") == 1
        await ca.close()
        await second.close()
