"""This process's part in the cluster (:class:`Cluster`): the bus, presence, leases, the
tables it serves and the calls between processes assembled, its life (start, the renewal and
scan loops, stop), and the dispatch of each message arriving to the part that handles it.
The hub and the table actors see it through ``ports.ClusterPort``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING, Any

from mazziere.server.cluster.bus import Bus
from mazziere.server.cluster.leases import Leases
from mazziere.server.cluster.messages import (
    Adopt,
    Call,
    Deliver,
    End,
    Forward,
    Gone,
    Message,
    Moved,
    Replace,
    Reply,
)
from mazziere.server.cluster.ownership import Ownership
from mazziere.server.cluster.presence import Presence
from mazziere.server.cluster.rpc import Rpc

if TYPE_CHECKING:
    from mazziere.server.cluster.runtime import Runtime
    from mazziere.server.table.actor import TableActor

log = logging.getLogger("mazziere.cluster")

FULL_SCAN_EVERY = 10
"""Ticks (a third of a lease each) between full scans for orphaned tables when no process
died: the safety net for a lease lost by a live process (:meth:`Cluster._scan`)."""


class Cluster:
    """This process's part in a cluster of server processes sharing one Redis."""

    def __init__(self, server: Runtime, url: str, prefix: str, lease_seconds: float) -> None:
        self.server = server
        self.bus = Bus(url, prefix)
        self.leases = Leases(self.bus, lease_seconds)
        self.presence = Presence(self.bus, server)
        self.ownership = Ownership(self.bus, self.leases, self.presence, server)
        self.rpc = Rpc(self.bus, self.leases, self.presence, server)
        self.proc = self.bus.proc
        """This process's name on the bus (host, pid and a random part: pids are reused)."""
        self.redis = self.bus.redis
        self._tasks: list[asyncio.Task[None]] = []
        self._dying: set[str] = set()
        """Processes found dead at the last tick (scanned for once more, then forgotten)."""

    # ------------------------------------------------------------------------- life
    async def start(self) -> None:
        """Listen on this process's channel, announce it alive, take the orphaned tables."""
        await self.bus.subscribe()
        await self.leases.announce()
        self._tasks.append(asyncio.create_task(self.bus.listen(self._on), name="cluster-listen"))
        await self.adopt_orphans()
        keep = self.leases.keep(self.lost)
        self._tasks.append(asyncio.create_task(keep, name="cluster-leases"))
        self._tasks.append(asyncio.create_task(self._scan(), name="cluster-scan"))

    async def stop(self) -> None:
        """Hand every table back (its lease released: another process may take it at once)."""
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        await self.bus.flush()
        with contextlib.suppress(Exception):
            await self.leases.retire()
            await self.bus.close()

    # ------------------------------------------------------------------------- failover
    async def _scan(self) -> None:
        """Every third of a lease: look for dead processes (a few keys); when one died, take
        the orphaned tables, then once more a tick later (its leases outlive its ``alive``
        key by the time one pipeline takes) and forget it. The full scan (every table not
        closed, read from the database, and its lease) also runs every
        :data:`FULL_SCAN_EVERY` ticks, for a lease lost without its process dying; a message
        for such a table takes it at once anyway. Not every tick: with many open tables a
        full scan is costly."""
        tick = 0
        while True:
            await asyncio.sleep(self.leases.seconds * random.uniform(0.8, 1.0))
            tick += 1
            try:
                await self.scan_once(tick % FULL_SCAN_EVERY == 0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: scan for orphaned tables failed")

    async def scan_once(self, full: bool = False) -> int:
        """One tick of :meth:`_scan`: the tables taken."""
        dead = await self._drop_dead_processes()
        settled = dead & self._dying  # seen dead a tick ago too: no lease of its is left
        self._dying = dead - settled
        if not (full or dead):
            return 0
        taken = await self.adopt_orphans()
        await self.leases.forget_processes(settled)
        return taken

    async def _drop_dead_processes(self) -> set[str]:
        """The processes found dead (every process this one heard of, and every one in
        ``load``), after forgetting what named them: players whose socket was there are
        disconnected from this process's tables (their seats are held, as after any
        disconnection), and tables it owned are looked up again (a live process takes them,
        or this one does, on the next message)."""
        dead = await self.leases.dead_among(set(self.presence.where.values()))
        if dead:
            self.presence.forget_processes(dead)
        return dead

    # ------------------------------------------------------------------------- receiving
    def _on(self, m: Message) -> None:
        """One message from another process, to the part that handles it."""
        hub = self.server.hub
        match m:
            case Deliver():
                hub.deliver_here(m.account, m.frame)
            case Forward():
                self.rpc.on_forward(m)
            case Moved():
                self.rpc.on_moved(m)
            case Call():
                self.rpc.on_call(m)
            case Reply():
                self.rpc.on_reply(m)
            case Replace():
                self.server.spawn(hub.replaced_elsewhere(m.account, m.serial))
            case Gone():
                self.presence.disconnected(m.account, m.from_)
            case Adopt():
                self.server.spawn(self.adopt(m.table))
            case End():
                self.server.spawn(hub.end_logins(m.hashes, m.code, m.why, everywhere=False))

    # ------------------------------------------------------------------------- ports.ClusterPort
    def deliver(self, proc: str, account: int, frame: bytes) -> None:
        """A frame for ``account``'s socket, which ``proc`` holds."""
        self.bus.deliver(proc, account, frame)

    def end_everywhere(self, hashes: list[str], code: int, why: str) -> None:
        """Close the sockets of these sessions on every process."""
        self.bus.tell_everyone(End(hashes=hashes, code=code, why=why))

    async def claim_connection(self, account: int) -> str:
        return await self.presence.claim_connection(account)

    def release_connection(self, account: int, mine: str) -> None:
        self.presence.release_connection(account, mine)

    def serial_of(self, presence: str) -> str:
        return self.presence.serial_of(presence)

    async def where_is(self, account: int) -> str | None:
        return await self.presence.where_is(account)

    async def gone(self, account: int, tables: list[int]) -> None:
        """``account``'s socket here closed: tell the owners of its tables elsewhere (read
        from the leases, not the cache: an owner may have changed since)."""
        others = [t for t in tables if t not in self.leases.fences]
        if others:
            self.presence.gone(account, await self.leases.holders(others))

    def seat(self, account: int, table: int) -> None:
        self.presence.seat(account, table)

    def unseat(self, account: int, table: int) -> None:
        self.presence.unseat(account, table)

    async def tables_of(self, account: int) -> list[int]:
        return await self.presence.tables_of(account)

    async def owner_of(self, table_id: int) -> str | None:
        return await self.leases.owner_of(table_id)

    async def take(self, table_id: int) -> int | None:
        return await self.leases.take(table_id)

    async def adopt(self, table_id: int) -> TableActor | None:
        return await self.ownership.adopt(table_id)

    async def adopt_orphans(self) -> int:
        return await self.ownership.adopt_orphans()

    def install(self, actor: TableActor, token: int) -> None:
        self.ownership.install(actor, token)

    async def place(self, actor: TableActor) -> str:
        return await self.ownership.place(actor)

    def lost(self, table_id: int, why: str = "lost", level: int = logging.WARNING) -> None:
        self.ownership.lost(table_id, why, level)

    def publish_summary(self, table_id: int, summary: dict[str, Any]) -> None:
        self.ownership.publish_summary(table_id, summary)

    async def summaries(self) -> list[dict[str, Any]]:
        return await self.ownership.summaries()

    async def forward(self, table_id: int, account: int, username: str, raw: str) -> bool:
        return await self.rpc.forward(table_id, account, username, raw)

    async def call(
        self, table_id: int, op: str, account: int, username: str, args: list[Any]
    ) -> tuple[Any, dict[str, Any]]:
        return await self.rpc.call(table_id, op, account, username, args)
