"""The transfer wallet when the operator's wallet misbehaves (docs/wallet.md "Failures"): a
slow answer is retried with the same request id, a failed debit leaves no session, a failed
credit waits in the outbox until the wallet is back, an answer lost and given again moves
nothing twice, and a wallet or a server that restarts mid-transfer loses no cent. Every test
ends with nothing lost or created on either side and the ledger check passing."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from mazziere.server.store import transfers as T
from mazziere.server.wallet.demo import DemoWallet, Faults

from .live import Live
from .test_back_office import make_staff
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


async def test_a_slow_answer_is_retried_with_the_same_request_id(
    db_url: str, tmp_path: Path
) -> None:
    slow = Faults(slow_seconds=0.8, slow_first_only=True)  # the server waits 0.5 s
    async with (
        reference_wallet(tmp_path, slow) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        _, account, c, table = await casino_player(live, "alma")
        got = await top_up(c, table, 4_000)
        assert got["type"] == "table" and got["view"]["credit"] == 4_000
        await leave(c, table)
        await eventually(lambda: settled(live))
        debit, credit = await rows(live)
        assert (debit.status, credit.status) == (T.CONFIRMED, T.CONFIRMED)
        assert w.wallet.calls[debit.request_id] == 2  # timed out, then the same id again
        assert w.wallet.calls[credit.request_id] == 2
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
        await c.close()


async def test_a_failed_debit_leaves_no_session_and_is_cancelled(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path, Faults(fail_share=1.0)) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        _, account, c, table = await casino_player(live, "bice")
        failed = await top_up(c, table, 4_000)
        assert failed["type"] == "error" and failed["code"] == "wallet_unavailable"
        assert live.server.tables[table].credit_session is None
        debit, cancel = await rows(live)
        assert (debit.status, cancel.direction, cancel.refers_to) == (
            T.CANCELLING,
            T.CANCEL,
            debit.request_id,
        )
        await conserved(live, w.wallet)
        w.wallet.faults.fail_share = 0.0
        await eventually(lambda: settled(live))
        debit, cancel = await rows(live)
        assert (debit.status, cancel.status) == (T.CANCELLED, T.CONFIRMED)
        assert w.wallet.balance_of(str(account)) == OPENING
        got = await top_up(c, table, 1_000)  # the wallet is back: a new top-up goes through
        assert got["type"] == "table" and got["view"]["credit"] == 1_000
        await leave(c, table)
        await eventually(lambda: settled(live))
        await conserved(live, w.wallet)
        await c.close()


async def outbox_metrics(live: Live) -> dict[str, float]:
    """The outbox's gauges as ``/metrics`` serves them (to a loopback caller)."""
    text = (await live.http.get("/metrics")).text

    def value(name: str) -> float:
        found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
        assert found is not None, name
        return float(found[1])

    got = {
        d: value(f'mazziere_wallet_outbox_rows{{direction="{d}"}}') for d in ("credit", "cancel")
    }
    got["oldest"] = value("mazziere_wallet_outbox_oldest_seconds")
    return got


async def test_a_failed_credit_is_retried_from_the_outbox_until_the_wallet_confirms(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        _, account, c, table = await casino_player(live, "ciro")
        assert (await top_up(c, table, 6_000))["type"] == "table"
        w.wallet.faults.fail_share = 1.0
        await leave(c, table)

        async def retried() -> bool:
            credit = (await rows(live))[-1]
            return credit.direction == T.CREDIT and credit.attempts >= 3

        await eventually(retried)
        credit = (await rows(live))[-1]
        assert credit.status == T.PENDING and "unavailable" in credit.last_error
        boss = await make_staff(live, "contabile", "auditor")
        shown = await live.get("/api/admin/wallet/outbox", boss)
        assert shown["wallet"] == "transfer" and shown["owed"] == 6_000
        assert [(r["request_id"], r["status"]) for r in shown["rows"]] == [
            (credit.request_id, T.PENDING)
        ]
        assert shown["rows"][0]["attempts"] >= 3 and shown["rows"][0]["last_error"]
        support = await make_staff(live, "sportello", "support")
        r = await live.http.get(
            "/api/admin/wallet/outbox", headers={"Authorization": f"Bearer {support}"}
        )
        assert r.status_code == 403
        waiting = await outbox_metrics(live)
        assert waiting["credit"] == 1 and waiting["cancel"] == 0 and waiting["oldest"] > 0
        assert w.wallet.balance_of(str(account)) == OPENING - 6_000
        await conserved(live, w.wallet)  # the 6,000 cents wait in transit
        w.wallet.faults.fail_share = 0.0
        await eventually(lambda: settled(live))
        assert await outbox_metrics(live) == {"credit": 0, "cancel": 0, "oldest": 0}
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
        await c.close()


async def test_an_answer_given_twice_moves_nothing_twice(db_url: str, tmp_path: Path) -> None:
    async with (
        reference_wallet(tmp_path, Faults(answer_twice=True)) as w,
        transfer_server(db_url, tmp_path, w.url) as live,
    ):
        _, account, c, table = await casino_player(live, "dario")
        got = await top_up(c, table, 3_000, key="k1")
        assert got["type"] == "table" and got["view"]["credit"] == 3_000
        again = await top_up(c, table, 3_000, key="k1")  # the player's own retry
        assert again["type"] == "table" and again["view"]["credit"] == 3_000
        await leave(c, table)
        await eventually(lambda: settled(live))
        debit, credit = await rows(live)
        assert w.wallet.calls[debit.request_id] == 2 and w.wallet.calls[credit.request_id] == 2
        assert (debit.amount, credit.amount) == (3_000, 3_000)
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
        await c.close()


async def test_the_wallet_restarting_mid_transfer_loses_no_cent(
    db_url: str, tmp_path: Path
) -> None:
    state = tmp_path / "wallet.sqlite3"
    w = await start_wallet(state, 0, Faults(slow_seconds=30.0))
    port = w.port
    async with transfer_server(db_url, tmp_path, w.url) as live:
        _, account, c, table = await casino_player(live, "elio")
        asking = asyncio.create_task(top_up(c, table, 2_000))
        await eventually(lambda: _called(w.wallet.calls))  # applied; the answer never comes
        w.server.force_exit = True
        await w.stop()
        down = DemoWallet(state, SECRET, OPENING)  # what it had applied, read while it is down
        assert down.balance_of(str(account)) == OPENING - 2_000
        down.close()
        failed = await asking
        assert failed["type"] == "error" and failed["code"] == "wallet_unavailable"
        assert live.server.tables[table].credit_session is None
        w = await start_wallet(state, port)  # back: the debit is cancelled, at once or soon
        await eventually(lambda: settled(live))  # the cancel gives the debit back
        assert w.wallet.balance_of(str(account)) == OPENING
        assert (await top_up(c, table, 2_500))["type"] == "table"
        await w.stop()  # down while the session closes: the credit waits
        await leave(c, table)
        await asyncio.sleep(0.3)
        assert not await settled(live)
        w = await start_wallet(state, port)
        await eventually(lambda: settled(live))
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
        await c.close()
    await w.stop()


async def _called(calls: object) -> bool:
    return bool(calls)


async def test_a_debit_confirmed_but_refused_where_it_is_recorded_goes_back(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        reference_wallet(tmp_path, Faults(slow_seconds=0.3)) as w,
        transfer_server(db_url, tmp_path, w.url, casino_session_cap=50_000) as live,
    ):
        _, account, c, table = await casino_player(live, "fabio")
        asking = asyncio.create_task(top_up(c, table, 5_000))
        await eventually(lambda: _called(w.wallet.calls))  # past the first check, debited
        live.server.settings.casino_session_cap = 1_000  # the check where it is recorded fails
        refused = await asking
        assert refused["type"] == "error" and refused["code"] == "limit_exceeded"
        assert live.server.tables[table].credit_session is None
        await eventually(lambda: settled(live))  # the debit is cancelled: its money back
        debit, cancel = await rows(live)
        assert (debit.status, cancel.status, cancel.refers_to) == (
            T.CANCELLED,
            T.CONFIRMED,
            debit.request_id,
        )
        assert w.wallet.balance_of(str(account)) == OPENING
        await conserved(live, w.wallet)
        await c.close()
