"""Self-exclusion (docs/rules/platform.md "Self-exclusion"): a player excludes themselves for
30, 60 or 90 days or without end, confirming with their password, and is put out of play at
once on every process; an endless exclusion's lift is asked with the username and password
(the player cannot log in), at least 6 months after it started, and takes effect 7 days
later."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field

from mazziere.server.context import Server
from mazziere.server.hub import Close
from mazziere.server.routes import removal
from mazziere.server.routes.deps import Body, Me, Srv
from mazziere.server.store import accounts, audit, exclusion
from mazziere.server.store.accounts import AuthError
from mazziere.server.store.audit import Actor
from mazziere.server.store.models import Account

router = APIRouter(prefix="/api/self-exclusion")


class Exclude(Body):
    days: Literal[30, 60, 90] | None
    """The exclusion's length (one of :data:`~mazziere.server.store.exclusion.PERIODS`);
    ``null``: without end."""
    password: str = Field(min_length=1, max_length=256)


class Lift(Body):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


async def _password_ok(
    server: Server, acc: Account | None, username: str, password: str, address: str
) -> Account:
    """``acc`` if ``password`` is its password, counted by the login throttle as a login
    attempt (so this route guesses no faster than the login does); else ``wrong_password``."""
    await server.throttle.attempt(username, address)
    if not await server.verifier.verify(acc, password) or acc is None:
        raise AuthError("wrong username or password", "wrong_password")
    await server.throttle.succeeded(username)
    return acc


@router.get("")
async def mine(account: Me, server: Srv) -> dict[str, Any]:
    """The periods one may choose (days; ``null`` is without end) and one's exclusions."""
    async with server.db.session() as db:
        rows = await exclusion.of_account(db, account.id, datetime.now(UTC))
    return {"periods": [*exclusion.PERIODS, None], "exclusions": rows}


@router.post("")
async def exclude(body: Exclude, request: Request, account: Me, server: Srv) -> dict[str, Any]:
    """Exclude oneself (the password confirms it: it cannot be undone). In one transaction:
    the exclusion, every login of the account revoked, the audit line; then its sockets close
    (4009) on every process and it leaves every table, its casino sessions closed and
    credited to the wallet."""
    address = _address(request)
    await _password_ok(server, account, account.username, body.password, address)
    now = datetime.now(UTC)
    async with server.db.write() as db:
        ex = await exclusion.exclude(db, account.id, body.days, now)
        revoked = await accounts.revoke_all(db, account.id, "self_excluded", now)
        shown = exclusion.as_json(ex, now)
        await audit.record(
            db, Actor.of(account, address), "self_excluded", f"account:{account.id}", None,
            {"period_days": body.days, "ends_at": shown["ends_at"], "logins_ended": len(revoked)},
        )  # fmt: skip
    why = exclusion.refusal(ex).message
    left, kept = await removal.put_out(
        server, account.id, account.username, revoked, Close.SELF_EXCLUDED, why
    )
    return {
        "exclusion": shown,
        "logins_ended": len(revoked),
        "tables_left": left,
        "tables_kept": kept,
    }


@router.post("/lift")
async def lift(body: Lift, request: Request, server: Srv) -> dict[str, Any]:
    """Ask the lift of one's endless exclusion with one's username and password: it ends 7
    days later. Refused (409) for a timed exclusion, before 6 months, or when already asked;
    in the audit log when granted."""
    address = _address(request)
    async with server.db.session() as db:
        found = await accounts.find_account(db, body.username)
    acc = await _password_ok(server, found, body.username, body.password, address)
    now = datetime.now(UTC)
    async with server.db.write() as db:
        ex = await exclusion.ask_lift(db, acc.id, now)
        shown = exclusion.as_json(ex, now)
        await audit.record(
            db, Actor.of(acc, address), "self_exclusion_lift_asked", f"account:{acc.id}",
            None, {"ends_at": shown["ends_at"]},
        )  # fmt: skip
    return {"exclusion": shown}
