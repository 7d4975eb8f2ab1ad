"""Every frame gets a typed answer and the connection stays open (deep
JSON, binary frames, invalid UTF-8, anything up to the transport limit); above the transport
limit the socket closes with 1009 and a reason; amounts are JSON integers only and ``v`` is the
integer 1, on the WebSocket (``malformed``) and on REST (422), and nothing moves."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from mazziere.server.store import ledger

from .live import Client, Live, live_server
from .test_live_games import ledger_ok


async def _answer(c: Client, frame: str | bytes, *, text: bool | None = None) -> dict[str, Any]:
    n = len(c.messages)
    await c.send_raw(frame, text=text)
    return await c.wait(lambda m: m["type"] == "error", start=n)


async def _still_open(c: Client) -> None:
    n = len(c.messages)
    await c.send({"type": "ping"})
    await c.wait(lambda m: m["type"] == "pong", start=n)
    assert c.closed is None


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


async def test_every_frame_gets_a_typed_answer_and_the_socket_stays_open(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with live_server(db_url, tmp_path, max_messages_per_second=1000) as live:
        c = await live.connect((await live.signup("frida"))["token"])
        limit = live.server.settings.ws_max_bytes
        cases: list[tuple[str | bytes, bool | None, str]] = [
            ("[" * 1000 + "]" * 1000, None, "malformed"),
            ('{"type": "join", "table": ' + "[" * 1000 + "]" * 1000 + "}", None, "malformed"),
            ("[" * 60_000, None, "too_large"),
            ('{"a":' * 600 + "1" + "}" * 600, None, "malformed"),
            (b'{"v": 1, "type": "ping"}', None, "malformed"),  # a binary frame
            (b"\xff\xfe\xfd not utf-8", None, "malformed"),
            ("", None, "malformed"),
            ("null", None, "malformed"),
            ("{not json", None, "malformed"),
            ('{"v": 1, "type": "ping", "extra": 1}', None, "malformed"),
            ("x" * 5_000, None, "too_large"),
            ("x" * (limit - 16), None, "too_large"),
        ]
        for frame, text, code in cases:
            got = await _answer(c, frame, text=text)
            assert got["code"] == code, (str(frame)[:40], got)
            assert got["message"]
            await _still_open(c)
        _no_traceback(caplog)
        await c.close()


async def test_frame_above_the_transport_limit_closes_with_1009(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with live_server(db_url, tmp_path) as live:
        c = await live.connect((await live.signup("gemma"))["token"])
        await c.ws.send("x" * (live.server.settings.ws_max_bytes + 1))
        if c.reader is not None:
            await c.reader
        assert c.closed is not None
        code, reason = c.closed
        assert code == 1009 and reason, c.closed
        _no_traceback(caplog)


async def test_invalid_utf8_in_a_text_frame_fails_the_connection_with_1007(
    db_url: str, tmp_path: Path
) -> None:
    """RFC 6455 8.1: the WebSocket layer must fail a text frame that is not UTF-8 (1007);
    the same bytes in a binary frame get ``malformed`` and the socket stays open (above)."""
    async with live_server(db_url, tmp_path) as live:
        c = await live.connect((await live.signup("hilda"))["token"])
        await c.ws.send(b"\xff\xfe not utf-8", text=True)
        if c.reader is not None:
            await c.reader
        assert c.closed is not None and c.closed[0] == 1007, c.closed


BAD_AMOUNTS: list[Any] = ["500", 500.0, 1e3, True, " 7 ", None, [500], {"cents": 500}, 2**70]


async def _casino_with_credit(live: Live, name: str) -> tuple[dict[str, Any], Client, int, int]:
    a = await live.signup(name)
    table = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
    c = await live.connect(a["token"])
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table")
    await c.send({"type": "topup", "table": table, "amount": 1_000})
    upd = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 1_000)
    return a, c, table, upd["state_no"]


async def test_amounts_are_json_integers_only(db_url: str, tmp_path: Path) -> None:
    async with live_server(
        db_url, tmp_path, demo_credit=10_000, max_messages_per_second=1000
    ) as live:
        a, c, table, state_no = await _casino_with_credit(live, "ilaria")
        for amount in BAD_AMOUNTS:
            for msg in (
                {"v": 1, "type": "topup", "table": table, "amount": amount},
                {"v": 1, "type": "stake", "table": table, "state_no": state_no, "amount": amount},
            ):
                got = await _answer(c, json.dumps(msg))
                assert got["code"] == "malformed", (msg, got)
            r = await live.post(f"/api/tables/{table}/topup", a["token"], {"amount": amount})
            assert r.status_code == 422 and r.json()["code"] == "malformed", (amount, r.text)
        # the raw text forms too (json.dumps would not write 1e3 or a bare 500.0 this way)
        for raw in ("1e3", "500.0", "5e2", "-0", "0x10"):
            frame = f'{{"v": 1, "type": "topup", "table": {table}, "amount": {raw}}}'
            got = await _answer(c, frame)
            assert got["code"] == "malformed" or (raw == "-0" and got["code"] == "bad_amount")
            r = await live.http.post(
                f"/api/tables/{table}/topup",
                content=f'{{"amount": {raw}}}',
                headers={
                    "Authorization": f"Bearer {a['token']}",
                    "Content-Type": "application/json",
                },
            )
            assert r.status_code in (400, 422), (raw, r.status_code)
        await _still_open(c)
        async with live.server.db.session() as db:
            assert await ledger.balance(db, ledger.wallet(a["account"])) == 9_000
            assert await ledger.balance(db, ledger.HOUSE) == 0
        assert live.server.tables[table].credit == 1_000
        await ledger_ok(live)
        await c.close()


async def test_version_field_is_the_integer_1(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        c = await live.connect((await live.signup("jole"))["token"])
        for v, code in (
            ("1", "malformed"),
            (1.0, "malformed"),
            (True, "malformed"),
            (2, "bad_version"),
            (None, "malformed"),
        ):
            got = await _answer(c, json.dumps({"v": v, "type": "ping"}))
            assert got["code"] == code, (v, got)
        await _still_open(c)
        await c.close()
