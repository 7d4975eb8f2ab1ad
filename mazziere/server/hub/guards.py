"""What keeps a connection within bounds: the rate limit with its flood cut-off, the silent
socket's time-out, the token's expiry or revocation reaching an open socket, and the
inactivity warning and disconnection.

Transport timers (silence, flood grace, token expiry) run on the event loop's real time; the
inactivity clock on the server's clock, which tests drive."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from mazziere.server import protocol as P
from mazziere.server.hub.connection import Close, Connection
from mazziere.server.store import accounts
from mazziere.server.timers import InactivityTimers

if TYPE_CHECKING:
    from mazziere.server.ports import HubRuntime


class Guards:
    """The guards of every connection of one hub."""

    def __init__(self, srv: HubRuntime) -> None:
        self.srv = srv

    def stop(self, conn: Connection) -> None:
        """The connection ended: no guard of it fires any more."""
        if conn.inactivity is not None:
            conn.inactivity.cancel()
        for h in conn.transport_timers:
            h.cancel()

    # -------------------------------------------------------------------- rate limit
    def rate_ok(self, conn: Connection) -> bool:
        """At most ``max_messages_per_second``. A message over the limit is answered
        ``rate_limited`` with the seconds to wait, up to as many again in that second; past
        that the client is ignoring the answer: the rest is dropped unanswered (a flood costs
        no replies), and a connection that keeps doing so for ``flood_grace_seconds`` is
        marked ``flooding`` and closed by the hub (1008). A bursty client that waits as told
        is never closed."""
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

    # -------------------------------------------------------------------- token
    def watch_token(self, conn: Connection, ends_at: datetime) -> None:
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
            await conn.close(Close.EXPIRED, "this session has ended: log in again")
        elif policy.ends_at(row) <= datetime.now(UTC):
            await conn.close(Close.EXPIRED, "this session expired: log in again")
        else:
            self.watch_token(conn, policy.ends_at(row))

    # -------------------------------------------------------------------- silence
    def watch_silence(self, conn: Connection) -> None:
        limit = self.srv.settings.silent_seconds
        loop = asyncio.get_running_loop()

        def check() -> None:
            if conn.closed:
                return
            quiet = loop.time() - conn.last_frame
            if quiet >= limit:
                self.srv.spawn(conn.close(Close.SILENT, f"nothing received for {limit:g} seconds"))
            else:
                conn.transport_timers.append(loop.call_later(limit - quiet, check))

        conn.transport_timers.append(loop.call_later(limit, check))

    # -------------------------------------------------------------------- inactivity
    def touch(self, conn: Connection) -> None:
        """A game action: restart the inactivity clock (000: 20 minutes); the login session
        counts as used (recorded at most once a minute)."""
        if conn.inactivity is None:
            conn.inactivity = InactivityTimers(self.srv)
        conn.inactivity.restart(
            lambda: self._warn(conn),
            lambda: conn.close(Close.INACTIVE, "disconnected after 20 minutes without play"),
        )
        now = asyncio.get_running_loop().time()
        if now - conn.last_touch >= self.srv.tokens.touch:
            conn.last_touch = now
            self.srv.spawn(self._touch_token(conn.token_hash))

    async def _touch_token(self, hash_: str) -> None:
        with contextlib.suppress(Exception):  # best effort: a missed touch only shortens life
            async with self.srv.db.write() as db:
                await accounts.touch(db, hash_)

    @staticmethod
    def _warn(conn: Connection) -> None:
        if conn.closed:
            return
        conn.outbox.put_nowait(
            P.Notice(
                kind="inactivity_warning",
                message="no game action for a while: you will be disconnected in a minute",
            )
        )
