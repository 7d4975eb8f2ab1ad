"""Against a real server over real sockets, two accounts play a full UNO match
with bots, a casino round with a stake; the ledger check passes after each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mazziere.server.store import ledger

from .live import Client, Live, live_server


async def ledger_ok(live: Live) -> ledger.LedgerReport:
    async with live.server.db.session() as db:
        rep = await ledger.check(db)
    assert rep.ok, rep.problems
    return rep


async def play_until_over(c: Client, table: int, seat: int, timeout: float = 120) -> dict[str, Any]:
    """Act on every decision with the first legal action until the match result shows."""
    import asyncio

    async def loop() -> dict[str, Any]:
        acted_on, sent_at = -1, 0
        while True:
            c.new.clear()
            errors = [m for m in c.messages[sent_at:] if m["type"] == "error"]
            if errors:
                # refused (e.g. rate_limited while playing this fast): wait as told, decide again
                await asyncio.sleep(max(0.1, *(m.get("retry_after") or 0 for m in errors)))
                acted_on, sent_at = -1, len(c.messages)
            t = c.tables.get(table)
            if t is not None and t["view"] and t["view"].get("result"):
                return t
            if (
                t is not None
                and t["legal"]
                and t["view"]
                and t["view"].get("current", seat) == seat
                and t["state_no"] != acted_on
            ):
                acted_on, sent_at = t["state_no"], len(c.messages)
                await c.send(
                    {
                        "type": "action",
                        "table": table,
                        "state_no": t["state_no"],
                        "action": t["legal"][0]["text"],
                    }
                )
            await asyncio.wait_for(c.new.wait(), 30)

    try:
        return await asyncio.wait_for(loop(), timeout)
    except TimeoutError:
        brief = [
            (
                m["type"],
                m.get("state_no"),
                m.get("code"),
                m.get("legal"),
                (m.get("view") or {}).get("current"),
                (m.get("view") or {}).get("phase"),
            )
            for m in c.messages[-6:]
        ]
        raise AssertionError(f"seat {seat} stuck; last messages: {brief}") from None


async def test_two_accounts_play_a_full_uno_match_with_bots(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        a, b = await live.signup("anna"), await live.signup("bruno")
        r = await live.post(
            "/api/tables",
            a["token"],
            {
                "game": "uno",
                "preset": "classic",
                "options": {"match": "single_hand"},
                "seats": 4,
                "bots": "greedy",
            },
        )
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await ca.send({"type": "join", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["seat"] == 0)
        await cb.send({"type": "join", "table": table})
        await cb.wait(lambda m: m["type"] == "table" and m["seat"] == 1)
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        import asyncio

        ra, rb = await asyncio.gather(play_until_over(ca, table, 0), play_until_over(cb, table, 1))
        assert ra["view"]["result"]["winner"] in range(4)
        assert ra["view"]["result"] == rb["view"]["result"]
        # every message either client received holds only its own hand
        for c, seat in ((ca, 0), (cb, 1)):
            for m in c.messages:
                if m["type"] == "table" and m["view"] and "hand" in m["view"]:
                    assert m["seat"] == seat
        hist = await live.get("/api/history", a["token"])
        assert hist and hist[0]["game"] == "uno" and hist[0]["status"] == "done"
        rep = await live.get(f"/api/history/{hist[0]['hand']}", a["token"])
        assert rep["seed"] and rep["steps"]
        await ca.close()
        await cb.close()
        await ledger_ok(live)


async def test_casino_round_with_a_stake_settles_into_the_wallet(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000) as live:
        a = await live.signup("carla")
        r = await live.post("/api/tables", a["token"], {"game": "casino", "decision_seconds": 30})
        table = r.json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table")
        await c.send({"type": "topup", "table": table, "amount": 10_000})
        upd = await c.wait(
            lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 10_000
        )
        await c.send({"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("stake") == 500)
        final = await play_until_over(c, table, 0)
        result = final["view"]["result"]
        assert result["stake"] == 500 and result["payout"] in (0, 500, 1000, 1500)
        await c.send({"type": "leave", "table": table})
        await c.wait(
            lambda m: (
                m["type"] == "table" and any(e["type"] == "session_closed" for e in m["events"])
            )
        )
        me = await live.get("/api/me", a["token"])
        assert me["balance"] == 50_000 - 500 + result["payout"]
        wallet = await live.get("/api/wallet", a["token"])
        kinds = {m["kind"] for m in wallet["movements"]}
        assert {"demo_credit", "topup", "stake", "session_close"} <= kinds
        rep = await ledger_ok(live)
        assert rep.issued == 50_000
        await c.close()


async def test_invalid_stake_moves_no_money(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, demo_credit=5_000) as live:
        a = await live.signup("dario")
        table = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table")
        await c.send({"type": "topup", "table": table, "amount": 1_000})
        upd = await c.wait(
            lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 1_000
        )
        for amount, code in (
            (0, "stake_not_positive"),
            (-5, "stake_not_positive"),
            (20_000, "stake_above_max"),
            (2_000, "stake_above_credit"),
        ):
            n = len(c.messages)
            await c.send(
                {"type": "stake", "table": table, "state_no": upd["state_no"], "amount": amount}
            )
            err = await c.wait(lambda m: m["type"] == "error", start=n)
            assert err["code"] == code
        n = len(c.messages)
        raw = {"v": 1, "type": "stake", "table": table, "state_no": upd["state_no"], "amount": 10.5}
        await c.send_raw(json.dumps(raw))
        err = await c.wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "malformed"
        async with live.server.db.session() as db:
            assert await ledger.balance(db, ledger.wallet(a["account"])) == 4_000
            assert await ledger.balance(db, ledger.HOUSE) == 0
        await ledger_ok(live)
        await c.close()


async def test_poker_deal_against_the_computer_to_its_end(db_url: str, tmp_path: Path) -> None:
    import asyncio

    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("piera")
        r = await live.post(
            "/api/tables", a["token"], {"game": "poker", "level": "normal", "preset": "classic32"}
        )
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["seat"] == 0)
        await c.send({"type": "start", "table": table})
        first = await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        assert len(first["view"]["hand"]) == 5 and first["view"]["pot"] >= 10
        assert first["view"]["deck"] == 32
        acted = -1
        for _ in range(200):  # play deal 1 to its end with the first legal action
            t = c.tables[table]
            if t["view"]["deal_no"] > first["view"]["deal_no"] or t["view"]["result"]:
                break
            if t["legal"] and t["view"]["current"] == 0 and t["state_no"] != acted:
                acted = t["state_no"]
                await c.send(
                    {
                        "type": "action",
                        "table": table,
                        "state_no": t["state_no"],
                        "action": t["legal"][0]["text"],
                    }
                )
            c.new.clear()
            await asyncio.wait_for(c.new.wait(), 30)
        ended = [e for m in c.messages if m["type"] == "table" for e in m["events"]]
        assert any(e["type"] in ("pot_won", "pot_carried", "folded") for e in ended), ended[-5:]
        for m in c.messages:  # the computer's cards show only at a showdown
            if m["type"] == "table":
                for e in m["events"]:
                    if e["type"] == "dealt" and e["seat"] == 1:
                        assert e["cards"] == []
        await c.send({"type": "leave", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["seat"] is None)
        await c.close()
        await ledger_ok(live)


async def test_retried_topup_with_the_same_key_moves_money_once(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=10_000) as live:
        a = await live.signup("rita")
        table = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table")
        for _ in range(3):  # a client retrying the same request
            await c.send({"type": "topup", "table": table, "amount": 2_500, "key": "retry-1"})
        await c.send({"type": "ping"})
        await c.wait(lambda m: m["type"] == "pong")
        r = await live.post(
            f"/api/tables/{table}/topup", a["token"], {"amount": 2_500, "key": "retry-1"}
        )
        assert r.status_code == 200 and r.json()["credit"] == 2_500
        me = await live.get("/api/me", a["token"])
        assert me["balance"] == 7_500
        await ledger_ok(live)
        await c.close()
