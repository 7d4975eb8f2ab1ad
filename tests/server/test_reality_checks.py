"""Reality checks and the login's play time, enforced by the server (docs/rules/platform.md
"Limits and reality checks"): when a check is due the server pushes ``reality_check`` (time
played, net result since the login) and the casino table refuses stakes and top-ups
(``reality_check_due``) until the player answers "continue"; "leave" leaves the tables and
ends the login; at the end of the play time the player is told, the casino credit is paid
back and no stake or top-up is taken. Over real sockets, on SQLite and PostgreSQL, with the
server's clock moved by the test."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mazziere.server.clock import ManualClock

from .live import Live, live_server
from .test_live_games import ledger_ok, play_until_over
from .test_player_limits import (
    CALM,
    carry_on,
    casino_player,
    money_of,
    refused,
    set_limits,
    stake,
    top_up,
)
from .test_presence import my_turn, seat_at, uno_table


async def settle(live: Live, clock: ManualClock, seconds: float) -> None:
    """Move the server's clock and let what fired run."""
    await live.server.idle()
    clock.advance(seconds)
    await live.server.idle()
    await asyncio.sleep(0.05)


async def test_a_reality_check_due_refuses_stakes_and_top_ups_until_the_player_continues(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock, demo_credit=50_000, **CALM) as live:
        acc, c, table = await casino_player(live, "ida")
        token = acc["token"]
        await top_up(c, table, 2_000)
        assert (await stake(c, table, 500))["type"] == "table"
        paid = (await play_until_over(c, table, 0))["view"]["result"]["payout"]
        n = len(c.messages)
        await settle(live, clock, 59 * 60)
        assert not [m for m in c.messages[n:] if m["type"] == "reality_check"]
        await settle(live, clock, 60 + 30)
        check = await c.wait(lambda m: m["type"] == "reality_check", start=n)
        assert check["played_seconds"] >= 3600 and check["minutes"] == 60
        assert check["net"] == paid - 500  # payouts minus stakes since the login
        before = await money_of(live, acc["account"], table)
        for got in (await top_up(c, table, 100), await stake(c, table, 10)):
            assert got["type"] == "error" and got["code"] == "reality_check_due", got
        assert await money_of(live, acc["account"], table) == before
        report = (await live.get("/api/me/limits", token))["reality"]
        assert report["due"] and report["net"] == paid - 500
        await carry_on(live, token)
        assert not (await live.get("/api/me/limits", token))["reality"]["due"]
        assert (await stake(c, table, 10))["type"] == "table"
        await play_until_over(c, table, 0)
        # the rhythm is the player's choice: the next check comes that long after "continue"
        await set_limits(live, token, reality_minutes=15)
        n = len(c.messages)
        await settle(live, clock, 15 * 60 + 30)
        again = await c.wait(lambda m: m["type"] == "reality_check", start=n)
        assert again["minutes"] == 15
        assert (await top_up(c, table, 100))["code"] == "reality_check_due"
        await ledger_ok(live)
        await c.close()


async def test_leaving_at_a_reality_check_leaves_the_tables_pays_back_and_logs_out(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock, demo_credit=50_000, **CALM) as live:
        acc, c, table = await casino_player(live, "lea")
        await top_up(c, table, 2_000)
        await settle(live, clock, 3600 + 30)
        await c.wait(lambda m: m["type"] == "reality_check")
        r = await live.post("/api/me/reality-check", acc["token"], {"choice": "leave"})
        assert r.status_code == 200, r.text
        for _ in range(100):
            if c.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert c.closed is not None and c.closed[0] == 4005  # logged out
        assert live.server.tables[table].seat_of(acc["account"]) is None
        assert (
            await live.http.get("/api/me", headers={"Authorization": f"Bearer {acc['token']}"})
        ).status_code == 401
        again = await live.http.post(
            "/api/login", json={"username": "lea", "password": "correct horse"}
        )
        me = await live.get("/api/me", again.json()["token"])
        assert me["balance"] == 50_000  # the credit went back to the wallet
        await ledger_ok(live)


async def test_at_the_end_of_the_play_time_casino_credit_is_paid_back_and_play_refused(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock, demo_credit=50_000, **CALM) as live:
        acc, c, table = await casino_player(live, "mia")
        await set_limits(live, acc["token"], limits={"session_minutes": 30})  # new: at once
        await live.server.idle()
        await top_up(c, table, 2_000)
        n = len(c.messages)
        await settle(live, clock, 30 * 60 + 30)
        told = await c.wait(lambda m: m["type"] == "notice", start=n)
        assert told["kind"] == "session_time_limit", told
        await c.wait(
            lambda m: (
                m["type"] == "table" and any(e["type"] == "session_closed" for e in m["events"])
            ),
            start=n,
        )
        assert (await live.get("/api/me", acc["token"]))["balance"] == 50_000
        other = (await live.post("/api/tables", acc["token"], {"game": "casino"})).json()["id"]
        await c.send({"type": "join", "table": other})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == other)
        refused(await top_up(c, other, 100), "session_minutes", 0)
        await ledger_ok(live)
        await c.close()


async def test_no_reality_check_before_its_time_and_continue_is_harmless(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock, demo_credit=50_000, **CALM) as live:
        acc, c, table = await casino_player(live, "nora")
        await carry_on(live, acc["token"])  # nothing due: the next check moves on, no harm
        await settle(live, clock, 30 * 60)
        assert (await top_up(c, table, 100))["type"] == "table"
        assert not [m for m in c.messages if m["type"] == "reality_check"]
        await c.close()


async def test_at_a_uno_table_a_reality_check_due_stops_no_move(
    db_url: str, tmp_path: Path
) -> None:
    """No money moves at UNO: the check covers the player's page, the server takes the moves
    (the other players do not wait; the decision timer runs as usual)."""
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock, **CALM) as live:
        a = await live.signup("olga")
        c = await live.connect(a["token"])
        await settle(live, clock, 3600 + 30)
        await c.wait(lambda m: m["type"] == "reality_check")
        table = await uno_table(live, a["token"], decision_seconds=600)
        await seat_at(c, table)
        await c.send({"type": "start", "table": table})
        turn = await my_turn(c, table)
        n = len(c.messages)
        move = {"type": "action", "table": table, "state_no": turn["state_no"]}
        await c.send({**move, "action": turn["legal"][0]["text"]})
        got = await c.wait(lambda m: m["type"] in ("table", "error"), start=n)
        assert got["type"] == "table" and got["state_no"] > turn["state_no"], got
        await c.close()
