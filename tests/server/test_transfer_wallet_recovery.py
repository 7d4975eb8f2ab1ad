"""The transfer wallet's outbox across restarts and processes (docs/wallet.md "Retries"): a
credit owed when the server stops is sent after it starts again, a debit a stopped server
left in doubt is cancelled, several processes draining one outbox send each row once, and the
ledger check finds a transfer record that does not match the ledger."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import update

from mazziere.server.store import ledger
from mazziere.server.store import transfers as T
from mazziere.server.store.models import WalletTransfer
from mazziere.server.wallet import contract as C
from mazziere.server.wallet.client import WalletClient
from mazziere.server.wallet.outbox import Outbox
from mazziere.server.wallet.transfer import TransferWallet

from .transfer_wallet import (
    OPENING,
    SECRET,
    casino_player,
    conserved,
    eventually,
    leave,
    reference_wallet,
    rows,
    settled,
    start_wallet,
    top_up,
    transfer_server,
)


async def test_a_credit_owed_when_the_server_stops_is_sent_after_it_restarts(
    db_url: str, tmp_path: Path
) -> None:
    state = tmp_path / "wallet.sqlite3"
    w = await start_wallet(state)
    port = w.port
    async with transfer_server(db_url, tmp_path, w.url) as live:
        _, account, c, table = await casino_player(live, "alma")
        assert (await top_up(c, table, 8_000))["type"] == "table"
        await w.stop()
        await leave(c, table)
        await c.close()
        assert not await settled(live)
    w = await start_wallet(state, port)
    async with transfer_server(db_url, tmp_path, w.url) as live:
        await eventually(lambda: settled(live))
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
    await w.stop()


async def test_a_debit_left_in_doubt_by_a_stopped_server_is_cancelled(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        _, account, c, table = await casino_player(live, "bice")
        await c.close()
        # a top-up that wrote its row and was answered, then its server stopped (the call is
        # made first here, so that the sweep cannot cancel the row before it)
        rid = "d" * 32
        client = WalletClient(w.url, SECRET, 2.0)
        body = {"player": str(account), "amount": 1_500, "currency": "EUR"}
        await client.call(C.DEBIT, rid, {**body, "session": None, "table": table})
        await client.aclose()
        assert w.wallet.balance_of(str(account)) == OPENING - 1_500
        async with live.server.db.write() as db:
            db.add(
                WalletTransfer(
                    request_id=rid,
                    direction=T.DEBIT,
                    account_id=account,
                    table_id=table,
                    amount=1_500,
                    status=T.PENDING,
                    attempts=1,
                    last_error="",
                    created_at=datetime.now(UTC) - timedelta(hours=1),
                )
            )
        await eventually(lambda: settled(live))
        debit, cancel = await rows(live)
        assert (debit.status, cancel.status) == (T.CANCELLED, T.CONFIRMED)
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)


async def test_each_outbox_row_is_sent_by_one_process(db_url: str, tmp_path: Path) -> None:
    state = tmp_path / "wallet.sqlite3"
    w = await start_wallet(state)
    port = w.port
    async with transfer_server(db_url, tmp_path, w.url) as live:
        players = [await casino_player(live, f"giocatore{i}") for i in range(4)]
        for _, _, c, table in players:
            assert (await top_up(c, table, 1_000))["type"] == "table"
        await w.stop()
        for _, _, c, table in players:
            await leave(c, table)
            await c.close()
        w = await start_wallet(state, port)  # a fresh count of the calls it receives
        wallet = live.server.wallet
        assert isinstance(wallet, TransferWallet)
        others = [
            Outbox(
                live.server.db,
                WalletClient(w.url, SECRET, 2.0),
                f"other-{n}",
                retry_seconds=0.05,
                retry_max_seconds=0.3,
                poll_seconds=0.1,
                lease_seconds=30.0,
                doubt_seconds=3600.0,
                batch=1,  # one row a claim: the rows spread over the processes
            )
            for n in range(2)
        ]
        for _ in range(4):  # three processes drain at once, each claiming rows
            await asyncio.gather(*(o.drain_once() for o in others), wallet.outbox.drain_once())
        await eventually(lambda: settled(live))
        credits = [r for r in await rows(live) if r.direction == T.CREDIT]
        assert len(credits) == 4 and all(w.wallet.calls[r.request_id] == 1 for r in credits)
        for o in others:
            await o.client.aclose()
        await conserved(live, w.wallet)
    await w.stop()


async def test_the_ledger_check_finds_a_transfer_that_does_not_match(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        _, _, c, table = await casino_player(live, "ciro")
        assert (await top_up(c, table, 2_000))["type"] == "table"
        await leave(c, table)
        await eventually(lambda: settled(live))
        await conserved(live, w.wallet)
        debit, credit = await rows(live)
        for change, problem in (
            ({"status": T.REFUSED}, f"(debit:{debit.request_id}) moves transfer money"),
            ({"amount": 2_001}, f"debit {debit.request_id}: transaction"),
        ):
            async with live.server.db.write() as db:
                await db.execute(
                    update(WalletTransfer).where(WalletTransfer.id == debit.id).values(**change)
                )
            async with live.server.db.session() as db:
                rep = await ledger.check(db)
            assert any(problem in p for p in rep.problems), rep.problems
            assert any(p.startswith("operator holds 0") for p in rep.problems), rep.problems
            async with live.server.db.write() as db:
                await db.execute(
                    update(WalletTransfer)
                    .where(WalletTransfer.id == debit.id)
                    .values(status=T.CONFIRMED, amount=2_000)
                )
        await conserved(live, w.wallet)
        await c.close()
