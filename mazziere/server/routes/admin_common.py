"""What the back office's routes share (docs/operators.md): the permission each requires
(:mod:`mazziere.server.roles`, through ``require``), the actor of an action as the audit log
names it, reasons, paging and CSV answers."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import Field

from mazziere.server import ids
from mazziere.server import protocol as P
from mazziere.server.context import Server
from mazziere.server.roles import NotFound
from mazziere.server.routes.deps import Body, require
from mazziere.server.store.audit import Actor
from mazziere.server.store.models import Account
from mazziere.server.table.verbs import run_op

Staff = Annotated[Account, require("players.read")]
"""Any back-office role (every one may read players, tables, hands and reports)."""
Auditor = Annotated[Account, require("audit.read")]
Support = Annotated[Account, require("players.suspend")]
TableCloser = Annotated[Account, require("tables.close")]
GameSwitcher = Annotated[Account, require("games.switch")]
Requester = Annotated[Account, require("adjustments.request")]
Approver = Annotated[Account, require("adjustments.approve")]
RoleSetter = Annotated[Account, require("roles.set")]

MAX_ID = ids.MAX_ID
"""The largest row id (:mod:`mazziere.server.ids`, the width of the id columns): a larger one
in a path names nothing (404), in a query or a body it is malformed (422)."""


def _account_id(account_id: int) -> int:
    return _known(account_id, "account")


def _table_id(table_id: int) -> int:
    return _known(table_id, "table")


def _hand_id(hand_id: int) -> int:
    return _known(hand_id, "hand")


def _adjustment_id(adjustment_id: int) -> int:
    return _known(adjustment_id, "adjustment")


def _known(value: int, what: str) -> int:
    if not 1 <= value <= MAX_ID:
        raise NotFound(f"{what} {value} does not exist")
    return value


AccountId = Annotated[int, Depends(_account_id)]
TableId = Annotated[int, Depends(_table_id)]
HandId = Annotated[int, Depends(_hand_id)]
AdjustmentId = Annotated[int, Depends(_adjustment_id)]
"""Ids in a path: an integer (else 422), one that no row can have is 404 as an unknown one."""

Limit = Annotated[int, Query(ge=1, le=200)]
"""A page's length (1-200)."""
Cursor = Annotated[int | None, Query(ge=1, le=MAX_ID)]
"""Where the next page starts: the ``next`` of the page before (older than this id)."""


class Reason(Body):
    """Why: every back-office action that changes something says so (1 to
    :data:`~mazziere.server.protocol.REASON_LENGTH` characters, not only spaces)."""

    reason: str = Field(min_length=1, max_length=P.REASON_LENGTH, pattern=r"\S")


async def at_table(
    server: Server, table_id: int, account: int, username: str, op: str, *args: Any
) -> Any:
    """Run the table verb ``op`` (:mod:`mazziere.server.table.verbs`) for ``account`` where
    the table lives: here, or on its owner in a cluster (an orphan is taken here first), as
    the lobby and the sockets run it; the verb's result. 404 for a table no process holds."""
    actor = server.tables.get(table_id)
    cluster = server.cluster
    if actor is None and cluster is not None:
        actor = await cluster.adopt(table_id)
        if actor is None:
            value, _ = await cluster.call(table_id, op, account, username, list(args))
            return value
    if actor is None:
        raise NotFound(f"table {table_id} is not open")
    return await run_op(actor, op, account, username, list(args))


def malformed(loc: tuple[str, ...], message: str) -> RequestValidationError:
    """The 422 ``malformed`` refusal of one field, as the request's schema gives it."""
    return RequestValidationError([{"loc": loc, "msg": message, "type": "value_error"}])


def actor(request: Request, account: Account) -> Actor:
    """The account acting and the address it acts from, for the audit log."""
    return Actor.of(account, request.client.host if request.client else "?")


def next_cursor(ids: Sequence[int], limit: int) -> int | None:
    """The cursor of the page after one whose rows have ``ids`` (newest first): ``None``
    when the page was not full."""
    return ids[-1] if len(ids) == limit and ids else None


def csv_answer(name: str, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Response:
    """A CSV download (RFC 4180, UTF-8) named ``name``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(header)
    for row in rows:
        w.writerow(["" if v is None else v for v in row])
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
