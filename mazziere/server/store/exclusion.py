"""Self-exclusions and the external register's answers in the database (docs/rules/platform.md
"Self-exclusion"): a player excludes themselves for 30, 60 or 90 days or without end; a timed
exclusion never changes; an endless one may be lifted once it is 6 months old, the lift
taking effect 7 days after it is asked."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store.models import RegisterAnswer, SelfExclusion

PERIODS = (30, 60, 90)
"""The lengths of a timed exclusion, in days (an endless one has none)."""
LIFT_AFTER_MONTHS = 6
"""An endless exclusion's lift may be asked this many calendar months after it started."""
LIFT_DELAY = timedelta(days=7)
"""A lift takes effect this long after it is asked."""


class ExclusionError(MazziereError):
    """A refusal because of an exclusion, or of a lift the rules do not allow; ``details``
    travel with the code and message (the end of the exclusion, when a lift may be asked)."""

    default_code = "self_excluded"

    def __init__(self, message: str, code: str | None = None, **details: Any) -> None:
        super().__init__(message, code)
        self.details: dict[str, Any] = details


def aware(t: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def iso(t: datetime | None) -> str | None:
    return None if t is None else aware(t).isoformat()


def add_months(t: datetime, months: int) -> datetime:
    """The same day ``months`` calendar months later (the month's last day if it is shorter).

    >>> add_months(datetime(2026, 8, 31, 12, tzinfo=UTC), 6).date()
    datetime.date(2027, 2, 28)
    """
    m = t.month - 1 + months
    year, month = t.year + m // 12, m % 12 + 1
    return t.replace(year=year, month=month, day=min(t.day, calendar.monthrange(year, month)[1]))


def lift_from(ex: SelfExclusion) -> datetime:
    """When an endless exclusion's lift may first be asked."""
    return add_months(aware(ex.started_at), LIFT_AFTER_MONTHS)


def in_force(ex: SelfExclusion, now: datetime) -> bool:
    return aware(ex.started_at) <= now and (ex.ends_at is None or aware(ex.ends_at) > now)


async def current(db: AsyncSession, account_id: int, now: datetime) -> SelfExclusion | None:
    """The account's exclusion in force at ``now`` (the latest-ending one if several)."""
    rows = await db.scalars(
        select(SelfExclusion).where(
            SelfExclusion.account_id == account_id,
            SelfExclusion.started_at <= now,
            or_(SelfExclusion.ends_at.is_(None), SelfExclusion.ends_at > now),
        )
    )
    found = list(rows.all())
    endless = [e for e in found if e.ends_at is None]
    if endless:
        return endless[0]
    return max(found, key=lambda e: aware(e.ends_at or now), default=None)


def refusal(ex: SelfExclusion) -> ExclusionError:
    """The login's refusal while ``ex`` is in force, naming its end."""
    if ex.ends_at is None:
        return ExclusionError(
            "you excluded yourself from play without an end date", "self_excluded", until=None
        )
    end = aware(ex.ends_at)
    return ExclusionError(
        f"you excluded yourself from play until {end:%Y-%m-%d %H:%M} UTC",
        "self_excluded",
        until=end.isoformat(),
    )


async def exclude(
    db: AsyncSession, account_id: int, days: int | None, now: datetime
) -> SelfExclusion:
    """Start an exclusion of ``days`` days (``None``: without end) at ``now``; refused while
    one is in force (two requests racing from one login: the second changes nothing)."""
    if await current(db, account_id, now) is not None:
        raise ExclusionError("this account is already excluded from play", "already_excluded")
    if days is not None and days not in PERIODS:
        raise ExclusionError(
            f"a self-exclusion lasts {', '.join(map(str, PERIODS))} days or has no end",
            "bad_period",
        )
    ex = SelfExclusion(
        account_id=account_id,
        period_days=days,
        started_at=now,
        ends_at=None if days is None else now + timedelta(days=days),
    )
    db.add(ex)
    await db.flush()
    return ex


async def ask_lift(db: AsyncSession, account_id: int, now: datetime) -> SelfExclusion:
    """Ask the lift of the account's endless exclusion: it ends 7 days from ``now``. Refused
    for a timed one (it cannot be shortened), before 6 months, or when already asked."""
    ex = await current(db, account_id, now)
    if ex is None:
        raise ExclusionError("this account is not excluded", "not_excluded")
    if ex.period_days is not None or ex.lift_asked_at is not None:
        end = aware(ex.ends_at) if ex.ends_at is not None else now
        code = "exclusion_timed" if ex.lift_asked_at is None else "lift_already_asked"
        why = (
            "a timed self-exclusion cannot be shortened or lifted"
            if code == "exclusion_timed"
            else "the lift was already asked"
        )
        raise ExclusionError(f"{why}: it ends {end:%Y-%m-%d %H:%M} UTC", code, until=iso(end))
    first = lift_from(ex)
    if now < first:
        raise ExclusionError(
            f"an exclusion without end may be lifted from {first:%Y-%m-%d} (6 months after it "
            "started)",
            "lift_too_early",
            lift_from=first.isoformat(),
        )
    ex.lift_asked_at = now
    ex.ends_at = now + LIFT_DELAY
    await db.flush()
    return ex


def as_json(ex: SelfExclusion, now: datetime) -> dict[str, Any]:
    """An exclusion as the player and the back office see it."""
    return {
        "id": ex.id,
        "period_days": ex.period_days,
        "started_at": iso(ex.started_at),
        "ends_at": iso(ex.ends_at),
        "lift_asked_at": iso(ex.lift_asked_at),
        "lift_from": iso(lift_from(ex)) if ex.period_days is None else None,
        "in_force": in_force(ex, now),
    }


async def of_account(db: AsyncSession, account_id: int, now: datetime) -> list[dict[str, Any]]:
    """Every exclusion of the account, newest first."""
    rows = await db.scalars(
        select(SelfExclusion)
        .where(SelfExclusion.account_id == account_id)
        .order_by(SelfExclusion.id.desc())
    )
    return [as_json(e, now) for e in rows.all()]


# ------------------------------------------------------------------------ the external register
CLEAR = "clear"
EXCLUDED = "excluded"
UNAVAILABLE = "unavailable"


async def remember_answer(
    db: AsyncSession,
    account_id: int,
    answer: str,
    until: datetime | None,
    detail: str,
    now: datetime,
) -> None:
    """Keep the register's answer at this login (it replaces the one before)."""
    row = await db.get(RegisterAnswer, account_id)
    if row is None:
        row = RegisterAnswer(account_id=account_id)
        db.add(row)
    row.answer, row.until, row.detail, row.asked_at = answer, until, detail[:200], now
    await db.flush()


async def register_answer(db: AsyncSession, account_id: int) -> RegisterAnswer | None:
    return await db.get(RegisterAnswer, account_id)


def register_json(row: RegisterAnswer | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "answer": row.answer,
        "until": iso(row.until),
        "detail": row.detail,
        "asked_at": iso(row.asked_at),
    }
