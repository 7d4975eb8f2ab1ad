"""The transfer wallet's outbox (docs/wallet.md "Retries"): the credits of closed sessions and
the cancels of debits left in doubt, rows of ``wallet_transfers`` written in the same
transaction as what caused them, sent by a background task of each process until the wallet
confirms each one, with exponential back-off between tries. A row is sent by one process at a
time: the one that claimed it (a lease, :func:`~mazziere.server.wallet.records.claim`); a
process that stops frees its rows, one that dies leaves them to another once the lease runs
out, and as the rows are in the database they survive any restart.

The same task sweeps the debits a stopped top-up left ``pending``: once older than any top-up
can take, they are cancelled through the outbox (their money, if it moved, goes back)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any

from mazziere.server.store import transfers as T
from mazziere.server.store.db import Database
from mazziere.server.store.models import WalletTransfer
from mazziere.server.wallet import contract as C
from mazziere.server.wallet import records
from mazziere.server.wallet.client import WalletClient, WalletRefused, WalletUnavailable

log = logging.getLogger("mazziere.wallet")

BATCH = 20
"""Most outbox rows one process claims at a time."""


def body_of(row: WalletTransfer) -> dict[str, Any]:
    """The body of an outbox row's call: the same on every try (the wallet refuses a request
    id sent again with another body)."""
    if row.direction == T.CANCEL:
        return {"player": str(row.account_id), "refers_to": row.refers_to, "amount": row.amount}
    return {
        "player": str(row.account_id),
        "amount": row.amount,
        "currency": C.CURRENCY,
        "session": row.session_id,
    }


def backoff(attempts: int, base: float, cap: float) -> float:
    """Seconds before try ``attempts + 1``: ``base`` doubled per try made, at most ``cap``,
    less up to a half at random (so that many rows do not retry in step).

    >>> 0.5 <= backoff(0, 1.0, 60.0) <= 1.0, backoff(30, 1.0, 60.0) <= 60.0
    (True, True)
    """
    return min(cap, base * 2.0 ** min(attempts, 30)) * random.uniform(0.5, 1.0)


class Outbox:
    """Sends the outbox's rows (module docstring)."""

    def __init__(
        self,
        db: Database,
        client: WalletClient,
        node: str,
        *,
        retry_seconds: float,
        retry_max_seconds: float,
        poll_seconds: float,
        lease_seconds: float,
        doubt_seconds: float,
        batch: int = BATCH,
    ) -> None:
        self.db = db
        self.client = client
        self.node = node
        self.retry = retry_seconds
        self.retry_max = retry_max_seconds
        self.poll = poll_seconds
        self.lease = lease_seconds
        self.doubt = doubt_seconds
        self.batch = batch
        self._wake = asyncio.Event()
        self.sent = 0
        """Rows the wallet confirmed through this process."""

    def kick(self) -> None:
        """Look at the outbox now (a row was just added)."""
        self._wake.set()

    async def run(self) -> None:
        """Drain until cancelled: at once when kicked, else every ``poll`` seconds."""
        while True:
            try:
                busy = await self.drain_once()
            except Exception:  # a database or network fault: try again later
                log.exception("wallet outbox: a round failed")
                busy = 0
            if busy:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)
            self._wake.clear()

    async def release(self) -> None:
        """Free the rows this process claimed (it is stopping; its task is cancelled)."""
        try:
            async with self.db.write() as db:
                await records.release(db, self.node)
        except Exception:  # the lease frees them all the same
            log.exception("wallet outbox: claims not released")

    async def drain_once(self) -> int:
        """One round: cancel the stale debits, then send the due rows this process claimed.
        Returns how many rows it sent."""
        async with self.db.session() as db:  # reads first: most rounds find nothing to do
            stale = await records.stale_debits(db, self.doubt)
            due = await records.any_due(db)
        if stale:
            async with self.db.write() as db:
                for rid in stale:
                    await records.to_cancel(db, rid, "left pending by a top-up that stopped")
        if not (due or stale):
            return 0
        async with self.db.write() as db:
            rows = await records.claim(db, self.node, self.lease, self.batch)
        for row in rows:
            await self.send(row)
        return len(rows)

    async def send(self, row: WalletTransfer) -> None:
        """One try of ``row``: recorded as confirmed, or due again after its back-off."""
        path = C.CANCEL if row.direction == T.CANCEL else C.CREDIT
        try:
            answer = await self.client.call(path, row.request_id, body_of(row))
        except (WalletUnavailable, WalletRefused) as e:
            # a credit or a cancel is owed whatever the wallet says now: a refusal here is a
            # fault to fix at the wallet (the back office shows it), retried all the same
            delay = backoff(row.attempts, self.retry, self.retry_max)
            async with self.db.write() as db:
                await records.retry_later(db, row, self.node, f"{e.code}: {e.message}", delay)
            return
        async with self.db.write() as db:
            if await records.confirmed(db, row, str(answer.get("reference", ""))):
                self.sent += 1
