"""Quick play and rematches (platform.md "Lobby and tables"): ways into a game without
setting a table up.

- ``POST /api/quickplay`` seats a player at the fullest quick-play table of the game and
  preset with a free seat, or opens one, which starts by itself: at once when full, else after
  ``quickplay_fill_seconds`` with computer players in the free seats. The choice and the join
  are made under one lock per game and preset (an asyncio lock, and with several processes a
  lock in Redis, with the quick tables listed there before it is released), so two players
  asking at once, on one process or two, sit at one table when it has room.
- ``POST /api/tables/{id}/rematch`` opens, once a match is over, one new table like it for
  the same players (the unique ``rematch_of`` key settles two asking at once, on any
  process), tells the others (notice ``rematch``) and seats the caller; it starts when every
  player of the match sat down, or after ``rematch_seconds`` with computer players in the
  seats still free.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
import weakref
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter
from sqlalchemy import desc, select
from sqlalchemy.exc import IntegrityError

from mazziere.errors import MazziereError
from mazziere.game import BOT_DELAY, DECISION_SECONDS, find_game
from mazziere.server import protocol as P
from mazziere.server.routes.deps import Body, Me, Srv
from mazziere.server.routes.lobby import _on_table, open_table
from mazziere.server.store import switches
from mazziere.server.store.models import GameTable, Hand
from mazziere.server.table.errors import TableError

router = APIRouter(prefix="/api")

_LOCKS: weakref.WeakKeyDictionary[Any, dict[str, asyncio.Lock]] = weakref.WeakKeyDictionary()
"""Each running server's quick-play locks: an asyncio lock belongs to the event loop that first
waited on it, so two servers (one per test, or a restarted one) never share one."""
GONE = frozenset({"table_full", "no_table", "table_moved"})
"""A quick table's refusals that mean: try the next one."""


class Quick(Body):
    game: str
    preset: str | None = None


@contextlib.asynccontextmanager
async def quick_lock(server: Srv, key: str) -> AsyncIterator[None]:
    """One quick-play choice at a time per game and preset, on every process."""
    async with _LOCKS.setdefault(server, {}).setdefault(key, asyncio.Lock()):
        cluster = server.cluster
        if cluster is None:
            yield
            return
        name, token = cluster.bus.key(f"quick:lock:{key}"), uuid.uuid4().hex
        for _ in range(400):
            if await cluster.redis.set(name, token, nx=True, px=10_000):
                break
            await asyncio.sleep(0.025)
        else:
            raise TableError("quick play is busy: try again", "server_busy")
        try:
            yield
        finally:
            if await cluster.redis.get(name) == token.encode():
                await cluster.redis.delete(name)


def _open_quick(summary: dict[str, Any], game: str, preset: Any) -> bool:
    config = summary.get("config") or {}
    return (
        bool(config.get("quick"))
        and summary.get("game") == game
        and config.get("preset") == preset
        and summary.get("status") == "open"
        and not summary.get("started")
        and any(s.get("free") for s in summary.get("seats", []))
    )


async def _candidates(server: Srv, key: str, game: str, preset: Any) -> list[int]:
    """The quick tables of ``game`` and ``preset`` with a free seat, fullest first."""
    if server.cluster is None:
        rows = [t.summary() for t in server.tables.values()]
        listed: set[int] = set()
    else:
        rows = await server.cluster.summaries()
        members = await server.cluster.redis.smembers(server.cluster.bus.key(f"quick:{key}"))
        listed = {int(m) for m in members}
    seated = {
        int(r["id"]): sum(not s.get("free") for s in r["seats"])
        for r in rows
        if _open_quick(r, game, preset)
    }
    known = {int(r["id"]) for r in rows}
    for t in listed - known:  # made just now on another process, not in the lobby yet
        seated[t] = 1
    return sorted(seated, key=lambda t: (-seated[t], t))


async def _listed(server: Srv, key: str, table: int, add: bool) -> None:
    if server.cluster is not None:
        name = server.cluster.bus.key(f"quick:{key}")
        await (server.cluster.redis.sadd if add else server.cluster.redis.srem)(name, str(table))


@router.post("/quickplay")
async def quickplay(body: Quick, account: Me, server: Srv) -> dict[str, Any]:
    kind = find_game(body.game)
    config, seats = kind.table_config({"preset": body.preset} if body.preset else {})
    rules = kind.table_rules(config)
    if rules.session_money:
        server.attestation.require_for_money()
    preset = config.get("preset")
    async with server.db.session() as db:  # switched off: no new table, nor a seat at one
        switches.refuse_if_off(await switches.disabled(db), body.game, preset)
    key = f"{body.game}:{preset or ''}"
    async with quick_lock(server, key):
        for table in await _candidates(server, key, body.game, preset):
            try:
                seat, summary = await _on_table(server, table, account, "join")
            except MazziereError as e:
                if e.code not in GONE:
                    raise
                await _listed(server, key, table, add=False)
                continue
            return {**summary, "seat": seat, "created": False}
        config |= {"bot_delay": BOT_DELAY, "quick": True}
        if rules.starts_with == "start":
            config["autostart"] = {"seconds": server.settings.quickplay_fill_seconds}
        made = await open_table(server, account.id, body.game, "", config, seats, DECISION_SECONDS)
        await _listed(server, key, int(made["id"]), add=True)
        seat, summary = await _on_table(server, int(made["id"]), account, "join")
        return {**summary, "seat": seat, "created": True}


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: int, account: Me, server: Srv) -> dict[str, Any]:
    async with server.db.session() as db:
        row = await db.get(GameTable, table_id)
        if row is None:
            raise TableError(f"table {table_id} does not exist", "no_table")
        hand = await db.scalar(
            select(Hand).where(Hand.table_id == table_id).order_by(desc(Hand.id)).limit(1)
        )
        again = await db.scalar(select(GameTable.id).where(GameTable.rematch_of == table_id))
    if hand is None or hand.status != "done":
        raise TableError("the match is not over: a rematch comes after it", "match_in_progress")
    humans = [int(p["account"]) for p in hand.players if (p or {}).get("account") is not None]
    if account.id not in humans:
        raise TableError("only the match's players may ask for its rematch", "not_seated")
    created = False
    if again is None:
        config = {k: v for k, v in row.config.items() if k not in ("autostart", "rematch_of")}
        config["rematch_of"] = table_id
        if find_game(row.game).table_rules(config).starts_with == "start":
            config["autostart"] = {"seconds": server.settings.rematch_seconds, "wait_for": humans}
        try:
            made = await open_table(
                server, account.id, row.game, row.name, config, len(row.seats),
                row.decision_seconds, rematch_of=table_id,
            )  # fmt: skip
            again, created = int(made["id"]), True
        except IntegrityError:  # another player's rematch of this table came first
            async with server.db.session() as db:
                again = await db.scalar(
                    select(GameTable.id).where(GameTable.rematch_of == table_id)
                )
            assert again is not None
    if created:
        for other in humans:
            if other != account.id:
                await server.hub.send(
                    other,
                    P.Notice(
                        kind="rematch",
                        message=f"{account.username} asks for a rematch at table {again}",
                        table=again,
                    ),
                )
    seat, summary = await _on_table(server, again, account, "join")
    return {**summary, "seat": seat, "created": created}
