"""The WebSocket protocol: every message defined once as a typed, versioned schema.

Client messages carry ``v`` (protocol version) and, when they act on a table, the table's
``state_no``: a stale number is refused (``stale_state``) and changes nothing. Server messages
are what a client may see: only its own view. ``docs/protocol.md`` documents each one; the JSON
Schema in ``docs/protocol.schema.json`` is generated from these classes (``python -m
mazziere.server.protocol``) and a test fails if it is out of date.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

VERSION = 1
MAX_MESSAGE_BYTES = 4096


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Literal[1] = 1


# ------------------------------------------------------------------------- client -> server
class Join(_Msg):
    """Sit at a table (a free seat), or return to one's seat after a reconnection."""

    type: Literal["join"]
    table: int


class Leave(_Msg):
    """Leave a table (casino: closes the session; two-player online UNO: abandons)."""

    type: Literal["leave"]
    table: int


class Start(_Msg):
    """Start the game at a table once the seats are filled (bots fill empty ones)."""

    type: Literal["start"]
    table: int


class Act(_Msg):
    """A game action in its text form (UNO ``R7``, ``W:G``, ``draw``; casino the same; poker
    ``open 10``, ``wait``, ``raise 10``, ``replace``, ``fold``, ``see``, ``draw 7h 2c``)."""

    type: Literal["action"]
    table: int
    state_no: int
    action: Annotated[str, Field(min_length=1, max_length=80)]


class Stake(_Msg):
    """Casino: start a round with a stake in cents from the session credit."""

    type: Literal["stake"]
    table: int
    state_no: int
    amount: int


class TopUp(_Msg):
    """Casino: move cents from the wallet into the table session's credit. A client that may
    retry sends a ``key``: the same key never moves money twice."""

    type: Literal["topup"]
    table: int
    amount: int
    key: Annotated[str, Field(min_length=1, max_length=80)] | None = None


class Ping(_Msg):
    type: Literal["ping"]


ClientMessage = Annotated[
    Join | Leave | Start | Act | Stake | TopUp | Ping, Field(discriminator="type")
]
CLIENT = TypeAdapter(ClientMessage)


# ------------------------------------------------------------------------- server -> client
class Hello(_Msg):
    """Sent once when a connection is accepted."""

    type: Literal["hello"] = "hello"
    account: int
    username: str
    tables: list[int]


class TableUpdate(_Msg):
    """The table as this player may see it, after every change. ``view`` is the game's view
    for this seat only; ``events`` what this seat may see of what just happened."""

    type: Literal["table"] = "table"
    table: int
    game: str
    state_no: int
    status: str
    seat: int | None
    seats: list[dict[str, Any]]
    view: dict[str, Any] | None
    legal: list[str]
    events: list[str]
    time_left: float | None
    """Seconds left for the pending decision (``None``: no timer runs)."""
    log: list[str]


class Error(_Msg):
    """A refused message: a stable ``code`` and words saying why. Nothing changed."""

    type: Literal["error"] = "error"
    code: str
    message: str
    table: int | None = None
    state_no: int | None = None


class Notice(_Msg):
    """Something the player must know: ``inactivity_warning``, ``replaced`` (another login),
    ``session_closed``, ``seat_held``, ``auto_played``..."""

    type: Literal["notice"] = "notice"
    kind: str
    message: str
    table: int | None = None


class Pong(_Msg):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[Hello | TableUpdate | Error | Notice | Pong, Field(discriminator="type")]
SERVER = TypeAdapter(ServerMessage)


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def parse_client(raw: str | bytes) -> Join | Leave | Start | Act | Stake | TopUp | Ping:
    """Validate one client message: size, JSON, schema, version."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_json", "a message is one JSON object") from None
    if isinstance(data, dict) and data.get("v", VERSION) != VERSION:
        raise ProtocolError("bad_version", f"this server speaks protocol version {VERSION}")
    try:
        return CLIENT.validate_python(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ProtocolError("bad_message", f"{where}: {first.get('msg', 'invalid')}") from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, both directions."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "mazziere protocol",
        "version": VERSION,
        "client": CLIENT.json_schema(),
        "server": SERVER.json_schema(),
    }


if __name__ == "__main__":  # pragma: no cover - regenerates docs/protocol.schema.json
    json.dump(json_schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
