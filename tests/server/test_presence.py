"""platform.md "Time and presence" (seeds 000 and 004), driven by a manual clock: decision
time-outs, held seats, casino session closing, inactivity, a second login, abandonment."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from mazziere.server.clock import ManualClock
from mazziere.server.store import ledger

from .live import Client, Live, live_server


async def settle(live: Live, clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    await live.server.idle()
    await asyncio.sleep(0.05)


async def uno_table(live: Live, token: str, **body: Any) -> int:
    req = {
        "game": "uno",
        "preset": "classic",
        "options": {"match": "single_hand"},
        "seats": 4,
        "decision_seconds": 10,
        **body,
    }
    r = await live.post("/api/tables", token, req)
    assert r.status_code == 200, r.text
    return int(r.json()["id"])


async def seat_at(c: Client, table: int) -> dict[str, Any]:
    await c.send({"type": "join", "table": table})
    return await c.wait(lambda m: m["type"] == "table" and m["table"] == table)


async def my_turn(c: Client, table: int) -> dict[str, Any]:
    return await c.wait(
        lambda m: (
            m["type"] == "table" and m["legal"] and (m["view"] or {}).get("current") == m["seat"]
        )
    )


async def test_decision_time_limit_server_plays_by_autoplay_rule(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("ada")
        table = await uno_table(live, a["token"])
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "start", "table": table})
        t = await my_turn(c, table)
        assert t["time_left"] == 10
        n = len(c.messages)
        await settle(live, clock, 9)
        assert not any(
            e["type"] == "auto_played" for m in c.messages[n:] for e in m.get("events", [])
        )
        await settle(live, clock, 1.5)
        m = await c.wait(
            lambda m: m["type"] == "table" and any(e["type"] == "auto_played" for e in m["events"]),
            start=n,
        )
        # the log's note names the player and the move the server made, structured
        (note,) = [n for n in m["log"] if n["note"] == "timed_out"]
        assert (note["seat"], note["name"]) == (0, "ada")
        kinds = [a["kind"] for a in note["actions"]]
        assert kinds and "timeout" not in kinds
        assert set(kinds) <= {"play", "draw", "pass", "call_uno", "accept", "choose_color"}
        assert note["actions"][0]["text"] != "timeout"
        await c.close()


async def test_two_player_online_timeout_ends_match_leaver_loses(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a, b = await live.signup("bea"), await live.signup("ben")
        table = await uno_table(live, a["token"], preset="online", options={}, seats=2)
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await seat_at(ca, table)
        await seat_at(cb, table)
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        await settle(live, clock, 11)
        m = await ca.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("result"))
        result = m["view"]["result"]
        assert result["reason"] == "timeout" and sorted(result["match_points"]) == [-1, 1]
        await ca.close()
        await cb.close()


async def test_dropped_connection_seat_held_two_minutes_then_given_up(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("cleo")
        table = await uno_table(live, a["token"], decision_seconds=3600)
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "start", "table": table})
        await my_turn(c, table)
        await c.close()
        await asyncio.sleep(0.1)
        actor = live.server.tables[table]
        assert actor.seats[0].account == a["account"] and not actor.seats[0].connected
        await settle(live, clock, 119)
        assert actor.seats[0].account == a["account"]  # still held
        c2 = await live.connect(a["token"])  # back in time: the seat is there, redrawn
        m = await c2.wait(lambda m: m["type"] == "table" and m["seat"] == 0)
        assert m["view"]["hand"]
        await c2.close()
        await asyncio.sleep(0.1)
        await settle(live, clock, 121)
        # given up: the computer finished the match in the seat, and with no player left the
        # table closed (tests/server/test_abandoned_tables.py)
        assert actor.seats[0].account is None and actor.status == "closed"
        assert actor.table_game is not None and actor.table_game.is_over


async def test_casino_disconnected_without_pending_decision_closes_after_three_minutes(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock, demo_credit=10_000) as live:
        a = await live.signup("dino")
        table = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "topup", "table": table, "amount": 4_000})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 4_000)
        await c.close()
        await asyncio.sleep(0.1)
        await settle(live, clock, 179)
        async with live.server.db.session() as db:
            assert await ledger.balance(db, ledger.wallet(a["account"])) == 6_000
        await settle(live, clock, 2)
        async with live.server.db.session() as db:
            assert await ledger.balance(db, ledger.wallet(a["account"])) == 10_000
            assert (await ledger.check(db)).ok


async def test_casino_disconnected_with_pending_decision_default_strategy_decides(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock, demo_credit=10_000) as live:
        a = await live.signup("elsa")
        r = await live.post("/api/tables", a["token"], {"game": "casino", "decision_seconds": 20})
        table = r.json()["id"]
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "topup", "table": table, "amount": 1_000})
        u = await c.wait(
            lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 1_000
        )
        await c.send({"type": "stake", "table": table, "state_no": u["state_no"], "amount": 100})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("stake") == 100)
        await c.close()
        await asyncio.sleep(0.1)
        actor = live.server.tables[table]
        for _ in range(200):  # each pending decision waits its 20 s, then the strategy decides
            if actor.table_game is not None and actor.table_game.is_over:
                break
            await settle(live, clock, 20.5)
        assert actor.table_game is not None and actor.table_game.is_over
        payout = actor.table_game.result()["payout"]
        await settle(live, clock, 181)
        async with live.server.db.session() as db:
            assert await ledger.balance(db, ledger.wallet(a["account"])) == 10_000 - 100 + payout
            assert (await ledger.check(db)).ok


async def test_inactivity_warning_then_disconnection_after_twenty_minutes(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("fede")
        c = await live.connect(a["token"])
        await settle(live, clock, 19 * 60 + 1)
        await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "inactivity_warning")
        assert c.closed is None
        await settle(live, clock, 60)
        await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "inactivity", timeout=5)
        for _ in range(50):
            if c.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert c.closed is not None and c.closed[0] == 4002


async def test_a_game_action_restarts_the_twenty_minutes(db_url: str, tmp_path: Path) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("gino")
        t = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": t})
        await c.wait(lambda m: m["type"] == "table")
        await settle(live, clock, 15 * 60)
        await c.send({"type": "topup", "table": t, "amount": 1_000})  # a game action
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit"))
        await settle(live, clock, 15 * 60)  # 30 minutes connected, 15 since the action
        assert not [m for m in c.messages if m["type"] == "notice"]
        await settle(live, clock, 4 * 60 + 1)  # 19 minutes and a second since the action
        await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "inactivity_warning")
        assert c.closed is None
        await settle(live, clock, 60)
        await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "inactivity", timeout=5)


async def test_second_connection_closes_the_first_with_a_message(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("gaia")
        c1 = await live.connect(a["token"])
        c2 = await live.connect(a["token"])
        await c1.wait(lambda m: m["type"] == "notice" and m["kind"] == "replaced", timeout=5)
        for _ in range(50):
            if c1.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert c1.closed is not None and c1.closed[0] == 4001
        await c2.send({"type": "ping"})
        await c2.wait(lambda m: m["type"] == "pong")
        await c2.close()


async def test_time_out_moves_are_marked_auto_so_the_log_says_them_once(
    db_url: str, tmp_path: Path
) -> None:
    """The events telling the moves the server made for a timed-out player carry
    ``auto`` (the ``timed_out`` note names those moves: one log line); the rest do not."""
    from mazziere.server.table.play import MOVE_EVENTS

    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("ada")
        table = await uno_table(live, a["token"])
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "start", "table": table})
        await my_turn(c, table)
        n = len(c.messages)
        await settle(live, clock, 10.5)
        m = await c.wait(lambda m: m["type"] == "table" and m["log"], start=n)
        assert [x["note"] for x in m["log"]] == ["timed_out"]
        # the time-out's own events come first, up to the first event of another seat; what
        # follows (the computer players' moves, and a +2 they make seat 0 take) is not seat
        # 0's move and carries no ``auto``
        events = m["events"]
        cut = next((i for i, e in enumerate(events) if e.get("seat") not in (0, None)), len(events))
        mine = [e for e in events[:cut] if e["type"] in MOVE_EVENTS and e.get("seat") == 0]
        assert mine and all(e.get("auto") is True for e in mine)
        assert not any(e.get("auto") for e in events[cut:] if e["type"] != "auto_played")
        await c.close()


async def test_replay_of_a_time_out_names_the_moves_the_server_made(
    db_url: str, tmp_path: Path
) -> None:
    """The hand history shows a time-out as the moves made, as the log named them."""
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("ada")
        table = await uno_table(live, a["token"])
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "start", "table": table})
        await my_turn(c, table)
        n = len(c.messages)
        await settle(live, clock, 10.5)
        m = await c.wait(lambda m: m["type"] == "table" and m["log"], start=n)
        (note,) = m["log"]
        hist = await live.get("/api/history", a["token"])
        rep = await live.get(f"/api/history/{hist[0]['hand']}", a["token"])
        (step,) = [s for s in rep["steps"] if s["actor"] == "server"]
        assert step["moves"] == note["actions"] and step["moves"]
        assert all(s["moves"] is None for s in rep["steps"] if s["actor"] != "server")
        await c.close()
