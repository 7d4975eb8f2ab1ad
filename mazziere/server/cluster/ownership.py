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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from mazziere.errors import MazziereError
from mazziere.server import ids
from mazziere.server.cluster.bus import Bus
from mazziere.server.cluster.leases import Leases
from mazziere.server.cluster.messages import Adopt
from mazziere.server.cluster.presence import Presence

if TYPE_CHECKING:
    from mazziere.server.cluster.runtime import Runtime
    from mazziere.server.table.actor import TableActor

log = logging.getLogger("mazziere.cluster")

RESUME_AT_ONCE = 32
"""Tables a takeover resumes at the same time (each reads its hand back and writes what its
recovery settles; their writes share the group commits)."""


@dataclass(frozen=True)
class Orphans:
    """What one scan for tables without a live owner did."""

    taken: int
    """Tables this process took."""
    left: int
    """Tables still without a live owner after it (none took them, or one failed here)."""
    wake: float | None
    """Seconds until the next lease of a dead process expires (None: none is left)."""


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
        self._longest = 0.0

    # ------------------------------------------------------------------------- taking
    async def adopt(self, table_id: int) -> TableActor | None:
        """The table's actor here, taking the table if no process holds it (None: another
        does, or there is no such table). A table whose lease this process just took (a scan
        takes many at once) is loaded with that lease. One load at a time per table: a
        message arriving meanwhile waits for it."""
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

        if not ids.in_range(table_id):  # no such table: no lease, no fence, no query
            return None
        token = self.leases.fences.get(table_id)  # taken here by a scan, not loaded yet
        if token is None:
            row = await self._row(table_id)  # no lease (nor fence) for a table that is not
            if row is None or row.status == "closed":
                return None
            token = await self.leases.take(table_id)
            if token is None:
                return None
            self.leases.hold(table_id, token)  # renewed from now on, while the table loads
        try:
            async with self.server.db.write() as db:
                row = await table_rows.take_fenced_row(db, table_id, token)
            if row is None:  # closed, or a newer owner fenced it: this token is worth nothing
                await self._let_go(table_id)
                return None
            actor = TableActor(self.server, row, fence=token)
            report = await actor.recover(self.presence.connected)
            if self.leases.fences.get(table_id) != token:  # lost while it loaded
                actor.retire()
                return None
            self._observe_takeover(table_id)
            self.server.tables[table_id] = actor  # messages for it waited until now
        except BaseException:
            # the table goes back at once (its lease released), not at its lease's expiry:
            # the next scan, here or elsewhere, takes it again
            await self._let_go(table_id)
            raise
        log.info("cluster %s took table %s: %s", self.bus.proc, table_id, report)
        await self._reconnect_seats(actor)
        return actor

    async def _let_go(self, table_id: int) -> None:
        """Give back a lease taken here for a table this process will not serve."""
        self.leases.forget(table_id)
        with contextlib.suppress(Exception):
            await self.leases.release(table_id)

    def _observe_takeover(self, table_id: int) -> None:
        """A table taken from a process that is dead and resumed here: how long it went
        unserved, from that process's last renewal to now (its lease, the time to find it
        dead, the recovery)."""
        taken = self.leases.taken_from.pop(table_id, None)
        if taken is None:  # a table taken from nobody, or handed over by a live process
            return
        before, renewed = taken
        seconds = max(0.0, asyncio.get_running_loop().time() - renewed)
        self.server.metrics.takeover.observe(seconds)
        self._longest = max(self._longest, seconds)
        self.server.metrics.takeover_longest.set(self._longest)
        log.info("cluster %s: table %s taken over %.2f s after %s's last renewal",
                 self.bus.proc, table_id, seconds, before)  # fmt: skip

    async def _row(self, table_id: int) -> Any:
        from mazziere.server.store.models import GameTable

        async with self.server.db.session() as db:
            return await db.get(GameTable, table_id)

    async def _reconnect_seats(self, actor: TableActor) -> None:
        """After a take-over, the seated players still connected (to any process) get the
        table's state (the recovery already sent a casino player whose round it settled and
        whose session it closed the round and the close)."""
        for account in [s.account for s in actor.seats if s.account is not None]:
            if await self.presence.connected(account):
                with contextlib.suppress(MazziereError):
                    await actor.join(account, "")
        self.publish_summary(actor.id, actor.summary())

    async def adopt_orphans(self, dead: set[str] | None = None) -> Orphans:
        """Take every table not closed whose lease is free (start-up and failover), and those
        whose lease a ``dead`` process still holds once it expires, if that is within a tick
        (a dead process's leases outlive its heartbeat by one pipeline): every lease at once,
        then the tables resumed together, :data:`RESUME_AT_ONCE` at a time."""
        from mazziere.server.store import table_rows

        dead = dead or set()
        async with self.server.db.session() as db:
            ids = await table_rows.not_closed_ids(db)
        others = [t for t in ids if t not in self.leases.fences]
        held = await self.leases.leases_of(others)
        free = [t for t, (h, _) in zip(others, held, strict=True) if h is None]
        waiting = {t: ttl for t, (h, ttl) in zip(others, held, strict=True) if h in dead}
        self.server.metrics.tables_unowned.set(len(free) + len(waiting))
        soon = [t for t, ttl in waiting.items() if ttl <= self.leases.seconds]
        if soon:
            await asyncio.sleep(max(waiting[t] for t in soon) + 0.005)
            again = await self.leases.leases_of(soon)
            free += [t for t, (h, _) in zip(soon, again, strict=True) if h is None]
        random.shuffle(free)  # processes scanning together spread the orphans
        tokens = await self.leases.take_many(free)
        for t, token in tokens.items():  # renewed from now on; a message for one loads it
            self.leases.hold(t, token)
        gate = asyncio.Semaphore(RESUME_AT_ONCE)

        async def resume(t: int) -> bool:
            async with gate:
                try:
                    return await self.adopt(t) is not None
                except Exception:
                    log.exception("cluster %s: table %s could not be taken", self.bus.proc, t)
                    return False

        done = await asyncio.gather(*(resume(t) for t in tokens))
        # what is still without a live owner: taken by no process yet, or failed here
        check = [t for t in {*free, *waiting} if t not in self.server.tables]
        left = [
            t for t, (h, _) in zip(check, await self.leases.leases_of(check), strict=True)
            if h is None or h in dead
        ]  # fmt: skip
        self.server.metrics.tables_unowned.set(len(left))
        later = [ttl for t, ttl in waiting.items() if t not in soon]
        return Orphans(taken=sum(done), left=len(left), wake=min(later, default=None))

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
