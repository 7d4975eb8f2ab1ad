"""Who may log in and who may play for money (docs/rules/platform.md "Self-exclusion"): an
account in a self-exclusion may do neither; at each login and sign-up the external exclusion
register (:mod:`mazziere.server.register`), when configured, is asked too: excluded there, the
login is refused; unable to answer, the login goes on but real-money play (casino top-ups and
stakes) waits for a later login with a clear answer. The answers are kept in the database, so
every process of a cluster reads the same one."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server import register
from mazziere.server.register import Answer
from mazziere.server.store import exclusion
from mazziere.server.store.exclusion import CLEAR, EXCLUDED, ExclusionError
from mazziere.server.store.models import CreditSession

if TYPE_CHECKING:
    from mazziere.server.ports import Jobs
    from mazziere.server.settings import Settings


def _register_refusal(until: datetime | None) -> ExclusionError:
    end = f" until {until:%Y-%m-%d %H:%M} UTC" if until is not None else ""
    return ExclusionError(
        f"the exclusion register lists you as excluded from play{end}",
        "register_excluded",
        until=exclusion.iso(until),
    )


async def check_login(
    srv: Jobs, username: str, account_id: int | None, now: datetime | None = None
) -> Answer | None:
    """Refuse (:class:`ExclusionError`) the login or sign-up of an account in a
    self-exclusion (``self_excluded``) or listed by the register (``register_excluded``);
    otherwise the register's answer to keep with the login (``None``: no register)."""
    now = now or datetime.now(UTC)
    if account_id is not None:
        async with srv.db.session() as db:
            ex = await exclusion.current(db, account_id, now)
        if ex is not None:
            raise exclusion.refusal(ex)
    url = srv.settings.exclusion_register_url
    if not url:
        return None
    answer = await register.ask(url, srv.settings.exclusion_register_timeout, username, account_id)
    if answer.answer == EXCLUDED:
        if account_id is not None:  # a login still open elsewhere plays no money either
            async with srv.db.write() as db:
                await remember(db, account_id, answer, now)
        raise _register_refusal(answer.until)
    return answer


async def remember(
    db: AsyncSession, account_id: int, answer: Answer | None, now: datetime | None = None
) -> None:
    """Keep the register's answer (in the login's transaction); nothing without a register."""
    if answer is not None:
        await exclusion.remember_answer(
            db, account_id, answer.answer, answer.until, answer.detail, now or datetime.now(UTC)
        )


async def require_money_allowed(db: AsyncSession, settings: Settings, account: int) -> None:
    """Refuse real-money play (a casino top-up or stake, checked in the transaction that
    moves the money) to an account in a self-exclusion, and, while the register is
    configured, to one whose last login did not get a clear answer from it
    (``exclusion_register_unavailable``) or got an excluded one (``register_excluded``)."""
    ex = await exclusion.current(db, account, datetime.now(UTC))
    if ex is not None:
        raise exclusion.refusal(ex)
    if not settings.exclusion_register_url:
        return
    row = await exclusion.register_answer(db, account)
    if row is not None and row.answer == CLEAR:
        return
    if row is not None and row.answer == EXCLUDED:
        raise _register_refusal(exclusion.aware(row.until) if row.until else None)
    raise ExclusionError(
        "the exclusion register could not be asked at your login: real-money play waits for "
        "a login where it answers",
        "exclusion_register_unavailable",
    )


async def require_stake_allowed(db: AsyncSession, settings: Settings, session: int) -> None:
    """:func:`require_money_allowed` for the owner of the casino credit session ``session``."""
    owner = await db.scalar(select(CreditSession.account_id).where(CreditSession.id == session))
    if owner is not None:
        await require_money_allowed(db, settings, owner)
