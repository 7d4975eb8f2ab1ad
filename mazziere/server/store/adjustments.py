"""Manual money adjustments (docs/operators.md): requested with a reason, then approved by a
second operator (``Settings.adjustment_approvals``, 2 by default; with 1 the request posts at
once) or rejected. Approval posts one balanced ledger transaction between the account's
wallet and a named house book, in the same database transaction as the adjustment's new
status and its audit line; nothing moves before, and a rejected one never moves anything."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.roles import Conflict, Forbidden, NotFound
from mazziere.server.store import ledger
from mazziere.server.store.audit import Actor, record
from mazziere.server.store.models import Account, Adjustment, LedgerTxn
from mazziere.server.store.staff import iso

HOUSE_BOOKS = tuple(sorted(ledger.UNBOUNDED))
"""The house books an adjustment may move money against: ``house`` (the operator's own
money: a goodwill credit, a correction of a payout) and ``mint`` (play money issued)."""

PENDING, REJECTED = "pending", "rejected"
POSTED = ledger.ADJUSTMENT_POSTED
KIND = ledger.ADJUSTMENT_KIND
"""The ledger transactions' kind."""
check = ledger.check_adjustments
"""What the ledger check says of adjustments (:func:`.ledger.check_adjustments`)."""


def key_of(adjustment_id: int) -> str:
    """The idempotency key of an adjustment's ledger transaction (posted once)."""
    return f"adjustment:{adjustment_id}"


async def get(db: AsyncSession, adjustment_id: int) -> Adjustment:
    adj = await db.get(Adjustment, adjustment_id)
    if adj is None:
        raise NotFound(f"adjustment {adjustment_id} does not exist")
    return adj


def _state(adj: Adjustment) -> dict[str, Any]:
    return {"status": adj.status, "amount_cents": adj.amount, "house_account": adj.house_account}


async def request(
    db: AsyncSession,
    by: Actor,
    account_id: int,
    amount: int,
    house_account: str,
    reason: str,
    approvals: int,
) -> Adjustment:
    """A pending adjustment of ``amount`` cents into (negative: out of) ``account_id``'s
    wallet against ``house_account``; posted at once when one person is enough."""
    if await db.get(Account, account_id) is None:
        raise NotFound(f"account {account_id} does not exist")
    assert by.id is not None
    adj = Adjustment(
        account_id=account_id,
        amount=amount,
        house_account=house_account,
        reason=reason,
        status=PENDING,
        requested_by=by.id,
        requested_at=datetime.now(UTC),
        decision_reason="",
    )
    db.add(adj)
    await db.flush()
    await record(db, by, "adjustment_requested", f"adjustment:{adj.id}", None, {
        **_state(adj), "account": account_id, "reason": reason,
    })  # fmt: skip
    if approvals == 1:
        await _post(db, adj, by)
    return adj


async def approve(db: AsyncSession, by: Actor, adjustment_id: int, approvals: int) -> Adjustment:
    """Post a pending adjustment: its ledger transaction, its status, its audit line, in one
    database transaction. Its requester may not approve it unless one person is enough; a
    wallet that would go below zero refuses it (``insufficient_funds``) and nothing changes."""
    adj = await get(db, adjustment_id)
    if adj.status != PENDING:
        raise Conflict(f"adjustment {adj.id} is {adj.status} already", f"already_{adj.status}")
    if approvals > 1 and adj.requested_by == by.id:
        raise Forbidden(
            "a second operator approves an adjustment, not its requester", "own_adjustment"
        )
    await _post(db, adj, by)
    return adj


async def _post(db: AsyncSession, adj: Adjustment, by: Actor) -> None:
    before = _state(adj)
    await ledger.post(
        db,
        key_of(adj.id),
        KIND,
        f"adjustment:{adj.id}",
        [(ledger.wallet(adj.account_id), adj.amount), (adj.house_account, -adj.amount)],
    )
    adj.txn_id = await db.scalar(
        select(LedgerTxn.id).where(LedgerTxn.idempotency_key == key_of(adj.id))
    )
    adj.status, adj.decided_by, adj.decided_at = POSTED, by.id, datetime.now(UTC)
    await db.flush()
    after = {**_state(adj), "txn": adj.txn_id}
    await record(db, by, "adjustment_posted", f"adjustment:{adj.id}", before, after)


async def reject(db: AsyncSession, by: Actor, adjustment_id: int, reason: str) -> Adjustment:
    """Refuse a pending adjustment (its requester may withdraw it): nothing ever moves."""
    adj = await get(db, adjustment_id)
    if adj.status != PENDING:
        raise Conflict(f"adjustment {adj.id} is {adj.status} already", f"already_{adj.status}")
    before = _state(adj)
    adj.status, adj.decided_by, adj.decided_at = REJECTED, by.id, datetime.now(UTC)
    adj.decision_reason = reason
    await db.flush()
    after = {**_state(adj), "reason": reason}
    await record(db, by, "adjustment_rejected", f"adjustment:{adj.id}", before, after)
    return adj


async def listed(db: AsyncSession, status: str | None, limit: int = 200) -> list[dict[str, Any]]:
    """Adjustments, newest first, of ``status`` if given."""
    q = select(Adjustment).order_by(Adjustment.id.desc()).limit(limit)
    if status is not None:
        q = q.where(Adjustment.status == status)
    rows = list((await db.scalars(q)).all())
    ids = {a.account_id for a in rows} | {a.requested_by for a in rows}
    ids |= {a.decided_by for a in rows if a.decided_by is not None}
    names = dict(
        (await db.execute(select(Account.id, Account.username).where(Account.id.in_(ids)))).all()
    )
    return [as_json(a, names) for a in rows]


def as_json(a: Adjustment, names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": a.id,
        "account": a.account_id,
        "username": names.get(a.account_id),
        "amount_cents": a.amount,
        "house_account": a.house_account,
        "reason": a.reason,
        "status": a.status,
        "requested_by": names.get(a.requested_by),
        "approved_by": names.get(a.decided_by) if a.status == POSTED and a.decided_by else None,
        "rejected_by": names.get(a.decided_by) if a.status == REJECTED and a.decided_by else None,
        "decision_reason": a.decision_reason or None,
        "at": iso(a.requested_at),
        "decided_at": iso(a.decided_at),
        "txn": a.txn_id,
    }
