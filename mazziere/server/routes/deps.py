"""What every route needs: the running server, request bodies that are strict, and the account
behind the request's bearer token."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from pydantic import BaseModel, ConfigDict

from mazziere.server import ids, roles
from mazziere.server.context import Server
from mazziere.server.store import accounts
from mazziere.server.store.models import Account
from mazziere.server.table.errors import TableError


class Body(BaseModel):
    """Request bodies are strict: an integer field takes a JSON integer only (not "500",
    500.0, 1e3 or true), unknown fields are refused; a refusal is 422 ``malformed``."""

    model_config = ConfigDict(strict=True, extra="forbid")


def server_of(request: Request) -> Server:
    srv: Server = request.app.state.server
    return srv


def bearer(authorization: str | None) -> str | None:
    return (authorization or "").removeprefix("Bearer ").strip() or None


async def current_account(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Account:
    """The account of the request's ``Authorization: Bearer <token>``, if that login session
    is live; a use is recorded at most once a minute (it extends the idle lifetime)."""
    server = server_of(request)
    now = datetime.now(UTC)
    async with server.db.session() as db:
        acc, row = await accounts.authenticate_token(db, bearer(authorization), server.tokens, now)
    if accounts.needs_touch(row, server.tokens, now):
        async with server.db.write() as db:
            await accounts.touch(db, row.token_hash, now)
    return acc


Srv = Annotated[Server, Depends(server_of)]
Me = Annotated[Account, Depends(current_account)]


def _table_id(table_id: int) -> int:
    if not ids.in_range(table_id):
        raise TableError(f"table {table_id} does not exist", "no_table")
    return table_id


def _hand_id(hand_id: int) -> int:
    if not ids.in_range(hand_id):
        raise TableError("no such hand of yours", "no_hand")
    return hand_id


TableId = Annotated[int, Depends(_table_id)]
"""A table's id in a path (``{table_id}``): outside the range of ids
(:mod:`mazziere.server.ids`) it is answered ``no_table``, as an unknown table is."""
HandId = Annotated[int, Depends(_hand_id)]
"""A hand's id in a path (``{hand_id}``): outside the range of ids it is answered
``no_hand``, as an unknown hand is."""


def require(permission: str) -> Any:
    """A dependency giving the request's account if its role holds ``permission``
    (:data:`mazziere.server.roles.WHO_MAY`), else 403 ``forbidden``; 401 as :data:`Me` without
    a live login. Use: ``staff: Annotated[Account, require("players.read")]``."""
    if permission not in roles.WHO_MAY:
        raise ValueError(f"unknown permission {permission!r}")

    async def allowed(account: Me) -> Account:
        if not roles.may(account.role, permission):
            raise roles.Forbidden(f"the role {account.role!r} may not do this ({permission})")
        return account

    allowed.__name__ = f"require_{permission.replace('.', '_')}"
    return Depends(allowed)
