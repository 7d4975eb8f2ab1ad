"""Connections: one WebSocket per account (a second one closes the first, with a named close
code and a message), inactivity warning and disconnection, message validation and rate
limits, and dispatch of client messages to table actors."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from mazziere.errors import MazziereError
from mazziere.server import protocol as P
from mazziere.server.clock import Timer

if TYPE_CHECKING:
    from mazziere.server.context import Server
    from mazziere.server.tables import TableActor

log = logging.getLogger("mazziere.server")


class Close:
    """WebSocket close codes (4000-4999 are the application's)."""

    NORMAL = 1000
    REPLACED = 4001
    """Another connection of the same account took over."""
    INACTIVE = 4002
    """No game action for the inactivity limit (000: 20 minutes)."""
    UNAUTHORIZED = 4003
    """No valid session token."""
    SHUTDOWN = 4004


@dataclass
class Connection:
    account: int
    username: str
    ws: WebSocket
    outbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    warn_timer: Timer | None = None
    kick_timer: Timer | None = None
    window_start: float = 0.0
    window_count: int = 0


class Hub:
    def __init__(self, srv: Server) -> None:
        self.srv = srv
        self.conns: dict[int, Connection] = {}

    async def send(self, account: int, message: dict[str, Any]) -> None:
        conn = self.conns.get(account)
        if conn is not None and not conn.closed:
            conn.outbox.put_nowait(message)

    def tables_of(self, account: int) -> list[int]:
        return [t.id for t in self.srv.tables.values() if t.seat_of(account) is not None]

    # -------------------------------------------------------------------- connection life
    async def serve(self, ws: WebSocket, account: int, username: str) -> None:
        old = self.conns.get(account)
        conn = Connection(account, username, ws)
        self.conns[account] = conn
        if old is not None:
            await self._close(old, Close.REPLACED, "another login of this account took over")
        self.srv.metrics.players_connected.set(len(self.conns))
        writer = asyncio.create_task(self._writer(conn))
        await self.send(
            account,
            P.Hello(
                account=account, username=username, tables=self.tables_of(account)
            ).model_dump(),
        )
        self._touch(conn)
        for table_id in self.tables_of(account):
            actor = self.srv.tables[table_id]
            with contextlib.suppress(MazziereError):
                await actor.join(account, username)  # reconnect: the seat was held
        try:
            while True:
                raw = await ws.receive_text()
                await self._handle(conn, raw)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await self._drop(conn)
            writer.cancel()

    async def _writer(self, conn: Connection) -> None:
        while True:
            msg = await conn.outbox.get()
            if msg is None:
                return
            try:
                await conn.ws.send_text(json.dumps(msg, separators=(",", ":")))
            except Exception:
                return

    async def _close(self, conn: Connection, code: int, why: str) -> None:
        if conn.closed:
            return
        kind = {Close.REPLACED: "replaced", Close.INACTIVE: "inactivity"}.get(code, "closed")
        conn.outbox.put_nowait(P.Notice(kind=kind, message=why).model_dump())
        conn.outbox.put_nowait(None)
        conn.closed = True
        await asyncio.sleep(0)
        with contextlib.suppress(Exception):
            await conn.ws.close(code=code, reason=why[:120])

    async def _drop(self, conn: Connection) -> None:
        for t in (conn.warn_timer, conn.kick_timer):
            if t is not None:
                t.cancel()
        conn.closed = True
        if self.conns.get(conn.account) is conn:
            del self.conns[conn.account]
            for table_id in self.tables_of(conn.account):
                self.srv.tables[table_id].on_disconnect(conn.account)
        self.srv.metrics.players_connected.set(len(self.conns))

    def _touch(self, conn: Connection) -> None:
        """A game action: restart the inactivity clock (000: 20 minutes)."""
        s = self.srv.settings
        for t in (conn.warn_timer, conn.kick_timer):
            if t is not None:
                t.cancel()
        conn.warn_timer = self.srv.clock.call_later(
            s.inactivity_seconds - s.inactivity_warning_seconds, lambda: self._warn(conn)
        )
        conn.kick_timer = self.srv.later(
            s.inactivity_seconds,
            lambda: self._close(conn, Close.INACTIVE, "disconnected after 20 minutes without play"),
        )

    def _warn(self, conn: Connection) -> None:
        conn.outbox.put_nowait(
            P.Notice(
                kind="inactivity_warning",
                message="no game action for a while: you will be disconnected in a minute",
            ).model_dump()
        )

    # -------------------------------------------------------------------- messages
    def _rate_ok(self, conn: Connection) -> bool:
        now = self.srv.clock.now()
        if now - conn.window_start >= 1.0:
            conn.window_start, conn.window_count = now, 0
        conn.window_count += 1
        return conn.window_count <= self.srv.settings.max_messages_per_second

    async def _error(
        self,
        conn: Connection,
        code: str,
        message: str,
        table: int | None = None,
        state_no: int | None = None,
    ) -> None:
        self.srv.metrics.errors.labels(code).inc()
        await self.send(
            conn.account,
            P.Error(code=code, message=message, table=table, state_no=state_no).model_dump(),
        )

    async def _handle(self, conn: Connection, raw: str) -> None:
        if not self._rate_ok(conn):
            await self._error(conn, "rate_limited", "too many messages: slow down")
            return
        try:
            msg = P.parse_client(raw)
        except P.ProtocolError as e:
            await self._error(conn, e.code, e.message)
            return
        if isinstance(msg, P.Ping):
            await self.send(conn.account, P.Pong().model_dump())
            return
        actor = self.srv.tables.get(msg.table)
        if actor is None:
            await self._error(conn, "no_table", f"table {msg.table} does not exist", msg.table)
            return
        try:
            if isinstance(msg, P.Join):
                await actor.join(conn.account, conn.username)
            elif isinstance(msg, P.Leave):
                await actor.leave(conn.account)
            elif isinstance(msg, P.Start):
                await actor.start(conn.account)
                self._touch(conn)
            elif isinstance(msg, P.Act):
                await actor.act(conn.account, msg.state_no, msg.action)
                self._touch(conn)
            elif isinstance(msg, P.Stake):
                await actor.stake(conn.account, msg.state_no, msg.amount)
                self._touch(conn)
            elif isinstance(msg, P.TopUp):
                key = None if msg.key is None else f"topup:{conn.account}:{msg.key}"
                await actor.top_up(conn.account, msg.amount, key)
                self._touch(conn)
        except MazziereError as e:
            await self._error(conn, e.code, e.message, msg.table, actor.state_no)
            await self._resend(conn, actor)
        except Exception:  # storage trouble and the like: nothing was applied, keep the socket
            log.exception("table %s: message failed", msg.table)
            await self._error(
                conn,
                "server_busy",
                "the server could not record that right now; nothing changed, try again",
                msg.table,
                actor.state_no,
            )
            await self._resend(conn, actor)

    async def _resend(self, conn: Connection, actor: TableActor) -> None:
        seat = actor.seat_of(conn.account)
        if seat is not None:
            await self.send(conn.account, await actor.update_for(seat))
