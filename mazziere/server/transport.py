"""The HTTP/WebSocket transport (uvicorn) configured once from the server's settings, for
``mazziere serve`` and the tests alike: the WebSocket message limit (larger closes with 1009),
ping/pong keepalive (dead peers are dropped), a short close handshake, and no per-message
compression (the frames are small JSON; deflating each costs more CPU than it saves)."""

from __future__ import annotations

from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from mazziere.server.context import Settings

CLOSE_TIMEOUT = 2.0
"""Seconds a closed socket's peer has to answer the close (uvicorn waits 10 s and keeps
reading, and discarding, what a flooder sends meanwhile)."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol with a close handshake of :data:`CLOSE_TIMEOUT`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_TIMEOUT


def uvicorn_config(
    app: Any, settings: Settings, host: str, port: int, **extra: Any
) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws=WebSocketProtocol,
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=False,  # small JSON frames: compressing each costs more CPU
        ws_ping_interval=settings.ws_ping_seconds,
        ws_ping_timeout=settings.ws_ping_seconds,
        **extra,
    )
