"""Accounts and logins (platform.md "Players"): Argon2 password hashes, session tokens (only
their SHA-256 is stored), demo credit on sign-up written to the ledger."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerifyMismatchError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store import ledger
from mazziere.server.store.models import Account, AuthToken

_HASHER = PasswordHasher()
"""argon2-cffi's defaults (RFC 9106 low-memory profile); operators may choose others."""


def make_hasher(time_cost: int = 3, memory_kib: int = 65536) -> PasswordHasher:
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=4)


USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")


class AuthError(MazziereError):
    default_code = "auth_failed"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def sign_up(
    db: AsyncSession,
    username: str,
    password: str,
    demo_credit: int,
    hasher: PasswordHasher = _HASHER,
) -> Account:
    """Create an account and credit it ``demo_credit`` cents from the mint."""
    if not USERNAME.match(username or ""):
        raise AuthError("a username is 3-32 letters, digits, '.', '_' or '-'", "bad_username")
    if not isinstance(password, str) or not 8 <= len(password) <= 256:
        raise AuthError("a password has 8-256 characters", "bad_password")
    taken = await db.scalar(select(Account.id).where(Account.username == username))
    if taken is not None:
        raise AuthError(f"the username {username!r} is taken", "username_taken")
    digest = await asyncio.to_thread(hasher.hash, password)  # keep the event loop free
    acc = Account(username=username, password_hash=digest)
    db.add(acc)
    await db.flush()
    if demo_credit > 0:
        await ledger.post(
            db,
            f"signup:{acc.id}",
            "demo_credit",
            f"account:{acc.id}",
            [(ledger.MINT, -demo_credit), (ledger.wallet(acc.id), demo_credit)],
        )
    return acc


async def log_in(
    db: AsyncSession, username: str, password: str, hasher: PasswordHasher = _HASHER
) -> tuple[Account, str]:
    """Check the password and open a session; returns the account and its new token."""
    acc = await db.scalar(select(Account).where(Account.username == username))
    try:
        if acc is None:
            raise VerifyMismatchError
        await asyncio.to_thread(hasher.verify, acc.password_hash, password)
    except (VerifyMismatchError, InvalidHashError):
        raise AuthError("wrong username or password", "bad_credentials") from None
    token = secrets.token_urlsafe(32)
    db.add(AuthToken(token_hash=token_hash(token), account_id=acc.id))
    await db.flush()
    return acc, token


async def log_out(db: AsyncSession, token: str) -> None:
    row = await db.get(AuthToken, token_hash(token))
    if row is not None and row.revoked_at is None:
        row.revoked_at = datetime.now(UTC)


async def authenticate(db: AsyncSession, token: str | None) -> Account:
    """The account of a live session token, else :class:`AuthError`."""
    if not token:
        raise AuthError("log in first", "not_logged_in")
    row = await db.get(AuthToken, token_hash(token))
    if row is None or row.revoked_at is not None:
        raise AuthError("this session has ended: log in again", "bad_token")
    acc = await db.get(Account, row.account_id)
    if acc is None:
        raise AuthError("no such account", "bad_token")
    return acc
