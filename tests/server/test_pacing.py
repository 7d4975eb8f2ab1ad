"""Issue 13 item 2: computer players think on the server for the table's ``bot_delay`` (a
table setting, default :data:`~mazziere.game.BOT_DELAY`, 0 for benchmarks and tests that need
speed), one move per wait, so every client sees one paced timeline; a human's decision clock
starts when the turn does; the wait holds nothing: another seat's legal move (a catch) goes
through at once."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from mazziere import uno
from mazziere.catalog import table_settings
from mazziere.game import BOT_DELAY
from mazziere.server.clock import ManualClock

from .live import Client, Live, live_server
from .test_presence import seat_at, settle, uno_table


def updates(c: Client, table: int, start: int) -> list[dict[str, Any]]:
    return [m for m in c.messages[start:] if m["type"] == "table" and m["table"] == table]


async def started_paced_table(live: Live, c: Client, token: str, delay: float) -> int:
    table = await uno_table(live, token, seats=4, decision_seconds=30, bot_delay=delay)
    await seat_at(c, table)
    n = len(c.messages)
    await c.send({"type": "start", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["view"] is not None, start=n)
    return table


def test_the_pace_is_a_table_setting_in_the_catalog() -> None:
    setting = next(s for s in table_settings() if s["name"] == "bot_delay")
    assert setting["default"] == BOT_DELAY == 0.7
    assert setting["min"] == 0


async def test_a_bad_pace_is_refused_and_no_table_is_made(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("bruna")
        for bad in (-1, 6, "fast"):
            r = await live.post("/api/tables", a["token"], {"game": "uno", "bot_delay": bad})
            assert r.status_code == 422, r.text
        assert live.server.tables == {}


async def test_computer_players_move_one_at_a_time_after_the_tables_delay(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("paola")
        c = await live.connect(a["token"])
        table = await started_paced_table(live, c, a["token"], 0.7)
        actor = live.server.tables[table]
        assert actor.bot_delay == 0.7
        bot_moves = 0
        for _ in range(200):  # the hand goes on: the bots move only as the clock runs
            if actor.session is None or actor.session.is_over:
                break
            if 0 in actor.session.deciders():  # our turn: its clock starts now, in full
                n = len(c.messages)
                legal = actor.session.legal(0)
                await c.send(
                    {
                        "type": "action",
                        "table": table,
                        "state_no": actor.state_no,
                        "action": legal[0],
                    }
                )
                await c.wait(lambda m: m["type"] == "table", start=n)
                continue
            n, state = len(c.messages), actor.state_no
            await settle(live, clock, 0.69)
            assert actor.state_no == state, "a computer player moved before its time"
            await settle(live, clock, 0.02)
            assert actor.state_no == state + 1, "one computer move per wait"
            got = updates(c, table, n)
            assert len(got) == 1 and got[0]["events"]
            bot_moves += 1
            if 0 in actor.session.deciders() and not actor.session.is_over:
                assert got[0]["time_left"] == 30.0  # the human's clock starts with the turn
        assert bot_moves >= 3
        await c.close()


async def test_a_catch_during_a_computer_players_wait_goes_through_at_once(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock) as live:
        a = await live.signup("carlo")
        c = await live.connect(a["token"])
        table = await started_paced_table(live, c, a["token"], 2.0)
        actor = live.server.tables[table]
        # seat 1 (a computer player) went down to one card without calling UNO; seat 2 (a
        # computer player) is thinking about its move
        async with actor.lock:
            work: Any = copy.copy(actor.session)
            work.state = uno.parse_position(
                "uno hands=R1,R5,G2/B4/G5,G6,B8/Y1,Y2 discard=B7 turn=2 unoseat=1 draw=*",
                work.rules,
            )
            actor.session = work
            actor.state_no += 1
            actor._schedule_decision()
            actor._schedule_bot()
        n, state = len(c.messages), actor.state_no
        await c.send({"type": "action", "table": table, "state_no": state, "action": "catch 1"})
        m = await c.wait(
            lambda m: m["type"] in ("table", "error") and m.get("table") == table, start=n
        )
        assert m["type"] == "table" and m["state_no"] == state + 1
        assert any(e["type"] == "caught" for e in m["events"])
        assert actor.state_no == state + 1  # no clock time passed: the catch did not wait
        await settle(live, clock, 2.0)  # then seat 2 moves, after a whole wait of its own
        assert actor.state_no == state + 2
        await c.close()
