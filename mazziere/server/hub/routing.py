"""Where a client's message goes: a frame is parsed against the protocol's schemas, a ping
answered, and a table's message taken to the table's actor here or, with several processes,
forwarded to the process that owns the table. At the actor the message's verb is carried out
(:mod:`mazziere.server.table.verbs`, the one table of verbs); a refusal is answered ``error``
with the seat's full update."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from mazziere.errors import MazziereError
from mazziere.server import protocol as P
from mazziere.server.hub.connection import Connection
from mazziere.server.store.limits import LimitExceeded
from mazziere.server.table.verbs import verb_of

if TYPE_CHECKING:
    from mazziere.server.ports import HubRuntime, Table

log = logging.getLogger("mazziere.server")

Send = Callable[[int, P.ServerMessage], Awaitable[None]]


class Router:
    """A hub's routing of client messages to table actors."""

    def __init__(self, srv: HubRuntime, send: Send, touch: Callable[[Connection], None]) -> None:
        self.srv = srv
        self.send = send
        """Queue a message for an account's socket (the hub's)."""
        self.touch = touch
        """A game action from this connection: its inactivity clock starts again."""

    async def error(
        self,
        account: int,
        code: str,
        message: str,
        table: int | None = None,
        state_no: int | None = None,
    ) -> None:
        self.srv.metrics.errors.labels(code).inc()
        await self.send(
            account, P.Error(code=code, message=message, table=table, state_no=state_no)
        )

    async def handle(self, conn: Connection, raw: str) -> None:
        try:
            msg = P.parse_client(raw)
        except P.ProtocolError as e:
            await self.error(conn.account, e.code, e.message, e.table)
            return
        if isinstance(msg, P.Ping):
            await self.send(conn.account, P.Pong())
            return
        if isinstance(msg, P.Auth):
            await self.error(
                conn.account, "already_logged_in", "this connection is already logged in"
            )
            return
        await self.route(conn, msg, raw)

    async def route(self, conn: Connection, msg: P.TableMessage, raw: str | bytes) -> None:
        """To the table's actor here, or (cluster) to the process that owns the table; an
        orphaned table (its process died, its lease expired) is taken over here."""
        actor = self.srv.tables.get(msg.table)
        cluster = self.srv.cluster
        if actor is None and cluster is not None:
            text = raw if isinstance(raw, str) else raw.decode()
            for attempt in range(3):  # a table changing hands: ask again who holds it
                if await cluster.forward(msg.table, conn.account, conn.username, text):
                    if verb_of(msg).play:
                        self.touch(conn)
                    return
                actor = await cluster.adopt(msg.table)
                if actor is not None or attempt == 2:
                    break
                if await cluster.owner_of(msg.table) is None:
                    break  # no such table, or closed: nobody holds it
        if actor is None:
            await self.error(
                conn.account, "no_table", f"table {msg.table} does not exist", msg.table
            )
            return
        if await self.dispatch(conn.account, conn.username, msg, actor):
            self.touch(conn)

    async def apply_remote(self, actor: Table, account: int, username: str, raw: str) -> None:
        """A client's message forwarded by the process holding its socket."""
        try:
            msg = P.parse_client(raw)
        except P.ProtocolError as e:  # it was checked there; never trust the bus either
            await self.error(account, e.code, e.message, e.table)
            return
        if not isinstance(msg, (P.Ping, P.Auth)):
            await self.dispatch(account, username, msg, actor)

    async def dispatch(
        self, account: int, username: str, msg: P.TableMessage, actor: Table
    ) -> bool:
        """Apply one client message at a table here; True if it was a game action that
        succeeded (the inactivity clock restarts). A refusal answers ``error`` and the seat's
        current update."""
        verb = verb_of(msg)
        try:
            await verb.run(actor, account, username, msg)
            return verb.play
        except LimitExceeded as e:  # which limit, and what it still allows
            self.srv.metrics.errors.labels(e.code).inc()
            await self.send(
                account,
                P.Error(
                    code=e.code,
                    message=e.message,
                    table=msg.table,
                    state_no=actor.state_no,
                    limit=e.limit,
                    left=e.left,
                ),
            )
            await self._resend(account, actor)
        except MazziereError as e:
            await self.error(account, e.code, e.message, msg.table, actor.state_no)
            await self._resend(account, actor)
        except Exception:  # storage trouble and the like: nothing was applied, keep the socket
            log.exception("table %s: message failed", msg.table)
            await self.error(
                account,
                "server_busy",
                "the server could not record that right now; nothing changed, try again",
                msg.table,
                actor.state_no,
            )
            await self._resend(account, actor)
        return False

    async def _resend(self, account: int, actor: Table) -> None:
        seat = actor.seat_of(account)
        if seat is not None:
            await self.send(account, await actor.update_for(seat, full=True))
