"""The live tables: one WebSocket per player at ``/ws`` (docs/protocol.md); the hub takes it
from here.

The socket is served straight from the ASGI entry point (:class:`~mazziere.server.app.App`),
ahead of the framework's router and middleware: a WebSocket lives as long as the player stays,
and each layer it passes keeps its frames and objects alive for that long, a large share of
an idle socket's memory. Nothing there applies to WebSockets: the security headers and the
error handlers are HTTP's."""

from __future__ import annotations

from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from mazziere.server.context import Server

PATH = "/ws"


async def serve_socket(server: Server, scope: Scope, receive: Receive, send: Send) -> None:
    """One socket per player; its first message is ``auth`` with the token."""
    websocket = WebSocket(scope, receive, send)
    await websocket.accept()
    await server.hub.serve(websocket)
