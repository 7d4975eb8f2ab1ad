"""Self-exclusion (docs/rules/platform.md "Self-exclusion"), over real sockets on SQLite and
PostgreSQL: a player sitting at a casino table with credit excludes themselves (password
asked again); the round is finished, the credit session closed and credited, the seat left,
the socket closed with 4009 after a notice naming the end; login is refused with the end date
until it passes, then allowed. A timed exclusion cannot be lifted; an endless one's lift is
refused before 6 months and takes effect 7 days after it is asked. Everything is in the audit
log and on the back office's player page; the ledger balances."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from mazziere.server.store import audit
from mazziere.server.store.exclusion import aware
from mazziere.server.store.models import SelfExclusion

from .live import Live, live_server
from .test_back_office import CHEAP, make_staff
from .test_back_office_players import casino_in_a_round, closed
from .test_live_games import ledger_ok

PASSWORD = "correct horse"


async def post(live: Live, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return await live.http.post(path, json=body, headers=headers)


async def login(live: Live, name: str) -> Any:
    return await post(live, "/api/login", {"username": name, "password": PASSWORD})


async def shift(live: Live, account: int, **back: timedelta) -> None:
    """Move the account's stored exclusion dates into the past by ``back[column]`` (as if
    that much time had gone by for them)."""
    async with live.server.db.write() as db:
        rows = await db.scalars(select(SelfExclusion).where(SelfExclusion.account_id == account))
        for row in rows.all():
            for column, delta in back.items():
                if getattr(row, column) is not None:
                    setattr(row, column, aware(getattr(row, column)) - delta)


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


async def test_a_self_excluded_player_is_credited_thrown_out_and_refused_until_the_end(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "sportello", "support")
        acc, c, table = await casino_in_a_round(live, "elena")
        player, token = acc["account"], acc["token"]

        for body, status, code in [
            ({"days": 30, "password": "not my password"}, 403, "wrong_password"),
            ({"days": 45, "password": PASSWORD}, 422, "malformed"),
            ({"days": "30", "password": PASSWORD}, 422, "malformed"),
            ({"password": PASSWORD}, 422, "malformed"),
        ]:
            r = await post(live, "/api/self-exclusion", body, token)
            assert (r.status_code, r.json()["code"]) == (status, code), body
        assert c.closed is None  # refused: nothing changed
        assert (await live.get(f"/api/admin/players/{player}", boss))["exclusions"] == []

        started = datetime.now(UTC)
        r = await post(live, "/api/self-exclusion", {"days": 30, "password": PASSWORD}, token)
        assert r.status_code == 200, r.text
        done = r.json()
        assert done["tables_left"] == [table] and done["tables_kept"] == []
        assert done["logins_ended"] == 1
        ends = when(done["exclusion"]["ends_at"])
        assert timedelta(days=30) <= ends - started < timedelta(days=30, minutes=1)

        notice = await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "self_excluded")
        assert f"{ends:%Y-%m-%d}" in notice["message"]
        assert (await closed(c))[0] == 4009
        r = await live.http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 401
        r = await login(live, "elena")
        assert (r.status_code, r.json()["code"]) == (403, "self_excluded")
        assert when(r.json()["until"]) == ends and f"{ends:%Y-%m-%d}" in r.json()["message"]

        page = await live.get(f"/api/admin/players/{player}", boss)
        assert page["open_sessions"] == [] and page["status"] == "active"
        [shown] = page["exclusions"]
        assert shown["period_days"] == 30 and shown["in_force"] and shown["lift_from"] is None
        lines = (await live.get(f"/api/admin/players/{player}/ledger", boss))["entries"]
        assert lines[0]["kind"] == "session_close"
        payout = sum(e["amount_cents"] for e in lines if e["kind"] == "payout")
        assert page["balance_cents"] == 50_000 - 500 + payout
        hand = (await live.get(f"/api/admin/players/{player}/hands", boss))["hands"][0]
        assert hand["status"] == "done"  # the round was finished by the default strategy
        async with live.server.db.session() as db:
            lines_of = await audit.entries(db, target=f"account:{player}")
        assert [(e.action, e.after) for e in lines_of[:2]] == [
            ("login_refused", {"code": "self_excluded"}),
            (
                "self_excluded",
                {"period_days": 30, "ends_at": shown["ends_at"], "logins_ended": 1},
            ),
        ]
        await ledger_ok(live)

        await shift(live, player, started_at=timedelta(days=29), ends_at=timedelta(days=29))
        assert (await login(live, "elena")).status_code == 403  # a day is left
        await shift(live, player, started_at=timedelta(days=1), ends_at=timedelta(days=1))
        r = await login(live, "elena")
        assert r.status_code == 200, r.text
        page = await live.get(f"/api/admin/players/{player}", boss)
        assert not page["exclusions"][0]["in_force"]
        await ledger_ok(live)


async def test_a_timed_exclusion_cannot_be_lifted_an_endless_one_after_6_months_and_7_days(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        timed = await live.signup("tiziana")
        r = await post(live, "/api/self-exclusion", {"days": 60, "password": PASSWORD},
                       timed["token"])  # fmt: skip
        assert r.status_code == 200, r.text
        r = await post(
            live, "/api/self-exclusion/lift", {"username": "tiziana", "password": PASSWORD}
        )
        assert (r.status_code, r.json()["code"]) == (409, "exclusion_timed")
        await shift(live, timed["account"], started_at=timedelta(days=200))  # still timed
        r = await post(
            live, "/api/self-exclusion/lift", {"username": "tiziana", "password": PASSWORD}
        )
        assert (r.status_code, r.json()["code"]) == (409, "exclusion_timed")

        acc = await live.signup("ivo")
        player = acc["account"]
        c = await live.connect(acc["token"])
        r = await post(live, "/api/self-exclusion", {"days": None, "password": PASSWORD},
                       acc["token"])  # fmt: skip
        assert r.status_code == 200, r.text
        assert r.json()["exclusion"]["ends_at"] is None
        assert (await closed(c))[0] == 4009
        r = await login(live, "ivo")
        assert (r.status_code, r.json()["code"], r.json()["until"]) == (403, "self_excluded", None)

        for body, status, code in [
            ({"username": "ivo", "password": "not my password"}, 403, "wrong_password"),
            ({"username": "nessuno", "password": PASSWORD}, 403, "wrong_password"),
            ({"username": "ivo", "password": PASSWORD}, 409, "lift_too_early"),
            ({"username": "ivo"}, 422, "malformed"),
        ]:
            r = await post(live, "/api/self-exclusion/lift", body)
            assert (r.status_code, r.json()["code"]) == (status, code), body
        r = await post(live, "/api/self-exclusion/lift", {"username": "ivo", "password": PASSWORD})
        first = when(r.json()["lift_from"])
        assert timedelta(days=180) <= first - datetime.now(UTC) <= timedelta(days=184)

        await shift(live, player, started_at=timedelta(days=170))  # 6 months not yet
        r = await post(live, "/api/self-exclusion/lift", {"username": "ivo", "password": PASSWORD})
        assert (r.status_code, r.json()["code"]) == (409, "lift_too_early")
        await shift(live, player, started_at=timedelta(days=15))
        asked = datetime.now(UTC)
        r = await post(live, "/api/self-exclusion/lift", {"username": "ivo", "password": PASSWORD})
        assert r.status_code == 200, r.text
        ends = when(r.json()["exclusion"]["ends_at"])
        assert timedelta(days=7) <= ends - asked < timedelta(days=7, minutes=1)
        r = await post(live, "/api/self-exclusion/lift", {"username": "ivo", "password": PASSWORD})
        assert (r.status_code, r.json()["code"]) == (409, "lift_already_asked")

        r = await login(live, "ivo")  # the 7 days run
        assert (r.status_code, r.json()["code"]) == (403, "self_excluded")
        assert when(r.json()["until"]) == ends
        await shift(live, player, ends_at=timedelta(days=6, hours=23))
        assert (await login(live, "ivo")).status_code == 403
        await shift(live, player, ends_at=timedelta(hours=1))
        r = await login(live, "ivo")
        assert r.status_code == 200, r.text
        async with live.server.db.session() as db:
            actions = [e.action for e in await audit.entries(db, target=f"account:{player}")]
        assert actions[:2] == ["login", "login_refused"]
        assert "self_exclusion_lift_asked" in actions and "self_excluded" in actions
        r = await post(live, "/api/self-exclusion/lift", {"username": "ivo", "password": PASSWORD})
        assert (r.status_code, r.json()["code"]) == (409, "not_excluded")
        await c.close()
        await ledger_ok(live)


async def test_a_second_exclusion_while_one_is_in_force_is_refused_and_adds_nothing(
    database: Any,
) -> None:
    from mazziere.server.store import accounts, exclusion
    from mazziere.server.store.exclusion import ExclusionError

    now = datetime.now(UTC)
    async with database.write() as db:
        acc = await accounts.create_account(db, "bice", "not a hash", 0)
        await exclusion.exclude(db, acc.id, 90, now)
    with pytest.raises(ExclusionError) as refused:
        async with database.write() as db:
            await exclusion.exclude(db, acc.id, None, now + timedelta(seconds=1))
    assert refused.value.code == "already_excluded"
    async with database.session() as db:
        rows = await exclusion.of_account(db, acc.id, now + timedelta(seconds=2))
    assert [(r["period_days"], r["in_force"]) for r in rows] == [(90, True)]
    async with database.write() as db:  # once it is over, a new one may start
        await exclusion.exclude(db, acc.id, 30, now + timedelta(days=91))
    async with database.session() as db:
        rows = await exclusion.of_account(db, acc.id, now + timedelta(days=91, seconds=1))
    assert [(r["period_days"], r["in_force"]) for r in rows] == [(30, True), (90, False)]
