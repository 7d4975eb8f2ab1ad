"""Self-exclusion across two server processes (one PostgreSQL, one Redis; docs/scaling.md): a
player whose socket and casino table live on one process excludes themselves through the
other; the socket is closed with 4009 where it is, the round finished and the credit session
closed and credited wherever the table lives, and the login refused on both processes with
the end date until it passes; the ledger balances."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import select

from mazziere.server.store.db import Database
from mazziere.server.store.exclusion import aware
from mazziere.server.store.models import SelfExclusion

from .test_back_office_cluster import staff_and_a_staked_player
from .test_back_office_players import closed
from .test_cluster import needs_both, pg_url, prefix, two  # noqa: F401 (fixtures)
from .test_recovery import ledger_check

LOGIN = {"username": "nora", "password": "correct horse"}


async def back_in_time(db_url: str, account: int, delta: timedelta) -> None:
    """The account's exclusions as if ``delta`` had gone by (their stored dates moved)."""
    db = Database(db_url)
    try:
        async with db.write() as s:
            for ex in (await s.scalars(select(SelfExclusion).where(
                SelfExclusion.account_id == account
            ))).all():  # fmt: skip
                ex.started_at = aware(ex.started_at) - delta
                ex.ends_at = aware(ex.ends_at) - delta if ex.ends_at else None
    finally:
        await db.close()


@needs_both
async def test_a_player_self_excluded_through_one_process_is_thrown_out_of_the_other(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    prefix: str,  # noqa: F811
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        ha = httpx.AsyncClient(base_url=a.base, timeout=30)
        hb = httpx.AsyncClient(base_url=b.base, timeout=30)
        la, lb = a.live(ha), b.live(hb)
        boss, acc, table, c = await staff_and_a_staked_player(la, lb, pg_url, "nora")

        r = await hb.post(
            "/api/self-exclusion",
            json={"days": 90, "password": "correct horse"},
            headers={"Authorization": f"Bearer {acc['token']}"},
        )
        assert r.status_code == 200, r.text
        assert r.json()["tables_left"] == [table] and r.json()["logins_ended"] == 1
        ends = datetime.fromisoformat(r.json()["exclusion"]["ends_at"])
        notice = await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "self_excluded")
        assert f"{ends:%Y-%m-%d}" in notice["message"]
        assert (await closed(c))[0] == 4009
        for h in (ha, hb):
            r = await h.post("/api/login", json=LOGIN)
            assert (r.status_code, r.json()["code"]) == (403, "self_excluded")
            assert datetime.fromisoformat(r.json()["until"]) == ends
        auth = {"Authorization": f"Bearer {boss}"}
        page = (await ha.get(f"/api/admin/players/{acc['account']}", headers=auth)).json()
        assert page["open_sessions"] == [] and page["exclusions"][0]["period_days"] == 90
        lines = (await ha.get(f"/api/admin/players/{acc['account']}/ledger", headers=auth)).json()[
            "entries"
        ]
        payout = sum(e["amount_cents"] for e in lines if e["kind"] == "payout")
        assert page["balance_cents"] == 20_000 - 500 + payout

        await back_in_time(pg_url, acc["account"], timedelta(days=90, seconds=1))
        for h in (ha, hb):
            r = await h.post("/api/login", json=LOGIN)
            assert r.status_code == 200, r.text
        await c.close()
        await ha.aclose()
        await hb.aclose()
    code, out = ledger_check(tmp_path, pg_url)
    assert code == 0, out
