"""The lobby: list tables, create one, join, leave, start, top up a casino session."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from mazziere.game import (
    BOT_DELAY,
    BOT_DELAY_MAX,
    DECISION_SECONDS,
    DECISION_SECONDS_MAX,
    TABLE_NAME_MAX,
    find_game,
)
from mazziere.server import protocol as P
from mazziere.server.routes.deps import Body, Me, Srv, TableId
from mazziere.server.store import switches, table_rows
from mazziere.server.table.actor import TableActor
from mazziere.server.table.errors import TableError
from mazziere.server.table.verbs import run_op

router = APIRouter(prefix="/api")


class NewTable(Body):
    game: str
    name: str = Field(default="", max_length=TABLE_NAME_MAX)
    preset: str | None = None
    options: dict[str, Any] | None = None
    seats: int | None = None
    bots: str | None = None
    decision_seconds: float = Field(default=DECISION_SECONDS, gt=0, le=DECISION_SECONDS_MAX)
    bot_delay: float = Field(default=BOT_DELAY, ge=0, le=BOT_DELAY_MAX)
    min_stake: int | None = Field(default=None, ge=0, le=P.MAX_CENTS)
    max_stake: int | None = Field(default=None, ge=0, le=P.MAX_CENTS)
    level: str | None = None


class Amount(Body):
    amount: int = Field(ge=-P.MAX_CENTS, le=P.MAX_CENTS)
    key: str | None = Field(default=None, min_length=1, max_length=80)
    """Idempotency key: a retried request with the same key moves money once."""


async def _on_table(
    server: Srv, table_id: int, account: Me, op: str, *args: Any
) -> tuple[Any, dict[str, Any]]:
    """Run a table verb (by name, :mod:`mazziere.server.table.verbs`) where the table lives
    (here, or on its process in a cluster); returns its result and the table's summary after
    it."""
    actor = server.tables.get(table_id)
    cluster = server.cluster
    if actor is None and cluster is not None:
        actor = await cluster.adopt(table_id)  # an orphan is taken here
        if actor is None:
            return await cluster.call(table_id, op, account.id, account.username, list(args))
    if actor is None:
        raise TableError(f"table {table_id} does not exist", "no_table")
    value = await run_op(actor, op, account.id, account.username, list(args))
    return value, actor.summary()


@router.get("/tables")
async def tables(server: Srv) -> list[dict[str, Any]]:
    """The tables a player may join or watch: a closed one (its players all left) is never
    listed, and its actor is let go here."""
    if server.cluster is not None:
        return await server.cluster.summaries()
    for t in [t for t in server.tables.values() if t.status == "closed"]:
        del server.tables[t.id]
    return [t.summary() for t in sorted(server.tables.values(), key=lambda t: t.id)]


async def open_table(
    server: Srv,
    account: int,
    game: str,
    name: str,
    config: dict[str, Any],
    seats: int,
    decision_seconds: float,
    rematch_of: int | None = None,
) -> dict[str, Any]:
    """A new table's row and its actor, here or (several processes) on the least loaded
    process; returns its lobby row. Every way a table is made (the lobby's create, quick
    play, a rematch) passes here, so a game or preset the back office switched off, or a
    money table on software that is not attested, is refused here for all of them."""
    async with server.db.session() as db:
        switches.refuse_if_off(await switches.disabled(db), game, config.get("preset"))
    if find_game(game).table_rules(config).session_money:
        server.attestation.require_for_money()
    token = None
    async with server.db.write() as db:
        row = await table_rows.create(
            db, game, name, config, seats, account, decision_seconds, rematch_of
        )
        if server.cluster is not None:  # owned before any other process can see the row
            token = await server.cluster.take(row.id)
            if token is None:  # pragma: no cover - a fresh id has no lease
                raise TableError("the new table could not be placed; try again", "server_busy")
            row.fence = token
    a = TableActor(server, row)
    if server.cluster is not None and token is not None:
        server.cluster.install(a, token)
        summary = a.summary()
        await server.cluster.place(a)  # to a less loaded process, before anyone sits
        return summary
    server.tables[row.id] = a
    return a.summary()


@router.post("/tables")
async def create_table(body: NewTable, account: Me, server: Srv) -> dict[str, Any]:
    req = body.model_dump(exclude_none=True)
    kind = find_game(body.game)
    config, seats = kind.table_config(req)  # typed errors for a bad request
    config["bot_delay"] = body.bot_delay  # the table's pace, beside its game's config
    # an empty name: the client names the table after its game and number
    return await open_table(
        server, account.id, body.game, body.name, config, seats, body.decision_seconds
    )


@router.post("/tables/{table_id}/join")
async def join(table_id: TableId, account: Me, server: Srv) -> dict[str, Any]:
    seat, summary = await _on_table(server, table_id, account, "join")
    return {"seat": seat, **summary}


@router.post("/tables/{table_id}/leave")
async def leave(table_id: TableId, account: Me, server: Srv) -> dict[str, Any]:
    return (await _on_table(server, table_id, account, "leave"))[1]


@router.post("/tables/{table_id}/start")
async def start(table_id: TableId, account: Me, server: Srv) -> dict[str, Any]:
    return (await _on_table(server, table_id, account, "start"))[1]


@router.post("/tables/{table_id}/topup")
async def topup(table_id: TableId, body: Amount, account: Me, server: Srv) -> dict[str, Any]:
    credit, _ = await _on_table(server, table_id, account, "topup", body.amount, body.key)
    return {"credit": credit}
