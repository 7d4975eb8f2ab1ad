"""Back-office reads and changes of accounts (docs/operators.md): roles, suspension, and a
player's page: search, wallet, open casino sessions, ledger lines, hands and logins."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import String, cast, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server import roles
from mazziere.server.roles import NotFound
from mazziere.server.store import accounts, ledger
from mazziere.server.store.models import (
    Account,
    Balance,
    CreditSession,
    Hand,
    HandPlayer,
    LedgerEntry,
    LedgerTxn,
)

ACTIVE = "active"
SUSPENDED = "suspended"


def iso(t: datetime | None) -> str | None:
    """A stored time as ISO 8601 in UTC (SQLite hands back naive datetimes: they are UTC)."""
    if t is None:
        return None
    return (t if t.tzinfo is not None else t.replace(tzinfo=UTC)).isoformat()


async def account(db: AsyncSession, account_id: int) -> Account:
    """The account ``account_id``, else :class:`NotFound`."""
    acc = await db.get(Account, account_id)
    if acc is None:
        raise NotFound(f"account {account_id} does not exist")
    return acc


async def by_name(db: AsyncSession, username: str) -> Account:
    """The account named ``username``, else :class:`NotFound`."""
    acc = await db.scalar(select(Account).where(Account.username == username))
    if acc is None:
        raise NotFound(f"no account is named {username!r}")
    return acc


async def set_role(db: AsyncSession, acc: Account, role: str) -> str:
    """Give ``acc`` the role ``role`` (one of :data:`~mazziere.server.roles.ROLES`); returns
    the role it had."""
    before = acc.role
    acc.role = roles.check_role(role)
    await db.flush()
    return before


async def admins(db: AsyncSession) -> int:
    """How many accounts hold the ``admin`` role and are not suspended."""
    q = select(func.count(Account.id)).where(Account.role == roles.ADMIN, Account.status == ACTIVE)
    return int(await db.scalar(q) or 0)


async def set_status(db: AsyncSession, acc: Account, status: str) -> list[str]:
    """Set ``acc``'s status; suspending it revokes its live logins, whose token hashes are
    returned (their sockets are closed once this commits)."""
    acc.status = status
    revoked: list[str] = []
    if status == SUSPENDED:
        revoked = await accounts.revoke_all(db, acc.id, SUSPENDED)
    await db.flush()
    return revoked


async def players(db: AsyncSession, q: str, after: int | None, limit: int) -> list[dict[str, Any]]:
    """Accounts whose name contains ``q`` (any case) or whose id is ``q``, by id, after id
    ``after``, with their wallet balances."""
    query = select(Account).order_by(Account.id).limit(limit)
    if q:
        like = "%" + q.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        match = func.lower(Account.username).like(like, escape="\\")
        query = query.where(or_(match, cast(Account.id, String) == q) if q.isdigit() else match)
    if after is not None:
        query = query.where(Account.id > after)
    accs = list((await db.scalars(query)).all())
    balances = await _wallets(db, [a.id for a in accs])
    return [summary(a, balances.get(a.id, 0)) for a in accs]


async def _wallets(db: AsyncSession, ids: list[int]) -> dict[int, int]:
    books = {ledger.wallet(i): i for i in ids}
    rows = await db.execute(select(Balance.book, Balance.balance).where(Balance.book.in_(books)))
    return {books[book]: int(bal) for book, bal in rows.all()}


def summary(acc: Account, balance: int) -> dict[str, Any]:
    return {
        "id": acc.id,
        "username": acc.username,
        "role": acc.role,
        "status": acc.status,
        "balance_cents": balance,
        "created_at": iso(acc.created_at),
    }


async def page(db: AsyncSession, acc: Account) -> dict[str, Any]:
    """An account's page: its summary, open casino sessions, hands played, its limits (those
    in force and the raises waiting, as the player's own page shows them), self-exclusions
    (newest first), the exclusion register's last answer and the last logins."""
    from mazziere.server.store import audit, exclusion, limit_changes

    balance = await ledger.balance(db, ledger.wallet(acc.id))
    sessions = (
        await db.scalars(
            select(CreditSession)
            .where(CreditSession.account_id == acc.id, CreditSession.status == "open")
            .order_by(CreditSession.id)
        )
    ).all()
    open_sessions = [
        {
            "id": s.id,
            "table": s.table_id,
            "balance_cents": await ledger.balance(db, ledger.casino_book(s.id)),
            "opened_at": iso(s.opened_at),
        }
        for s in sessions
    ]
    played = await db.scalar(
        select(func.count(func.distinct(HandPlayer.hand_id))).where(HandPlayer.account_id == acc.id)
    )
    logins = await audit.entries(
        db, None, 20, target=f"account:{acc.id}", actions=("login", "login_refused")
    )
    return {
        **summary(acc, balance),
        "open_sessions": open_sessions,
        "hands_played": int(played or 0),
        "limits": await limit_changes.describe(db, acc.id, datetime.now(UTC)),
        "exclusions": await exclusion.of_account(db, acc.id, datetime.now(UTC)),
        "exclusion_register": exclusion.register_json(await exclusion.register_answer(db, acc.id)),
        "logins": [
            {"at": iso(e.at), "address": e.address, "ok": e.action == "login"} for e in logins
        ],
    }


async def books_of(db: AsyncSession, account_id: int) -> list[str]:
    """Every ledger book of an account: its wallet and each casino session's credit."""
    sessions = await db.scalars(
        select(CreditSession.id).where(CreditSession.account_id == account_id)
    )
    return [ledger.wallet(account_id), *(ledger.casino_book(s) for s in sessions.all())]


async def ledger_lines(
    db: AsyncSession, account_id: int, before: int | None, limit: int
) -> list[dict[str, Any]]:
    """An account's ledger lines (wallet and casino sessions), newest first, before line
    ``before``."""
    q = (
        select(LedgerEntry, LedgerTxn)
        .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
        .where(LedgerEntry.book.in_(await books_of(db, account_id)))
        .order_by(LedgerEntry.id.desc())
        .limit(limit)
    )
    if before is not None:
        q = q.where(LedgerEntry.id < before)
    return [
        {
            "id": e.id,
            "txn": t.id,
            "at": iso(t.created_at),
            "amount_cents": e.amount,
            "book": e.book,
            "kind": t.kind,
            "memo": t.ref,
        }
        for e, t in (await db.execute(q)).all()
    ]


async def hands_of(
    db: AsyncSession, account_id: int, before: int | None, limit: int
) -> list[dict[str, Any]]:
    """The hands an account sat in, newest first, before hand ``before``."""
    q = (
        select(Hand, HandPlayer.seat)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(HandPlayer.account_id == account_id)
        .order_by(Hand.id.desc())
        .limit(limit)
    )
    if before is not None:
        q = q.where(Hand.id < before)
    return [
        {
            "id": h.id,
            "table": h.table_id,
            "game": h.game,
            "seat": seat,
            "status": h.status,
            "started_at": iso(h.started_at),
            "ended_at": iso(h.ended_at),
        }
        for h, seat in (await db.execute(q)).all()
    ]
