"""Casino money, in one module that can be reviewed alone (platform.md "Money and records"):
wallet -> table session credit (top-up) -> stake to the house -> payout from the house ->
what is left back to the wallet when the session closes. Every function runs inside the
caller's transaction (the one that also records the game event), posts balanced ledger
transactions under idempotency keys, and changes no in-memory state: the table actor takes the
new session id and credit only after the transaction committed."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store import ledger
from mazziere.server.store.models import CreditSession


@dataclass(frozen=True)
class OpenSession:
    """An open casino session as stored: its id, owner and credit."""

    id: int
    account: int
    credit: int


async def top_up(
    db: AsyncSession,
    account: int,
    table_id: int,
    session: int | None,
    amount: int,
    key: str | None,
    source: str | None = None,
) -> tuple[int, int]:
    """Move ``amount`` cents from ``account``'s wallet (or the book ``source``: the operator's
    wallet, whose debit confirmed it, docs/wallet.md) into the table's session credit,
    opening the session (in the same transaction) if there is none. Returns (session id,
    credit). Raises :class:`~mazziere.server.store.ledger.InsufficientFunds`, moving nothing,
    when the wallet holds less; a retried ``key`` moves nothing twice."""
    if session is None:
        row = CreditSession(account_id=account, table_id=table_id)
        db.add(row)
        await db.flush()
        session = row.id
    await ledger.post(
        db,
        key or f"topup:{session}:{uuid.uuid4().hex}",
        "topup",
        f"casino:{session}",
        [(source or ledger.wallet(account), -amount), (ledger.casino_book(session), amount)],
    )
    return session, await ledger.balance(db, ledger.casino_book(session))


async def stake(db: AsyncSession, session: int, hand_id: int, amount: int) -> None:
    """The stake of hand ``hand_id`` moves from the session credit to the house."""
    await ledger.post(
        db,
        f"stake:{hand_id}",
        "stake",
        f"hand:{hand_id}",
        [(ledger.casino_book(session), -amount), (ledger.HOUSE, amount)],
    )


async def payout(db: AsyncSession, session: int, hand_id: int, amount: int) -> None:
    """A won hand's payout moves from the house to the session credit (nothing if 0)."""
    if amount:
        await ledger.post(
            db,
            f"payout:{hand_id}",
            "payout",
            f"hand:{hand_id}",
            [(ledger.HOUSE, -amount), (ledger.casino_book(session), amount)],
        )


async def close(db: AsyncSession, session: int, why: str, into: str | None = None) -> int:
    """Close an open session: what is left goes back to the owner's wallet (or into the book
    ``into``: ``transit``, owed to the operator's wallet until it confirms the credit,
    docs/wallet.md). Returns it."""
    row = await db.get(CreditSession, session)
    book = ledger.casino_book(session)
    rest = await ledger.balance(db, book)
    if row is not None and row.status == "open":
        if rest:
            await ledger.post(
                db,
                f"close:{session}",
                "session_close",
                f"casino:{session}",
                [(book, -rest), (into or ledger.wallet(row.account_id), rest)],
            )
        row.status = "closed"
        row.note = why
        row.closed_at = datetime.now(UTC)
    return rest


async def open_session_at(db: AsyncSession, table_id: int) -> OpenSession | None:
    """The table's open session, if any (crash recovery)."""
    row = await db.scalar(
        select(CreditSession).where(
            CreditSession.table_id == table_id, CreditSession.status == "open"
        )
    )
    if row is None:
        return None
    return OpenSession(row.id, row.account_id, await ledger.balance(db, ledger.casino_book(row.id)))


async def credit_sessions_of(db: AsyncSession, account: int) -> list[int]:
    """Every casino session (open or closed) of ``account``."""
    rows = await db.scalars(select(CreditSession.id).where(CreditSession.account_id == account))
    return list(rows.all())
