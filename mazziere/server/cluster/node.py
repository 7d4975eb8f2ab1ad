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
from mazziere.server.cluster.rpc import CALL_SECONDS, Rpc, TableMoving

if TYPE_CHECKING:
    from mazziere.server.cluster.runtime import Runtime
    from mazziere.server.table.actor import TableActor

log = logging.getLogger("mazziere.cluster")

FULL_SCAN_EVERY = 10
"""Ticks (a third of a lease each) between full scans for orphaned tables when no process
died: the safety net for a lease lost by a live process (:meth:`Cluster._scan`)."""
WAKE_MARGIN = 0.02
"""Seconds after a key's expiry that an early tick comes (Redis expires keys on access, and
a key read at its very millisecond may still be there)."""


class Cluster:
    """This process's part in a cluster of server processes sharing one Redis."""

    def __init__(self, server: Runtime, url: str, prefix: str, lease_seconds: float) -> None:
        self.server = server
        self.bus = Bus(url, prefix)
        self.leases = Leases(self.bus, lease_seconds)
        self.presence = Presence(self.bus, server)
        self.ownership = Ownership(self.bus, self.leases, self.presence, server)
        self.rpc = Rpc(self.bus, self.leases, self.presence, server, self.ownership.adopt)
        self.proc = self.bus.proc
        """This process's name on the bus (host, pid and a random part: pids are reused)."""
        self.redis = self.bus.redis
        self._tasks: list[asyncio.Task[None]] = []
        self._dead: set[str] = set()
        """Processes found dead whose tables may not all be taken yet (forgotten once a scan
        finds none left to them)."""
        self._left = 0
        """Tables the last scan left without a live owner (scanned for again at the next
        tick)."""
        self._wake: float | None = None
        """Seconds to the next expiry worth a tick: a heartbeat, or a dead process's lease."""

    # ------------------------------------------------------------------------- life
    async def start(self) -> None:
        """Listen on this process's channel, announce it alive, take the orphaned tables."""
        await self.bus.subscribe()
        await self.leases.announce()
        self._tasks.append(asyncio.create_task(self.bus.listen(self._on), name="cluster-listen"))
        # renewals first: the leases taken by the first scan are kept while it resumes them
        keep = self.leases.keep(lambda t: self.lost(t, "lost: its lease was not renewed"))
        self._tasks.append(asyncio.create_task(keep, name="cluster-leases"))
        await self.adopt_orphans()
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
        """Every third of a lease (a tick): look for dead processes (a few keys). While one is
        dead, or a table is left without a live owner, take the orphaned tables at every tick;
        a dead process is forgotten once no table is left to it. The full scan (every table
        not closed, read from the database, and its lease) also runs every
        :data:`FULL_SCAN_EVERY` ticks, for a lease lost without its process dying; a message
        for such a table takes it at once anyway. Not every tick: with many open tables a
        full scan is costly.

        A tick comes early when another process's heartbeat is about to expire (a live one
        renews it well before) or a dead one's lease is: a dead process's tables are taken as
        soon as their leases expire, within a lease of its last renewal plus the recovery."""
        tick = 0
        while True:
            await asyncio.sleep(self._next_wait())
            tick += 1
            try:
                await self.scan_once(tick % FULL_SCAN_EVERY == 0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: scan for orphaned tables failed")

    def _next_wait(self) -> float:
        wait = self.leases.seconds * random.uniform(0.8, 1.0)
        if self._wake is not None:
            wait = min(wait, self._wake + WAKE_MARGIN)
        return wait

    async def scan_once(self, full: bool = False) -> int:
        """One tick of :meth:`_scan`: the tables taken."""
        dead, expiring = await self._drop_dead_processes()
        self._dead |= dead
        self._wake = expiring
        if not (full or self._dead or self._left):
            return 0
        found = await self.ownership.adopt_orphans(self._dead)
        self._left = found.left
        if found.wake is not None:
            self._wake = min(found.wake, self._wake if self._wake is not None else found.wake)
        if not found.left and found.wake is None:  # nothing left to the dead: forget them
            await self.leases.forget_processes(self._dead)
            self._dead = set()
        return found.taken

    async def _drop_dead_processes(self) -> tuple[set[str], float | None]:
        """The processes found dead (every process this one heard of, and every one in
        ``load``), after forgetting what named them: players whose socket was there are
        disconnected from this process's tables (their seats are held, as after any
        disconnection), and tables it owned are looked up again (a live process takes them,
        or this one does, on the next message). Also the seconds left on the live heartbeat
        closest to expiring."""
        dead, expiring = await self.leases.survey(set(self.presence.where.values()))
        if dead:
            self.presence.forget_processes(dead)
        return dead, expiring

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
        return (await self.ownership.adopt_orphans()).taken

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
        """Run a table verb on the table's owner; if that owner died, wait for its lease to
        expire (within :data:`CALL_SECONDS` in all), take the table here and run it here."""
        from mazziere.server.table.verbs import run_op

        loop = asyncio.get_running_loop()
        deadline = loop.time() + CALL_SECONDS
        while True:
            try:
                return await self.rpc.call(table_id, op, account, username, args)
            except TableMoving as e:
                if loop.time() + e.lease_left + WAKE_MARGIN > deadline:
                    raise
                await asyncio.sleep(e.lease_left + WAKE_MARGIN)
            actor = await self.adopt(table_id)
            if actor is not None:
                return await run_op(actor, op, account, username, args), actor.summary()
