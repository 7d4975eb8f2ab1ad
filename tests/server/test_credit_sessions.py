"""A refused first top-up leaves no phantom session behind. The actor takes a
casino session id (and any credit) only after the transaction that created it committed, so
two players never share one credit, on SQLite (which reuses a rolled-back row id) and on
PostgreSQL (where a later top-up would land in a book with no session row)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from mazziere.server.store.models import CreditSession

from .live import Client, Live, live_server
from .test_live_games import ledger_ok


async def _casino_player(live: Live, name: str) -> tuple[dict[str, object], Client, int]:
    acc = await live.signup(name)
    token = str(acc["token"])
    table = (await live.post("/api/tables", token, {"game": "casino"})).json()["id"]
    c = await live.connect(token)
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
    return acc, c, table


async def _top_up(c: Client, table: int, amount: int) -> dict[str, object]:
    n = len(c.messages)
    await c.send({"type": "topup", "table": table, "amount": amount})
    return await c.wait(
        lambda m: (
            (m["type"] == "error" and m.get("table") == table)
            or (m["type"] == "table" and m["table"] == table and m["view"] is not None)
        ),
        start=n,
    )


async def test_refused_first_topup_leaves_no_phantom_session(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, demo_credit=10_000) as live:
        a, ca, ta = await _casino_player(live, "alma")
        b, cb, tb = await _casino_player(live, "bice")
        refused = await _top_up(ca, ta, 10_001)  # more than A's wallet
        assert refused["type"] == "error" and refused["code"] == "insufficient_funds"
        assert live.server.tables[ta].credit_session is None
        got_b = await _top_up(cb, tb, 5_000)
        assert got_b["type"] == "table" and got_b["view"]["credit"] == 5_000  # type: ignore[index]
        got_a = await _top_up(ca, ta, 100)
        assert got_a["type"] == "table" and got_a["view"]["credit"] == 100  # type: ignore[index]
        sa, sb = live.server.tables[ta].credit_session, live.server.tables[tb].credit_session
        assert sa is not None and sb is not None and sa != sb
        async with live.server.db.session() as db:
            rows = {s.id: s for s in (await db.scalars(select(CreditSession))).all()}
        assert rows[sa].account_id == a["account"] and rows[sb].account_id == b["account"]
        for c, t in ((ca, ta), (cb, tb)):
            await c.send({"type": "leave", "table": t})
        await ca.send({"type": "ping"})
        await ca.wait(lambda m: m["type"] == "pong")
        await cb.send({"type": "ping"})
        await cb.wait(lambda m: m["type"] == "pong")
        assert (await live.get("/api/me", str(a["token"])))["balance"] == 10_000
        assert (await live.get("/api/me", str(b["token"])))["balance"] == 10_000
        await ledger_ok(live)
        await ca.close()
        await cb.close()
