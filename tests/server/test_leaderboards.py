"""Leaderboards and player pages (platform.md "Leaderboards and player pages"): UNO by the
online operator's victory points over matches between humans, poker by chips won against each
computer level, a player's matches, wins, points and last matches. The figures are sums over
the match results written with each match's end; a fixture of matches whose figures were
worked out by hand checks them, over a real socket on SQLite and PostgreSQL, and again after
the server restarts on the same database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, update

from mazziere.server.store import hands, results, table_rows
from mazziere.server.store.models import Hand, MatchResult

from .live import Live, live_server
from .test_presence import seat_at, uno_table

NAMES = ("anna", "bruno", "carla", "dario")


def st(rank: int | None, won: bool, points: int = 0, chips: int | None = None) -> dict[str, Any]:
    return {"rank": rank, "won": won, "points": points, "chips": chips}


async def match(
    live: Live,
    ids: dict[str, int],
    game: str,
    seats: list[str],
    standings: list[dict[str, Any]],
    *,
    left: str | None = None,
    days_ago: int = 0,
) -> int:
    """A finished match recorded as the server records one: its hand opened with these seats
    (a name, or ``bot:<level>`` for a computer player), then closed with its results in one
    transaction."""
    players = [
        {"account": None, "name": "", "bot": s[4:]}
        if s.startswith("bot:")
        else {"account": ids[s], "name": s, "bot": None}
        for s in seats
    ]
    async with live.server.db.write() as db:
        table = await table_rows.create(db, game, "", {}, len(seats), ids["anna"], 30)
        hand = await hands.open_hand(db, table.id, game, "00" * 32, {}, players)
        if left is not None:
            await hands.mark_left(db, hand, seats.index(left), "autoplay")
        await hands.close_hand(db, hand, {"winner": 0})
        await results.record(db, hand, table.id, game, standings)
        if days_ago:
            when = datetime.now(UTC) - timedelta(days=days_ago)
            await db.execute(
                update(MatchResult).where(MatchResult.hand_id == hand).values(ended_at=when)
            )
    return hand


async def fixture(live: Live) -> dict[str, int]:
    ids = {n: int((await live.signup(n))["account"]) for n in NAMES}
    four = ["anna", "bruno", "carla", "dario"]
    # M1: four humans, 12/6/2/0 by place
    await match(live, ids, "uno", four, [st(1, True, 12), st(2, False, 6), st(3, False, 2),
                                         st(4, False, 0)])  # fmt: skip
    # M2: in pairs (anna and carla against bruno and dario), 10/6/4/0
    await match(live, ids, "uno", four, [st(2, False, 4), st(1, True, 10), st(2, False, 0),
                                         st(1, True, 6)])  # fmt: skip
    # M3: anna against three computer players: on her page, never on the leaderboard
    await match(live, ids, "uno", ["anna", "bot:greedy", "bot:greedy", "bot:greedy"],
                [st(1, True, 12), st(2, False, 6), st(3, False, 2), st(4, False, 0)])  # fmt: skip
    # M4: two humans: a match and a win, no points
    await match(live, ids, "uno", ["anna", "carla"], [st(2, False), st(1, True)])
    # M5: carla left (the computer finished her seat in third place): no win, no points
    await match(live, ids, "uno", four, [st(1, True, 12), st(2, False, 6), st(3, False, 2),
                                         st(4, False, 0)], left="carla")  # fmt: skip
    # M6: ten days ago: in the month and all time, not in the week
    await match(live, ids, "uno", four, [st(4, False, 0), st(1, True, 12), st(2, False, 6),
                                         st(3, False, 2)], days_ago=10)  # fmt: skip
    # poker: anna +120 then -50 against easy, -500 against hard; bruno +200 against easy
    await match(
        live, ids, "poker", ["anna", "bot:easy"], [st(1, True, 0, 120), st(2, False, 0, -120)]
    )
    await match(
        live, ids, "poker", ["anna", "bot:easy"], [st(2, False, 0, -50), st(1, True, 0, 50)]
    )
    await match(
        live, ids, "poker", ["anna", "bot:hard"], [st(2, False, 0, -500), st(1, True, 0, 500)]
    )
    await match(
        live, ids, "poker", ["bruno", "bot:easy"], [st(1, True, 0, 200), st(2, False, 0, -200)]
    )
    return ids


def row(rank: int, name: str, points: int, matches: int, wins: int) -> dict[str, Any]:
    return {"rank": rank, "name": name, "points": points, "matches": matches, "wins": wins}


# worked out by hand from the fixture
UNO_WEEK = [
    row(1, "anna", 12 + 4 + 0 + 12, 4, 2),  # M1 M2 M4 M5
    row(2, "bruno", 6 + 10 + 6, 3, 1),  # M1 M2 M5
    row(3, "dario", 0 + 6 + 0, 3, 1),  # M1 M2 M5
    row(4, "carla", 2 + 0 + 0 + 0, 4, 1),  # M1 M2 M4 M5 (left: 0)
]
UNO_MONTH = [
    row(1, "bruno", 22 + 12, 4, 2),
    row(2, "anna", 28 + 0, 5, 2),
    row(3, "dario", 6 + 2, 4, 1),  # ties carla on points and wins, in fewer matches
    row(4, "carla", 2 + 6, 5, 1),
]
POKER = {
    "easy": [
        {"rank": 1, "name": "bruno", "chips": 200, "matches": 1, "wins": 1},
        {"rank": 2, "name": "anna", "chips": 70, "matches": 2, "wins": 1},
    ],
    "normal": [],
    "hard": [{"rank": 1, "name": "anna", "chips": -500, "matches": 1, "wins": 0}],
}


async def check(live: Live) -> None:
    async def board(game: str, period: str) -> Any:
        r = await live.http.get("/api/leaderboards", params={"game": game, "period": period})
        assert r.status_code == 200, r.text
        return r.json()

    assert (await board("uno", "week"))["rows"] == UNO_WEEK
    assert (await board("uno", "month"))["rows"] == UNO_MONTH
    assert (await board("uno", "all"))["rows"] == UNO_MONTH
    assert (await board("poker", "week"))["levels"] == POKER
    page = (await live.http.get("/api/players/anna")).json()
    assert page["games"] == {
        "uno": {"matches": 6, "wins": 3, "points": 28, "humans_matches": 5},
        "poker": {"matches": 3, "wins": 1, "chips": 120 - 50 - 500},
    }
    recent = page["recent"]
    assert len(recent) == 9 and [m["game"] for m in recent[:3]] == ["poker"] * 3
    assert recent[0]["chips"] == -500 and recent[0]["level"] == "hard"
    m3 = next(m for m in recent if m["game"] == "uno" and not m["humans_only"])
    assert (m3["rank"], m3["won"], m3["points"]) == (1, True, 12)
    async with live.server.db.session() as db:
        anna_hands = set(
            (await db.scalars(select(MatchResult.hand_id).where(MatchResult.seat == 0))).all()
        )
    assert {m["hand"] for m in recent} <= anna_hands
    carla = (await live.http.get("/api/players/carla")).json()
    gone = [m for m in carla["recent"] if m["left"]]
    assert len(gone) == 1 and (gone[0]["won"], gone[0]["points"], gone[0]["rank"]) == (False, 0, 3)


async def test_leaderboards_and_player_pages_match_a_fixture_worked_out_by_hand(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        await fixture(live)
        await check(live)
        r = await live.http.get("/api/leaderboards", params={"game": "uno", "period": "year"})
        assert r.status_code == 422 and r.json()["code"] == "bad_period"
        r = await live.http.get("/api/leaderboards", params={"game": "casino"})
        assert r.status_code == 422 and r.json()["code"] == "unknown_game"
        r = await live.http.get("/api/players/nessuno")
        assert r.status_code == 404 and r.json()["code"] == "no_player"
    async with live_server(db_url, tmp_path) as live:  # a restart: the rows, not memory
        await check(live)


async def test_a_finished_match_writes_its_results_with_its_end(
    db_url: str, tmp_path: Path
) -> None:
    """A match played at a table: its results exist exactly when its hand is done (one
    transaction), one row per seat, the computer players' seats included."""
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("elena")
        table = await uno_table(live, a["token"], seats=3, bots="greedy")
        c = await live.connect(a["token"])
        await seat_at(c, table)
        await c.send({"type": "start", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        actor = live.server.tables[table]
        for _ in range(400):
            if actor.table_game is not None and actor.table_game.is_over:
                break
            if 0 in actor.table_game.deciders():
                n = len(c.messages)
                legal = actor.table_game.legal(0)
                await c.send({"type": "action", "table": table, "state_no": actor.state_no,
                              "action": legal[0]})  # fmt: skip
                await c.wait(lambda m: m["type"] in ("table", "error"), start=n)
        assert actor.table_game.is_over
        async with live.server.db.session() as db:
            hand = await db.get(Hand, actor.hand_id)
            rows = (
                await db.scalars(select(MatchResult).where(MatchResult.hand_id == actor.hand_id))
            ).all()
            total = await db.scalar(select(func.count(MatchResult.id)))
        assert hand is not None and hand.status == "done" and total == 3
        assert [r.seat for r in rows] == [0, 1, 2]
        assert rows[0].account_id == a["account"] and rows[1].bot == "greedy"
        assert not rows[0].humans_only and sum(r.won for r in rows) == 1
        page = (await live.http.get("/api/players/elena")).json()
        assert page["games"]["uno"]["matches"] == 1 and page["recent"][0]["hand"] == hand.id
        assert (await live.http.get("/api/leaderboards")).json()["rows"] == []  # with bots
        await c.close()
