"""The hub: every player's connection of this process, by account. It authenticates a socket
by its first message, keeps one WebSocket per account (a second one closes the first, with a
named close code and a message), ends the sockets of revoked tokens, queues messages for a
socket (here, or on the process that holds it), and runs each socket's life: its frames
through the guards (:mod:`.guards`) to the routing (:mod:`.routing`), until it closes
(:mod:`.connection`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from mazziere.errors import MazziereError
from mazziere.server import protocol as P
from mazziere.server.hub.connection import MAX_OUTBOX, Close, Connection
from mazziere.server.hub.guards import Guards
from mazziere.server.hub.reality import LoginWatch
from mazziere.server.hub.routing import Router
from mazziere.server.store import accounts
from mazziere.server.store.accounts import AuthError

if TYPE_CHECKING:
    from mazziere.server.ports import HubRuntime, Table


class Hub:
    def __init__(self, srv: HubRuntime) -> None:
        self.srv = srv
        self.conns: dict[int, Connection] = {}
        self.guards = Guards(srv)
        self.router = Router(srv, self.send, self.guards.touch)
        self.logins = LoginWatch(srv, self)
        """The reality checks and play-time ends of the connected players."""

    async def send(self, account: int, message: P.ServerMessage | dict[str, Any]) -> None:
        """Queue ``message`` for ``account``'s socket, on this process or, in a cluster, on
        the process that holds it (encoded once, here)."""
        conn = self.conns.get(account)
        if conn is not None:
            self._put(conn, message)
            return
        cluster = self.srv.cluster
        if cluster is not None:
            proc = await cluster.where_is(account)
            if proc is not None:
                cluster.deliver(proc, account, P.encode(message))

    def _put(self, conn: Connection, message: P.ServerMessage | dict[str, Any] | bytes) -> None:
        if conn.closed:
            return
        if conn.outbox.qsize() >= MAX_OUTBOX:
            self.srv.spawn(conn.close(Close.POLICY, "not reading its messages"))
            return
        conn.outbox.put_nowait(message)

    def deliver_here(self, account: int, frame: bytes) -> None:
        """A frame another process encoded for a socket of this one."""
        conn = self.conns.get(account)
        if conn is not None:
            self._put(conn, frame)

    async def tables_of(self, account: int) -> list[int]:
        """The tables where ``account`` sits (on every process of a cluster)."""
        if self.srv.cluster is not None:
            return await self.srv.cluster.tables_of(account)
        return self.srv.seating.tables_of(account)

    # -------------------------------------------------------------------- sessions
    async def end_logins(
        self, token_hashes: Iterable[str], code: int, why: str, everywhere: bool = True
    ) -> int:
        """Close every connection opened with one of ``token_hashes`` (their tokens were just
        revoked), on every process of a cluster; returns how many this process closed."""
        hashes = set(token_hashes)
        if everywhere and self.srv.cluster is not None and hashes:
            self.srv.cluster.end_everywhere(sorted(hashes), code, why)
        victims = [c for c in self.conns.values() if c.token_hash in hashes]
        for conn in victims:
            await conn.close(code, why)
        return len(victims)

    async def replaced_elsewhere(self, account: int, serial: str) -> None:
        """Another process took ``account``'s socket over: close this one (4001)."""
        conn = self.conns.get(account)
        cluster = self.srv.cluster
        if conn is not None and cluster is not None and cluster.serial_of(conn.presence) == serial:
            await conn.close(Close.REPLACED, "another login of this account took over")

    # -------------------------------------------------------------------- connection life
    async def serve(self, ws: WebSocket) -> None:
        """Run one accepted WebSocket: authenticate its first message, then take messages
        until it closes."""
        if "token" in ws.query_params:
            await self._refuse(
                ws,
                "token_in_url",
                "send the token in the first message ({'type': 'auth'}), not in the URL",
            )
            return
        got = await self._authenticate(ws)
        if got is None:
            return
        account, username, hash_, ends_at = got
        old = self.conns.get(account)
        conn = Connection(account, username, ws, hash_)
        loop = asyncio.get_running_loop()
        conn.last_frame = conn.last_touch = loop.time()
        self.conns[account] = conn
        if old is not None:
            await old.close(Close.REPLACED, "another login of this account took over")
        cluster = self.srv.cluster
        if cluster is not None:
            conn.presence = await cluster.claim_connection(account)
        self.srv.metrics.players_connected.set(len(self.conns))
        conn.writer = asyncio.create_task(conn.write())
        self.guards.watch_token(conn, ends_at)
        self.guards.watch_silence(conn)
        seated = await self.tables_of(account)
        await self.send(account, P.Hello(account=account, username=username, tables=seated))
        self.guards.touch(conn)
        self.srv.spawn(self.logins.arm(account))
        for table_id in seated:  # reconnect: the seats were held
            actor = self.srv.tables.get(table_id)
            if actor is not None:
                with contextlib.suppress(MazziereError):
                    await actor.join(account, username)
            elif cluster is not None:
                join = P.Join(table=table_id)
                await self.router.route(conn, join, P.encode_client(join))
        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                conn.last_frame = loop.time()
                if not self.guards.rate_ok(conn):
                    if conn.flooding:
                        self.srv.metrics.errors.labels("flood_closed").inc()
                        conn.closed = True
                        await conn.shut(Close.POLICY, "kept sending while rate-limited")
                        break
                    continue
                text = frame.get("text")
                if text is None:
                    await self.router.error(
                        conn.account,
                        "malformed",
                        "binary frames are not part of the protocol: send text",
                    )
                    continue
                await self.router.handle(conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await self._drop(conn)
            conn.outbox.put_nowait(None)
            await conn.flush()

    async def _refuse(self, ws: WebSocket, code: str, why: str) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(P.encode(P.Error(code=code, message=why)).decode())
            await ws.close(code=Close.UNAUTHORIZED, reason=why[:120])

    async def _authenticate(self, ws: WebSocket) -> tuple[int, str, str, datetime] | None:
        """The first frame must be ``auth`` with a live token, within ``auth_seconds``."""
        try:
            frame = await asyncio.wait_for(ws.receive(), self.srv.settings.auth_seconds)
        except TimeoutError:
            await self._refuse(
                ws, "not_logged_in", f"no auth message within {self.srv.settings.auth_seconds:g} s"
            )
            return None
        except (WebSocketDisconnect, RuntimeError):
            return None
        if frame["type"] == "websocket.disconnect":
            return None
        try:
            msg = P.parse_client(frame.get("text") or frame.get("bytes") or b"")
        except P.ProtocolError as e:
            await self._refuse(ws, e.code, e.message)
            return None
        if not isinstance(msg, P.Auth):
            await self._refuse(ws, "not_logged_in", "the first message is auth with the token")
            return None
        try:
            async with self.srv.db.session() as db:
                acc, row = await accounts.authenticate_token(db, msg.token, self.srv.tokens)
        except AuthError as e:
            self.srv.metrics.errors.labels(e.code).inc()
            await self._refuse(ws, e.code, e.message)
            return None
        return acc.id, acc.username, row.token_hash, self.srv.tokens.ends_at(row)

    async def _drop(self, conn: Connection) -> None:
        self.guards.stop(conn)
        conn.closed = True
        if self.conns.get(conn.account) is conn:
            del self.conns[conn.account]
            self.logins.stop(conn.account)
            for table_id in self.srv.seating.tables_of(conn.account):  # before any await
                actor = self.srv.tables.get(table_id)
                if actor is not None:
                    actor.on_disconnect(conn.account)
            cluster = self.srv.cluster
            if cluster is not None:
                cluster.release_connection(conn.account, conn.presence)
                with contextlib.suppress(Exception):  # best effort: owners also see it die
                    await cluster.gone(conn.account, await self.tables_of(conn.account))
        self.srv.metrics.players_connected.set(len(self.conns))

    # -------------------------------------------------------------------- other processes
    async def apply_remote(self, actor: Table, account: int, username: str, raw: str) -> None:
        """A client's message forwarded by the process holding its socket."""
        await self.router.apply_remote(actor, account, username, raw)

    async def route_again(self, account: int, username: str, table: int, raw: str) -> None:
        """The owner we forwarded to no longer had the table: ask once more."""
        conn = self.conns.get(account)
        if conn is not None and not conn.closed:
            msg = P.parse_client(raw)
            if not isinstance(msg, (P.Ping, P.Auth)):
                await self.router.route(conn, msg, raw)
