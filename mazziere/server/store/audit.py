"""The append-only audit log (docs/operators.md): every back-office action and every login,
who did it, when, from which address, on what, and the state before and after. A line is
written in the same database transaction as the action it records, so one is never without
the other; the database itself refuses to change or delete a line (triggers of migration
0004)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store.models import Account, AuditEntry


@dataclass(frozen=True)
class Actor:
    """Who acts: an account (``id``) and its name, from an address (``command line`` for the
    ``mazziere admin`` commands)."""

    id: int | None
    name: str
    address: str

    @classmethod
    def of(cls, account: Account, address: str) -> Actor:
        return cls(account.id, account.username, address)


async def record(
    db: AsyncSession,
    actor: Actor,
    action: str,
    target: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Add a line to the log in ``db``'s transaction (it commits or rolls back with it)."""
    entry = AuditEntry(
        at=datetime.now(UTC),
        actor_id=actor.id,
        actor=actor.name[:64],
        address=actor.address[:64],
        action=action,
        target=target[:120],
        before=before,
        after=after,
    )
    db.add(entry)
    await db.flush()
    return entry


async def entries(
    db: AsyncSession,
    before: int | None = None,
    limit: int = 50,
    *,
    target: str | None = None,
    actions: tuple[str, ...] = (),
) -> list[AuditEntry]:
    """The latest lines, newest first: older than line ``before`` if given, on ``target`` and
    of ``actions`` if given."""
    q = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)
    if before is not None:
        q = q.where(AuditEntry.id < before)
    if target is not None:
        q = q.where(AuditEntry.target == target)
    if actions:
        q = q.where(AuditEntry.action.in_(actions))
    return list((await db.scalars(q)).all())


def as_json(e: AuditEntry) -> dict[str, Any]:
    """A line as the back office shows it."""
    return {
        "id": e.id,
        "at": _iso(e.at),
        "actor": e.actor,
        "actor_id": e.actor_id,
        "address": e.address,
        "action": e.action,
        "target": e.target,
        "before": e.before,
        "after": e.after,
    }


def _iso(t: datetime) -> str:
    """SQLite hands back naive datetimes: they are UTC."""
    return (t if t.tzinfo is not None else t.replace(tzinfo=UTC)).isoformat()
