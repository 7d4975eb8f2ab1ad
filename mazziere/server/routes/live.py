"""The live tables: one WebSocket per player (docs/protocol.md); the hub takes it from here."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from mazziere.server.context import Server

router = APIRouter()


@router.websocket("/ws")
async def ws(websocket: WebSocket) -> None:
    """One socket per player; its first message is ``auth`` with the token."""
    server: Server = websocket.app.state.server
    await websocket.accept()
    await server.hub.serve(websocket)
