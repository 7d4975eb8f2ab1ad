"""A table no human plays at any more does not freeze (platform.md "Lobby and tables"): a
player who leaves a match in progress hands the seat to the computer (auto-play) until the
match ends, so the others play on; when the last human leaves, the computer players finish
the match at once, its result is recorded, and the table closes: its spectators see it closed
and the lobby no longer lists it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select

from mazziere.server.clock import ManualClock
from mazziere.server.store.models import GameTable, Hand

from .live import Client, Live, live_server
from .test_cluster import made, needs_both, pg_url, prefix, two  # noqa: F401
from .test_presence import seat_at, settle, uno_table


async def started(live: Live, c: Client, token: str, **body: Any) -> int:
    table = await uno_table(
        live,
        token,
        seats=4,
        decision_seconds=30,
        bot_delay=0.7,
        options={"match": "target_points"},
        **body,
    )
    await seat_at(c, table)
    await c.send({"type": "start", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["view"] is not None)
    return table


async def test_the_last_human_leaving_a_match_has_it_finished_and_the_table_closed(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a, w = await live.signup("paola"), await live.signup("walter")
        c, cw = await live.connect(a["token"]), await live.connect(w["token"])
        table = await started(live, c, a["token"])
        actor = live.server.tables[table]
        hand = actor.hand_id
        await cw.send({"type": "watch", "table": table})
        await cw.wait(lambda m: m["type"] == "table" and m.get("watching"))
        await settle(live, clock, 3)  # a few computer moves
        assert not actor.table_game.is_over
        await c.send({"type": "leave", "table": table})
        closed = await cw.wait(lambda m: m["type"] == "table" and m["status"] == "closed")
        assert {"note": "closed", "reason": "abandoned"} in closed["log"]
        notes = [n["note"] for m in cw.messages if m["type"] == "table" for n in m["log"]]
        assert notes.index("hand_over") < notes.index("closed")
        assert (await live.http.get("/api/tables")).json() == []
        async with live.server.db.session() as db:
            row = await db.get(GameTable, table)
            done = await db.scalar(select(Hand).where(Hand.id == hand))
        assert row is not None and row.status == "closed"
        assert done is not None and done.status == "done" and done.result
        assert table not in live.server.tables
        n = len(cw.messages)
        await cw.send({"type": "watch", "table": table})
        err = await cw.wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "no_table"
        await c.close()
        await cw.close()


async def test_a_leavers_seat_is_played_by_the_computer_and_the_match_goes_on(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a, b = await live.signup("anita"), await live.signup("bruno")
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        table = await uno_table(
            live, a["token"], seats=2, decision_seconds=30, bot_delay=0.7,
            options={"match": "target_points"},
        )  # fmt: skip
        await seat_at(ca, table)
        await seat_at(cb, table)
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["view"] is not None)
        actor = live.server.tables[table]
        for _ in range(4):  # bruno leaves on his turn (anita's time-outs play hers meanwhile)
            if actor.table_game.deciders() == [1]:
                break
            await settle(live, clock, 31)
        assert actor.table_game.deciders() == [1]
        await cb.send({"type": "leave", "table": table})
        got = await ca.wait(
            lambda m: m["type"] == "table" and any(n["note"] == "substituted" for n in m["log"])
        )
        assert got["status"] == "playing"
        state = actor.state_no
        for _ in range(3):  # the auto-play moves in bruno's place (a draw, then maybe a play)
            await settle(live, clock, 0.8)
            if actor.table_game.deciders() != [1]:
                break
        assert actor.state_no > state and actor.table_game.deciders() != [1]
        assert (await live.http.get("/api/tables")).json()[0]["status"] == "playing"
        await ca.close()
        await cb.close()


@needs_both
async def test_across_two_processes_an_abandoned_table_finishes_closes_and_leaves_the_lobby(
    tmp_path: Path,
    pg_url: str,  # noqa: F811 (a fixture)
    prefix: str,  # noqa: F811
) -> None:
    """The player's socket is on one process and the table on the other: the leave is
    forwarded, the owner plays the match out and closes the table, the spectator on the first
    process sees it closed, and neither process's lobby lists it."""
    async with two(tmp_path, pg_url, prefix) as (a, b):
        la = a.live(httpx.AsyncClient(base_url=a.base, timeout=30))
        lb = b.live(httpx.AsyncClient(base_url=b.base, timeout=30))
        alice, walt = await la.signup("alice"), await la.signup("walt")
        table = await made(
            lb, alice["token"], {"game": "uno", "preset": "classic", "seats": 4,
                                 "decision_seconds": 600, "bot_delay": 0.05,
                                 "options": {"match": "target_points"}}
        )  # fmt: skip
        assert b.health()["owned"] == [table]
        ca, cw = await la.connect(alice["token"]), await la.connect(walt["token"])
        await ca.send({"type": "join", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["table"] == table)
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        await cw.send({"type": "watch", "table": table})
        await cw.wait(lambda m: m["type"] == "table" and m.get("watching"))
        await ca.send({"type": "leave", "table": table})
        closed = await cw.wait(lambda m: m["type"] == "table" and m["status"] == "closed", 60)
        assert {"note": "closed", "reason": "abandoned"} in closed["log"]
        for live in (la, lb):
            for _ in range(50):
                listed = (await live.http.get("/api/tables")).json()
                if not listed:
                    break
                await asyncio.sleep(0.1)
            assert listed == []
        for _ in range(50):
            if table not in b.health()["owned"]:
                break
            await asyncio.sleep(0.1)
        assert table not in b.health()["owned"] and table not in a.health()["owned"]
        n = len(cw.messages)
        await cw.send({"type": "watch", "table": table})
        err = await cw.wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "no_table"
        for c in (ca, cw):
            await c.close()
        await la.http.aclose()
        await lb.http.aclose()


async def test_a_table_its_last_player_left_just_before_a_crash_closes_when_it_resumes(
    db_url: str, tmp_path: Path
) -> None:
    """The leave was recorded (the computer plays the seat) but the server stopped before the
    table closed: on restart the table resumes with no player and closes, its match finished."""
    from mazziere.server.store import hands

    async with live_server(db_url, tmp_path, clock=ManualClock()) as live:  # nothing moves
        a = await live.signup("nina")
        c = await live.connect(a["token"])
        table = await started(live, c, a["token"])
        hand = live.server.tables[table].hand_id
        assert hand is not None
        async with live.server.db.write() as db:  # the leave's own write, and nothing after
            await hands.mark_left(db, hand, 0, "autoplay")
        await c.close()
    async with live_server(db_url, tmp_path) as live:
        async with live.server.db.session() as db:
            row = await db.get(GameTable, table)
            done = await db.get(Hand, hand)
        assert row is not None and row.status == "closed"
        assert done is not None and done.status == "done"
        assert (await live.http.get("/api/tables")).json() == []
