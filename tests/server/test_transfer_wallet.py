"""The operator's transfer wallet over real HTTP (docs/wallet.md), against the reference
wallet service: a casino session's opening and top-ups debit it, its close credits it, and
whatever the wallet does (answer slowly, fail, answer twice, restart) no cent is lost or
created on either side, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from mazziere.server.store import transfers as T

from .test_back_office import make_staff
from .test_back_office_players import post
from .transfer_wallet import (
    OPENING,
    casino_player,
    conserved,
    eventually,
    leave,
    reference_wallet,
    rows,
    settled,
    top_up,
    transfer_server,
)


async def test_a_session_debits_the_operators_wallet_and_its_close_credits_it(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        token, account, c, table = await casino_player(live, "alma")
        assert (await live.get("/api/me", token))["balance"] == OPENING  # no demo credit
        got = await top_up(c, table, 5_000)
        assert got["type"] == "table" and got["view"]["credit"] == 5_000
        got = await top_up(c, table, 2_500)
        assert got["view"]["credit"] == 7_500
        page = await live.get("/api/wallet", token)
        assert page["wallet"] == "transfer" and page["balance"] == OPENING - 7_500
        assert w.wallet.balance_of(str(account)) == OPENING - 7_500
        await conserved(live, w.wallet)
        await leave(c, table)
        await eventually(lambda: settled(live))
        assert w.wallet.balance_of(str(account)) == OPENING
        done = await rows(live)
        assert [(r.direction, r.amount, r.status) for r in done] == [
            (T.DEBIT, 5_000, T.CONFIRMED),
            (T.DEBIT, 2_500, T.CONFIRMED),
            (T.CREDIT, 7_500, T.CONFIRMED),
        ]
        assert all(r.wallet_ref for r in done) and len({r.request_id for r in done}) == 3
        assert all(w.wallet.calls[r.request_id] == 1 for r in done)
        await conserved(live, w.wallet)
        await c.close()


async def test_the_wallet_refusing_a_debit_opens_no_session(db_url: str, tmp_path: Path) -> None:
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url, casino_session_cap=10 * OPENING) as live,
    ):
        _, account, c, table = await casino_player(live, "bice")
        refused = await top_up(c, table, OPENING + 1)
        assert refused["type"] == "error" and refused["code"] == "insufficient_funds"
        assert live.server.tables[table].credit_session is None
        (row,) = await rows(live)
        assert (row.status, row.session_id) == (T.REFUSED, None)
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
        await c.close()


async def test_a_top_up_over_a_limit_is_refused_before_the_wallet_is_called(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url, casino_session_cap=3_000) as live,
    ):
        _, account, c, table = await casino_player(live, "ciro")
        refused = await top_up(c, table, 3_001)
        assert refused["type"] == "error" and refused["code"] == "limit_exceeded"
        assert await rows(live) == [] and not w.wallet.calls
        assert live.server.tables[table].credit_session is None
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
        await c.close()


async def test_a_players_top_up_limit_counts_the_operators_wallet_top_ups(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        token, account, c, table = await casino_player(live, "dora")
        r = await live.http.put(
            "/api/me/limits",
            json={"limits": {"topup_day": 6_000}},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        assert (await top_up(c, table, 4_000))["type"] == "table"
        refused = await top_up(c, table, 3_000)
        assert refused["type"] == "error" and refused["code"] == "limit_exceeded"
        assert [x.amount for x in await rows(live)] == [4_000]  # the wallet asked once
        assert w.wallet.balance_of(str(account)) == OPENING - 4_000
        await leave(c, table)
        await eventually(lambda: settled(live))
        await conserved(live, w.wallet)
        await c.close()


async def test_reconcile_lists_every_transfer_of_the_day(db_url: str, tmp_path: Path) -> None:
    import asyncio
    import csv
    import io
    from datetime import UTC, datetime

    from typer.testing import CliRunner

    from mazziere.cli import app

    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url, casino_session_cap=10 * OPENING) as live,
    ):
        _, account, c, table = await casino_player(live, "ezio")
        assert (await top_up(c, table, 1_200))["type"] == "table"
        assert (await top_up(c, table, OPENING))["code"] == "insufficient_funds"
        await leave(c, table)
        await eventually(lambda: settled(live))
        await conserved(live, w.wallet)
        await c.close()
        done = await rows(live)
    day = datetime.now(UTC).date().isoformat()
    where = ["--database-url", db_url, "--day", day]
    runner = CliRunner()
    table_out = await asyncio.to_thread(runner.invoke, app, ["wallet", "reconcile", *where])
    assert table_out.exit_code == 0, table_out.output
    for r in done:
        assert r.request_id in table_out.output
    assert "debits: 2 (confirmed 1200, refused 100000)" in table_out.output
    assert "credits: 1 (confirmed 1200)" in table_out.output
    as_csv = await asyncio.to_thread(runner.invoke, app, ["wallet", "reconcile", *where, "--csv"])
    lines = list(csv.DictReader(io.StringIO(as_csv.output)))
    assert [(x["direction"], x["amount"], x["status"]) for x in lines] == [
        ("debit", "1200", "confirmed"),
        ("debit", "100000", "refused"),
        ("credit", "1200", "confirmed"),
    ]
    assert lines[0]["wallet_ref"] and lines[0]["account"] == str(account)
    assert lines[2]["session"] == lines[0]["session"] != ""
    other = await asyncio.to_thread(
        runner.invoke, app, ["wallet", "reconcile", "--database-url", db_url, "--day", "2001-01-01"]
    )
    assert "debits: 0 (none)" in other.output


async def test_no_adjustment_of_the_servers_own_wallet_with_the_operators_wallet(
    db_url: str, tmp_path: Path
) -> None:
    """A player's money is the operator's wallet's: a back-office adjustment of the server's
    own wallet book would move money no top-up reads, so it is refused and nothing moves."""
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url, adjustment_approvals=1) as live,
    ):
        admin = await make_staff(live, "adele", "admin")
        player = (await live.signup("bice"))["account"]
        r = await post(live, "/api/admin/adjustments", admin, {
            "account": player, "amount_cents": 2_500, "house_account": "house",
            "reason": "goodwill after a dropped connection",
        })  # fmt: skip
        assert (r.status_code, r.json()["code"]) == (409, "wallet_external"), r.text
        assert (await live.get("/api/admin/adjustments", admin))["adjustments"] == []
        await conserved(live, w.wallet)
