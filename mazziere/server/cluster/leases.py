"""Table leases and the processes' heartbeats in Redis.

- ``<prefix>lease:<table>`` names the process that owns the table: set with ``SET NX PX``,
  renewed every third of its life. Taking it also draws a *fencing token*
  (``INCR <prefix>fence:<table>``), which the new owner writes into the table's row; every
  write of the table's actor checks it in the same transaction
  (:func:`~mazziere.server.store.table_rows.check_fence`), so a process that paused past its lease
  and lost the table cannot write a thing.
- ``<prefix>alive:<proc>`` is a process's heartbeat, with the life of a lease, and
  ``<prefix>load`` its count of tables, both written at each renewal: a process whose
  heartbeat expired is dead, and the others take its tables over.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from mazziere.server.cluster.bus import Bus, text

log = logging.getLogger("mazziere.cluster")

ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0
"""
"""Take a free lease and draw its fencing token (0: the lease is held)."""
RENEW = """
local held = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    held[i] = redis.call('PEXPIRE', key, ARGV[2])
  else
    held[i] = 0
  end
end
return held
"""
"""Renew the leases still held by this process; 0 for each one lost."""
RENEW_CHUNK = 500
"""Leases renewed by one script call (one call a chunk instead of one a table, whose calls
would add up to a noticeable share of a process's CPU with hundreds of tables)."""


class Leases:
    """The leases this process holds, what it knows of the other processes' ones, and the
    heartbeats of every process."""

    def __init__(self, bus: Bus, lease_seconds: float) -> None:
        self.bus = bus
        self.lease_ms = int(lease_seconds * 1000)
        self.fences: dict[int, int] = {}
        """This process's tables -> their fencing tokens."""
        self.owners: dict[int, str] = {}
        """Table -> the process that owns it, as last learned (checked again on a miss)."""
        self._acquire = bus.redis.register_script(ACQUIRE)
        self._renew = bus.redis.register_script(RENEW)
        self._renewed_at = 0.0

    @property
    def seconds(self) -> float:
        """A third of a lease: how often leases are renewed and dead processes looked for."""
        return self.lease_ms / 3000

    def lease(self, table_id: int) -> str:
        """The key of ``table_id``'s lease."""
        return self.bus.key(f"lease:{table_id}")

    def _alive(self, proc: str) -> str:
        return self.bus.key("alive:" + proc)

    # ------------------------------------------------------------------------- this process
    async def announce(self) -> None:
        """This process is alive, with no table yet."""
        await self.bus.redis.set(self._alive(self.bus.proc), b"1", px=self.lease_ms)
        await self.bus.redis.hset(self.bus.key("load"), self.bus.proc, 0)
        self._renewed_at = asyncio.get_running_loop().time()

    async def take(self, table_id: int) -> int | None:
        """Take the lease of ``table_id`` if it is free: its new fencing token, else None."""
        token = int(
            await self._acquire(
                keys=[self.lease(table_id), self.bus.key(f"fence:{table_id}")],
                args=[self.bus.proc, self.lease_ms],
            )
        )
        return token or None

    def hold(self, table_id: int, token: int) -> None:
        """This process serves ``table_id`` under fencing token ``token``."""
        self.fences[table_id] = token
        self.owners[table_id] = self.bus.proc

    def forget(self, table_id: int) -> None:
        """This process no longer serves ``table_id``, nor knows who does."""
        self.fences.pop(table_id, None)
        self.owners.pop(table_id, None)

    async def release(self, table_id: int) -> None:
        """Let ``table_id``'s lease go at once (if this process still holds it)."""
        await self.bus.release_script(keys=[self.lease(table_id)], args=[self.bus.proc])

    async def retire(self) -> None:
        """Release every lease held and the heartbeat. This process's name stays in ``load``:
        the other processes find it dead there at their next tick, take the released tables
        at once and then forget it."""
        for table_id in list(self.fences):
            await self.release(table_id)
        await self.bus.redis.delete(self._alive(self.bus.proc))

    async def keep(self, lost: Callable[[int], None]) -> None:
        """Renew this process's leases every third of a lease, on a clock of their own: a
        scan taking over many orphaned tables (each loaded from the database) must never
        delay the renewals, or the leases it holds expire meanwhile and the other processes
        take them in turn. ``lost`` is called for each table whose lease was lost."""
        while True:
            await asyncio.sleep(self.seconds * random.uniform(0.8, 1.0))
            try:
                await self.renew_all(lost)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: lease renewal failed")

    async def renew_all(self, lost: Callable[[int], None]) -> None:
        """Renew every lease held, the heartbeat and this process's count of tables."""
        tables = list(self.fences)
        began = asyncio.get_running_loop().time()
        try:
            async with self.bus.redis.pipeline(transaction=False) as pipe:
                pipe.set(self._alive(self.bus.proc), b"1", px=self.lease_ms)
                pipe.hset(self.bus.key("load"), self.bus.proc, len(tables))
                for at in range(0, len(tables), RENEW_CHUNK):
                    await self._renew(
                        keys=[self.lease(t) for t in tables[at : at + RENEW_CHUNK]],
                        args=[self.bus.proc, self.lease_ms],
                        client=pipe,
                    )
                got = [held for chunk in (await pipe.execute())[2:] for held in chunk]
        except Exception:
            # no renewal for a whole lease: the leases may be gone, another process may own
            # these tables; stop serving them (the fence would refuse their writes anyway)
            if began - self._renewed_at >= self.lease_ms / 1000:
                for t in tables:
                    lost(t)
            raise
        self._renewed_at = began
        for t, ok in zip(tables, got, strict=True):
            if not ok:
                lost(t)

    # ------------------------------------------------------------------------- the others
    async def owner_of(self, table_id: int) -> str | None:
        """The process owning ``table_id`` (as last learned, else read from its lease)."""
        proc = self.owners.get(table_id)
        if proc is None:
            raw = await self.bus.redis.get(self.lease(table_id))
            if raw is None:
                return None
            proc = text(raw)
            self.owners[table_id] = proc
        return proc

    async def holders(self, tables: list[int]) -> set[str]:
        """The processes holding the leases of ``tables`` now (read from the leases, not the
        cache: an owner may have changed since)."""
        if not tables:
            return set()
        return {text(o) for o in await self.bus.redis.mget([self.lease(t) for t in tables]) if o}

    async def unheld(self, tables: list[int]) -> list[int]:
        """Those of ``tables`` whose lease no process holds."""
        if not tables:
            return []
        held = await self.bus.redis.mget([self.lease(t) for t in tables])
        return [t for t, h in zip(tables, held, strict=True) if h is None]

    async def least_loaded(self) -> tuple[int, str] | None:
        """The live process other than this one with the fewest tables, and its count (each
        process publishes its count in ``load`` at every renewal)."""
        raw = await self.bus.redis.hgetall(self.bus.key("load"))
        loads = {text(k): int(v) for k, v in raw.items()}
        others = sorted(p for p in loads if p != self.bus.proc)
        if not others:
            return None
        alive = await self.bus.redis.mget([self._alive(p) for p in others])
        live = [(loads[p], p) for p, a in zip(others, alive, strict=True) if a is not None]
        return min(live) if live else None

    async def count_handover(self, target: str) -> None:
        """A table handed to ``target``: counted in ``load`` at once, so that the next
        placement sees it."""
        async with self.bus.redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(self.bus.key("load"), target, 1)
            pipe.hset(self.bus.key("load"), self.bus.proc, len(self.fences))
            await pipe.execute()

    async def dead_among(self, heard: set[str]) -> set[str]:
        """The processes found dead among every one in ``load``, every owner this one knows
        and ``heard``; the tables they owned are looked up again (a live process takes them,
        or this one does, on the next message)."""
        listed = {text(p) for p in await self.bus.redis.hkeys(self.bus.key("load"))}
        procs = sorted((listed | heard | set(self.owners.values())) - {self.bus.proc})
        if not procs:
            return set()
        alive = await self.bus.redis.mget([self._alive(p) for p in procs])
        dead = {p for p, a in zip(procs, alive, strict=True) if a is None}
        for table, proc in list(self.owners.items()):
            if proc in dead:
                del self.owners[table]
        return dead

    async def forget_processes(self, procs: set[str]) -> None:
        """Drop ``procs`` (dead, and no lease of theirs left) from ``load``."""
        if procs:
            await self.bus.redis.hdel(self.bus.key("load"), *sorted(procs))
