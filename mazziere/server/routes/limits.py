"""A player's own responsible-gaming settings (docs/rules/platform.md "Limits and reality
checks"): the limits with their pending raises, the sign-up question's answer, the
reality-check rhythm, and the answer to a reality check."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header
from pydantic import Field

from mazziere.server.context import Server
from mazziere.server.hub import Close
from mazziere.server.routes.deps import Body, Me, Srv, bearer
from mazziere.server.routes.removal import leave_every_table
from mazziere.server.store import accounts, limit_changes
from mazziere.server.store.accounts import AuthError
from mazziere.server.store.limit_changes import LimitError

router = APIRouter(prefix="/api/me")


class LimitsChange(Body):
    limits: dict[str, int | None] = Field(default_factory=dict)
    """Kind -> its new value (cents; minutes for ``session_minutes``); ``null`` removes it.
    Kinds left out are unchanged."""
    reality_minutes: int | None = None
    """The reality-check rhythm in minutes."""
    skip: bool = False
    """The answer "no limits for now" to the sign-up question (with no ``limits``)."""


class RealityAnswer(Body):
    choice: Literal["continue", "leave"]


@router.get("/limits")
async def get_limits(account: Me, server: Srv) -> dict[str, Any]:
    """The limits in force, each with a raise or removal waiting and when it takes effect,
    whether the sign-up question was answered, the reality-check rhythm and the login's
    reality report (time played, net result since the login, next check)."""
    return await _described(server, account.id)


async def _described(server: Server, account: int) -> dict[str, Any]:
    """What the page shows (:func:`~mazziere.server.store.limit_changes.describe`) and the
    operator's delay of a raise."""
    async with server.db.session() as db:
        got = await limit_changes.describe(db, account, server.clock.wall())
    return {**got, "raise_hours": server.settings.limit_raise_hours}


@router.put("/limits")
async def put_limits(body: LimitsChange, account: Me, server: Srv) -> dict[str, Any]:
    """Set limits (a new or lower one at once, a higher or removed one after
    ``limit_raise_hours``) or skip them; either answers the sign-up question. 422
    ``bad_limit`` for an unknown kind or a value out of range, and nothing changes."""
    if body.skip and body.limits:
        raise LimitError("skip the limits, or set them: not both")
    now = server.clock.wall()
    delay = timedelta(hours=server.settings.limit_raise_hours)
    async with server.db.write() as db:
        if body.limits:
            await limit_changes.set_limits(db, account.id, body.limits, now, delay)
        if body.reality_minutes is not None:
            await limit_changes.set_reality_minutes(db, account.id, body.reality_minutes)
        if body.skip or body.limits:
            await limit_changes.choose(db, account.id, "skipped" if body.skip else "set")
    if body.reality_minutes is not None or body.limits:  # the timers read them anew
        await server.hub.logins.arm(account.id)
    return await _described(server, account.id)


@router.post("/reality-check")
async def reality_check(
    body: RealityAnswer,
    account: Me,
    server: Srv,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The answer to a reality check: ``continue`` (stakes and top-ups are taken again; the
    next check comes the chosen minutes later) or ``leave`` (every table left as on a leave,
    a casino credit paid back to the wallet, then this login ended and its sockets closed)."""
    if body.choice == "continue":
        async with server.db.write() as db:
            await limit_changes.continue_play(db, account.id, server.clock.wall())
        await server.hub.logins.arm(account.id)
        async with server.db.session() as db:
            report = await limit_changes.reality_report(db, account.id, server.clock.wall())
        return {"choice": "continue", "reality": report}
    token = bearer(authorization)
    if token is None:  # pragma: no cover - Me has authenticated it
        raise AuthError("log in first", "not_logged_in")
    left, kept = await leave_every_table(server, account.id, account.username)
    async with server.db.write() as db:
        revoked = await accounts.log_out(db, token)
    if revoked is not None:
        await server.hub.end_logins([revoked], Close.LOGGED_OUT, "you left after a reality check")
    return {"choice": "leave", "left": left, "kept": kept}
