"""Responsible-gaming checks (docs/rules/platform.md "Limits and reality checks"): the limits
a player set (top-ups and losses per day, week and month, the play time of a login), the
operator's cap per casino credit session, and the reality check that is due.

The checks only read. Each runs inside the transaction of the caller that is about to move
money (a top-up, a stake), before the move: a refusal raises a typed error and the
transaction rolls back, so nothing moved. On PostgreSQL the check first locks the player's
account row, so that two tables of one player topping up or staking at once are checked one
after the other against the same ledger. Usage is read from the ledger itself (one source of
truth): top-ups are the ``topup`` transactions into the player's casino credit sessions
(from either wallet, docs/wallet.md), a loss is stakes minus payouts on those sessions, over
rolling windows ending now.

>>> sorted(KINDS)[:3]
['loss_day', 'loss_month', 'loss_week']
>>> KINDS["topup_week"].window
datetime.timedelta(days=7)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from sqlalchemy import Select, String, case, cast, func, literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store.ledger import casino_book
from mazziere.server.store.models import (
    Account,
    AuthToken,
    CreditSession,
    LedgerEntry,
    LedgerTxn,
    PlayerLimit,
    PlayerProtection,
)

DAY = timedelta(days=1)


@dataclass(frozen=True)
class Kind:
    """One kind of limit a player may set."""

    measure: Literal["topup", "loss", "session"]
    """What it bounds: cents topped up, cents lost (stakes minus payouts), minutes of play
    since the login."""
    window: timedelta | None
    """The rolling window it counts over (``None``: the login, for the play time)."""


KINDS: dict[str, Kind] = {
    "topup_day": Kind("topup", DAY),
    "topup_week": Kind("topup", 7 * DAY),
    "topup_month": Kind("topup", 30 * DAY),
    "loss_day": Kind("loss", DAY),
    "loss_week": Kind("loss", 7 * DAY),
    "loss_month": Kind("loss", 30 * DAY),
    "session_minutes": Kind("session", None),
}
"""Every limit a player may set, by name: the rolling windows are 24 hours, 7 days and 30
days ending at the moment of the check."""

SESSION_CAP = "casino_session_cap"
"""The ``limit`` a refusal names for the operator's cap per casino credit session."""

DEFAULT_REALITY_MINUTES = 60


class LimitExceeded(MazziereError):
    """A top-up or stake that would break a limit: ``limit`` names it (a :data:`KINDS` name or
    :data:`SESSION_CAP`), ``left`` is what it still allows (cents, or minutes for
    ``session_minutes``). Nothing moved."""

    default_code = "limit_exceeded"

    def __init__(self, limit: str, left: int, message: str) -> None:
        super().__init__(message)
        self.limit = limit
        self.left = left


class RealityCheckDue(MazziereError):
    """A reality check is due: no stake or top-up until the player answers it."""

    default_code = "reality_check_due"


# ------------------------------------------------------------------------------ reading
@dataclass(frozen=True)
class Limit:
    """A limit as it stands at a moment: the value in force and a raise or removal waiting."""

    amount: int | None
    pending: int | None = None
    pending_from: datetime | None = None


def as_of(row: PlayerLimit, now: datetime) -> Limit:
    """``row`` at ``now``: a pending raise or removal whose time came is in force."""
    if row.pending_from is not None and _aware(row.pending_from) <= now:
        return Limit(row.pending)
    when = None if row.pending_from is None else _aware(row.pending_from)
    return Limit(row.amount, row.pending if when else None, when)


def _aware(at: datetime) -> datetime:
    """SQLite gives dates back without their zone: every date here is UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


async def limits_of(db: AsyncSession, account: int, now: datetime) -> dict[str, Limit]:
    """Every limit of ``account`` at ``now`` that is set or has a change waiting."""
    rows = await db.scalars(select(PlayerLimit).where(PlayerLimit.account_id == account))
    got = {row.kind: as_of(row, now) for row in rows.all()}
    return {k: v for k, v in got.items() if v.amount is not None or v.pending_from is not None}


async def protection_of(db: AsyncSession, account: int) -> PlayerProtection:
    """The player's protection row (a fresh, unsaved one with the defaults if none yet)."""
    row = await db.get(PlayerProtection, account)
    if row is None:
        row = PlayerProtection(account_id=account, reality_minutes=DEFAULT_REALITY_MINUTES)
    return row


async def login_at(db: AsyncSession, account: int) -> datetime | None:
    """When the account's live login began (``None``: not logged in)."""
    at = await db.scalar(
        select(func.max(AuthToken.created_at)).where(
            AuthToken.account_id == account, AuthToken.revoked_at.is_(None)
        )
    )
    return None if at is None else _aware(at)


def reality_due_at(protection: PlayerProtection, login: datetime) -> datetime:
    """When the next reality check of the login that began at ``login`` is due: the chosen
    minutes after the login or after the last "continue" of this login, whichever is later."""
    seen = protection.reality_seen_at
    start = login if seen is None or _aware(seen) < login else _aware(seen)
    return start + timedelta(minutes=protection.reality_minutes)


# ------------------------------------------------------------------------------ usage
def _sessions_books(account: int) -> Select[str]:
    """The books of ``account``'s casino credit sessions (a subquery)."""
    return select(literal("casino:").concat(cast(CreditSession.id, String))).where(
        CreditSession.account_id == account
    )


async def topped_up(db: AsyncSession, account: int, now: datetime) -> dict[str, int]:
    """Cents topped up into ``account``'s casino credit sessions, per top-up kind's window:
    from the built-in wallet or from the operator's transfer wallet (docs/wallet.md)."""
    kinds = {k: v for k, v in KINDS.items() if v.measure == "topup"}
    return await _sums(
        db,
        kinds,
        now,
        LedgerEntry.book.in_(_sessions_books(account)),
        LedgerTxn.kind == "topup",
        sign=1,
    )


async def lost(db: AsyncSession, account: int, now: datetime) -> dict[str, int]:
    """Stakes minus payouts on ``account``'s casino credit sessions, per loss kind's window
    (negative: the player is ahead)."""
    kinds = {k: v for k, v in KINDS.items() if v.measure == "loss"}
    return await _sums(
        db,
        kinds,
        now,
        LedgerEntry.book.in_(_sessions_books(account)),
        LedgerTxn.kind.in_(("stake", "payout")),
        sign=-1,
    )


async def net_since(db: AsyncSession, account: int, since: datetime) -> int:
    """Casino payouts minus stakes of ``account`` since ``since`` (a reality check's net)."""
    total = await db.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0))
        .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
        .where(
            LedgerEntry.book.in_(_sessions_books(account)),
            LedgerTxn.kind.in_(("stake", "payout")),
            LedgerTxn.created_at >= since,
        )
    )
    return int(total or 0)


async def _sums(
    db: AsyncSession, kinds: dict[str, Kind], now: datetime, *where: object, sign: int
) -> dict[str, int]:
    longest = max(k.window for k in kinds.values() if k.window is not None)
    columns = [
        func.coalesce(
            func.sum(case((LedgerTxn.created_at >= now - k.window, LedgerEntry.amount), else_=0)),
            0,
        )
        for k in kinds.values()
        if k.window is not None
    ]
    row = (
        await db.execute(
            select(*columns)
            .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
            .where(*where, LedgerTxn.created_at >= now - longest)  # type: ignore[arg-type]
        )
    ).one()
    return {name: sign * int(v) for name, v in zip(kinds, row, strict=True)}


async def session_use(db: AsyncSession, session: int) -> int:
    """Stakes plus top-ups so far in casino credit session ``session`` (the operator's cap
    counts both)."""
    total = await db.scalar(
        select(func.coalesce(func.sum(func.abs(LedgerEntry.amount)), 0))
        .join(LedgerTxn, LedgerTxn.id == LedgerEntry.txn_id)
        .where(LedgerEntry.book == casino_book(session), LedgerTxn.kind.in_(("topup", "stake")))
    )
    return int(total or 0)


# ------------------------------------------------------------------------------ checks
async def check_top_up(
    db: AsyncSession, account: int, session: int | None, amount: int, now: datetime, cap: int
) -> None:
    """Refuse (raising) a top-up of ``amount`` cents by ``account`` into credit session
    ``session`` (``None``: the top-up opens one) that a reality check due, the login's play
    time, a top-up limit or the session cap forbids."""
    limits = await _prepare(db, account, now)
    used = await topped_up(db, account, now)
    for name, value in used.items():
        _within(limits, name, value, amount, "a top-up")
    if session is not None:
        _within_cap(await session_use(db, session), amount, cap)
    else:
        _within_cap(0, amount, cap)


async def check_stake(db: AsyncSession, session: int, amount: int, now: datetime, cap: int) -> None:
    """Refuse (raising) a stake of ``amount`` cents from credit session ``session`` that a
    reality check due, the login's play time, a loss limit (the whole stake may be lost: it
    must fit in what the limit has left) or the session cap forbids."""
    account = await db.scalar(select(CreditSession.account_id).where(CreditSession.id == session))
    if account is None:
        return
    limits = await _prepare(db, account, now)
    for name, value in (await lost(db, account, now)).items():
        _within(limits, name, value, amount, "a stake")
    _within_cap(await session_use(db, session), amount, cap)


async def _prepare(db: AsyncSession, account: int, now: datetime) -> dict[str, Limit]:
    """Lock the account row (PostgreSQL; SQLite has one writer), then refuse if the reality
    check is due or the login's play time is over; the account's limits at ``now``.

    The lock is ``FOR NO KEY UPDATE``: it keeps out the account's other limit checks until
    this transaction ends, and leaves free the foreign-key checks of rows that name the account
    (a table it created, written twice in one group commit), which ``FOR UPDATE`` would make
    wait, and two processes' group commits could then wait on each other."""
    await db.execute(
        select(Account.id).where(Account.id == account).with_for_update(key_share=True)
    )
    limits = await limits_of(db, account, now)
    login = await login_at(db, account)
    if login is None:
        return limits
    played = limits.get("session_minutes")
    minutes = None if played is None else played.amount
    if minutes is not None and now >= login + timedelta(minutes=minutes):
        raise LimitExceeded(
            "session_minutes", 0, f"your play time of {minutes} minutes for this login is over"
        )
    protection = await protection_of(db, account)
    if now >= reality_due_at(protection, login):
        raise RealityCheckDue("a reality check is due: answer it to play on")
    return limits


def _within(limits: dict[str, Limit], name: str, used: int, amount: int, what: str) -> None:
    limit = limits.get(name)
    if limit is None or limit.amount is None:
        return
    left = max(0, limit.amount - used)
    if amount > left:
        raise LimitExceeded(
            name, left, f"{what} of {amount} cents is over your limit {name}: {left} cents left"
        )


def _within_cap(used: int, amount: int, cap: int) -> None:
    left = max(0, cap - used)
    if amount > left:
        raise LimitExceeded(
            SESSION_CAP,
            left,
            f"a casino credit session takes at most {cap} cents of stakes and top-ups: "
            f"{left} cents left",
        )
