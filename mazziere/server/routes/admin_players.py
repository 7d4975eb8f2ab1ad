"""Players in the back office (docs/operators.md): search, an account's page, its ledger
lines, hands and logins; suspend and reinstate; change a role.

A suspension is one transaction (the status, every live login revoked, the audit line); once
it committed, the account is put out of play (:mod:`mazziere.server.routes.removal`): its
sockets close on every process (``Close.SUSPENDED``) and it leaves each table where it sits as
when the player leaves, its casino sessions closed and credited to the wallet."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import Field, field_validator

from mazziere.server import roles
from mazziere.server.hub import Close
from mazziere.server.roles import Conflict, Forbidden
from mazziere.server.routes import removal
from mazziere.server.routes.admin_common import (
    AccountId,
    Cursor,
    Limit,
    Reason,
    RoleSetter,
    Staff,
    Support,
    actor,
    next_cursor,
)
from mazziere.server.routes.deps import Srv
from mazziere.server.store import audit, staff
from mazziere.server.store.models import Account

router = APIRouter()


class NewRole(Reason):
    role: str = Field(min_length=1, max_length=20)

    @field_validator("role")
    @classmethod
    def _known(cls, role: str) -> str:
        if role not in roles.ROLES:
            raise ValueError(f"a role is one of {', '.join(roles.ROLES)}")
        return role


@router.get("/players")
async def players(
    account: Staff,
    server: Srv,
    q: Annotated[str, Query(max_length=64)] = "",
    after: Cursor = None,
    limit: Limit = 50,
) -> dict[str, Any]:
    """Accounts whose name contains ``q`` or whose id is ``q``, by id, after ``after``."""
    async with server.db.session() as db:
        rows = await staff.players(db, q.strip(), after, limit)
    return {"players": rows, "next": rows[-1]["id"] if len(rows) == limit else None}


@router.get("/players/{account_id}")
async def player(account_id: AccountId, account: Staff, server: Srv) -> dict[str, Any]:
    """An account's page: wallet, open casino sessions, hands played, last logins."""
    async with server.db.session() as db:
        return await staff.page(db, await staff.account(db, account_id))


@router.get("/players/{account_id}/ledger")
async def ledger_lines(
    account_id: AccountId, account: Staff, server: Srv, before: Cursor = None, limit: Limit = 50
) -> dict[str, Any]:
    """The account's ledger lines (wallet and casino sessions), newest first."""
    async with server.db.session() as db:
        await staff.account(db, account_id)
        rows = await staff.ledger_lines(db, account_id, before, limit)
    return {"entries": rows, "next": next_cursor([r["id"] for r in rows], limit)}


@router.get("/players/{account_id}/hands")
async def hands(
    account_id: AccountId, account: Staff, server: Srv, before: Cursor = None, limit: Limit = 50
) -> dict[str, Any]:
    """The hands the account sat in, newest first."""
    async with server.db.session() as db:
        await staff.account(db, account_id)
        rows = await staff.hands_of(db, account_id, before, limit)
    return {"hands": rows, "next": next_cursor([r["id"] for r in rows], limit)}


@router.get("/players/{account_id}/logins")
async def logins(
    account_id: AccountId, account: Staff, server: Srv, before: Cursor = None, limit: Limit = 50
) -> dict[str, Any]:
    """The account's logins, let in or refused, newest first (from the audit log)."""
    async with server.db.session() as db:
        await staff.account(db, account_id)
        rows = await audit.entries(
            db, before, limit, target=f"account:{account_id}", actions=("login", "login_refused")
        )
    return {
        "logins": [
            {"id": e.id, "at": staff.iso(e.at), "address": e.address, "ok": e.action == "login"}
            for e in rows
        ],
        "next": next_cursor([e.id for e in rows], limit),
    }


def _may_change(by: Account, acc: Account) -> None:
    """Nobody suspends themselves; another back-office account only an admin suspends."""
    if by.id == acc.id:
        raise Forbidden("an account cannot suspend or reinstate itself", "self")
    if roles.is_staff(acc.role) and not roles.may(by.role, "roles.set"):
        raise Forbidden("only an admin suspends or reinstates a back-office account")


@router.post("/players/{account_id}/suspend")
async def suspend(
    account_id: AccountId, body: Reason, request: Request, account: Support, server: Srv
) -> dict[str, Any]:
    """Suspend: the account cannot log in, its logins end, its sockets close (4008) on every
    process, and it leaves every table where it sits (its casino sessions closed and credited
    as on an ordinary leave)."""
    async with server.db.write() as db:
        acc = await staff.account(db, account_id)
        _may_change(account, acc)
        if acc.status == staff.SUSPENDED:
            raise Conflict(f"{acc.username} is already suspended", "already_suspended")
        revoked = await staff.set_status(db, acc, staff.SUSPENDED)
        after = {"status": staff.SUSPENDED, "reason": body.reason, "logins_ended": len(revoked)}
        await audit.record(
            db, actor(request, account), "player_suspended", f"account:{acc.id}",
            {"status": staff.ACTIVE}, after,
        )  # fmt: skip
        username = acc.username
    left, kept = await removal.put_out(
        server, account_id, username, revoked, Close.SUSPENDED, "this account is suspended"
    )
    return {
        "id": account_id,
        "status": staff.SUSPENDED,
        "logins_ended": len(revoked),
        "tables_left": left,
        "tables_kept": kept,
    }


@router.post("/players/{account_id}/reinstate")
async def reinstate(
    account_id: AccountId, body: Reason, request: Request, account: Support, server: Srv
) -> dict[str, Any]:
    """Lift a suspension: the account may log in again."""
    async with server.db.write() as db:
        acc = await staff.account(db, account_id)
        _may_change(account, acc)
        if acc.status != staff.SUSPENDED:
            raise Conflict(f"{acc.username} is not suspended", "not_suspended")
        await staff.set_status(db, acc, staff.ACTIVE)
        await audit.record(
            db, actor(request, account), "player_reinstated", f"account:{acc.id}",
            {"status": staff.SUSPENDED}, {"status": staff.ACTIVE, "reason": body.reason},
        )  # fmt: skip
    return {"id": account_id, "status": staff.ACTIVE}


@router.post("/players/{account_id}/role")
async def set_role(
    account_id: AccountId, body: NewRole, request: Request, account: RoleSetter, server: Srv
) -> dict[str, Any]:
    """Give an account another role (admins only); the last active admin keeps theirs."""
    async with server.db.write() as db:
        acc = await staff.account(db, account_id)
        if acc.role == roles.ADMIN and body.role != roles.ADMIN and await staff.admins(db) <= 1:
            raise Conflict("the last admin keeps the admin role", "last_admin")
        before = await staff.set_role(db, acc, body.role)
        await audit.record(
            db, actor(request, account), "role_set", f"account:{acc.id}",
            {"role": before}, {"role": body.role, "reason": body.reason},
        )  # fmt: skip
    return {"id": account_id, "role": body.role}
