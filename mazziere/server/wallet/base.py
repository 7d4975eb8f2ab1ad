"""Where a casino session's money comes from and goes back to (docs/wallet.md): the interface
a table's money sees (:class:`Wallet`) and the built-in wallet, a ledger book per account
(``wallet:<id>``) credited with demo money at sign-up.

A top-up is two steps, so that a wallet reached over the network is called with no database
transaction open: :meth:`Wallet.debit` takes the money (the built-in wallet takes nothing
yet), then :meth:`Debit.record` moves it into the session's book inside the table's write
transaction. If that transaction fails, leaving the ``debit`` block by an exception gives the
money back (the transfer wallet cancels its debit through the outbox)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store import ledger, money
from mazziere.server.store.db import Database

BUILTIN = "builtin"
TRANSFER = "transfer"
KINDS = (BUILTIN, TRANSFER)
"""The wallets a server may use (``Settings.wallet``)."""


class Debit(Protocol):
    """Money taken for a top-up, to be recorded in the table's write transaction."""

    async def record(self, db: AsyncSession) -> tuple[int, int]:
        """Move it into the session's book (opening the session if there is none) in ``db``'s
        transaction: ``(session id, credit)``."""
        ...


class Wallet(Protocol):
    """What a table's money and the wallet page use of the player's wallet."""

    kind: str
    remote: bool
    """Its debit moves money before the table's write transaction (over the network): the
    top-up's checks then run before it as well."""
    signup_credit: int
    """Cents credited at sign-up (the built-in wallet's demo credit; 0 for the transfer
    wallet, whose money is the operator's)."""

    def debit(
        self, account: int, table_id: int, session: int | None, amount: int, key: str | None
    ) -> AbstractAsyncContextManager[Debit]: ...

    async def repeated(self, db: AsyncSession, key: str) -> bool:
        """Whether a top-up sent under idempotency key ``key`` was recorded already: sent
        again it moves nothing, so no limit refuses it and its answer is the first one's."""
        ...

    async def close(self, db: AsyncSession, session: int, why: str) -> int:
        """Close ``session`` in ``db``'s transaction, its rest owed to the player's wallet:
        the rest."""
        ...

    def closed(self) -> None:
        """A session's close committed (the transfer wallet sends its credit now)."""

    async def balance(self, account: int) -> int:
        """The player's wallet balance (the wallet page)."""
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


@dataclass(frozen=True)
class LedgerDebit:
    """A built-in top-up: the wallet book's money moves when it is recorded."""

    account: int
    table_id: int
    session: int | None
    amount: int
    key: str | None

    async def record(self, db: AsyncSession) -> tuple[int, int]:
        return await money.top_up(
            db, self.account, self.table_id, self.session, self.amount, self.key
        )


class BuiltinWallet:
    """The server's own wallet: ``wallet:<account>`` in the ledger."""

    kind = BUILTIN
    remote = False

    def __init__(self, db: Database, demo_credit: int) -> None:
        self.db = db
        self.signup_credit = demo_credit

    @asynccontextmanager
    async def debit(
        self, account: int, table_id: int, session: int | None, amount: int, key: str | None
    ) -> AsyncIterator[Debit]:
        yield LedgerDebit(account, table_id, session, amount, key)

    async def repeated(self, db: AsyncSession, key: str) -> bool:
        return await ledger.posted(db, key)  # money.top_up posts under the client's key

    async def close(self, db: AsyncSession, session: int, why: str) -> int:
        return await money.close(db, session, why)

    def closed(self) -> None:
        return None

    async def balance(self, account: int) -> int:
        async with self.db.session() as db:
            return await ledger.balance(db, ledger.wallet(account))

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None
