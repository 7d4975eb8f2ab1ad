"""Putting a player out of play at once, on every process (a back-office suspension, a
self-exclusion): once the transaction that revoked the account's logins committed, their
sockets close with a named code and a notice saying why, and the account leaves every table
where it sits through the table verb ``leave``, as when the player leaves: a casino round in
progress is finished by the default strategy and the credit session closed and credited to
the wallet."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mazziere.errors import MazziereError
from mazziere.server.context import Server
from mazziere.server.routes.admin_common import at_table


async def put_out(
    server: Server, account_id: int, username: str, revoked: Iterable[str], code: int, why: str
) -> tuple[list[int], list[dict[str, Any]]]:
    """Close the sockets of the ``revoked`` logins (``code``, ``why``), then leave every
    table: the tables left, and those that refused with why."""
    await server.hub.end_logins(revoked, code, why)
    return await leave_every_table(server, account_id, username)


async def leave_every_table(
    server: Server, account_id: int, username: str
) -> tuple[list[int], list[dict[str, Any]]]:
    """The account leaves every table where it sits, on every process: the tables left, and
    those that refused with why."""
    left, kept = [], []
    for table_id in await server.hub.tables_of(account_id):
        try:
            await at_table(server, table_id, account_id, username, "leave")
            left.append(table_id)
        except MazziereError as e:
            kept.append({"table": table_id, "code": e.code, "message": e.message})
    return left, kept
