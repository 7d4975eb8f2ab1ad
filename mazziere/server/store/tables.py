"""Table rows of the lobby: create, list the ones not closed, mark a table open or playing."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.store.models import GameTable


async def create(
    db: AsyncSession,
    game: str,
    name: str,
    config: dict[str, Any],
    seats: int,
    created_by: int,
    decision_seconds: float,
) -> GameTable:
    row = GameTable(
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


async def set_status(db: AsyncSession, table_id: int, status: str) -> None:
    """Core UPDATE (no ORM bookkeeping: this runs at every hand's start and end)."""
    t = cast(Table, GameTable.__table__)
    await db.execute(update(t).where(t.c.id == table_id).values(status=status))
