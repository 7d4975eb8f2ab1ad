"""Computer players think on the server for the table's ``bot_delay`` (a
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
            if actor.table_game is None or actor.table_game.is_over:
                break
            if 0 in actor.table_game.deciders():  # our turn: its clock starts now, in full
                n = len(c.messages)
                legal = actor.table_game.legal(0)
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
            if 0 in actor.table_game.deciders() and not actor.table_game.is_over:
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
            work: Any = copy.copy(actor.table_game)
            work.state = uno.parse_position(
                "uno hands=R1,R5,G2/B4/G5,G6,B8/Y1,Y2 discard=B7 turn=2 unoseat=1 draw=*",
                work.rules,
            )
            actor.table_game = work
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


def _bank_moved(events: list[dict[str, Any]]) -> bool:
    """Whether ``events`` tell a move of the bank's own (not a draw a player's card gave it)."""
    return any(
        e.get("seat") == 1
        and (
            e["type"] in ("played", "passed")
            or (e["type"] == "drew" and e.get("reason") in ("choice", "no_play", "turn"))
        )
        for e in events
    )


async def casino_round(live: Live, c: Client, token: str, delay: float) -> tuple[int, int]:
    """A casino table paced at ``delay`` with a session credit of 100 euros: (table, state)."""
    r = await live.post(
        "/api/tables", token, {"game": "casino", "decision_seconds": 30, "bot_delay": delay}
    )
    assert r.status_code == 200, r.text
    table = int(r.json()["id"])
    await seat_at(c, table)
    await c.send({"type": "topup", "table": table, "amount": 10_000})
    u = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 10_000)
    return table, int(u["state_no"])


async def stake(c: Client, table: int, state_no: int, amount: int) -> None:
    n = len(c.messages)
    await c.send({"type": "stake", "table": table, "state_no": state_no, "amount": amount})
    await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing", start=n)


async def test_the_casino_banks_reply_comes_one_move_at_a_time_after_the_tables_delay(
    db_url: str, tmp_path: Path
) -> None:
    """The casino's bank is paced like the other computer players: the player's move
    comes back alone, then each bank move in an update of its own after the table's delay; the
    round settles once, whichever move ends it."""
    from mazziere.server.store import ledger

    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock, demo_credit=20_000) as live:
        a = await live.signup("bianca")
        c = await live.connect(a["token"])
        table, state_no = await casino_round(live, c, a["token"], 0.7)
        actor = live.server.tables[table]
        assert actor.bot_delay == 0.7
        bank_moves = rounds = paid = 0
        while rounds < 12 and (bank_moves < 4 or rounds < 2):
            await stake(c, table, actor.state_no, 100)
            rounds += 1
            assert actor.table_game is not None
            assert actor.table_game.setup["paced_bank"] is True
            for _ in range(300):
                if actor.table_game.is_over:
                    break
                if actor.table_game.deciders() == [0]:
                    n, state = len(c.messages), actor.state_no
                    legal = actor.table_game.legal(0)
                    await c.send(
                        {"type": "action", "table": table, "state_no": state, "action": legal[0]}
                    )
                    await c.wait(lambda m: m["type"] == "table", start=n)
                    got = updates(c, table, n)
                    assert len(got) == 1 and not _bank_moved(got[0]["events"])
                    continue
                assert actor.table_game.deciders() == [1]
                n, state = len(c.messages), actor.state_no
                await settle(live, clock, 0.69)
                assert actor.state_no == state, "the bank moved before its time"
                assert updates(c, table, n) == []
                await settle(live, clock, 0.02)
                assert actor.state_no == state + 1, "one bank move per wait"
                got = updates(c, table, n)
                assert len(got) == 1 and _bank_moved(got[0]["events"])
                bank_moves += 1
                if actor.table_game.deciders() == [0]:
                    assert got[0]["time_left"] == 30.0  # the player's clock starts now
            assert actor.table_game.is_over
            paid += actor.table_game.result()["payout"]
            assert actor.credit == 10_000 - 100 * rounds + paid  # each round settled once
        assert bank_moves >= 4
        async with live.server.db.session() as db:
            rep = await ledger.check(db)
            assert rep.ok, rep.problems
            assert await ledger.balance(db, ledger.wallet(a["account"])) == 10_000
        # the hand history replays the bank's moves as steps of their own
        hist = await live.get("/api/history", a["token"])
        steps = [
            s
            for h in hist
            for s in (await live.get(f"/api/history/{h['hand']}", a["token"]))["steps"]
        ]
        assert any(s["seat"] == 1 and s["actor"] == "bot" for s in steps)
        assert all(s["view"] is not None for s in steps)
        await c.close()


async def test_leaving_a_casino_while_the_bank_thinks_finishes_the_round_and_settles_once(
    db_url: str, tmp_path: Path
) -> None:
    from mazziere.server.store import ledger

    clock = ManualClock()
    # the search for a round below may run the clock on for hours of time-outs: no
    # inactivity cut meanwhile
    async with live_server(
        db_url, tmp_path, clock=clock, demo_credit=20_000, inactivity_seconds=10.0**7
    ) as live:
        a = await live.signup("bice")
        c = await live.connect(a["token"])
        table, _ = await casino_round(live, c, a["token"], 2.0)
        actor = live.server.tables[table]
        for _ in range(20):  # a round where the bank is to move after the player's move
            await stake(c, table, actor.state_no, 100)
            assert actor.table_game is not None
            if actor.table_game.deciders() == [0]:
                n = len(c.messages)
                legal = actor.table_game.legal(0)
                await c.send(
                    {
                        "type": "action",
                        "table": table,
                        "state_no": actor.state_no,
                        "action": legal[0],
                    }
                )
                await c.wait(lambda m: m["type"] == "table", start=n)
            if actor.table_game.deciders() == [1]:
                break
            while not actor.table_game.is_over:  # finish this one and deal again
                await settle(live, clock, 31)
        assert actor.table_game.deciders() == [1]
        hand = actor.hand_id
        n = len(c.messages)
        await c.send({"type": "leave", "table": table})
        await c.wait(
            lambda m: (
                m["type"] == "table" and any(e["type"] == "session_closed" for e in m["events"])
            ),
            start=n,
        )
        assert actor.table_game.is_over
        hist = await live.get("/api/history", a["token"])
        by_hand = {h["hand"]: h for h in hist}
        assert by_hand[hand]["status"] == "done"
        payouts = sum(h["result"]["payout"] for h in hist)
        async with live.server.db.session() as db:
            rep = await ledger.check(db)
            assert rep.ok, rep.problems
            wallet = await ledger.balance(db, ledger.wallet(a["account"]))
        assert wallet == 20_000 - 100 * len(hist) + payouts
        await settle(live, clock, 5)  # no bank move is left waiting on its timer
        assert actor.table_game.is_over
        await c.close()
