"""The messages server processes send each other over Redis pub/sub, as typed msgspec Structs
(as :mod:`mazziere.server.protocol` does for the client protocol), with their one codec.

Two wire forms, and a bundle:

- ``D<account> <frame>`` (:class:`Deliver`): a frame for a player's socket, encoded once by the
  table's owner and written to the socket by the process holding it, never decoded on the way.
- ``J<json>``: every other message, a JSON object tagged by ``t`` (``msg``, ``moved``,
  ``call``, ``reply``, ``replace``, ``gone``, ``adopt``, ``end``). Unknown fields are ignored
  (a process may read what a process of newer code adds); the fields it knows are checked
  strictly (an account is a JSON integer, never ``"7"``).
- A pub/sub message to one process is a bundle of such parts, each prefixed by its length
  (4 bytes, big-endian): what one event-loop turn queues for a process goes as one message.
  A message to every process (the ``all`` channel) is one part, unbundled.

The forms are kept stable (a new field is optional, and ignored by whoever does not know it),
so that processes of two versions can run side by side through a rolling restart. Anything
else is refused with :class:`BusError`, a typed error the listener logs and skips.

>>> data = encode(Gone(account=7, from_="host.12.abcdef"))
>>> data
b'J{"t":"gone","account":7,"from":"host.12.abcdef"}'
>>> decode(data)
Gone(account=7, from_='host.12.abcdef')
>>> decode(encode(Deliver(account=7, frame=b'{"type":"table"}')))
Deliver(account=7, frame=b'{"type":"table"}')
>>> unbundle(framed(b"Jab") + framed(b"D7 x"))
[b'Jab', b'D7 x']
>>> try:
...     decode(b'J{"t":"gone","account":"7","from":"p"}')
... except BusError as e:
...     print(e)
[bus_malformed] Expected `int`, got `str` - at `$.account`
"""

from __future__ import annotations

from typing import Any

import msgspec

from mazziere.errors import MazziereError


class BusError(MazziereError):
    """A message on the bus that is none of :data:`Message`: not ``D`` or ``J``, bad JSON, an
    unknown ``t``, a missing or mistyped field, or a bundle cut short."""

    default_code = "bus_malformed"


class _Json(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="t"):
    """A ``J`` message: a JSON object tagged by ``t``."""


# ------------------------------------------------------------------------- table traffic
class Forward(_Json, tag="msg"):
    """A client's message for a table owned elsewhere, sent as it came (its door validated it)
    to the owner, which applies it as a local one."""

    table: int
    account: int
    name: str
    from_: str = msgspec.field(name="from")
    """The door: the process holding the player's socket."""
    raw: str


class Moved(_Json, tag="moved"):
    """The answer to :class:`Forward` from a process that no longer owns the table: the door
    looks for the owner again and sends the message there."""

    table: int
    account: int
    name: str
    raw: str


class Call(_Json, tag="call"):
    """A REST operation on a table (``join``, ``leave``, ``start``, ``topup``) for its owner,
    answered by a :class:`Reply` with the same ``id``."""

    id: str
    table: int
    op: str
    account: int
    name: str
    args: list[Any]
    from_: str = msgspec.field(name="from")


class CallError(msgspec.Struct, frozen=True):
    """The typed error a :class:`Call` raised on the owner, raised again by the caller."""

    code: str
    message: str


class Reply(_Json, tag="reply"):
    """The owner's answer to a :class:`Call`: the operation's ``value`` and the table's lobby
    ``summary``, or its ``error``, or ``moved`` (the table is no longer there: ask again)."""

    id: str
    moved: bool = False
    value: Any = None
    summary: dict[str, Any] | None = None
    error: CallError | None = None


class Adopt(_Json, tag="adopt"):
    """Take this table: its lease was just released for the receiver (load balancing)."""

    table: int


# ------------------------------------------------------------------------- presence
class Replace(_Json, tag="replace"):
    """The account logged in on another process: close its socket here (4001) if it is still
    the connection numbered ``serial``."""

    account: int
    serial: str


class Gone(_Json, tag="gone"):
    """The account's socket on process ``from`` closed: its seats at the receiver's tables are
    held as after any disconnection."""

    account: int
    from_: str = msgspec.field(name="from")


class End(_Json, tag="end"):
    """Sessions revoked (their token hashes): every process closes their sockets with
    ``code`` and ``why``. Sent on the ``all`` channel."""

    hashes: list[str]
    code: int
    why: str


# ------------------------------------------------------------------------- frames
class Deliver(msgspec.Struct, frozen=True):
    """A frame for ``account``'s socket, already encoded (``D<account> <frame>``)."""

    account: int
    frame: bytes


Json = Forward | Moved | Call | Reply | Adopt | Replace | Gone | End
Message = Deliver | Json
"""Every message of the bus."""

_encode_json = msgspec.json.Encoder().encode
_decode_json = msgspec.json.Decoder(Json).decode


def encode(message: Message) -> bytes:
    """``message`` in its wire form (a frame is copied as it is, never re-encoded)."""
    if isinstance(message, Deliver):
        return b"D%d " % message.account + message.frame
    return b"J" + _encode_json(message)


def decode(data: bytes) -> Message:
    """One part of a bus message as its Struct; :class:`BusError` if it is none."""
    kind = data[:1]
    if kind == b"D":
        head, space, frame = data.partition(b" ")
        if not space or not head[1:].isdigit():
            raise BusError(f"a frame without its account: {data[:40]!r}")
        return Deliver(int(head[1:]), frame)
    if kind == b"J":
        try:
            message: Json = _decode_json(data[1:])
        except msgspec.DecodeError as e:  # ValidationError too
            raise BusError(str(e)) from None
        return message
    raise BusError(f"neither a frame (D) nor a JSON message (J): {data[:40]!r}")


def framed(part: bytes) -> bytes:
    """``part`` prefixed by its length, for a bundle."""
    return len(part).to_bytes(4, "big") + part


def unbundle(data: bytes) -> list[bytes]:
    """The parts of a bundle; :class:`BusError` if one is cut short."""
    parts: list[bytes] = []
    at = 0
    while at < len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        if at + 4 + size > len(data):
            raise BusError(f"a bundle cut short: part of {size} bytes at byte {at}")
        parts.append(data[at + 4 : at + 4 + size])
        at += 4 + size
    return parts
