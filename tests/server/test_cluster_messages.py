"""The messages between server processes (mazziere/server/cluster/messages.py): each one
round-trips through its wire form; the JSON forms are the tagged objects every process reads
(``t`` and the same field names), so processes of two versions can share a bus; anything else
is refused with a typed error; and a process's listener skips a malformed message and goes on
with the next."""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from typing import Any

import msgspec
import pytest

from mazziere.server.cluster.messages import (
    Adopt,
    BusError,
    Call,
    CallError,
    Deliver,
    End,
    Forward,
    Gone,
    Message,
    Moved,
    Replace,
    Reply,
    decode,
    encode,
    framed,
    unbundle,
)

REDIS = os.environ.get("MAZZIERE_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_reachable() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_timeout=2).ping()
        return True
    except Exception:
        return False


REDIS_OK = _redis_reachable()

EVERY: list[tuple[Message, dict[str, Any]]] = [
    (
        Forward(table=3, account=7, name="ann", from_="h.1.aa", raw='{"v":1}'),
        {"t": "msg", "table": 3, "account": 7, "name": "ann", "from": "h.1.aa", "raw": '{"v":1}'},
    ),
    (
        Moved(table=3, account=7, name="ann", raw="x"),
        {"t": "moved", "table": 3, "account": 7, "name": "ann", "raw": "x"},
    ),
    (
        Call(id="k", table=3, op="topup", account=7, name="ann", args=[500, None], from_="p"),
        {
            "t": "call",
            "id": "k",
            "table": 3,
            "op": "topup",
            "account": 7,
            "name": "ann",
            "args": [500, None],
            "from": "p",
        },
    ),
    (
        Reply(id="k", value=2, summary={"id": 3, "status": "open"}),
        {"t": "reply", "id": "k", "value": 2, "summary": {"id": 3, "status": "open"}},
    ),
    (Reply(id="k", moved=True), {"t": "reply", "id": "k", "moved": True}),
    (
        Reply(id="k", error=CallError("table_full", "no free seat")),
        {"t": "reply", "id": "k", "error": {"code": "table_full", "message": "no free seat"}},
    ),
    (Adopt(table=3), {"t": "adopt", "table": 3}),
    (Replace(account=7, serial="2"), {"t": "replace", "account": 7, "serial": "2"}),
    (Gone(account=7, from_="p"), {"t": "gone", "account": 7, "from": "p"}),
    (
        End(hashes=["ab", "cd"], code=4003, why="signed out"),
        {"t": "end", "hashes": ["ab", "cd"], "code": 4003, "why": "signed out"},
    ),
]


@pytest.mark.parametrize(("message", "form"), EVERY, ids=lambda m: type(m).__name__)
def test_every_bus_message_is_a_tagged_json_object_and_round_trips(
    message: Message, form: dict[str, Any]
) -> None:
    data = encode(message)
    assert data[:1] == b"J" and msgspec.json.decode(data[1:]) == form
    assert decode(data) == message
    assert decode(b"J" + msgspec.json.encode(form)) == message  # a dict-built sender alike


def test_a_frame_for_a_socket_travels_untouched_after_its_account() -> None:
    frame = b'{"v":1,"type":"table","table":3}'
    data = encode(Deliver(account=42, frame=frame))
    assert data == b"D42 " + frame
    assert decode(data) == Deliver(42, frame)
    assert decode(b"D42 ") == Deliver(42, b"")


def test_a_reply_with_no_value_is_read_as_none_and_unknown_fields_are_ignored() -> None:
    assert decode(b'J{"t":"reply","id":"k","value":null,"summary":{}}') == Reply(id="k", summary={})
    assert decode(b'J{"t":"adopt","table":3,"later":"a field of a newer process"}') == Adopt(
        table=3
    )


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"X{}",
        b"D7",  # no space: no frame
        b"Dx {}",  # no account
        b"J{",  # not JSON
        b"J[]",
        b'J{"t":"nope"}',  # no such message
        b'J{"table":3}',  # no tag
        b'J{"t":"adopt"}',  # a field missing
        b'J{"t":"adopt","table":"3"}',  # a field of the wrong type
        b'J{"t":"end","hashes":"ab","code":1,"why":""}',
    ],
)
def test_a_malformed_bus_message_is_refused_with_a_typed_error(data: bytes) -> None:
    with pytest.raises(BusError) as e:
        decode(data)
    assert e.value.code == "bus_malformed"


def test_a_bundle_holds_its_parts_in_order_and_one_cut_short_is_refused() -> None:
    parts = [encode(Adopt(table=t)) for t in range(5)] + [b"D1 ", b""]
    data = b"".join(framed(p) for p in parts)
    assert unbundle(data) == parts
    with pytest.raises(BusError):
        unbundle(data + framed(b"Jabc")[:-1])  # its last part cut short


@pytest.mark.skipif(not REDIS_OK, reason="needs Redis (CI has it)")
async def test_the_listener_skips_a_malformed_message_and_takes_the_next(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from mazziere.server.cluster.bus import Bus

    prefix = f"mzt{uuid.uuid4().hex[:8]}:"
    a, b = Bus(REDIS, prefix), Bus(REDIS, prefix)
    got: list[Message] = []
    arrived = asyncio.Event()

    def handle(m: Message) -> None:
        got.append(m)
        if isinstance(m, End):
            arrived.set()

    await b.subscribe()
    listening = asyncio.create_task(b.listen(handle))
    try:
        with caplog.at_level(logging.WARNING, "mazziere.cluster"):
            a.publish(b.proc, b'J{"t":"adopt","table":"3"}')  # malformed, in a bundle
            a.tell(b.proc, Adopt(table=4))
            a.deliver(b.proc, 7, b"{}")
            await a.flush()
            await a.redis.publish(b.channel, b"\0\0\0\xffcut")  # a bundle cut short
            a.tell_everyone(End(hashes=["h"], code=4003, why="out"))
            await a.flush()
            await asyncio.wait_for(arrived.wait(), 5)
        assert got == [Adopt(table=4), Deliver(7, b"{}"), End(hashes=["h"], code=4003, why="out")]
        refused = [r for r in caplog.records if "refused" in r.getMessage()]
        assert len(refused) == 2 and all("bus_malformed" in r.getMessage() for r in refused)
    finally:
        listening.cancel()
        await asyncio.gather(listening, return_exceptions=True)
        await a.close()
        await b.close()
