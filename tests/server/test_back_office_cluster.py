"""The back office across two server processes (one PostgreSQL, one Redis; docs/scaling.md):
a player suspended through one process has its socket on the other closed with 4008, the
casino round in progress at its table finished wherever the table lives and the credit
session closed and credited, and its login refused on either; a table closed through the
process that does not own it closes on its owner, its player credited; the ledger balances."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from mazziere.server.store import staff
from mazziere.server.store.db import Database

from .live import Client, Live
from .test_back_office_players import closed
from .test_cluster import needs_both, owners, pg_url, prefix, two  # noqa: F401 (fixtures)
from .test_recovery import ledger_check


async def promote(db_url: str, name: str, role: str) -> None:
    db = Database(db_url)
    try:
        async with db.write() as s:
            await staff.set_role(s, await staff.by_name(s, name), role)
    finally:
        await db.close()


async def staff_and_a_staked_player(
    la: Live, lb: Live, db_url: str, name: str
) -> tuple[str, dict[str, Any], int, Client]:
    """A support member signed up and logged in on the second process (``lb``); a player
    ``name`` on the first (``la``) at a casino table of their own, with a 5,000-cent credit
    session and a 500-cent round in play. Returns the support member's token, the player's
    sign-up answer, the table and the player's socket."""
    await lb.signup("sportello")
    await promote(db_url, "sportello", "support")
    login = {"username": "sportello", "password": "correct horse"}
    boss = (await lb.http.post("/api/login", json=login)).json()["token"]
    acc = await la.signup(name)
    table = (await la.post("/api/tables", acc["token"], {"game": "casino"})).json()["id"]
    c = await la.connect(acc["token"])
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table")
    await c.send({"type": "topup", "table": table, "amount": 5_000})
    upd = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 5_000)
    await c.send({"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500})
    await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("stake") == 500)
    return boss, acc, table, c


@needs_both
async def test_a_player_suspended_on_one_process_is_thrown_out_of_the_other(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    prefix: str,  # noqa: F811
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        ha = httpx.AsyncClient(base_url=a.base, timeout=30)
        hb = httpx.AsyncClient(base_url=b.base, timeout=30)
        la, lb = a.live(ha), b.live(hb)
        boss, acc, table, c = await staff_and_a_staked_player(la, lb, pg_url, "gino")

        r = await hb.post(
            f"/api/admin/players/{acc['account']}/suspend",
            json={"reason": "collusion"},
            headers={"Authorization": f"Bearer {boss}"},
        )
        assert r.status_code == 200, r.text
        assert r.json()["tables_left"] == [table]
        assert (await closed(c))[0] == 4008
        for h in (ha, hb):
            r = await h.post("/api/login", json={"username": "gino", "password": "correct horse"})
            assert r.status_code == 403 and r.json()["code"] == "suspended"
        page = (
            await hb.get(
                f"/api/admin/players/{acc['account']}", headers={"Authorization": f"Bearer {boss}"}
            )
        ).json()
        assert page["open_sessions"] == [] and page["status"] == "suspended"
        lines = (
            await hb.get(
                f"/api/admin/players/{acc['account']}/ledger",
                headers={"Authorization": f"Bearer {boss}"},
            )
        ).json()["entries"]
        payout = sum(e["amount_cents"] for e in lines if e["kind"] == "payout")
        assert page["balance_cents"] == 20_000 - 500 + payout
        await c.close()
        await ha.aclose()
        await hb.aclose()
        await asyncio.sleep(0)
    code, out = ledger_check(tmp_path, pg_url)
    assert code == 0, out


@needs_both
async def test_a_table_closed_through_the_process_that_does_not_own_it(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    prefix: str,  # noqa: F811
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        ha = httpx.AsyncClient(base_url=a.base, timeout=30)
        hb = httpx.AsyncClient(base_url=b.base, timeout=30)
        la = a.live(ha)
        await la.signup("gestore")
        await promote(pg_url, "gestore", "operator")
        r = await ha.post("/api/login", json={"username": "gestore", "password": "correct horse"})
        boss = r.json()["token"]
        acc = await la.signup("lina")
        table = (await la.post("/api/tables", acc["token"], {"game": "casino"})).json()["id"]
        c = await la.connect(acc["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table")
        await c.send({"type": "topup", "table": table, "amount": 3_000})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 3_000)
        owned = await owners(a, b, {table})
        other = hb if table in owned[a.port] else ha
        r = await other.post(
            f"/api/admin/tables/{table}/close",
            json={"reason": "maintenance"},
            headers={"Authorization": f"Bearer {boss}"},
        )
        assert r.status_code == 200, r.text
        assert r.json()["players_left"] == 1
        await c.wait(lambda m: any(e["type"] == "session_closed" for e in m.get("events", [])))
        me = (await ha.get("/api/me", headers={"Authorization": f"Bearer {acc['token']}"})).json()
        assert me["balance"] == 20_000
        listed = (
            await hb.get("/api/admin/tables", headers={"Authorization": f"Bearer {boss}"})
        ).json()["tables"]
        assert table not in [t["id"] for t in listed]
        await c.close()
        await ha.aclose()
        await hb.aclose()
    code, out = ledger_check(tmp_path, pg_url)
    assert code == 0, out
