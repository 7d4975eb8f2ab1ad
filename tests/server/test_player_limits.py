"""A player's limits, enforced by the server (docs/rules/platform.md "Limits and reality
checks"): every top-up and loss limit refuses what would break it with ``limit_exceeded``
(which limit, what is left) and nothing moves; a lower limit applies at once, a higher one
after ``limit_raise_hours``; the operator's cap per casino credit session; two tables of one
player share one limit; the sign-up question is answered by setting limits or skipping them.
Over real sockets, on SQLite and PostgreSQL, the ledger check passing after each."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from mazziere.server.clock import ManualClock
from mazziere.server.store import ledger
from mazziere.server.store.limits import KINDS
from mazziere.server.store.models import LedgerTxn

from .live import Client, Live, live_server
from .test_live_games import ledger_ok, play_until_over

TOPUP_KINDS = [k for k, v in KINDS.items() if v.measure == "topup"]
LOSS_KINDS = [k for k, v in KINDS.items() if v.measure == "loss"]
CALM = {"inactivity_seconds": 10.0**7, "attest_seconds": 10.0**7}
"""Settings of a test that moves the clock by hours: no inactivity disconnection and no daily
check of the server's files meanwhile."""


async def casino_player(live: Live, name: str) -> tuple[dict[str, Any], Client, int]:
    """A signed-up player seated at a casino table of their own: ``(account, socket, table)``."""
    acc = await live.signup(name)
    table = (await live.post("/api/tables", acc["token"], {"game": "casino"})).json()["id"]
    c = await live.connect(acc["token"])
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
    return acc, c, table


async def set_limits(live: Live, token: str, **body: Any) -> dict[str, Any]:
    r = await live.http.put(
        "/api/me/limits", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


async def carry_on(live: Live, token: str) -> None:
    """Answer a reality check (due or not) with "continue": the next comes the player's
    minutes later."""
    r = await live.post("/api/me/reality-check", token, {"choice": "continue"})
    assert r.status_code == 200, r.text


async def ask(c: Client, table: int, msg: dict[str, Any]) -> dict[str, Any]:
    """Send a top-up or a stake; the error it got or the table's update after it."""
    n = len(c.messages)
    await c.send({"table": table, **msg})
    return await c.wait(
        lambda m: (
            (m["type"] == "error" and m.get("table") == table)
            or (m["type"] == "table" and m["table"] == table and m["view"] is not None)
        ),
        start=n,
    )


async def top_up(c: Client, table: int, amount: int) -> dict[str, Any]:
    return await ask(c, table, {"type": "topup", "amount": amount})


async def stake(c: Client, table: int, amount: int) -> dict[str, Any]:
    state_no = c.tables[table]["state_no"]
    return await ask(c, table, {"type": "stake", "state_no": state_no, "amount": amount})


def refused(got: dict[str, Any], limit: str, left: int) -> None:
    assert got["type"] == "error", got
    assert (got["code"], got["limit"], got["left"]) == ("limit_exceeded", limit, left), got


async def money_of(live: Live, account: int, table: int) -> tuple[int, int | None, int | None, int]:
    """The wallet, the table's credit session and credit, and how many ledger transactions."""
    actor = live.server.tables[table]
    async with live.server.db.session() as db:
        wallet = await ledger.balance(db, ledger.wallet(account))
        txns = int(await db.scalar(select(func.count()).select_from(LedgerTxn)) or 0)
    return wallet, actor.credit_session, actor.credit, txns


@pytest.mark.parametrize("kind", TOPUP_KINDS)
async def test_a_top_up_over_a_top_up_limit_is_refused_and_moves_nothing(
    db_url: str, tmp_path: Path, kind: str
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000) as live:
        acc, c, table = await casino_player(live, "ada")
        await set_limits(live, acc["token"], limits={kind: 2_000})
        assert (await top_up(c, table, 1_500))["view"]["credit"] == 1_500
        before = await money_of(live, acc["account"], table)
        refused(await top_up(c, table, 501), kind, 500)
        assert await money_of(live, acc["account"], table) == before
        assert (await top_up(c, table, 500))["view"]["credit"] == 2_000
        refused(await top_up(c, table, 10), kind, 0)
        await ledger_ok(live)
        await c.close()


async def test_a_top_up_sent_again_with_its_key_is_not_refused_by_the_limit_it_used_up(
    db_url: str, tmp_path: Path
) -> None:
    """A retried top-up (same idempotency key, its first answer lost) moves nothing the second
    time, so the limit its first sending used up does not refuse it: it gets the credit."""
    async with live_server(db_url, tmp_path, demo_credit=50_000) as live:
        acc, c, table = await casino_player(live, "ida")
        await set_limits(live, acc["token"], limits={"topup_day": 2_000})
        send = {"type": "topup", "amount": 2_000, "key": "ida-1"}
        assert (await ask(c, table, send))["view"]["credit"] == 2_000
        before = await money_of(live, acc["account"], table)
        again = await ask(c, table, send)
        assert again["type"] == "table" and again["view"]["credit"] == 2_000, again
        assert await money_of(live, acc["account"], table) == before
        refused(await ask(c, table, {**send, "key": "ida-2"}), "topup_day", 0)
        await ledger_ok(live)
        await c.close()


@pytest.mark.parametrize("kind", LOSS_KINDS)
async def test_a_stake_over_the_loss_allowance_left_is_refused_and_moves_nothing(
    db_url: str, tmp_path: Path, kind: str
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000) as live:
        acc, c, table = await casino_player(live, "bea")
        await set_limits(live, acc["token"], limits={kind: 1_000})
        await top_up(c, table, 5_000)
        before = await money_of(live, acc["account"], table)
        refused(await stake(c, table, 1_001), kind, 1_000)  # the whole stake may be lost
        assert await money_of(live, acc["account"], table) == before
        assert (await stake(c, table, 1_000))["type"] == "table"
        paid = (await play_until_over(c, table, 0))["view"]["result"]["payout"]
        # lost so far: the stake less its payout; what the limit allows is what is left
        before = await money_of(live, acc["account"], table)
        refused(await stake(c, table, paid + 10), kind, paid)
        assert await money_of(live, acc["account"], table) == before
        await ledger_ok(live)
        await c.close()


async def test_a_casino_credit_session_takes_at_most_the_operators_cap(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, casino_session_cap=3_000) as live:
        acc, c, table = await casino_player(live, "cleo")
        assert (await top_up(c, table, 2_000))["view"]["credit"] == 2_000
        before = await money_of(live, acc["account"], table)
        refused(await top_up(c, table, 1_001), "casino_session_cap", 1_000)
        refused(await stake(c, table, 1_010), "casino_session_cap", 1_000)
        assert await money_of(live, acc["account"], table) == before
        assert (await stake(c, table, 1_000))["type"] == "table"  # stakes count too
        await play_until_over(c, table, 0)
        refused(await stake(c, table, 10), "casino_session_cap", 0)
        refused(await top_up(c, table, 1), "casino_session_cap", 0)
        # a new credit session (another table) starts from nothing
        other = (await live.post("/api/tables", acc["token"], {"game": "casino"})).json()["id"]
        await c.send({"type": "join", "table": other})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == other)
        assert (await top_up(c, other, 3_000))["view"]["credit"] == 3_000
        await ledger_ok(live)
        await c.close()


async def test_the_default_cap_is_1000_euros() -> None:
    from mazziere.server.settings import Settings

    assert Settings().casino_session_cap == 100_000


async def test_a_lowered_limit_applies_at_once_and_a_raised_one_after_the_delay(
    db_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock, demo_credit=50_000, **CALM) as live:
        acc, c, table = await casino_player(live, "dina")
        token = acc["token"]
        await set_limits(live, token, limits={"topup_month": 5_000}, reality_minutes=24 * 60)
        got = await set_limits(live, token, limits={"topup_month": 2_000})  # lowered: at once
        assert got["limits"]["topup_month"]["amount"] == 2_000
        assert not got["limits"]["topup_month"]["pending_set"]
        assert (await top_up(c, table, 2_000))["type"] == "table"
        refused(await top_up(c, table, 1), "topup_month", 0)
        got = await set_limits(live, token, limits={"topup_month": 4_000})  # raised: pending
        mine = got["limits"]["topup_month"]
        assert (mine["amount"], mine["pending"], mine["pending_set"]) == (2_000, 4_000, True)
        got = await set_limits(live, token, limits={"topup_month": 4_000})  # asked again
        assert got["limits"]["topup_month"]["pending_from"] == mine["pending_from"]
        clock.advance(23 * 3600)
        await carry_on(live, token)
        refused(await top_up(c, table, 1), "topup_month", 0)
        clock.advance(3600 + 5)
        await carry_on(live, token)
        got = await live.get("/api/me/limits", token)
        assert got["limits"]["topup_month"]["amount"] == 4_000
        assert not got["limits"]["topup_month"]["pending_set"]
        assert (await top_up(c, table, 2_000))["view"]["credit"] == 4_000
        refused(await top_up(c, table, 1), "topup_month", 0)
        got = await set_limits(live, token, limits={"topup_month": None})  # removal: pending
        assert got["limits"]["topup_month"]["pending_set"]
        assert got["limits"]["topup_month"]["pending"] is None
        refused(await top_up(c, table, 1), "topup_month", 0)
        clock.advance(24 * 3600 + 5)
        await carry_on(live, token)
        assert "topup_month" not in (await live.get("/api/me/limits", token))["limits"]
        assert (await top_up(c, table, 1_000))["view"]["credit"] == 5_000
        await ledger_ok(live)
        await c.close()


async def test_two_tables_of_one_player_topping_up_at_once_share_one_limit(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000) as live:
        acc, c, first = await casino_player(live, "ebe")
        second = (await live.post("/api/tables", acc["token"], {"game": "casino"})).json()["id"]
        await c.send({"type": "join", "table": second})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == second)
        await set_limits(live, acc["token"], limits={"topup_day": 1_000})
        got = await asyncio.gather(top_up(c, first, 600), top_up(c, second, 600))
        codes = sorted(m["type"] if m["type"] == "table" else m["code"] for m in got)
        assert codes == ["limit_exceeded", "table"]
        wallet = (await live.get("/api/me", acc["token"]))["balance"]
        assert wallet == 50_000 - 600
        await ledger_ok(live)
        await c.close()


async def test_a_new_player_sets_limits_or_skips_them_and_the_account_remembers(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("fede")
        got = await live.get("/api/me/limits", a["token"])
        assert (got["chosen"], got["limits"], got["reality_minutes"]) == (False, {}, 60)
        got = await set_limits(live, a["token"], skip=True)
        assert (got["chosen"], got["choice"]) == (True, "skipped")
        b = await live.signup("gina")
        got = await set_limits(live, b["token"], limits={"loss_week": 3_000, "session_minutes": 90})
        assert (got["chosen"], got["choice"]) == (True, "set")
        assert got["limits"]["loss_week"]["amount"] == 3_000
        assert got["limits"]["session_minutes"]["amount"] == 90
        assert (await live.get("/api/me/limits", a["token"]))["choice"] == "skipped"
        headers = {"Authorization": f"Bearer {b['token']}"}
        for body in (
            {"limits": {"topup_year": 5}},
            {"limits": {"topup_day": 0}},
            {"limits": {"topup_day": 5}, "skip": True},
            {"reality_minutes": 0},
        ):
            r = await live.http.put("/api/me/limits", json=body, headers=headers)
            assert r.status_code == 422, body
        got = await live.get("/api/me/limits", b["token"])
        assert got["limits"]["loss_week"]["amount"] == 3_000 and got["reality_minutes"] == 60
