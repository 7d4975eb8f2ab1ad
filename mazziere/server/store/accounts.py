"""Accounts and logins (platform.md "Players"): Argon2 password hashes, a password policy,
session tokens (only their SHA-256 is stored) with idle and absolute lifetimes, one live login
per account, demo credit on sign-up written to the ledger."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerifyMismatchError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store import ledger
from mazziere.server.store.models import Account, AuthToken

_HASHER = PasswordHasher()
"""argon2-cffi's defaults (RFC 9106 low-memory profile); operators may choose others."""


def make_hasher(time_cost: int = 3, memory_kib: int = 65536) -> PasswordHasher:
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=4)


USERNAME_MIN = 3
USERNAME_MAX = 32
USERNAME_CHARS = "A-Za-z0-9_.-"
"""A user name's length and characters (letters, digits, ``_``, ``.``, ``-``)."""
USERNAME = re.compile(rf"^[{USERNAME_CHARS}]{{{USERNAME_MIN},{USERNAME_MAX}}}$")
MIN_PASSWORD = 10
MAX_PASSWORD = 256
"""A password's length: the one definition, published to clients in ``GET /api/catalog``
(``limits.password``)."""


class AuthError(MazziereError):
    """A refused login or request: wrong credentials, a missing, revoked or expired token."""

    default_code = "auth_failed"


class PolicyError(AuthError):
    """A username or password that the account policy refuses (HTTP 422)."""

    default_code = "weak_password"


class UsernameTaken(AuthError):
    """Sign-up with a name another account holds (HTTP 409)."""

    default_code = "username_taken"


@dataclass(frozen=True)
class TokenPolicy:
    """How long a login session lives: ``idle`` seconds without use, ``absolute`` seconds in
    all; a use is recorded at most every ``touch`` seconds (one write a minute, not one per
    request)."""

    idle: float = 3600.0
    absolute: float = 12 * 3600.0
    touch: float = 60.0
    staff_idle: float = 900.0
    """The idle lifetime of a back-office account's logins (``Settings.admin_idle_minutes``),
    kept in each such login's row when it opens."""

    def ends_at(self, row: AuthToken) -> datetime:
        """When ``row`` expires if it is not used again."""
        last = _aware(row.last_used_at or row.created_at)
        idle = self.idle if row.idle_seconds is None else min(self.idle, row.idle_seconds)
        return min(
            _aware(row.created_at) + timedelta(seconds=self.absolute),
            last + timedelta(seconds=idle),
        )

    def idle_of(self, role: str) -> float | None:
        """The idle lifetime a new login of an account with ``role`` keeps in its row
        (``None``: the policy's)."""
        return self.staff_idle if role != "player" else None


def _aware(t: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@cache
def _common_passwords() -> frozenset[str]:
    """The 30,000 most common passwords of zxcvbn's frequency list."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"])


def check_password_policy(username: str, password: str) -> None:
    """Refuse a password shorter than 10 characters, among the common ones, containing the
    username, or that zxcvbn scores below 2 ("very guessable"); say why (NIST SP 800-63B)."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise PolicyError(
            f"a password has {MIN_PASSWORD}-{MAX_PASSWORD} characters", "password_length"
        )
    low = password.lower()
    if low in _common_passwords() or low.strip() in _common_passwords():
        raise PolicyError("this password is among the most common ones", "password_common")
    if username and username.lower() in low:
        raise PolicyError("a password may not contain the username", "password_has_username")
    from zxcvbn import zxcvbn

    result = zxcvbn(password[:100], user_inputs=[username])
    if result["score"] < 2:
        why = result["feedback"].get("warning") or "it is too easy to guess"
        raise PolicyError(f"choose a stronger password: {why}", "password_weak")


def check_username(username: str) -> None:
    if not isinstance(username, str) or not USERNAME.match(username):
        raise PolicyError("a username is 3-32 letters, digits, '.', '_' or '-'", "bad_username")


async def hash_new_password(username: str, password: str, hasher: PasswordHasher = _HASHER) -> str:
    """Check the policy, then hash off the event loop (before any transaction opens)."""
    check_username(username)
    check_password_policy(username, password)
    return await asyncio.to_thread(hasher.hash, password)


async def create_account(
    db: AsyncSession, username: str, password_hash: str, demo_credit: int
) -> Account:
    """Insert the account and credit it ``demo_credit`` cents from the mint. Two sign-ups of
    one name racing: the unique index decides, the loser gets :class:`UsernameTaken`."""
    taken = await db.scalar(select(Account.id).where(Account.username == username))
    if taken is not None:
        raise UsernameTaken(f"the username {username!r} is taken", "username_taken")
    acc = Account(username=username, password_hash=password_hash)
    db.add(acc)
    try:
        await db.flush()
    except IntegrityError:
        raise UsernameTaken(f"the username {username!r} is taken", "username_taken") from None
    if demo_credit > 0:
        await ledger.post(
            db,
            f"signup:{acc.id}",
            "demo_credit",
            f"account:{acc.id}",
            [(ledger.MINT, -demo_credit), (ledger.wallet(acc.id), demo_credit)],
        )
    return acc


async def sign_up(
    db: AsyncSession,
    username: str,
    password: str,
    demo_credit: int,
    hasher: PasswordHasher = _HASHER,
) -> Account:
    """Check, hash and create in one call (the server hashes before its transaction)."""
    digest = await hash_new_password(username, password, hasher)
    return await create_account(db, username, digest, demo_credit)


class Verifier:
    """Password checks that cost the same for unknown users: they are verified against a
    dummy hash made with the same parameters."""

    def __init__(self, hasher: PasswordHasher = _HASHER) -> None:
        self.hasher = hasher
        self.dummy = hasher.hash(secrets.token_urlsafe(16))

    async def verify(self, acc: Account | None, password: str) -> bool:
        digest = acc.password_hash if acc is not None else self.dummy
        try:
            await asyncio.to_thread(self.hasher.verify, digest, password)
        except (VerifyMismatchError, InvalidHashError):
            return False
        return acc is not None


async def find_account(db: AsyncSession, username: str) -> Account | None:
    return await db.scalar(select(Account).where(Account.username == username))


async def open_session(
    db: AsyncSession, acc: Account, now: datetime | None = None, idle: float | None = None
) -> tuple[str, list[str]]:
    """A new token for ``acc`` (idle lifetime ``idle`` if given, :meth:`TokenPolicy.idle_of`);
    every other live token of the account is revoked (a second login ends the first,
    platform.md). Returns the token and the revoked tokens' hashes."""
    now = now or datetime.now(UTC)
    old = list(
        (
            await db.scalars(
                select(AuthToken.token_hash).where(
                    AuthToken.account_id == acc.id, AuthToken.revoked_at.is_(None)
                )
            )
        ).all()
    )
    if old:
        await db.execute(
            update(AuthToken)
            .where(AuthToken.token_hash.in_(old))
            .values(revoked_at=now, revoked_reason="replaced")
        )
    token = secrets.token_urlsafe(32)
    db.add(
        AuthToken(
            token_hash=token_hash(token), account_id=acc.id, created_at=now, idle_seconds=idle
        )
    )
    await db.flush()
    return token, old


async def revoke_all(
    db: AsyncSession, account_id: int, reason: str, now: datetime | None = None
) -> list[str]:
    """Revoke every live login of the account for ``reason`` (a suspension, a
    self-exclusion); their token hashes, whose sockets are closed once this commits."""
    live = select(AuthToken.token_hash).where(
        AuthToken.account_id == account_id, AuthToken.revoked_at.is_(None)
    )
    revoked = list((await db.scalars(live)).all())
    if revoked:
        await db.execute(
            update(AuthToken)
            .where(AuthToken.token_hash.in_(revoked))
            .values(revoked_at=now or datetime.now(UTC), revoked_reason=reason)
        )
    return revoked


async def log_in(
    db: AsyncSession, username: str, password: str, hasher: PasswordHasher = _HASHER
) -> tuple[Account, str]:
    """Check the password and open a session; returns the account and its new token."""
    acc = await find_account(db, username)
    if not await Verifier(hasher).verify(acc, password) or acc is None:
        raise AuthError("wrong username or password", "bad_credentials")
    token, _ = await open_session(db, acc)
    return acc, token


async def log_out(db: AsyncSession, token: str, reason: str = "logout") -> str | None:
    """Revoke ``token``; returns its hash if it was live."""
    row = await db.get(AuthToken, token_hash(token))
    if row is not None and row.revoked_at is None:
        row.revoked_at = datetime.now(UTC)
        row.revoked_reason = reason
        return row.token_hash
    return None


async def authenticate(
    db: AsyncSession,
    token: str | None,
    policy: TokenPolicy | None = None,
    now: datetime | None = None,
) -> Account:
    """The account of a live session token, else :class:`AuthError`."""
    acc, _ = await authenticate_token(db, token, policy, now)
    return acc


async def authenticate_token(
    db: AsyncSession,
    token: str | None,
    policy: TokenPolicy | None = None,
    now: datetime | None = None,
) -> tuple[Account, AuthToken]:
    """The account and token row of a live session token: not revoked, not idle longer than
    the policy's idle lifetime, not older than its absolute one, of an account not
    suspended."""
    policy = policy or TokenPolicy()
    now = now or datetime.now(UTC)
    if not token:
        raise AuthError("log in first", "not_logged_in")
    row = await db.get(AuthToken, token_hash(token))
    if row is None:
        raise AuthError("this session has ended: log in again", "bad_token")
    if row.revoked_at is not None:
        why = {
            "replaced": "this account logged in elsewhere: log in again",
            "logout": "you logged out: log in again",
            "self_excluded": "you excluded yourself from play",
        }.get(row.revoked_reason or "", "this session has ended: log in again")
        raise AuthError(why, "bad_token")
    if policy.ends_at(row) <= now:
        raise AuthError("this session expired: log in again", "token_expired")
    acc = await db.get(Account, row.account_id)
    if acc is None:
        raise AuthError("no such account", "bad_token")
    if acc.status == "suspended":
        raise AuthError("this account is suspended", "suspended")
    return acc, row


def needs_touch(row: AuthToken, policy: TokenPolicy, now: datetime) -> bool:
    last = _aware(row.last_used_at or row.created_at)
    return (now - last).total_seconds() >= policy.touch


async def touch(db: AsyncSession, hash_: str, now: datetime | None = None) -> None:
    """Record a use of a token (extends its idle lifetime)."""
    await db.execute(
        update(AuthToken)
        .where(AuthToken.token_hash == hash_, AuthToken.revoked_at.is_(None))
        .values(last_used_at=now or datetime.now(UTC))
    )


async def token_row(db: AsyncSession, hash_: str) -> AuthToken | None:
    """A login session by its token's hash (an open socket checks it again at expiry)."""
    return await db.get(AuthToken, hash_)
