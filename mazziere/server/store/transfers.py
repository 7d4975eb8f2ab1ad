"""The transfer wallet's records in our database (docs/wallet.md): the names of its two
ledger books, the statuses of a transfer, the day's list that reconciliation prints, the
outbox the back office shows, and the part of ``mazziere ledger check`` that proves them.

Books: ``operator`` is the operator's wallet seen from our ledger (it may go below zero, as
the ``mint``: money that came in from outside); ``transit`` holds what closing sessions owe
the operator's wallet until it confirms each credit (never below zero).

The invariant (:func:`check`):

- every ledger transaction that touches ``operator`` or ``transit`` is one of a transfer's:
  a confirmed debit's ``debit:<request id>`` (``operator`` -> its session's book, its
  amount), a credit's ``close:<session>`` (its session's book -> ``transit``, its amount) or
  a confirmed credit's ``credit:<request id>`` (``transit`` -> ``operator``, its amount); and
  each transfer has exactly the transactions its status says (a refused, cancelled or
  pending debit none, a pending credit only its close);
- ``operator`` = confirmed credits - confirmed debits, and ``transit`` = pending credits;
- a cancelling debit has a pending cancel, a cancelled one a confirmed cancel, and every
  cancel names a debit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store.models import Account, LedgerEntry, LedgerTxn, WalletTransfer

OPERATOR = "operator"
TRANSIT = "transit"
BOOKS = frozenset({OPERATOR, TRANSIT})

DEBIT, CREDIT, CANCEL = "debit", "credit", "cancel"
PENDING, CONFIRMED, REFUSED = "pending", "confirmed", "refused"
CANCELLING, CANCELLED = "cancelling", "cancelled"

DEBIT_KEY, CLOSE_KEY, CREDIT_KEY = "debit:", "close:", "credit:"
"""The ledger keys of a transfer's transactions: ``debit:<request id>``,
``close:<session>`` (the session's close, :mod:`mazziere.server.store.money`) and
``credit:<request id>``."""

COLUMNS = (
    "request_id",
    "created_at",
    "account",
    "username",
    "session",
    "direction",
    "amount",
    "status",
    "wallet_ref",
    "refers_to",
    "attempts",
    "confirmed_at",
)
"""The columns of a reconciliation line, in order (the CSV's header)."""


def _line(t: WalletTransfer, username: str | None) -> dict[str, Any]:
    return {
        "id": t.id,
        "request_id": t.request_id,
        "created_at": t.created_at.isoformat(),
        "account": t.account_id,
        "username": username,
        "session": t.session_id,
        "table": t.table_id,
        "direction": t.direction,
        "amount": t.amount,
        "status": t.status,
        "wallet_ref": t.wallet_ref,
        "refers_to": t.refers_to,
        "attempts": t.attempts,
        "next_attempt_at": t.next_attempt_at.isoformat() if t.next_attempt_at else None,
        "last_error": t.last_error,
        "confirmed_at": t.confirmed_at.isoformat() if t.confirmed_at else None,
    }


async def of_day(db: AsyncSession, day: date) -> list[dict[str, Any]]:
    """Every transfer made on ``day`` (UTC), oldest first: the reconciliation's list."""
    start = datetime.combine(day, time(), UTC)
    rows = (
        await db.execute(
            select(WalletTransfer, Account.username)
            .join(Account, Account.id == WalletTransfer.account_id)
            .where(
                WalletTransfer.created_at >= start,
                WalletTransfer.created_at < start + timedelta(days=1),
            )
            .order_by(WalletTransfer.id)
        )
    ).all()
    return [_line(t, name) for t, name in rows]


async def outbox(db: AsyncSession, limit: int = 200) -> list[dict[str, Any]]:
    """What is still owed to or in doubt with the operator's wallet, oldest first: pending
    credits and cancels (the outbox), and debits pending or being cancelled."""
    rows = (
        await db.execute(
            select(WalletTransfer, Account.username)
            .join(Account, Account.id == WalletTransfer.account_id)
            .where(WalletTransfer.status.in_((PENDING, CANCELLING)))
            .order_by(WalletTransfer.id)
            .limit(limit)
        )
    ).all()
    return [_line(t, name) for t, name in rows]


async def owed(db: AsyncSession) -> dict[str, tuple[int, datetime]]:
    """The outbox in figures: for credits and cancels still pending, how many rows of each
    direction and when the oldest was written (the metrics an operator alerts on)."""
    rows = (
        await db.execute(
            select(WalletTransfer.direction, func.count(), func.min(WalletTransfer.created_at))
            .where(
                WalletTransfer.status == PENDING,
                WalletTransfer.direction.in_((CREDIT, CANCEL)),
            )
            .group_by(WalletTransfer.direction)
        )
    ).all()
    return {
        d: (n, oldest if oldest.tzinfo else oldest.replace(tzinfo=UTC)) for d, n, oldest in rows
    }


def _want(t: WalletTransfer) -> dict[str, list[tuple[str, int]]]:
    """The ledger transactions transfer ``t`` must have, by key, with their moves."""
    if t.direction == DEBIT and t.status == CONFIRMED and t.session_id is not None:
        return {
            DEBIT_KEY + t.request_id: [(OPERATOR, -t.amount), (f"casino:{t.session_id}", t.amount)]
        }
    if t.direction == CREDIT and t.session_id is not None:
        want = {
            CLOSE_KEY + str(t.session_id): [
                (f"casino:{t.session_id}", -t.amount),
                (TRANSIT, t.amount),
            ]
        }
        if t.status == CONFIRMED:
            want[CREDIT_KEY + t.request_id] = [(TRANSIT, -t.amount), (OPERATOR, t.amount)]
        return want
    return {}


async def check(db: AsyncSession, balances: dict[str, int]) -> list[str]:
    """The transfer wallet's part of the ledger check (the module's invariant)."""
    problems: list[str] = []
    transfers = list((await db.scalars(select(WalletTransfer))).all())
    touching = (
        await db.execute(
            select(LedgerTxn.id, LedgerTxn.idempotency_key).where(
                LedgerTxn.id.in_(
                    select(LedgerEntry.txn_id).where(LedgerEntry.book.in_(sorted(BOOKS)))
                )
            )
        )
    ).all()
    keys = {key: txn for txn, key in touching}
    wanted: dict[str, tuple[WalletTransfer, list[tuple[str, int]]]] = {}
    for t in transfers:
        for key, moves in _want(t).items():
            if key in wanted:
                problems.append(
                    f"transfers {wanted[key][0].request_id} and {t.request_id} share {key}"
                )
            wanted[key] = (t, moves)
    for key in sorted(set(keys) - set(wanted)):
        problems.append(
            f"ledger transaction {keys[key]} ({key}) moves transfer money no transfer explains"
        )
    entries = await _entries(db, [keys[k] for k in wanted if k in keys])
    for key, (t, moves) in sorted(wanted.items()):
        if key not in keys:
            problems.append(
                f"{t.direction} {t.request_id} is {t.status} but has no transaction {key}"
            )
        elif sorted(entries.get(keys[key], [])) != sorted(moves):
            problems.append(
                f"{t.direction} {t.request_id}: transaction {key} does not move its amount"
            )
    confirmed = sum(
        t.amount if t.direction == CREDIT else -t.amount
        for t in transfers
        if t.status == CONFIRMED and t.direction != CANCEL
    )
    if int(balances.get(OPERATOR, 0)) != confirmed:
        problems.append(
            f"{OPERATOR} holds {balances.get(OPERATOR, 0)}, but the confirmed credits less "
            f"debits are {confirmed}"
        )
    owed = sum(t.amount for t in transfers if t.direction == CREDIT and t.status == PENDING)
    if int(balances.get(TRANSIT, 0)) != owed:
        problems.append(
            f"{TRANSIT} holds {balances.get(TRANSIT, 0)}, but the pending credits are {owed}"
        )
    problems.extend(_cancels(transfers))
    return problems


async def _entries(db: AsyncSession, txns: Sequence[int]) -> dict[int, list[tuple[str, int]]]:
    out: dict[int, list[tuple[str, int]]] = {}
    if not txns:
        return out
    rows = (
        await db.execute(
            select(LedgerEntry.txn_id, LedgerEntry.book, LedgerEntry.amount).where(
                LedgerEntry.txn_id.in_(list(txns))
            )
        )
    ).all()
    for txn, book, amount in rows:
        out.setdefault(txn, []).append((book, int(amount)))
    return out


def _cancels(transfers: list[WalletTransfer]) -> list[str]:
    problems: list[str] = []
    debits = {t.request_id: t for t in transfers if t.direction == DEBIT}
    cancels = {t.refers_to: t for t in transfers if t.direction == CANCEL}
    for ref, c in cancels.items():
        d = debits.get(ref or "")
        if d is None:
            problems.append(f"cancel {c.request_id} names no debit ({ref})")
        elif (d.status, c.status) not in ((CANCELLING, PENDING), (CANCELLED, CONFIRMED)):
            problems.append(f"debit {d.request_id} is {d.status} but its cancel is {c.status}")
    for d in debits.values():
        if d.status in (CANCELLING, CANCELLED) and d.request_id not in cancels:
            problems.append(f"debit {d.request_id} is {d.status} but has no cancel")
    return problems


def due_filter(now: datetime) -> Any:
    """The outbox rows a process may take at ``now``: pending credits and cancels that are
    due and that no process holds (or whose holder's lease ran out)."""
    return (
        WalletTransfer.status == PENDING,
        WalletTransfer.direction.in_((CREDIT, CANCEL)),
        WalletTransfer.next_attempt_at <= now,
        or_(WalletTransfer.claimed_until.is_(None), WalletTransfer.claimed_until < now),
    )
