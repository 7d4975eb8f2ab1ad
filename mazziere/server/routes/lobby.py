"""The lobby: list tables, create one, join, leave, start, top up a casino session."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from mazziere.game import DECISION_SECONDS, DECISION_SECONDS_MAX, TABLE_NAME_MAX
from mazziere.server import protocol as P
from mazziere.server.routes.deps import Body, Me, Srv
from mazziere.server.store import tables as table_rows
from mazziere.server.tables import TableActor, TableError, new_table_config

router = APIRouter(prefix="/api")


class NewTable(Body):
    game: str
    name: str = Field(default="", max_length=TABLE_NAME_MAX)
    preset: str | None = None
    options: dict[str, Any] | None = None
    seats: int | None = None
    bots: str | None = None
    decision_seconds: float = Field(default=DECISION_SECONDS, gt=0, le=DECISION_SECONDS_MAX)
    min_stake: int | None = Field(default=None, ge=0, le=P.MAX_CENTS)
    max_stake: int | None = Field(default=None, ge=0, le=P.MAX_CENTS)
    level: str | None = None


class Amount(Body):
    amount: int = Field(ge=-P.MAX_CENTS, le=P.MAX_CENTS)
    key: str | None = Field(default=None, min_length=1, max_length=80)
    """Idempotency key: a retried request with the same key moves money once."""


def _actor(server: Srv, table_id: int) -> TableActor:
    a = server.tables.get(table_id)
    if a is None:
        raise TableError(f"table {table_id} does not exist", "no_table")
    return a


@router.get("/tables")
async def tables(server: Srv) -> list[dict[str, Any]]:
    return [t.summary() for t in sorted(server.tables.values(), key=lambda t: t.id)]


@router.post("/tables")
async def create_table(body: NewTable, account: Me, server: Srv) -> dict[str, Any]:
    req = body.model_dump(exclude_none=True)
    config, seats = new_table_config(body.game, req)
    async with server.db.write() as db:
        row = await table_rows.create(
            db,
            body.game,
            body.name or f"{body.game} table",
            config,
            seats,
            account.id,
            body.decision_seconds,
        )
    a = TableActor(server, row)
    server.tables[row.id] = a
    return a.summary()


@router.post("/tables/{table_id}/join")
async def join(table_id: int, account: Me, server: Srv) -> dict[str, Any]:
    seat = await _actor(server, table_id).join(account.id, account.username)
    return {"seat": seat, **_actor(server, table_id).summary()}


@router.post("/tables/{table_id}/leave")
async def leave(table_id: int, account: Me, server: Srv) -> dict[str, Any]:
    await _actor(server, table_id).leave(account.id)
    return _actor(server, table_id).summary()


@router.post("/tables/{table_id}/start")
async def start(table_id: int, account: Me, server: Srv) -> dict[str, Any]:
    await _actor(server, table_id).start(account.id)
    return _actor(server, table_id).summary()


@router.post("/tables/{table_id}/topup")
async def topup(table_id: int, body: Amount, account: Me, server: Srv) -> dict[str, Any]:
    key = None if body.key is None else f"topup:{account.id}:{body.key}"
    credit = await _actor(server, table_id).top_up(account.id, body.amount, key)
    return {"credit": credit}
