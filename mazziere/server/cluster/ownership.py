"""The tables this process serves: taking one (at start-up, on a message for a table no
process holds, after a failover), serving one just created here, handing one to a less loaded
process, losing one; and their rows in the lobby (``<prefix>summary``, one JSON row a table,
written by its owner when the table's seats or status change).

A table taken over is resumed from the database exactly as after a restart; its players still
connected, on any process, are joined to it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING, Any

import msgspec

from mazziere.errors import MazziereError
from mazziere.server.cluster.bus import Bus
from mazziere.server.cluster.leases import Leases
from mazziere.server.cluster.messages import Adopt
from mazziere.server.cluster.presence import Presence

if TYPE_CHECKING:
    from mazziere.server.cluster.runtime import Runtime
    from mazziere.server.table.actor import TableActor

log = logging.getLogger("mazziere.cluster")

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(dict[str, Any]).decode


class Ownership:
    """Which tables this process serves, and their lobby rows."""

    def __init__(self, bus: Bus, leases: Leases, presence: Presence, server: Runtime) -> None:
        self.bus = bus
        self.leases = leases
        self.presence = presence
        self.server = server
        self._adopting: dict[int, asyncio.Future[TableActor | None]] = {}
        self._summaries: dict[int, bytes] = {}

    # ------------------------------------------------------------------------- taking
    async def adopt(self, table_id: int) -> TableActor | None:
        """The table's actor here, taking the table if no process holds it (None: another
        does, or there is no such table). One take at a time per table."""
        actor = self.server.tables.get(table_id)
        if actor is not None:
            return actor
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = fut
        try:
            actor = await self._adopt(table_id)
            fut.set_result(actor)
            return actor
        except BaseException as e:
            fut.set_exception(e)
            raise
        finally:
            del self._adopting[table_id]
            if not fut.done():
                fut.cancel()
            with contextlib.suppress(BaseException):
                fut.exception()

    async def _adopt(self, table_id: int) -> TableActor | None:
        from mazziere.server.store import table_rows
        from mazziere.server.table.actor import TableActor

        row = await self._row(table_id)
        if row is None or row.status == "closed":
            return None
        token = await self.leases.take(table_id)
        if token is None:
            return None
        async with self.server.db.write() as db:
            if not await table_rows.take_fence(db, table_id, token):
                return None  # a newer owner already fenced it: leave the lease to expire
        row = await self._row(table_id)
        assert row is not None
        actor = TableActor(self.server, row, fence=token)
        self.leases.hold(table_id, token)
        self.server.tables[table_id] = actor
        report = await actor.recover()
        log.info("cluster %s took table %s: %s", self.bus.proc, table_id, report)
        await self._reconnect_seats(actor)
        return actor

    async def _row(self, table_id: int) -> Any:
        from mazziere.server.store.models import GameTable

        async with self.server.db.session() as db:
            return await db.get(GameTable, table_id)

    async def _reconnect_seats(self, actor: TableActor) -> None:
        """After a take-over, the seated players still connected (to any process) are
        connected to this table again and get its state."""
        seated = [s.account for s in actor.seats if s.account is not None]
        for account in seated:
            connected = account in self.server.hub.conns or await self.presence.where_is(account)
            if connected:
                with contextlib.suppress(MazziereError):
                    await actor.join(account, "")
        self.publish_summary(actor.id, actor.summary())

    async def adopt_orphans(self) -> int:
        """Take every table not closed that no process holds (start-up and failover)."""
        from mazziere.server.store import table_rows

        async with self.server.db.session() as db:
            ids = await table_rows.not_closed_ids(db)
        orphans = await self.leases.unheld([t for t in ids if t not in self.leases.fences])
        taken = 0
        random.shuffle(orphans)  # processes scanning together spread the orphans
        for t in orphans:
            with contextlib.suppress(Exception):
                if await self.adopt(t) is not None:
                    taken += 1
        return taken

    # ------------------------------------------------------------------------- new tables
    def install(self, actor: TableActor, token: int) -> None:
        """Serve a table just created here, whose lease (``token``) was taken in the
        transaction that created its row, so no other process's scan could see the row
        without a lease and take the table first."""
        actor.fence = token
        self.leases.hold(actor.id, token)
        self.server.tables[actor.id] = actor
        self.publish_summary(actor.id, actor.summary())

    async def place(self, actor: TableActor) -> str:
        """Balance the processes: a table just created here moves, before anyone sits at it, to
        the live process with the fewest tables if that one has at least two fewer than this
        one (each process publishes its count in ``load`` at every renewal). Returns the
        process that will serve it. The handover is a release and an adoption: this process
        lets the lease go, the other takes it with a newer fencing token; a message arriving
        in between finds no lease and its door takes the table itself."""
        best = await self.leases.least_loaded()
        if best is None or best[0] >= len(self.leases.fences) - 1:
            return self.bus.proc
        _, target = best
        self.lost(actor.id, f"handed to {target} (fewer tables)", logging.INFO)
        await self.leases.release(actor.id)
        await self.leases.count_handover(target)
        self.bus.tell(target, Adopt(table=actor.id))
        return target

    # ------------------------------------------------------------------------- losing
    def lost(self, table_id: int, why: str = "lost", level: int = logging.WARNING) -> None:
        """This process no longer owns ``table_id`` (lease lost or fenced, or handed over):
        forget its actor."""
        actor = self.server.tables.pop(table_id, None)
        self.leases.forget(table_id)
        self._summaries.pop(table_id, None)
        if actor is not None:
            actor.retire()
            for seat in actor.seats:
                if seat.account is not None:
                    self.server.seating.forget(seat.account, table_id)
            log.log(level, "cluster %s: table %s %s", self.bus.proc, table_id, why)

    # ------------------------------------------------------------------------- lobby
    def publish_summary(self, table_id: int, summary: dict[str, Any]) -> None:
        """The table's lobby row, written if it changed."""
        data = _encode(summary)
        if self._summaries.get(table_id) != data:
            self._summaries[table_id] = data
            self.bus.send("hset", self.bus.key("summary"), str(table_id), data)

    async def summaries(self) -> list[dict[str, Any]]:
        """The lobby rows of every table not closed, on every process, by id."""
        await self.bus.flush()
        rows = await self.bus.redis.hgetall(self.bus.key("summary"))
        out = [_decode(v) for v in rows.values()]
        return sorted((s for s in out if s.get("status") != "closed"), key=lambda s: s["id"])
