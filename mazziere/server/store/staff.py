"""Back-office accounts and players' standing: roles and suspension (docs/operators.md)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server import roles
from mazziere.server.roles import NotFound
from mazziere.server.store.models import Account

ACTIVE = "active"
SUSPENDED = "suspended"


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
