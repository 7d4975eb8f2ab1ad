"""Fencing tokens (docs/scaling.md): a table's writes carry the token of the process that took
it; once another process takes the table with a newer token, the old owner's writes are
refused whole, so a process that paused past its lease cannot change a hand or move money."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from mazziere.server.store import table_rows
from mazziere.server.store.db import Database
from mazziere.server.store.models import HandAction

from .live import live_server


async def test_a_newer_fence_refuses_the_old_owners_writes(database: Database) -> None:
    async with database.write() as db:
        row = await table_rows.create(db, "uno", "t", {}, 2, None, 30.0)
    async with database.write() as db:
        assert await table_rows.take_fence(db, row.id, 1)
    async with database.write() as db:
        await table_rows.check_fence(db, row.id, 1)  # the owner writes
    async with database.write() as db:
        assert await table_rows.take_fence(db, row.id, 2)  # another process takes the table
        assert not await table_rows.take_fence(db, row.id, 1)  # an older token never wins back
    with pytest.raises(table_rows.Fenced) as e:
        async with database.write() as db:
            await table_rows.check_fence(db, row.id, 1)
    assert e.value.code == "table_moved"


async def test_an_action_at_a_table_taken_by_another_process_changes_nothing(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        me = await live.signup("fenna")
        r = await live.post(
            "/api/tables", me["token"], {"game": "uno", "preset": "mattel", "seats": 2}
        )
        table = r.json()["id"]
        actor = live.server.tables[table]
        async with live.server.db.write() as db:
            assert await table_rows.take_fence(db, table, 1)
        actor.fence = 1  # as a process of a cluster holds it
        c = await live.connect(me["token"])
        await c.send({"type": "join", "table": table})
        await c.send({"type": "start", "table": table})
        u = await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        while not u["legal"]:
            u = await c.wait(lambda m, n=u["state_no"]: m["type"] == "table" and m["state_no"] > n)
        async with live.server.db.session() as db:
            steps = await db.scalar(select(func.count()).select_from(HandAction))
        async with live.server.db.write() as db:  # another process took the table meanwhile
            assert await table_rows.take_fence(db, table, 2)
        await c.send(
            {"type": "action", "table": table, "state_no": u["state_no"],
             "action": u["legal"][0]["text"]}
        )  # fmt: skip
        err = await c.wait(lambda m: m["type"] == "error")
        assert err["code"] == "table_moved"
        async with live.server.db.session() as db:
            assert await db.scalar(select(func.count()).select_from(HandAction)) == steps
        assert actor.state_no == u["state_no"]  # nor in memory
        await c.close()
