"""Table rows of the lobby: create, list the ones not closed, mark a table open or playing."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import (
    BigInteger,
    CursorResult,
    Integer,
    Table,
    bindparam,
    func,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.errors import MazziereError
from mazziere.server.store.db import defer_check, defer_insert
from mazziere.server.store.hot import Hot, driver
from mazziere.server.store.models import GameTable

_TABLES = cast(Table, GameTable.__table__)
_STATUS = Hot(
    update(_TABLES).where(_TABLES.c.id == bindparam("table")).values(status=bindparam("to"))
)
_HELD = (
    func.unnest(
        bindparam("ids", type_=ARRAY(Integer)), bindparam("fences", type_=ARRAY(BigInteger))
    )
    .table_valued("id", "fence")
    .render_derived()
)
_FENCES_PG = Hot(
    None,
    update(_TABLES)
    .where(_TABLES.c.id == _HELD.c.id, _TABLES.c.fence == _HELD.c.fence)
    .values(fence=_TABLES.c.fence)
    .returning(_TABLES.c.id),
)
"""PostgreSQL's form of :func:`check_fences`: the pairs as two arrays, one statement text
whatever their number (the ``IN`` list of pairs is compiled anew for every batch size)."""


async def create(
    db: AsyncSession,
    game: str,
    name: str,
    config: dict[str, Any],
    seats: int,
    created_by: int,
    decision_seconds: float,
    rematch_of: int | None = None,
) -> GameTable:
    """A new table's row (``rematch_of``: the table whose rematch it is; a second rematch of
    the same table is refused by the unique key, whoever asks, on any process)."""
    row = GameTable(
        rematch_of=rematch_of,
        game=game,
        name=name,
        config=config,
        seats=[None] * seats,
        status="open",
        created_by=created_by,
        decision_seconds=decision_seconds,
    )
    db.add(row)
    await db.flush()
    return row


async def not_closed(db: AsyncSession) -> list[GameTable]:
    """Every table to load at start (crash recovery)."""
    return list((await db.scalars(select(GameTable).where(GameTable.status != "closed"))).all())


async def not_closed_ids(db: AsyncSession) -> list[int]:
    """The ids of every table not closed (a cluster's scan for tables no process holds)."""
    t = cast(Table, GameTable.__table__)
    return list((await db.scalars(select(t.c.id).where(t.c.status != "closed"))).all())


async def set_status(db: AsyncSession, table_id: int, status: str) -> None:
    """A hot statement (:mod:`.hot`): this runs at every hand's start and end; in a group
    commit, with every other job's in one executemany at its end (in the order they came)."""
    row = {"table": table_id, "to": status}
    if not defer_insert(db, _STATUS, [row]):
        await _STATUS.execute(db, row)


class Fenced(MazziereError):
    """This process no longer owns the table: another took it with a newer fencing token."""

    default_code = "table_moved"


async def take_fence(db: AsyncSession, table_id: int, token: int) -> bool:
    """Record ``token`` as the table's fence if it is newer than the one stored (a process
    taking the table); False if a newer owner already took it."""
    t = cast(Table, GameTable.__table__)
    res = await db.execute(
        update(t).where(t.c.id == table_id, t.c.fence < token).values(fence=token)
    )
    return bool(cast(CursorResult[Any], res).rowcount)


async def take_fenced_row(db: AsyncSession, table_id: int, token: int) -> GameTable | None:
    """:func:`take_fence` for a table not closed, and its row as fenced, in one statement
    (a takeover loads many tables at once); None if the table is closed or a newer owner
    already took it."""
    t = cast(Table, GameTable.__table__)
    taken = (
        update(GameTable)
        .where(t.c.id == table_id, t.c.fence < token, t.c.status != "closed")
        .values(fence=token)
        .returning(GameTable)
    )
    row: GameTable | None = (await db.scalars(taken)).one_or_none()
    return row


async def check_fence(db: AsyncSession, table_id: int, token: int) -> None:
    """Refuse the transaction unless ``token`` is still the table's fence. An UPDATE (not a
    SELECT): it locks the row until this transaction ends, so a new owner's :func:`take_fence`
    waits for it, and then reads everything it wrote.

    In a group commit the check is deferred to the end of the batch and made once for every
    table of the batch (:func:`check_fences`): still in the same transaction, before its
    commit, so a write is refused exactly when it would have been refused here."""
    if not defer_check(db, check_fences, (table_id, token)):
        await check_fences(db, [(table_id, token)])


async def check_fences(db: AsyncSession, fences: list[tuple[int, int]]) -> None:
    """One UPDATE that locks every ``(table, token)`` row still holding its token; raises
    :class:`Fenced` naming the first table whose fence moved on."""
    t = _TABLES
    wanted = dict(fences)
    if await driver(db) is not None:
        ids = list(wanted)
        held = set(await _FENCES_PG.column(db, {"ids": ids, "fences": [wanted[i] for i in ids]}))
    else:
        held = set(
            (
                await db.scalars(
                    update(t)
                    .where(tuple_(t.c.id, t.c.fence).in_(list(wanted.items())))
                    .values(fence=t.c.fence)
                    .returning(t.c.id)
                )
            ).all()
        )
    for table_id in wanted:
        if table_id not in held:
            raise Fenced(f"table {table_id} is now served by another process", "table_moved")
