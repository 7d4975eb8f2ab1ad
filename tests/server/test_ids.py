"""Table and hand ids have one range (mazziere/server/ids.py): the protocol's schema, the REST
paths and the database's id columns. An id outside it is answered like an unknown id in it,
``no_table`` or ``no_hand``, on SQLite and PostgreSQL, over the WebSocket and over REST, by
one process or by a cluster of two; the connection stays open and nothing changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Integer

from mazziere.server import ids
from mazziere.server import protocol as P
from mazziere.server.store import models

from .live import Client, Live, live_server
from .test_cluster import needs_both, pg_url, prefix, two

__all__ = ["pg_url", "prefix"]  # fixtures

OUTSIDE = [ids.MAX_ID + 1, 2**53, 2**63, 10**30, 0, -1]
UNKNOWN = ids.MAX_ID  # in the range, and no such table or hand


def test_the_schema_and_the_columns_hold_the_one_range_of_ids() -> None:
    schema = P.json_schema()["$defs"]["Join"]["properties"]["table"]
    assert (schema["minimum"], schema["maximum"]) == (ids.MIN_ID, ids.MAX_ID)
    columns = [
        models.GameTable.__table__.c.id,
        models.Hand.__table__.c.id,
        models.Hand.__table__.c.table_id,
        models.HandAction.__table__.c.hand_id,
        models.HandPlayer.__table__.c.hand_id,
        models.CreditSession.__table__.c.table_id,
    ]
    for column in columns:  # 32-bit signed on PostgreSQL
        assert type(column.type) is Integer and ids.ID_BITS == 32, column


def table_messages(table: int) -> list[dict[str, Any]]:
    return [
        {"type": "join", "table": table},
        {"type": "watch", "table": table},
        {"type": "leave", "table": table},
        {"type": "start", "table": table},
        {"type": "topup", "table": table, "amount": 100},
        {"type": "stake", "table": table, "state_no": 0, "amount": 100},
        {"type": "action", "table": table, "state_no": 0, "action": "draw"},
    ]


async def answered_no_table(c: Client, table: int) -> None:
    for msg in table_messages(table):
        n = len(c.messages)
        await c.send_raw(json.dumps({"v": 1, **msg}))
        m = await c.wait(lambda m: m["type"] == "error", start=n)
        assert (m["code"], m["table"]) == ("no_table", table), (msg, m)
    n = len(c.messages)
    await c.send({"type": "ping"})  # still open
    await c.wait(lambda m: m["type"] == "pong", start=n)


async def rest_answers(http: httpx.AsyncClient, token: str, number: int) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    for path, body in [
        (f"/api/tables/{number}/join", {}),
        (f"/api/tables/{number}/leave", {}),
        (f"/api/tables/{number}/start", {}),
        (f"/api/tables/{number}/topup", {"amount": 100}),
    ]:
        r = await http.post(path, json=body, headers=auth)
        assert r.json()["code"] == "no_table", (path, r.status_code, r.text)
    for path in (f"/api/history/{number}", f"/api/hands/{number}/file"):
        r = await http.get(path, headers=auth)
        assert r.json()["code"] == "no_hand", (path, r.status_code, r.text)


async def check_every_id(live: Live, token: str, wallet: int) -> None:
    c = await live.connect(token)
    for number in [UNKNOWN, *OUTSIDE]:
        await answered_no_table(c, number)
        await rest_answers(live.http, token, number)
    await c.close()
    me = await live.get("/api/me", token)
    assert me["balance"] == wallet  # nothing moved


async def test_ids_outside_the_range_are_unknown_tables_and_hands(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=10_000) as live:
        me = await live.signup("olga")
        await check_every_id(live, me["token"], 10_000)


@needs_both
async def test_ids_outside_the_range_are_unknown_tables_and_hands_in_a_cluster(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        for proc in (a, b):
            async with httpx.AsyncClient(base_url=proc.base, timeout=30) as http:
                live = proc.live(http)
                me = await live.signup(f"olga{proc.port}")
                await check_every_id(live, me["token"], 20_000)


def test_an_integer_table_outside_the_range_is_no_table_and_anything_else_malformed() -> None:
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client('{"v": 1, "type": "join", "table": 2147483648}')
    assert (e.value.code, e.value.table) == ("no_table", 2147483648)
    for raw in (
        '{"v": 1, "type": "join", "table": "7"}',
        '{"v": 1, "type": "join", "table": 7.5}',
        '{"v": 1, "type": "join", "table": true}',
    ):
        with pytest.raises(P.ProtocolError) as e:
            P.parse_client(raw)
        assert e.value.code == "malformed", raw
