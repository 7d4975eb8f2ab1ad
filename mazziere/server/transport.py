"""The HTTP/WebSocket transport (uvicorn) configured once from the server's settings, for
``mazziere serve`` and the tests alike: the WebSocket message limit (larger closes with 1009),
ping/pong keepalive (dead peers are dropped), a short close handshake, no per-message
compression (the frames are small JSON; deflating each costs more CPU than it saves), and a
deadline and a per-address cap on requests still being written (:class:`HeadGuard`)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any
from weakref import WeakKeyDictionary

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from mazziere.server.context import Settings

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Http
except ImportError:  # pragma: no cover - httptools is installed with uvicorn[standard]
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Http  # type: ignore[assignment]

CLOSE_TIMEOUT = 2.0
"""Seconds a closed socket's peer has to answer the close (uvicorn waits 10 s and keeps
reading, and discarding, what a flooder sends meanwhile)."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol with a close handshake of :data:`CLOSE_TIMEOUT`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_TIMEOUT


_WRITING: WeakKeyDictionary[ServerState, Counter[str]] = WeakKeyDictionary()
"""Per server: connections still writing a request's head, by client address."""


class HeadGuard(_Http):
    """uvicorn's HTTP protocol with a deadline on a request's head and a cap per address.

    uvicorn times a connection out only between two requests (``timeout_keep_alive``, armed
    when an answer is complete): a connection that opens and writes half a request line, or
    headers without their end, is held for ever, and a few thousand of them take every file
    descriptor of the process. ``h11_max_incomplete_event_size`` bounds a head's size, not its
    time, and ``limit_concurrency`` answers 503 to everyone once the total is reached, the
    good clients first among them. So this protocol closes a connection whose head (the
    request line and headers, a WebSocket's handshake included) is not complete within
    ``head_seconds`` of its opening or of its previous answer, and closes at once a
    connection from an address that already has ``max_heads_per_address`` heads being
    written. Once the head is complete (a request runs, or the socket is a WebSocket) neither
    applies: the WebSocket's own limits take over (``auth_seconds``, pings, silence)."""

    head_seconds = 5.0
    max_per_address = 64

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._timer: asyncio.TimerHandle | None = None
        self._writing: str | None = None
        """The address this connection is counted under while it writes its first head."""
        self._cycle: Any = None
        host = self.client[0] if self.client else ""
        writing = _WRITING.setdefault(self.server_state, Counter())
        if self.max_per_address and writing[host] >= self.max_per_address:
            transport.close()  # this address already has that many requests half-written
            return
        writing[host] += 1
        self._writing = host
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        upgraded = self.transport.get_protocol() is not self
        if upgraded or (self.cycle is not None and self.cycle is not self._cycle):
            self._cycle = self.cycle  # a head is complete: the request or the socket goes on
            self._head_done()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head has the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_done()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._timer is None:
            self._timer = self.loop.call_later(self.head_seconds, self._too_slow)

    def _too_slow(self) -> None:
        self._timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _head_done(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._writing is not None:
            writing = _WRITING.get(self.server_state)
            if writing is not None:
                writing[self._writing] -= 1
                if writing[self._writing] <= 0:
                    del writing[self._writing]
            self._writing = None


def head_guard(settings: Settings) -> type[HeadGuard]:
    """:class:`HeadGuard` with the settings' deadline and cap."""
    return type(
        "ServerHeadGuard",
        (HeadGuard,),
        {
            "head_seconds": settings.head_seconds,
            "max_per_address": settings.max_heads_per_address,
        },
    )


def uvicorn_config(
    app: Any, settings: Settings, host: str, port: int, **extra: Any
) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=head_guard(settings),
        ws=WebSocketProtocol,
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=False,  # small JSON frames: compressing each costs more CPU
        ws_ping_interval=settings.ws_ping_seconds,
        ws_ping_timeout=settings.ws_ping_seconds,
        **extra,
    )
