"""The WebSocket protocol: every message defined once as a typed, versioned, strict schema.

Messages are msgspec Structs, decoded strictly: an amount is a JSON integer (``"500"``,
``500.0``, ``1e3``, ``true`` are refused), ``v`` is the integer 1, unknown fields are refused.
Decoding into these types never builds deeply nested values (a field that wants an integer
stops at the first ``[``), so a thousand-level document is refused at once, without recursion.

Client messages carry ``v`` (protocol version) and, when they act on a table, the table's
``state_no``: a stale number is refused (``stale_state``) and changes nothing. The first message
of a connection is ``auth`` with the session token (never in the URL, so it stays out of access
logs). Server messages are what a client may see: only its own view. ``docs/protocol.md``
documents each one; the JSON Schema in ``docs/protocol.schema.json`` is generated from these
classes (``python -m mazziere.server.protocol``) and a test fails if it is out of date.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any, Literal

import msgspec

from mazziere.server.ids import MAX_ID, MIN_ID

VERSION = 1
MAX_MESSAGE_BYTES = 4096
"""Largest client message the protocol accepts (``too_large`` above it, up to the transport
limit, where the WebSocket layer closes with 1009)."""

Text80 = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
REASON_LENGTH = 500
"""Most characters of the reason a back-office action gives (the audit log keeps it)."""
ReasonText = Annotated[str, msgspec.Meta(min_length=1, max_length=REASON_LENGTH)]
Address = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
"""A client's network address as the audit log names it."""
MAX_CENTS = 2**53
"""Largest amount a message may carry (JSON numbers are exact up to 2**53); the actors then
refuse what the rules refuse (``bad_amount``, ``stake_not_positive``...)."""
Cents = Annotated[int, msgspec.Meta(ge=-MAX_CENTS, le=MAX_CENTS)]
TableId = Annotated[int, msgspec.Meta(ge=MIN_ID, le=MAX_ID)]
"""A table's id, in the one range of ids (:mod:`mazziere.server.ids`); an integer outside it
is answered ``no_table``, as an unknown id is."""


class _Msg(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    v: Literal[1] = 1


# ------------------------------------------------------------------------- client -> server
class Auth(_Msg, tag="auth"):
    """The first message of a connection: the session token from ``/api/login``."""

    token: Token


class Join(_Msg, tag="join"):
    """Sit at a table (a free seat), or return to one's seat after a reconnection."""

    table: TableId


class Leave(_Msg, tag="leave"):
    """Leave a table (casino: closes the session; two-player online UNO: abandons)."""

    table: TableId


class Watch(_Msg, tag="watch"):
    """Watch a table without a seat (a spectator): ``table`` updates with the view for no seat
    (no hand), no legal actions and ``watching`` true, until ``leave`` or the connection ends."""

    table: TableId


class Start(_Msg, tag="start"):
    """Start the game at a table once the seats are filled (bots fill empty ones)."""

    table: TableId


class Act(_Msg, tag="action"):
    """A game action in its text form (UNO ``R7``, ``W:G``, ``draw``; casino the same; poker
    ``open 10``, ``wait``, ``raise 10``, ``replace``, ``fold``, ``see``, ``draw 7h 2c``)."""

    table: TableId
    state_no: int
    action: Text80


class Stake(_Msg, tag="stake"):
    """Casino: start a round with a stake in cents from the session credit."""

    table: TableId
    state_no: int
    amount: Cents


class TopUp(_Msg, tag="topup"):
    """Casino: move cents from the wallet into the table session's credit. A client that may
    retry sends a ``key``: the same key never moves money twice."""

    table: TableId
    amount: Cents
    key: Text80 | None = None


class CloseTable(_Msg, tag="close"):
    """Close a table (the back office's table verb, run where the table lives; never read from
    a socket: it is no :data:`ClientMessage`). ``note`` is the operator's reason and
    ``address`` where they act from: the audit line is written in the close's own transaction,
    on the process that owns the table."""

    table: TableId
    reason: Text80
    note: ReasonText
    address: Address


class Ping(_Msg, tag="ping"):
    """Keeps the connection alive; answered by ``pong``."""


ClientMessage = Auth | Join | Watch | Leave | Start | Act | Stake | TopUp | Ping
TableMessage = Join | Watch | Leave | Start | Act | Stake | TopUp
_CLIENT = msgspec.json.Decoder(ClientMessage)


# ------------------------------------------------------------------------- server -> client
class Hello(_Msg, tag="hello"):
    """Sent once when a connection is accepted (after ``auth``)."""

    account: int
    username: str
    tables: list[int]


# ------------------------------------------------------------------------- table notes
class _Note(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="note"):
    """One line of a table's running log (``log`` of the ``table`` message), typed by ``note``:
    a client words it in its own language and names players by their names."""


class Seated(_Note, tag="seated"):
    """``name`` sat down at ``seat``."""

    seat: int
    name: str


class SeatLeft(_Note, tag="left"):
    """``name`` left ``seat``."""

    seat: int
    name: str


class Substituted(_Note, tag="substituted"):
    """``name`` left a game in progress; a computer player (``bot``) takes ``seat``."""

    seat: int
    name: str
    bot: str


class SeatHeld(_Note, tag="held"):
    """``name`` lost the connection; ``seat`` is held for a while."""

    seat: int
    name: str


class HandStarted(_Note, tag="hand_started"):
    """Hand record ``hand`` started; ``commitment`` is the SHA-256 of its seed (the seed is
    revealed in the hand's history once it is over)."""

    hand: int
    commitment: str


class HandOver(_Note, tag="hand_over"):
    """Hand record ``hand`` is over; ``result`` is the game's outcome (winner, reason...);
    ``seed`` is its seed, revealed now: its SHA-256 is the commitment of ``hand_started``, and
    the hand replays from it (docs/verify.md)."""

    hand: int
    result: dict[str, Any]
    seed: str | None = None


class TimedOut(_Note, tag="timed_out"):
    """The decision time of ``name`` at ``seat`` ran out and the server decided: ``actions``
    are the moves it made, structured like ``legal`` (``{"text", "kind", ...fields}``); none
    when the time-out itself ended the game (two-player online UNO)."""

    seat: int
    name: str
    actions: list[dict[str, Any]]


class SessionClosed(_Note, tag="session_closed"):
    """The table's money session closed (``reason``: ``left``, ``disconnected``, ``restart``);
    ``credited`` cents went back to the wallet."""

    reason: str
    credited: int


class Back(_Note, tag="back"):
    """``name``, whose ``seat`` was held (:class:`SeatHeld`), is back."""

    seat: int
    name: str


class Closed(_Note, tag="closed"):
    """The table closed (``reason``: ``abandoned``, no human player left; ``operator``, closed
    from the back office, its players made to leave first; a match in progress was first
    played to its end by the computer players). It leaves the lobby."""

    reason: str


class StartsSoon(_Note, tag="starts_soon"):
    """A table that starts by itself (quick play, a rematch) starts in ``seconds``, computer
    players in the seats still free; at once when the players it waits for are all seated."""

    seconds: float


TableNote = (
    Seated
    | SeatLeft
    | Substituted
    | SeatHeld
    | Back
    | HandStarted
    | HandOver
    | TimedOut
    | SessionClosed
    | Closed
    | StartsSoon
)


class Recent(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """One line of a seat's play-by-play (``recent`` of a full ``table`` update): an ``event``
    (as in ``events``) or a ``note`` (as in ``log``)."""

    event: dict[str, Any] | None = None
    note: TableNote | None = None


class TableUpdate(_Msg, tag="table"):
    """The table as this player may see it, after every change. ``view`` is the game's view
    for this seat only; ``events`` what this seat may see of what just happened.

    An update carries what changed since this seat's previous one (``full`` false): the notes
    it has not received yet and the seat list only when it changed. A client keeps the last
    seat list and appends the notes. A full update (``full`` true) is sent on joining the
    table and on coming back to it (every ``join``, a reconnection), to a player who just
    left (``seat`` ``None``) and to a seat that fell behind further than the table's log
    holds: it carries the seat list and the table's last 10 notes, which the client takes in
    place of what it had (skipping the notes it already showed, by their numbers)."""

    table: int
    game: str
    state_no: int
    status: str
    seat: int | None
    full: bool
    """A full update: ``seats`` is present and ``log`` holds the table's last notes (up to
    10); otherwise the update says only what changed since this seat's previous one."""
    seats: list[dict[str, Any]] | None
    """The public seat list (``name``, ``bot``, ``connected``, ``free`` of each seat), or
    ``None`` when it did not change since this seat's previous update (keep the last one).
    Always present in a full update."""
    view: dict[str, Any] | None
    legal: list[dict[str, Any]]
    """This seat's legal actions, structured: ``{"text", "kind", ...fields}`` (the game's
    ``actions`` schema under ``games``); a client sends back ``text``."""
    events: list[dict[str, Any]]
    """What this seat may see of what just happened, structured: ``{"type", ...fields}`` (the
    game's ``events`` schema under ``games``), plus the table's own ``hand_started`` (``id``),
    ``session_closed`` (``credited``, ``reason``) and ``auto_played`` (``seat``). An event
    that tells a move the server made for a seat whose time ran out carries ``auto`` true (the
    ``timed_out`` note names that move: a log shows it once)."""
    time_left: float | None
    """Seconds left for the pending decision (``None``: no timer runs)."""
    log: list[TableNote]
    """Notes of the table's running log (who sat down or left, hands started and over,
    time-outs, sessions closed), oldest first, each typed by ``note``: those this seat has not
    received yet, or in a full update the table's last ones (up to 10)."""
    log_from: int
    """The number of the first note of ``log``: the table numbers its notes 0, 1, 2... as
    they happen, so ``log[i]`` is note ``log_from + i``, and a client that has shown notes up
    to ``log_from - 1`` shows every note once. With ``log`` empty, the number the next note
    will have. The count starts again from 0 when the server restarts: a full update whose
    notes end before the number a client expects starts the client's count again."""
    watching: bool = False
    """An update for a spectator (``watch``): ``seat`` is ``None``, ``view`` is the game's view
    for no seat (no hand is shown), ``legal`` is empty and ``events`` are those anyone may see."""
    recent: list[Recent] | None = None
    """In a full update to a seated player: its recent play-by-play (up to 60 lines), oldest
    first, the events it was sent and the table's notes in the order they happened, this
    update's ``events`` and ``log`` included: a page that opens the table (a reload, a second
    device) or comes back to it shows its log from these lines in place of what it had.
    ``None`` in every other update."""


class Error(_Msg, tag="error"):
    """A refused message: a stable ``code`` and words saying why. Nothing changed."""

    code: str
    message: str
    table: int | None = None
    state_no: int | None = None
    retry_after: float | None = None
    """``rate_limited``: seconds until messages are taken again; ``table_moving`` (the table's
    server died and another takes it over): seconds until the message can be sent again."""
    limit: str | None = None
    """``limit_exceeded``: the limit a top-up or stake would break (``topup_day``...,
    ``loss_month``, ``session_minutes``, ``casino_session_cap``)."""
    left: int | None = None
    """``limit_exceeded``: what that limit still allows (cents; minutes for
    ``session_minutes``)."""


class Notice(_Msg, tag="notice"):
    """Something the player must know: ``inactivity_warning``, ``replaced`` (another login),
    ``logged_out``, ``expired``, ``session_closed``, ``seat_held``, ``auto_played``..."""

    kind: str
    message: str
    table: int | None = None


class Pong(_Msg, tag="pong"):
    """The answer to ``ping``."""


class RealityCheck(_Msg, tag="reality_check"):
    """A reality check is due (docs/rules/platform.md "Limits and reality checks"): time
    played and the net result since the login. Casino stakes and top-ups are refused
    (``reality_check_due``) until the player answers ``POST /api/me/reality-check``
    (``continue``, or ``leave``: the tables left and the login ended)."""

    played_seconds: int
    net: int
    """Casino payouts minus stakes since the login, in cents."""
    minutes: int
    """The player's rhythm: the next check comes this long after "continue"."""


ServerMessage = Hello | TableUpdate | Error | Notice | Pong | RealityCheck

_ENCODER = msgspec.json.Encoder()


def encode(message: ServerMessage | dict[str, Any]) -> bytes:
    """A server message as JSON bytes (msgspec: no intermediate dict for Structs)."""
    return _ENCODER.encode(message)


def encode_client(message: ClientMessage) -> bytes:
    """A client message as JSON bytes (a process forwarding one it made itself)."""
    return _ENCODER.encode(message)


class ProtocolError(Exception):
    """A client message that cannot be taken: ``malformed``, ``too_large`` or ``bad_version``;
    ``no_table`` (with ``table``) for a table id outside the range of ids."""

    def __init__(self, code: str, message: str, table: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.table = code, message, table


def parse_client(raw: str | bytes) -> ClientMessage:
    """Validate one client message: size, UTF-8, JSON, schema (strict), version."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        msg: ClientMessage = _CLIENT.decode(raw)
        return msg
    except msgspec.ValidationError as e:
        where = str(e)
        if where.endswith("at `$.table`") and (table := _table_of(raw)) is not None:
            raise ProtocolError("no_table", f"table {table} does not exist", table) from None
        if "at `$.v`" in where and _version_of(raw) not in (None, VERSION):
            raise ProtocolError(
                "bad_version", f"this server speaks protocol version {VERSION}"
            ) from None
        raise ProtocolError("malformed", f"not a valid message: {where}") from None
    except msgspec.DecodeError as e:
        raise ProtocolError("malformed", f"a message is one JSON object in UTF-8: {e}") from None


class _Version(msgspec.Struct):
    v: Any = None


def _version_of(raw: str | bytes) -> Any:
    try:
        v = msgspec.json.decode(raw, type=_Version).v
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    # only an integer other than 1 is another version; "1", 1.0, true are malformed
    return v if isinstance(v, int) and not isinstance(v, bool) else None


class _Table(msgspec.Struct):
    table: int | None = None  # an integer, or refused at its first character (never nested)


def _table_of(raw: str | bytes) -> int | None:
    """The integer ``table`` of a message refused for it (an id outside the range), if any."""
    try:
        t = msgspec.json.decode(raw, type=_Table).table
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, both directions (generated by msgspec)."""
    (client, server), components = msgspec.json.schema_components(
        [ClientMessage, ServerMessage], ref_template="#/$defs/{name}"
    )
    from mazziere.game import find_game, game_names

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "mazziere protocol",
        "version": VERSION,
        "max_message_bytes": MAX_MESSAGE_BYTES,
        "client": client,
        "server": server,
        "$defs": components,
        "games": {name: find_game(name).wire_schema() for name in game_names()},
    }


if __name__ == "__main__":  # pragma: no cover - regenerates docs/protocol.schema.json
    import json

    json.dump(json_schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
