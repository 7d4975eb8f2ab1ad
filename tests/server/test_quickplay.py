"""Quick play and rematches (platform.md "Lobby and tables"): one request seats a player at
the fullest quick table of a game and preset with a free seat, or opens one that starts by
itself (at once when full, else after the quick-play wait with computer players), so two
players asking at once sit together, on one process or two; at a match's end a rematch opens
one new table for the same players, which starts once they all sat down."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from mazziere.server.clock import ManualClock

from .live import Live, live_server
from .test_cluster import needs_both, pg_url, prefix, two  # noqa: F401 (fixtures)
from .test_presence import seat_at, settle


async def quick(live: Live, token: str, **body: Any) -> dict[str, Any]:
    r = await live.post("/api/quickplay", token, {"game": "uno", "preset": "online", **body})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_players_quick_playing_at_once_sit_at_one_table_that_fills_with_computers(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        users = [await live.signup(n) for n in ("anita", "bruno", "carla")]
        got = await asyncio.gather(*(quick(live, u["token"]) for u in users[:2]))
        assert got[0]["id"] == got[1]["id"]  # asked at once: one table
        assert sorted(g["seat"] for g in got) == [0, 1]
        assert sorted(g["created"] for g in got) == [False, True]
        table = got[0]["id"]
        third = await quick(live, users[2]["token"])
        assert third["id"] == table and third["seat"] == 2 and not third["created"]
        assert third["config"]["quick"] and third["status"] == "open"
        ca = await live.connect(users[0]["token"])
        first = await seat_at(ca, table)
        assert {"note": "starts_soon", "seconds": 10.0} in first["log"]
        actor = live.server.tables[table]
        await settle(live, clock, 9.5)
        assert actor.table_game is None  # still waiting for a fourth player
        await settle(live, clock, 1)
        assert actor.status == "playing" and actor.seats[3].bot is not None
        listed = (await live.http.get("/api/tables")).json()
        assert listed[0]["started"]
        fresh = await quick(live, (await live.signup("dario"))["token"])
        assert fresh["id"] != table and fresh["created"]  # the running one has no seat
        r = await live.post("/api/quickplay", users[0]["token"], {"game": "uno", "preset": "nope"})
        assert r.status_code != 200 and r.json()["code"] == "unknown_preset"
        await ca.close()


async def test_a_quick_table_starts_at_once_when_every_seat_is_taken(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        users = [await live.signup(f"player{i}") for i in range(4)]
        got = [await quick(live, u["token"]) for u in users]
        assert len({g["id"] for g in got}) == 1
        actor = live.server.tables[got[0]["id"]]
        assert actor.status == "playing"
        assert all(s.account is not None for s in actor.seats)
        poker = await quick(live, users[0]["token"], game="poker", preset=None)
        assert poker["game"] == "poker" and poker["status"] == "playing"


@needs_both
async def test_two_players_quick_playing_at_once_on_two_processes_sit_together(
    tmp_path: Path,
    pg_url: str,  # noqa: F811 (a fixture)
    prefix: str,  # noqa: F811
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        la = a.live(httpx.AsyncClient(base_url=a.base, timeout=30))
        lb = b.live(httpx.AsyncClient(base_url=b.base, timeout=30))
        for round_ in range(3):
            ua = await la.signup(f"alice{round_}")
            ub = await lb.signup(f"bob{round_}")
            ga, gb = await asyncio.gather(quick(la, ua["token"]), quick(lb, ub["token"]))
            assert ga["id"] == gb["id"], (ga, gb)
            assert sorted((ga["seat"], gb["seat"])) in ([0, 1], [2, 3], [0, 1])
        await la.http.aclose()
        await lb.http.aclose()


async def test_a_rematch_reseats_the_players_at_a_new_table_that_starts_when_all_came(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a, b = await live.signup("rita"), await live.signup("sara")
        body = {"game": "uno", "preset": "online", "seats": 2, "decision_seconds": 5}
        r = await live.post("/api/tables", a["token"], body)
        table = r.json()["id"]
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await seat_at(ca, table)
        await seat_at(cb, table)
        early = await live.post(f"/api/tables/{table}/rematch", a["token"])
        assert early.json()["code"] == "match_in_progress"  # no match played yet
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        actor = live.server.tables[table]
        refused = await live.post(f"/api/tables/{table}/rematch", a["token"])
        assert refused.json()["code"] == "match_in_progress"
        await settle(live, clock, 6)  # a time-out at two-player online UNO ends the match
        assert actor.table_game.is_over
        stranger = await live.signup("ugo")
        r = await live.post(f"/api/tables/{table}/rematch", stranger["token"])
        assert r.json()["code"] == "not_seated"
        r = await live.post(f"/api/tables/{table}/rematch", a["token"])
        mine = r.json()
        assert r.status_code == 200 and mine["created"] and mine["id"] != table
        assert mine["config"]["rematch_of"] == table and mine["status"] == "open"
        note = await cb.wait(lambda m: m["type"] == "notice" and m["kind"] == "rematch")
        assert note["table"] == mine["id"]
        again = (await live.post(f"/api/tables/{table}/rematch", b["token"])).json()
        assert again["id"] == mine["id"] and not again["created"]
        new = live.server.tables[mine["id"]]
        assert new.status == "playing"  # both came: it started at once
        assert {s.account for s in new.seats} == {a["account"], b["account"]}
        await ca.close()
        await cb.close()


def test_each_server_has_its_own_quick_play_locks() -> None:
    """An asyncio lock belongs to the event loop that first waited on it: a second server (a
    restart, or the next test) in another loop takes quick play's locks of its own."""
    from mazziere.server.routes.quick import quick_lock

    class OneProcess:
        cluster = None

    async def two_at_once(server: Any) -> None:
        async def one() -> None:
            async with quick_lock(server, "uno:online"):
                await asyncio.sleep(0.01)

        await asyncio.gather(one(), one())

    for _ in range(2):  # each run is another event loop
        asyncio.run(two_at_once(OneProcess()))
