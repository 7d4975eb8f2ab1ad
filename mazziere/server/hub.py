"""Connections: authentication by the first message, one WebSocket per account (a second one
closes the first, with a named close code and a message), token revocation and expiry reaching
open sockets, inactivity warning and disconnection, frame validation, rate limits with a
flood cut-off, silent-socket time-outs, and dispatch of client messages to table actors.

Transport timers (authentication, silence, flood grace, token expiry) run on the event loop's
real time; game timers (inactivity, seats, decisions) on the server's clock, which tests drive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from mazziere.errors import MazziereError
from mazziere.server import protocol as P
from mazziere.server.store import accounts
from mazziere.server.store.accounts import AuthError
from mazziere.server.timers import InactivityTimers

if TYPE_CHECKING:
    from mazziere.server.ports import HubRuntime, Table

log = logging.getLogger("mazziere.server")

MAX_OUTBOX = 2000
"""Messages waiting for a client that does not read; past this it is cut off (1008)."""


class Close:
    """WebSocket close codes (4000-4999 are the application's)."""

    NORMAL = 1000
    POLICY = 1008
    """Kept sending while rate-limited, or stopped reading its messages."""
    TOO_BIG = 1009
    """A message above the transport limit (sent by the WebSocket layer)."""
    REPLACED = 4001
    """Another connection or login of the same account took over."""
    INACTIVE = 4002
    """No game action for the inactivity limit (000: 20 minutes)."""
    UNAUTHORIZED = 4003
    """No valid session token (or none sent in time)."""
    SHUTDOWN = 4004
    LOGGED_OUT = 4005
    """The session was ended by a logout."""
    EXPIRED = 4006
    """The session token expired (idle or absolute lifetime) or was revoked."""
    SILENT = 4007
    """Nothing received for too long (clients ping every 25 seconds)."""


NOTICE_KIND = {
    Close.REPLACED: "replaced",
    Close.INACTIVE: "inactivity",
    Close.LOGGED_OUT: "logged_out",
    Close.EXPIRED: "expired",
    Close.SILENT: "silent",
    Close.POLICY: "rate_limited",
}


class Outbox:
    """A connection's queue of messages for its writer: ``put_nowait``, ``get`` and ``qsize``
    as :class:`asyncio.Queue` has them for one consumer. Written here because an
    ``asyncio.Queue`` allocates four deques (about 3 KB) for every socket, idle or not; this
    holds a list and, only while the writer waits, one future."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[P.ServerMessage | dict[str, Any] | bytes | None] = []
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def put_nowait(self, message: P.ServerMessage | dict[str, Any] | bytes | None) -> None:
        self._items.append(message)
        w = self._waiter
        if w is not None and not w.done():
            w.set_result(None)

    async def get(self) -> P.ServerMessage | dict[str, Any] | bytes | None:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


@dataclass(eq=False, slots=True)
class Connection:
    account: int
    username: str
    ws: WebSocket
    token_hash: str
    outbox: Outbox = field(default_factory=Outbox)
    closed: bool = False
    inactivity: InactivityTimers | None = None
    window_start: float = 0.0
    window_count: int = 0
    window_over: bool = False
    limited_since: float | None = None
    last_frame: float = 0.0
    last_touch: float = 0.0
    transport_timers: list[asyncio.TimerHandle] = field(default_factory=list)
    writer: asyncio.Task[None] | None = None
    flooding: bool = False
    presence: str = ""
    """Its entry in the cluster's presence (``proc|serial``); empty with one process."""


class Hub:
    def __init__(self, srv: HubRuntime) -> None:
        self.srv = srv
        self.conns: dict[int, Connection] = {}

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
            self.srv.spawn(self._close(conn, Close.POLICY, "not reading its messages"))
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
    async def end_sessions(
        self, token_hashes: Iterable[str], code: int, why: str, everywhere: bool = True
    ) -> int:
        """Close every connection opened with one of ``token_hashes`` (their tokens were just
        revoked), on every process of a cluster; returns how many this process closed."""
        hashes = set(token_hashes)
        if everywhere and self.srv.cluster is not None and hashes:
            self.srv.cluster.end_everywhere(sorted(hashes), code, why)
        victims = [c for c in self.conns.values() if c.token_hash in hashes]
        for conn in victims:
            await self._close(conn, code, why)
        return len(victims)

    async def replaced_elsewhere(self, account: int, serial: str) -> None:
        """Another process took ``account``'s socket over: close this one (4001)."""
        conn = self.conns.get(account)
        cluster = self.srv.cluster
        if conn is not None and cluster is not None and cluster.serial_of(conn.presence) == serial:
            await self._close(conn, Close.REPLACED, "another login of this account took over")

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
            await self._close(old, Close.REPLACED, "another login of this account took over")
        cluster = self.srv.cluster
        if cluster is not None:
            conn.presence = await cluster.claim_connection(account)
        self.srv.metrics.players_connected.set(len(self.conns))
        conn.writer = asyncio.create_task(self._writer(conn))
        self._watch_token(conn, ends_at)
        self._watch_silence(conn)
        seated = await self.tables_of(account)
        await self.send(account, P.Hello(account=account, username=username, tables=seated))
        self._touch(conn)
        for table_id in seated:  # reconnect: the seats were held
            actor = self.srv.tables.get(table_id)
            if actor is not None:
                with contextlib.suppress(MazziereError):
                    await actor.join(account, username)
            elif cluster is not None:
                join = P.Join(table=table_id)
                await self._route(conn, join, P.encode_client(join))
        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                conn.last_frame = loop.time()
                if not self._rate_ok(conn):
                    if conn.flooding:
                        self.srv.metrics.errors.labels("flood_closed").inc()
                        conn.closed = True
                        await self._shut(conn, Close.POLICY, "kept sending while rate-limited")
                        break
                    continue
                text = frame.get("text")
                if text is None:
                    await self._error(
                        conn.account,
                        "malformed",
                        "binary frames are not part of the protocol: send text",
                    )
                    continue
                await self._handle(conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await self._drop(conn)
            conn.outbox.put_nowait(None)
            await self._flush(conn)

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

    def _watch_token(self, conn: Connection, ends_at: datetime) -> None:
        """At the moment the token would expire, look again: used meanwhile (REST), it lives
        on; expired or revoked, the socket closes (4006)."""
        delay = max(0.0, (ends_at - datetime.now(UTC)).total_seconds()) + 0.05
        loop = asyncio.get_running_loop()
        conn.transport_timers.append(
            loop.call_later(delay, lambda: self.srv.spawn(self._recheck_token(conn)))
        )

    async def _recheck_token(self, conn: Connection) -> None:
        if conn.closed:
            return
        async with self.srv.db.session() as db:
            row = await accounts.token_row(db, conn.token_hash)
        policy = self.srv.tokens
        if row is None or row.revoked_at is not None:
            await self._close(conn, Close.EXPIRED, "this session has ended: log in again")
        elif policy.ends_at(row) <= datetime.now(UTC):
            await self._close(conn, Close.EXPIRED, "this session expired: log in again")
        else:
            self._watch_token(conn, policy.ends_at(row))

    def _watch_silence(self, conn: Connection) -> None:
        limit = self.srv.settings.silent_seconds
        loop = asyncio.get_running_loop()

        def check() -> None:
            if conn.closed:
                return
            quiet = loop.time() - conn.last_frame
            if quiet >= limit:
                self.srv.spawn(
                    self._close(conn, Close.SILENT, f"nothing received for {limit:g} seconds")
                )
            else:
                conn.transport_timers.append(loop.call_later(limit - quiet, check))

        conn.transport_timers.append(loop.call_later(limit, check))

    async def _writer(self, conn: Connection) -> None:
        while True:
            msg = await conn.outbox.get()
            if msg is None:
                return
            try:
                frame = msg if isinstance(msg, bytes) else P.encode(msg)
                await conn.ws.send_text(frame.decode())
            except Exception:
                return

    async def _close(self, conn: Connection, code: int, why: str) -> None:
        if conn.closed:
            return
        conn.closed = True
        await self._shut(conn, code, why)

    async def _shut(self, conn: Connection, code: int, why: str) -> None:
        """Send the notice saying why (after what is queued), then close with ``code``."""
        conn.outbox.put_nowait(P.Notice(kind=NOTICE_KIND.get(code, "closed"), message=why))
        conn.outbox.put_nowait(None)
        await self._flush(conn)
        with contextlib.suppress(Exception):
            await conn.ws.close(code=code, reason=why[:120])

    @staticmethod
    async def _flush(conn: Connection) -> None:
        """Let the writer send what is queued (at most a second), then stop it."""
        w = conn.writer
        if w is None or w.done():
            return
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(w), 1.0)
        w.cancel()

    async def _drop(self, conn: Connection) -> None:
        if conn.inactivity is not None:
            conn.inactivity.cancel()
        for h in conn.transport_timers:
            h.cancel()
        conn.closed = True
        if self.conns.get(conn.account) is conn:
            del self.conns[conn.account]
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

    def _touch(self, conn: Connection) -> None:
        """A game action: restart the inactivity clock (000: 20 minutes); the login session
        counts as used (recorded at most once a minute)."""
        if conn.inactivity is None:
            conn.inactivity = InactivityTimers(self.srv)
        conn.inactivity.restart(
            lambda: self._warn(conn),
            lambda: self._close(conn, Close.INACTIVE, "disconnected after 20 minutes without play"),
        )
        now = asyncio.get_running_loop().time()
        if now - conn.last_touch >= self.srv.tokens.touch:
            conn.last_touch = now
            self.srv.spawn(self._touch_token(conn.token_hash))

    async def _touch_token(self, hash_: str) -> None:
        with contextlib.suppress(Exception):  # best effort: a missed touch only shortens life
            async with self.srv.db.write() as db:
                await accounts.touch(db, hash_)

    def _warn(self, conn: Connection) -> None:
        if conn.closed:
            return
        conn.outbox.put_nowait(
            P.Notice(
                kind="inactivity_warning",
                message="no game action for a while: you will be disconnected in a minute",
            )
        )

    # -------------------------------------------------------------------- messages
    def _rate_ok(self, conn: Connection) -> bool:
        """At most ``max_messages_per_second``. A message over the limit is answered
        ``rate_limited`` with the seconds to wait, up to as many again in that second; past
        that the client is ignoring the answer: the rest is dropped unanswered (a flood costs
        no replies), and a connection that keeps doing so for ``flood_grace_seconds`` is
        marked ``flooding`` and closed by :meth:`serve` (1008). A bursty client that waits as
        told is never closed."""
        s = self.srv.settings
        now = asyncio.get_running_loop().time()
        if now - conn.window_start >= 1.0:
            if not conn.window_over:
                conn.limited_since = None
            conn.window_start, conn.window_count, conn.window_over = now, 0, False
        conn.window_count += 1
        limit = s.max_messages_per_second
        if conn.window_count <= limit:
            return True
        if conn.window_count <= 2 * limit:
            self.srv.metrics.errors.labels("rate_limited").inc()
            conn.outbox.put_nowait(
                P.Error(
                    code="rate_limited",
                    message="too many messages: slow down",
                    retry_after=round(max(0.0, conn.window_start + 1.0 - now), 3),
                )
            )
            return False
        conn.window_over = True
        if conn.limited_since is None:
            conn.limited_since = now
        elif now - conn.limited_since >= s.flood_grace_seconds:
            conn.flooding = True
        return False

    async def _error(
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

    async def _handle(self, conn: Connection, raw: str) -> None:
        try:
            msg = P.parse_client(raw)
        except P.ProtocolError as e:
            await self._error(conn.account, e.code, e.message)
            return
        if isinstance(msg, P.Ping):
            await self.send(conn.account, P.Pong())
            return
        if isinstance(msg, P.Auth):
            await self._error(
                conn.account, "already_logged_in", "this connection is already logged in"
            )
            return
        await self._route(conn, msg, raw)

    async def _route(self, conn: Connection, msg: P.TableMessage, raw: str | bytes) -> None:
        """To the table's actor here, or (cluster) to the process that owns the table; an
        orphaned table (its process died, its lease expired) is taken over here."""
        actor = self.srv.tables.get(msg.table)
        cluster = self.srv.cluster
        if actor is None and cluster is not None:
            text = raw if isinstance(raw, str) else raw.decode()
            for attempt in range(3):  # a table changing hands: ask again who holds it
                if await cluster.forward(msg.table, conn.account, conn.username, text):
                    if not isinstance(msg, (P.Join, P.Watch, P.Leave)):
                        self._touch(conn)
                    return
                actor = await cluster.adopt(msg.table)
                if actor is not None or attempt == 2:
                    break
                if await cluster.owner_of(msg.table) is None:
                    break  # no such table, or closed: nobody holds it
        if actor is None:
            await self._error(
                conn.account, "no_table", f"table {msg.table} does not exist", msg.table
            )
            return
        if await self._dispatch(conn.account, conn.username, msg, actor):
            self._touch(conn)

    async def apply_remote(self, actor: Table, account: int, username: str, raw: str) -> None:
        """A client's message forwarded by the process holding its socket."""
        try:
            msg = P.parse_client(raw)
        except P.ProtocolError as e:  # it was checked there; never trust the bus either
            await self._error(account, e.code, e.message)
            return
        if not isinstance(msg, (P.Ping, P.Auth)):
            await self._dispatch(account, username, msg, actor)

    async def route_again(self, account: int, username: str, table: int, raw: str) -> None:
        """The owner we forwarded to no longer had the table: ask once more."""
        conn = self.conns.get(account)
        if conn is not None and not conn.closed:
            msg = P.parse_client(raw)
            if not isinstance(msg, (P.Ping, P.Auth)):
                await self._route(conn, msg, raw)

    async def _dispatch(
        self, account: int, username: str, msg: P.TableMessage, actor: Table
    ) -> bool:
        """Apply one client message at a table here; True if it was a game action that
        succeeded (the inactivity clock restarts). A refusal answers ``error`` and the seat's
        current update."""
        try:
            if isinstance(msg, P.Join):
                await actor.join(account, username)
                return False
            if isinstance(msg, P.Leave):
                await actor.leave(account)
                return False
            if isinstance(msg, P.Watch):
                await actor.watch(account, username)
                return False
            if isinstance(msg, P.Start):
                await actor.start(account)
            elif isinstance(msg, P.Act):
                await actor.act(account, msg.state_no, msg.action)
            elif isinstance(msg, P.Stake):
                await actor.stake(account, msg.state_no, msg.amount)
            elif isinstance(msg, P.TopUp):
                key = None if msg.key is None else f"topup:{account}:{msg.key}"
                await actor.top_up(account, msg.amount, key)
            return True
        except MazziereError as e:
            await self._error(account, e.code, e.message, msg.table, actor.state_no)
            await self._resend(account, actor)
        except Exception:  # storage trouble and the like: nothing was applied, keep the socket
            log.exception("table %s: message failed", msg.table)
            await self._error(
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
