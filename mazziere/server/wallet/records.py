"""The transfer wallet's writes (docs/wallet.md): each a few statements in the caller's short
transaction, never one that is open during an HTTP call. A transfer's row is written
``pending`` before its call; every later change is a conditional update from the status the
writer expects, so that two writers (the top-up that got its answer, the sweep that found it
stale; two processes whose leases overlapped) can never both act on one transfer."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store import ledger, money
from mazziere.server.store import transfers as T
from mazziere.server.store.models import CreditSession, WalletTransfer


class DebitInDoubt(MazziereError):
    """A top-up whose debit is not settled yet (being cancelled, or under way elsewhere):
    nothing is recorded for it here, and its money goes back through the outbox."""

    default_code = "wallet_in_doubt"


def new_request_id() -> str:
    return uuid.uuid4().hex


def now() -> datetime:
    return datetime.now(UTC)


async def _changed(db: AsyncSession, stmt: Any) -> int:
    result = await db.execute(stmt.execution_options(synchronize_session=False))
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


async def by_client_key(db: AsyncSession, key: str) -> WalletTransfer | None:
    """The top-up debit made under idempotency key ``key`` that moved or may have moved money
    (a refused or cancelled one leaves the key free for a new try)."""
    return await db.scalar(
        select(WalletTransfer)
        .where(
            WalletTransfer.client_key == key,
            WalletTransfer.direction == T.DEBIT,
            WalletTransfer.status.in_((T.PENDING, T.CONFIRMED, T.CANCELLING)),
        )
        .order_by(WalletTransfer.id.desc())
        .limit(1)
    )


async def begin_debit(
    db: AsyncSession,
    rid: str,
    account: int,
    table_id: int,
    session: int | None,
    amount: int,
    key: str | None,
) -> None:
    """A debit about to be asked of the wallet, ``pending`` (committed before the call)."""
    db.add(
        WalletTransfer(
            request_id=rid,
            direction=T.DEBIT,
            account_id=account,
            session_id=session,
            table_id=table_id,
            amount=amount,
            status=T.PENDING,
            client_key=key,
            attempts=1,
            last_error="",
            created_at=now(),
        )
    )


async def refuse(db: AsyncSession, rid: str, code: str) -> None:
    """The wallet refused the debit: nothing moved, and nothing ever will under its id."""
    await _changed(
        db,
        update(WalletTransfer)
        .where(WalletTransfer.request_id == rid, WalletTransfer.status == T.PENDING)
        .values(status=T.REFUSED, last_error=code),
    )


async def record_debit(
    db: AsyncSession,
    rid: str,
    wallet_ref: str,
    account: int,
    table_id: int,
    session: int | None,
    amount: int,
) -> tuple[int, int]:
    """The confirmed debit's money into the session's book (opening the session if there is
    none), from the ``operator`` book: ``(session id, credit)``. Raises
    :class:`DebitInDoubt` (the caller's transaction then rolls back) if the debit is no longer
    pending: a sweep found it stale and is cancelling it."""
    sid, credit = await money.top_up(
        db, account, table_id, session, amount, T.DEBIT_KEY + rid, source=T.OPERATOR
    )
    done = await _changed(
        db,
        update(WalletTransfer)
        .where(WalletTransfer.request_id == rid, WalletTransfer.status == T.PENDING)
        .values(status=T.CONFIRMED, wallet_ref=wallet_ref, session_id=sid, confirmed_at=now()),
    )
    if done != 1:
        raise DebitInDoubt("the wallet's debit is being cancelled: nothing was taken")
    return sid, credit


async def to_cancel(db: AsyncSession, rid: str, why: str) -> bool:
    """A pending debit becomes ``cancelling`` and its cancel joins the outbox, due now. False
    if it was not pending (confirmed, refused, or already being cancelled)."""
    debit = await db.scalar(select(WalletTransfer).where(WalletTransfer.request_id == rid))
    if debit is None:
        return False
    done = await _changed(
        db,
        update(WalletTransfer)
        .where(WalletTransfer.request_id == rid, WalletTransfer.status == T.PENDING)
        .values(status=T.CANCELLING, last_error=why),
    )
    if done != 1:
        return False
    db.add(
        WalletTransfer(
            request_id=new_request_id(),
            direction=T.CANCEL,
            account_id=debit.account_id,
            session_id=None,
            table_id=debit.table_id,
            amount=debit.amount,
            status=T.PENDING,
            refers_to=rid,
            attempts=0,
            next_attempt_at=now(),
            last_error="",
            created_at=now(),
        )
    )
    return True


async def close_session(db: AsyncSession, session: int, why: str) -> int:
    """Close ``session``: its rest into ``transit`` and a credit of the rest into the outbox,
    due now, in ``db``'s transaction. Returns the rest."""
    row = await db.get(CreditSession, session)
    was_open = row is not None and row.status == "open"
    rest = await money.close(db, session, why, into=T.TRANSIT)
    if was_open and rest and row is not None:
        db.add(
            WalletTransfer(
                request_id=new_request_id(),
                direction=T.CREDIT,
                account_id=row.account_id,
                session_id=session,
                table_id=row.table_id,
                amount=rest,
                status=T.PENDING,
                attempts=0,
                next_attempt_at=now(),
                last_error="",
                created_at=now(),
            )
        )
    return rest


async def any_due(db: AsyncSession) -> bool:
    """Whether an outbox row is due now that no process holds."""
    found = await db.scalar(select(WalletTransfer.id).where(*T.due_filter(now())).limit(1))
    return found is not None


async def claim(db: AsyncSession, node: str, lease: float, limit: int) -> list[WalletTransfer]:
    """Take up to ``limit`` due outbox rows for process ``node`` for ``lease`` seconds (on
    PostgreSQL rows another process is taking are skipped, ``FOR UPDATE SKIP LOCKED``; SQLite
    has one writer). The rows taken, oldest first."""
    at = now()
    query = select(WalletTransfer.id).where(*T.due_filter(at)).order_by(WalletTransfer.id)
    query = query.limit(limit)
    if db.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    ids = list((await db.scalars(query)).all())
    if not ids:
        return []
    await _changed(
        db,
        update(WalletTransfer)
        .where(WalletTransfer.id.in_(ids), *T.due_filter(at))
        .values(claimed_by=node, claimed_until=at + timedelta(seconds=lease)),
    )
    rows = await db.scalars(
        select(WalletTransfer)
        .where(WalletTransfer.id.in_(ids), WalletTransfer.claimed_by == node)
        .order_by(WalletTransfer.id)
    )
    return list(rows.all())


async def release(db: AsyncSession, node: str) -> None:
    """Process ``node`` stops: the rows it claimed are free for another at once (a process
    that dies leaves them until its lease runs out)."""
    await _changed(
        db,
        update(WalletTransfer)
        .where(WalletTransfer.claimed_by == node, WalletTransfer.status == T.PENDING)
        .values(claimed_by=None, claimed_until=None),
    )


async def confirmed(db: AsyncSession, row: WalletTransfer, wallet_ref: str) -> bool:
    """The wallet confirmed outbox row ``row``: a credit's money leaves ``transit`` for the
    ``operator`` book, a cancel's debit becomes ``cancelled``. False if another process
    recorded it first (nothing is done twice)."""
    done = await _changed(
        db,
        update(WalletTransfer)
        .where(WalletTransfer.id == row.id, WalletTransfer.status == T.PENDING)
        .values(
            status=T.CONFIRMED,
            wallet_ref=wallet_ref,
            confirmed_at=now(),
            attempts=WalletTransfer.attempts + 1,
            claimed_by=None,
            claimed_until=None,
            last_error="",
        ),
    )
    if done != 1:
        return False
    if row.direction == T.CREDIT:
        await ledger.post(
            db,
            T.CREDIT_KEY + row.request_id,
            "wallet_credit",
            f"casino:{row.session_id}",
            [(T.TRANSIT, -row.amount), (T.OPERATOR, row.amount)],
        )
    elif row.direction == T.CANCEL and row.refers_to is not None:
        await _changed(
            db,
            update(WalletTransfer)
            .where(
                WalletTransfer.request_id == row.refers_to,
                WalletTransfer.status == T.CANCELLING,
            )
            .values(status=T.CANCELLED, confirmed_at=now()),
        )
    return True


async def retry_later(
    db: AsyncSession, row: WalletTransfer, node: str, error: str, delay: float
) -> None:
    """No confirmation for outbox row ``row``: try again in ``delay`` seconds."""
    await _changed(
        db,
        update(WalletTransfer)
        .where(
            WalletTransfer.id == row.id,
            WalletTransfer.status == T.PENDING,
            WalletTransfer.claimed_by == node,
        )
        .values(
            attempts=WalletTransfer.attempts + 1,
            next_attempt_at=now() + timedelta(seconds=delay),
            claimed_by=None,
            claimed_until=None,
            last_error=error[:500],
        ),
    )


async def stale_debits(db: AsyncSession, older_than: float) -> list[str]:
    """Debits still pending ``older_than`` seconds after they were written: their top-up
    ended without settling them (its process stopped during the call)."""
    rows = await db.scalars(
        select(WalletTransfer.request_id).where(
            WalletTransfer.direction == T.DEBIT,
            WalletTransfer.status == T.PENDING,
            WalletTransfer.created_at < now() - timedelta(seconds=older_than),
        )
    )
    return list(rows.all())
