"""Table leases and the processes' heartbeats in Redis.

- ``<prefix>lease:<table>`` names the process that owns the table: set with ``SET NX PX``,
  renewed every third of its life. Taking it also draws a *fencing token*
  (``INCR <prefix>fence:<table>``), which the new owner writes into the table's row; every
  write of the table's actor checks it in the same transaction
  (:func:`~mazziere.server.store.table_rows.check_fence`), so a process that paused past its lease
  and lost the table cannot write a thing.
- ``<prefix>alive:<proc>`` is a process's heartbeat, with the life of a lease,
  ``<prefix>load`` its count of tables and ``<prefix>beat`` the time of its last renewal
  (Redis's clock), all written at each renewal: a process whose heartbeat expired is dead,
  and the others take its tables over.
- ``<prefix>took:<table>`` names the last process that took the table's lease, so that the
  process taking it over knows whose heartbeat the table outlived (the time a takeover took,
  ``mazziere_takeover_seconds``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

from mazziere.server.cluster.bus import Bus, text

log = logging.getLogger("mazziere.cluster")

ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local before = redis.call('GET', KEYS[3]) or ''
  redis.call('SET', KEYS[3], ARGV[1])
  return {redis.call('INCR', KEYS[2]), before}
end
return {0, ''}
"""
"""Take a free lease and draw its fencing token (0: the lease is held), and the process that
took it last ('' if none)."""
BEAT = """
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ms)
return ms
"""
"""A process's heartbeat: ``alive`` for a lease, its count of tables in ``load`` and the time
of this renewal, on Redis's clock, in ``beat``."""
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
        self.taken_from: dict[int, tuple[str, float]] = {}
        """Tables this process just took from a dead process -> that process and the time of
        its last renewal on this process's event-loop clock, read as the lease was taken: the
        takeover is measured from it once the table is resumed, by when the dead process may
        be forgotten (its renewal dropped from ``beat``), as it is when the resumption is
        slow."""
        self._acquire = bus.redis.register_script(ACQUIRE)
        self._renew = bus.redis.register_script(RENEW)
        self._beat = bus.redis.register_script(BEAT)
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
    def _beat_keys(self) -> list[str]:
        return [self._alive(self.bus.proc), self.bus.key("load"), self.bus.key("beat")]

    async def announce(self) -> None:
        """This process is alive, with no table yet."""
        await self._beat(keys=self._beat_keys(), args=[self.bus.proc, self.lease_ms, 0])
        self._renewed_at = asyncio.get_running_loop().time()

    def _acquire_keys(self, table_id: int) -> list[str]:
        return [
            self.lease(table_id),
            self.bus.key(f"fence:{table_id}"),
            self.bus.key(f"took:{table_id}"),
        ]

    async def _taken(self, got: dict[int, list[Any]]) -> dict[int, int]:
        """The tokens of the leases taken among ``got`` (table -> the acquire script's answer);
        those taken from a process that is dead are noted in :attr:`taken_from` (one round
        trip, only when a lease had another holder; a live one handed it over)."""
        tokens = {t: int(g[0]) for t, g in got.items() if int(g[0])}
        before = {t: text(got[t][1]) for t in tokens}
        before = {t: p for t, p in before.items() if p and p != self.bus.proc}
        if before:
            beats, now, alive = await self.beats(set(before.values()))
            here = asyncio.get_running_loop().time()
            for t, p in before.items():
                if p in beats and p not in alive:
                    self.taken_from[t] = (p, here - (now - beats[p]) / 1000)
        return tokens

    async def take(self, table_id: int) -> int | None:
        """Take the lease of ``table_id`` if it is free: its new fencing token, else None."""
        got = await self._acquire(keys=self._acquire_keys(table_id), args=self._acquire_args())
        return (await self._taken({table_id: got})).get(table_id)

    def _acquire_args(self) -> list[Any]:
        return [self.bus.proc, self.lease_ms]

    async def take_many(self, tables: list[int]) -> dict[int, int]:
        """Take every free lease among ``tables`` in one round trip: table -> its token."""
        if not tables:
            return {}
        async with self.bus.redis.pipeline(transaction=False) as pipe:
            for t in tables:
                await self._acquire(
                    keys=self._acquire_keys(t), args=self._acquire_args(), client=pipe
                )
            got = await pipe.execute()
        return await self._taken(dict(zip(tables, got, strict=True)))

    def hold(self, table_id: int, token: int) -> None:
        """This process serves ``table_id`` under fencing token ``token``."""
        self.fences[table_id] = token
        self.owners[table_id] = self.bus.proc

    def forget(self, table_id: int) -> None:
        """This process no longer serves ``table_id``, nor knows who does."""
        self.fences.pop(table_id, None)
        self.owners.pop(table_id, None)
        self.taken_from.pop(table_id, None)

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
                await self._beat(
                    keys=self._beat_keys(), args=[self.bus.proc, self.lease_ms, len(tables)],
                    client=pipe,
                )  # fmt: skip
                for at in range(0, len(tables), RENEW_CHUNK):
                    await self._renew(
                        keys=[self.lease(t) for t in tables[at : at + RENEW_CHUNK]],
                        args=[self.bus.proc, self.lease_ms],
                        client=pipe,
                    )
                got = [held for chunk in (await pipe.execute())[1:] for held in chunk]
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

    async def survey(self, heard: set[str]) -> tuple[set[str], float | None]:
        """The processes found dead among every one in ``load``, every owner this one knows
        and ``heard``, and the seconds left on the heartbeat closest to expiring among the
        live ones (a live process renews well before; one that stops is found dead as soon as
        its heartbeat expires, not at the next tick). The tables the dead owned are looked up
        again (a live process takes them, or this one does, on the next message)."""
        listed = {text(p) for p in await self.bus.redis.hkeys(self.bus.key("load"))}
        procs = sorted((listed | heard | set(self.owners.values())) - {self.bus.proc})
        if not procs:
            return set(), None
        async with self.bus.redis.pipeline(transaction=False) as pipe:
            for p in procs:
                pipe.pttl(self._alive(p))
            ttls = await pipe.execute()
        dead = {p for p, ttl in zip(procs, ttls, strict=True) if ttl < 0}
        left = [ttl / 1000 for ttl in ttls if ttl >= 0]
        for table, proc in list(self.owners.items()):
            if proc in dead:
                del self.owners[table]
        return dead, min(left, default=None)

    async def leases_of(self, tables: list[int]) -> list[tuple[str | None, float]]:
        """Each table's lease holder (None: free) and the seconds its lease has left."""
        if not tables:
            return []
        async with self.bus.redis.pipeline(transaction=False) as pipe:
            for t in tables:
                pipe.get(self.lease(t))
                pipe.pttl(self.lease(t))
            got = await pipe.execute()
        return [
            (None if h is None else text(h), max(0, ttl) / 1000)
            for h, ttl in zip(got[0::2], got[1::2], strict=True)
        ]

    async def beats(self, procs: set[str]) -> tuple[dict[str, int], int, set[str]]:
        """The last renewal of each of ``procs`` (ms, Redis's clock), Redis's time now, and
        those of ``procs`` still alive."""
        order = sorted(procs)
        async with self.bus.redis.pipeline(transaction=False) as pipe:
            pipe.time()
            pipe.hmget(self.bus.key("beat"), order)
            for p in order:
                pipe.exists(self._alive(p))
            got = await pipe.execute()
        secs, micros = got[0]
        beats = {p: int(b) for p, b in zip(order, got[1], strict=True) if b}
        alive = {p for p, a in zip(order, got[2:], strict=True) if a}
        return beats, int(secs) * 1000 + int(micros) // 1000, alive

    async def forget_processes(self, procs: set[str]) -> None:
        """Drop ``procs`` (dead, and no lease of theirs left) from ``load`` and ``beat``."""
        if procs:
            async with self.bus.redis.pipeline(transaction=False) as pipe:
                pipe.hdel(self.bus.key("load"), *sorted(procs))
                pipe.hdel(self.bus.key("beat"), *sorted(procs))
                await pipe.execute()
