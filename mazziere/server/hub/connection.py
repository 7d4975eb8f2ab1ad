"""One player's WebSocket connection: its queue of messages and the writer task that sends
them, and how it closes (a notice saying why after what is queued, then a named close code).

Transport only: what a connection may send and when it is cut off is in :mod:`.guards`, what
its messages do in :mod:`.routing`."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from mazziere.server import protocol as P
from mazziere.server.timers import InactivityTimers

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
    SUSPENDED = 4008
    """The account was suspended in the back office (docs/operators.md)."""
    SELF_EXCLUDED = 4009
    """The player excluded themselves from play (docs/rules/platform.md "Self-exclusion")."""


NOTICE_KIND = {
    Close.REPLACED: "replaced",
    Close.INACTIVE: "inactivity",
    Close.LOGGED_OUT: "logged_out",
    Close.EXPIRED: "expired",
    Close.SILENT: "silent",
    Close.SUSPENDED: "suspended",
    Close.SELF_EXCLUDED: "self_excluded",
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

    async def write(self) -> None:
        """The writer: send each queued message (encoded here unless it came encoded) until
        the end mark (``None``) or a failed send."""
        while True:
            msg = await self.outbox.get()
            if msg is None:
                return
            try:
                frame = msg if isinstance(msg, bytes) else P.encode(msg)
                await self.ws.send_text(frame.decode())
            except Exception:
                return

    async def close(self, code: int, why: str) -> None:
        """Close with ``code``, saying why (once: a closed connection stays as it is)."""
        if self.closed:
            return
        self.closed = True
        await self.shut(code, why)

    async def shut(self, code: int, why: str) -> None:
        """Send the notice saying why (after what is queued), then close with ``code``."""
        self.outbox.put_nowait(P.Notice(kind=NOTICE_KIND.get(code, "closed"), message=why))
        self.outbox.put_nowait(None)
        await self.flush()
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, reason=why[:120])

    async def flush(self) -> None:
        """Let the writer send what is queued (at most a second), then stop it."""
        w = self.writer
        if w is None or w.done():
            return
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(w), 1.0)
        w.cancel()
