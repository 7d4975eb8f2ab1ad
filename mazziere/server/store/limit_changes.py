"""A player's changes to their own limits (docs/rules/platform.md "Limits and reality checks"):
a new or lowered limit is in force at once; a raised or removed one only after the operator's
delay (``limit_raise_hours``), waiting meanwhile as pending with the time it takes effect; the
answer to the sign-up question (limits set, or skipped); the reality-check rhythm and its
"continue". Every function runs in the caller's write transaction."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store.limits import (
    KINDS,
    as_of,
    limits_of,
    login_at,
    net_since,
    protection_of,
    reality_due_at,
)
from mazziere.server.store.models import PlayerLimit

REALITY_MINUTES = (1, 24 * 60)
"""The reality-check rhythm a player may choose, in minutes (from, to)."""
SESSION_MINUTES = (1, 24 * 60)
"""A login's play time a player may set, in minutes (from, to)."""
MAX_LIMIT_CENTS = 10**12


class LimitError(MazziereError):
    """A limit that cannot be set (an unknown kind, a value out of range)."""

    default_code = "bad_limit"


def _checked(kind: str, value: int | None) -> None:
    if kind not in KINDS:
        raise LimitError(f"no limit {kind!r}: the limits are {', '.join(KINDS)}")
    if value is None:
        return
    low, high = SESSION_MINUTES if KINDS[kind].measure == "session" else (1, MAX_LIMIT_CENTS)
    if not low <= value <= high:
        raise LimitError(f"{kind} is from {low} to {high}")


async def set_limits(
    db: AsyncSession,
    account: int,
    changes: dict[str, int | None],
    now: datetime,
    delay: timedelta,
) -> None:
    """Apply ``changes`` (a kind -> its new value, ``None`` to remove it): lower or new at
    once, higher or removed after ``delay`` (asking the same again keeps the time it takes
    effect; a lower one, or the value in force, cancels what was waiting)."""
    for kind, value in changes.items():
        _checked(kind, value)
    rows = await db.scalars(select(PlayerLimit).where(PlayerLimit.account_id == account))
    by_kind = {r.kind: r for r in rows.all()}
    for kind, value in changes.items():
        row = by_kind.get(kind)
        if row is None:
            row = PlayerLimit(account_id=account, kind=kind, amount=None)
            db.add(row)
        now_in_force = as_of(row, now)
        row.amount, row.pending, row.pending_from = now_in_force.amount, None, None
        current = now_in_force.amount
        if value is not None and (current is None or value <= current):
            row.amount = value  # a new or lower limit: at once
        elif value != current:  # higher, or removed: after the delay
            row.pending = value
            waiting = now_in_force.pending_from
            same = waiting is not None and now_in_force.pending == value
            row.pending_from = waiting if same else now + delay
        row.changed_at = now
    await db.flush()


async def choose(db: AsyncSession, account: int, choice: str) -> None:
    """Record the answer to the sign-up question: ``set`` or ``skipped``."""
    row = await protection_of(db, account)
    row.limits_choice = choice
    db.add(row)
    await db.flush()


async def set_reality_minutes(db: AsyncSession, account: int, minutes: int) -> None:
    """The player's reality-check rhythm (in force at once: it is not a limit on spending)."""
    low, high = REALITY_MINUTES
    if not low <= minutes <= high:
        raise LimitError(f"a reality check comes every {low} to {high} minutes")
    row = await protection_of(db, account)
    row.reality_minutes = minutes
    db.add(row)
    await db.flush()


async def continue_play(db: AsyncSession, account: int, now: datetime) -> None:
    """The player answered a reality check with "continue": the next is due the chosen
    minutes from now."""
    row = await protection_of(db, account)
    row.reality_seen_at = now
    db.add(row)
    await db.flush()


async def reality_report(db: AsyncSession, account: int, now: datetime) -> dict[str, Any] | None:
    """What a reality check shows for the live login of ``account`` at ``now``: minutes
    played since the login, the net result (casino payouts minus stakes) since then, when the
    next check is due and whether it is due now; ``None`` when not logged in."""
    login = await login_at(db, account)
    if login is None:
        return None
    protection = await protection_of(db, account)
    due = reality_due_at(protection, login)
    return {
        "since": login.isoformat(),
        "played_seconds": max(0, int((now - login).total_seconds())),
        "net": await net_since(db, account, login),
        "due_at": due.isoformat(),
        "due": now >= due,
        "minutes": protection.reality_minutes,
    }


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


async def describe(db: AsyncSession, account: int, now: datetime) -> dict[str, Any]:
    """Everything the player's responsible-gaming page shows."""
    protection = await protection_of(db, account)
    limits = await limits_of(db, account, now)
    return {
        "chosen": protection.limits_choice is not None,
        "choice": protection.limits_choice,
        "reality_minutes": protection.reality_minutes,
        "kinds": list(KINDS),
        "limits": {
            kind: {
                "amount": limit.amount,
                "pending": limit.pending,
                "pending_from": _iso(limit.pending_from),
                "pending_set": limit.pending_from is not None,
            }
            for kind, limit in limits.items()
        },
        "reality": await reality_report(db, account, now),
    }
