"""The operator's transfer wallet (docs/wallet.md): a casino session's opening and every
top-up debit the player's wallet at the operator over signed HTTP, and its close credits what
is left, through the outbox.

A top-up's debit, step by step, with no database transaction open during a call:

1. its row is written ``pending`` (committed), so that no call is made that the database does
   not know of;
2. the wallet is called, the same request id tried again while there is no answer;
3. confirmed: the table's write transaction records it (the session's book is paid from the
   ``operator`` book, the row ``confirmed``); refused: the row is ``refused`` and nothing
   moved; no answer, or the recording failed: the row is ``cancelling`` and a cancel joins the
   outbox, which undoes the debit at the wallet whether it applied or not;
4. a row a stopped process left ``pending`` is cancelled by the outbox's sweep once older
   than any top-up can take (:meth:`TransferWallet.doubt_seconds`).

No cent is lost or created: the money is in our ledger exactly when the debit is
``confirmed``, and every other debit ends with nothing moved on either side."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.settings import Settings
from mazziere.server.store import money
from mazziere.server.store import transfers as T
from mazziere.server.store.db import Database
from mazziere.server.wallet import contract as C
from mazziere.server.wallet import records
from mazziere.server.wallet.base import TRANSFER, Debit
from mazziere.server.wallet.client import WalletClient, WalletRefused, WalletUnavailable
from mazziere.server.wallet.outbox import BATCH, Outbox

log = logging.getLogger("mazziere.wallet")


@dataclass(frozen=True)
class TransferDebit:
    """A debit the wallet confirmed, to be recorded in the table's write transaction."""

    request_id: str
    wallet_ref: str
    account: int
    table_id: int
    session: int | None
    amount: int

    async def record(self, db: AsyncSession) -> tuple[int, int]:
        return await records.record_debit(
            db,
            self.request_id,
            self.wallet_ref,
            self.account,
            self.table_id,
            self.session,
            self.amount,
        )


@dataclass(frozen=True)
class RepeatedDebit:
    """A top-up sent again with the key of a confirmed one: nothing moves twice."""

    request_id: str
    account: int
    table_id: int
    session: int | None
    amount: int

    async def record(self, db: AsyncSession) -> tuple[int, int]:
        key = T.DEBIT_KEY + self.request_id  # posted before: the ledger moves nothing
        return await money.top_up(
            db, self.account, self.table_id, self.session, self.amount, key, source=T.OPERATOR
        )


def node_name() -> str:
    """This process, as an outbox row's claim names it."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class TransferWallet:
    """The operator's wallet over HTTP (module docstring)."""

    kind = TRANSFER
    remote = True
    signup_credit = 0

    def __init__(self, settings: Settings, db: Database, client: WalletClient) -> None:
        self.db = db
        self.client = client
        self.tries = settings.wallet_tries
        self.pause = settings.wallet_retry_seconds
        self.timeout = settings.wallet_timeout_seconds
        self.outbox = Outbox(
            db,
            client,
            node_name(),
            retry_seconds=settings.wallet_retry_seconds,
            retry_max_seconds=settings.wallet_retry_max_seconds,
            poll_seconds=settings.wallet_poll_seconds,
            lease_seconds=BATCH * settings.wallet_timeout_seconds + 30.0,
            doubt_seconds=self.doubt_seconds(),
        )
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def from_settings(cls, settings: Settings, db: Database) -> TransferWallet:
        secret = C.read_secret(settings.wallet_secret_file, os.environ.get(C.WALLET_SECRET_ENV))
        url = settings.wallet_url or ""
        return cls(settings, db, WalletClient(url, secret, settings.wallet_timeout_seconds))

    def doubt_seconds(self) -> float:
        """Past this age a pending debit's top-up cannot still be waiting for its answer: every
        try's time-out and pause, and a margin of 30 seconds for the recording."""
        return self.tries * self.timeout + self.pause * 2.0**self.tries + 30.0

    async def start(self) -> None:
        self._task = asyncio.create_task(self.outbox.run(), name="wallet-outbox")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            await self.outbox.release()
        await self.client.aclose()

    def closed(self) -> None:
        self.outbox.kick()

    async def close(self, db: AsyncSession, session: int, why: str) -> int:
        return await records.close_session(db, session, why)

    async def balance(self, account: int) -> int:
        data = await self.client.persist(
            C.BALANCE, records.new_request_id(), {"player": str(account)}, 2, self.pause
        )
        return int(data["balance"])

    async def repeated(self, db: AsyncSession, key: str) -> bool:
        prior = await records.by_client_key(db, key)
        return prior is not None and prior.status == T.CONFIRMED

    @asynccontextmanager
    async def debit(
        self, account: int, table_id: int, session: int | None, amount: int, key: str | None
    ) -> AsyncIterator[Debit]:
        if key is not None:
            async with self.db.session() as db:
                prior = await records.by_client_key(db, key)
            if prior is not None and prior.status == T.CONFIRMED:
                yield RepeatedDebit(prior.request_id, account, table_id, session, amount)
                return
            if prior is not None:
                raise records.DebitInDoubt(
                    "a top-up with this key is being settled with the wallet"
                )
        rid = records.new_request_id()
        async with self.db.write() as db:
            await records.begin_debit(db, rid, account, table_id, session, amount, key)
        body = {
            "player": str(account),
            "amount": amount,
            "currency": C.CURRENCY,
            "session": session,
            "table": table_id,
        }
        try:
            answer = await self.client.persist(C.DEBIT, rid, body, self.tries, self.pause)
        except WalletRefused as e:
            async with self.db.write() as db:
                await records.refuse(db, rid, e.code)
            raise
        except WalletUnavailable as e:
            await self._cancel(rid, e.message)
            raise WalletUnavailable(
                "the operator's wallet did not answer: nothing was taken (any debit is undone)"
            ) from None
        try:
            yield TransferDebit(
                rid, str(answer.get("reference", "")), account, table_id, session, amount
            )
        except BaseException:
            await self._cancel(rid, "confirmed but not recorded")
            raise

    async def _cancel(self, rid: str, why: str) -> None:
        """Debit ``rid`` is cancelled through the outbox. If even that write fails, the row
        stays pending and the outbox's sweep cancels it later."""
        try:
            async with self.db.write() as db:
                await records.to_cancel(db, rid, why[:500])
        except Exception:
            log.exception("wallet: debit %s left pending for the sweep", rid)
        self.outbox.kick()
