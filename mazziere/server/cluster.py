"""Several server processes, on one machine or many, against one PostgreSQL and one Redis
(docs/scaling.md has the picture).

- **Tables.** Each table lives in exactly one process: the one holding its Redis *lease*
  (``SET NX PX``, renewed every third of its life). Taking a lease also draws a *fencing
  token* (``INCR``), which the process writes into the table's row; every write of the table's
  actor checks it in the same transaction (:func:`~mazziere.server.store.tables.check_fence`),
  so a process that paused past its lease and lost the table cannot write a thing.
- **Messages.** A client may connect to any process. A message for a table that lives
  elsewhere is forwarded to the owner over Redis pub/sub (each process listens on its own
  channel); the owner applies it and sends the updates back the same way to the process
  holding each player's socket. REST calls on a table (join, leave, start, top-up) go the same
  way and wait for the owner's answer.
- **Presence.** ``<prefix>conn:<account>`` names the process and connection holding an
  account's one socket. A second login elsewhere overwrites it and tells the first process to
  close the old socket (4001), which is the seed's single-connection rule across processes.
- **Seating.** ``<prefix>seat:<account>`` lists the tables where an account sits, so a
  reconnecting player on any process rejoins them all.
- **Failover.** A process that dies stops renewing its leases; when they expire, any other
  process takes its tables (it scans for orphans as soon as it finds the process dead, and
  takes one on demand when a message arrives for it) and resumes them from the database
  exactly as after a restart.
  Its players' sockets broke; their clients reconnect to a live process on their own.

Messages on the bus are bytes: ``D<account> <frame>`` is a frame for a player's socket,
already encoded once by the sender; ``J<json>`` is anything else (msgspec JSON). Writes that
need no answer (publishes, seating, presence releases) are queued and sent in one pipeline per
event-loop turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
from typing import TYPE_CHECKING, Any, Protocol

import msgspec
import redis.asyncio as aioredis

from mazziere.errors import MazziereError

if TYPE_CHECKING:
    from mazziere.server.hub import Hub
    from mazziere.server.ports import ActorRuntime
    from mazziere.server.tables import TableActor

    class Runtime(ActorRuntime, Protocol):
        """What the cluster uses of the running server (``context.Server``)."""

        tables: dict[int, TableActor]

        @property
        def hub(self) -> Hub: ...


log = logging.getLogger("mazziere.cluster")

CALL_SECONDS = 10.0
"""How long a REST call waits for the owning process's answer."""

_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0
"""
_RENEW = """
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
RENEW_CHUNK = 500
"""Leases renewed by one script call (one call a chunk instead of one a table, whose calls
would add up to a noticeable share of a process's CPU with hundreds of tables)."""
FULL_SCAN_EVERY = 10
"""Ticks (a third of a lease each) between full scans for orphaned tables when no process
died: the safety net for a lease lost by a live process (:meth:`Cluster._scan`)."""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class ClusterError(MazziereError):
    default_code = "server_busy"


class Cluster:
    """This process's part in a cluster of server processes sharing one Redis."""

    def __init__(self, server: Runtime, url: str, prefix: str, lease_seconds: float) -> None:
        self.server = server
        # a bounded pool that waits for a free connection (the default one raises "Too many
        # connections" when a thousand sockets open at once)
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=20)
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.prefix = prefix
        self.lease_ms = int(lease_seconds * 1000)
        self.proc = f"{socket.gethostname()}.{os.getpid()}.{secrets.token_hex(3)}"
        """This process's name on the bus (host, pid and a random part: pids are reused)."""
        self.channel = self._k("p:" + self.proc)
        self.everyone = self._k("all")
        self.owners: dict[int, str] = {}
        """Table -> the process that owns it, as last learned (checked again on a miss)."""
        self.fences: dict[int, int] = {}
        """This process's tables -> their fencing tokens."""
        self.where: dict[int, str] = {}
        """Account -> the process holding its socket, for accounts seated at this process's
        tables and connected elsewhere (learned from the messages they send)."""
        self._conn_serial = 0
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._queue: list[tuple[str, tuple[Any, ...]]] = []
        self._mail: dict[str, list[bytes]] = {}
        self._flushing: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._summaries: dict[int, bytes] = {}
        self._pubsub: Any = None
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._adopting: dict[int, asyncio.Future[TableActor | None]] = {}
        self._renewed_at = 0.0
        self._dying: set[str] = set()
        """Processes found dead at the last tick (scanned for once more, then forgotten)."""

    def _k(self, key: str) -> str:
        return self.prefix + key

    # ------------------------------------------------------------------------- life
    async def start(self) -> None:
        """Listen on this process's channel, announce it alive, take the orphaned tables."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel, self.everyone)
        await self.redis.set(self._k("alive:" + self.proc), b"1", px=self.lease_ms)
        await self.redis.hset(self._k("load"), self.proc, 0)
        self._renewed_at = asyncio.get_running_loop().time()
        self._tasks.append(asyncio.create_task(self._listen(), name="cluster-listen"))
        await self.adopt_orphans()
        self._tasks.append(asyncio.create_task(self._keep_leases(), name="cluster-leases"))
        self._tasks.append(asyncio.create_task(self._scan(), name="cluster-scan"))

    async def stop(self) -> None:
        """Hand every table back (its lease released: another process may take it at once)."""
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        await self._flush()
        with contextlib.suppress(Exception):
            for table_id in list(self.fences):
                await self._release(keys=[self._lease(table_id)], args=[self.proc])
            # its name stays in ``load``: the other processes find it dead there at their next
            # tick, take the released tables at once and then forget it
            await self.redis.delete(self._k("alive:" + self.proc))
            if self._pubsub is not None:
                await self._pubsub.aclose()
            await self.redis.aclose()

    # ------------------------------------------------------------------------- sending
    def _send(self, command: str, *args: Any) -> None:
        """Queue a command that needs no answer; the queue goes in one pipeline."""
        self._queue.append((command, args))
        self._wake_flusher()

    def _wake_flusher(self) -> None:
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        await asyncio.sleep(0)
        await self._flush()

    async def _flush(self) -> None:
        while self._queue or self._mail:
            batch, self._queue = self._queue, []
            mail, self._mail = self._mail, {}
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for command, args in batch:
                        if command == "script":  # loaded first if Redis lost it
                            script, keys, argv = args
                            await script(keys=keys, args=argv, client=pipe)
                        else:
                            getattr(pipe, command)(*args)
                    for proc, parts in mail.items():  # one message a process: a bundle
                        pipe.publish(self._k("p:" + proc), b"".join(parts))
                    await pipe.execute()
            except Exception:
                log.exception("cluster: %d queued Redis commands failed", len(batch) + len(mail))

    def publish(self, proc: str, payload: bytes) -> None:
        """Queue ``payload`` for ``proc``: what one event-loop turn queues for a process goes
        as one pub/sub message, each part prefixed by its length (4 bytes)."""
        self._mail.setdefault(proc, []).append(len(payload).to_bytes(4, "big") + payload)
        self._wake_flusher()

    def deliver(self, proc: str, account: int, frame: bytes) -> None:
        """A frame for ``account``'s socket, which ``proc`` holds."""
        self.publish(proc, b"D%d " % account + frame)

    def tell(self, proc: str, message: dict[str, Any]) -> None:
        self.publish(proc, b"J" + _encode(message))

    # ------------------------------------------------------------------------- presence
    async def claim_connection(self, account: int) -> str:
        """Record that this process holds ``account``'s socket; the connection holding it
        elsewhere is told to close (4001). Returns this connection's presence value."""
        self._conn_serial += 1
        mine = f"{self.proc}|{self._conn_serial}"
        old = await self.redis.set(self._k(f"conn:{account}"), mine, get=True)
        self.where.pop(account, None)
        if old is not None:
            proc, _, serial = _text(old).partition("|")
            if proc != self.proc:
                self.tell(proc, {"t": "replace", "account": account, "serial": serial})
        return mine

    def release_connection(self, account: int, mine: str) -> None:
        self._send("script", self._release, [self._k(f"conn:{account}")], [mine])

    def serial_of(self, presence: str) -> str:
        return presence.partition("|")[2]

    async def where_is(self, account: int) -> str | None:
        """The process holding ``account``'s socket, if any."""
        proc = self.where.get(account)
        if proc is not None:
            return proc
        raw = await self.redis.get(self._k(f"conn:{account}"))
        if raw is None:
            return None
        proc = _text(raw).partition("|")[0]
        if proc == self.proc:
            return None
        self.where[account] = proc
        return proc

    async def gone(self, account: int, tables: list[int]) -> None:
        """``account``'s socket here closed: tell the owners of its tables elsewhere (read
        from the leases, not the cache: an owner may have changed since)."""
        others = [t for t in tables if t not in self.fences]
        if not others:
            return
        owners = {_text(o) for o in await self.redis.mget([self._lease(t) for t in others]) if o}
        for proc in owners - {self.proc}:
            self.tell(proc, {"t": "gone", "account": account, "from": self.proc})

    # ------------------------------------------------------------------------- seating
    def seat(self, account: int, table: int) -> None:
        self._send("sadd", self._k(f"seat:{account}"), table)

    def unseat(self, account: int, table: int) -> None:
        self._send("srem", self._k(f"seat:{account}"), table)

    async def tables_of(self, account: int) -> list[int]:
        await self._flush()  # this process's own seating writes first
        return sorted(int(t) for t in await self.redis.smembers(self._k(f"seat:{account}")))

    # ------------------------------------------------------------------------- lobby
    def publish_summary(self, table_id: int, summary: dict[str, Any]) -> None:
        data = _encode(summary)
        if self._summaries.get(table_id) != data:
            self._summaries[table_id] = data
            self._send("hset", self._k("summary"), str(table_id), data)

    async def summaries(self) -> list[dict[str, Any]]:
        await self._flush()
        rows = await self.redis.hgetall(self._k("summary"))
        out = [_decode(v) for v in rows.values()]
        return sorted((s for s in out if s.get("status") != "closed"), key=lambda s: s["id"])

    # ------------------------------------------------------------------------- tables
    def _lease(self, table_id: int) -> str:
        return self._k(f"lease:{table_id}")

    async def owner_of(self, table_id: int) -> str | None:
        proc = self.owners.get(table_id)
        if proc is None:
            raw = await self.redis.get(self._lease(table_id))
            if raw is None:
                return None
            proc = _text(raw)
            self.owners[table_id] = proc
        return proc

    async def take(self, table_id: int) -> int | None:
        """Take the lease of ``table_id`` if it is free: its new fencing token, else None."""
        token = int(
            await self._acquire(
                keys=[self._lease(table_id), self._k(f"fence:{table_id}")],
                args=[self.proc, self.lease_ms],
            )
        )
        return token or None

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
        from mazziere.server.store import tables as table_rows
        from mazziere.server.tables import TableActor

        row = await self._row(table_id)
        if row is None or row.status == "closed":
            return None
        token = await self.take(table_id)
        if token is None:
            return None
        async with self.server.db.write() as db:
            if not await table_rows.take_fence(db, table_id, token):
                return None  # a newer owner already fenced it: leave the lease to expire
        row = await self._row(table_id)
        assert row is not None
        actor = TableActor(self.server, row, fence=token)
        self.fences[table_id] = token
        self.owners[table_id] = self.proc
        self.server.tables[table_id] = actor
        report = await actor.recover()
        log.info("cluster %s took table %s: %s", self.proc, table_id, report)
        await self._reconnect_seats(actor)
        return actor

    def install(self, actor: TableActor, token: int) -> None:
        """Serve a table just created here, whose lease (``token``) was taken in the
        transaction that created its row, so no other process's scan could see the row
        without a lease and take the table first."""
        actor.fence = token
        self.fences[actor.id] = token
        self.owners[actor.id] = self.proc
        self.server.tables[actor.id] = actor
        self.publish_summary(actor.id, actor.summary())

    async def place(self, actor: TableActor) -> str:
        """Balance the processes: a table just created here moves, before anyone sits at it, to
        the live process with the fewest tables if that one has at least two fewer than this
        one (each process publishes its count in ``load`` at every renewal). Returns the
        process that will serve it. The handover is a release and an adoption: this process
        lets the lease go, the other takes it with a newer fencing token; a message arriving
        in between finds no lease and its door takes the table itself."""
        loads = {_text(k): int(v) for k, v in (await self.redis.hgetall(self._k("load"))).items()}
        others = sorted(p for p in loads if p != self.proc)
        if not others:
            return self.proc
        alive = await self.redis.mget([self._k("alive:" + p) for p in others])
        live = [(loads[p], p) for p, a in zip(others, alive, strict=True) if a is not None]
        mine = len(self.fences)
        if not live or min(live)[0] >= mine - 1:
            return self.proc
        _, target = min(live)
        self.lost(actor.id, f"handed to {target} (fewer tables)", logging.INFO)
        await self._release(keys=[self._lease(actor.id)], args=[self.proc])
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(self._k("load"), target, 1)  # counted at once: the next placement
            pipe.hset(self._k("load"), self.proc, len(self.fences))  # sees it
            await pipe.execute()
        self.tell(target, {"t": "adopt", "table": actor.id})
        return target

    async def _row(self, table_id: int) -> Any:
        from mazziere.server.store.models import GameTable

        async with self.server.db.session() as db:
            return await db.get(GameTable, table_id)

    async def _reconnect_seats(self, actor: TableActor) -> None:
        """After a take-over, the seated players still connected (to any process) are
        connected to this table again and get its state."""
        seated = [s.account for s in actor.seats if s.account is not None]
        for account in seated:
            connected = account in self.server.hub.conns or await self.where_is(account)
            if connected:
                with contextlib.suppress(MazziereError):
                    await actor.join(account, "")
        self.publish_summary(actor.id, actor.summary())

    def lost(self, table_id: int, why: str = "lost", level: int = logging.WARNING) -> None:
        """This process no longer owns ``table_id`` (lease lost or fenced, or handed over):
        forget its actor."""
        actor = self.server.tables.pop(table_id, None)
        self.fences.pop(table_id, None)
        self.owners.pop(table_id, None)
        self._summaries.pop(table_id, None)
        if actor is not None:
            actor.retire()
            for seat in actor.seats:
                if seat.account is not None:
                    self.server.seating.forget(seat.account, table_id)
            log.log(level, "cluster %s: table %s %s", self.proc, table_id, why)

    async def adopt_orphans(self) -> int:
        """Take every table not closed that no process holds (start-up and failover)."""
        from mazziere.server.store import tables as table_rows

        async with self.server.db.session() as db:
            ids = await table_rows.not_closed_ids(db)
        others = [t for t in ids if t not in self.fences]
        if not others:
            return 0
        held = await self.redis.mget([self._lease(t) for t in others])
        taken = 0
        orphans = [t for t, h in zip(others, held, strict=True) if h is None]
        random.shuffle(orphans)  # processes scanning together spread the orphans
        for t in orphans:
            with contextlib.suppress(Exception):
                if await self.adopt(t) is not None:
                    taken += 1
        return taken

    async def _keep_leases(self) -> None:
        """Renew this process's leases every third of a lease, on a clock of their own: a
        scan taking over many orphaned tables (each loaded from the database) must never
        delay the renewals, or the leases it holds expire meanwhile and the other processes
        take them in turn."""
        every = self.lease_ms / 3000
        while True:
            await asyncio.sleep(every * random.uniform(0.8, 1.0))
            try:
                await self._renew_all()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: lease renewal failed")

    async def _scan(self) -> None:
        """Every third of a lease: look for dead processes (a few keys); when one died, take
        the orphaned tables, then once more a tick later (its leases outlive its ``alive``
        key by the time one pipeline takes) and forget it. The full scan (every table not
        closed, read from the database, and its lease) also runs every
        :data:`FULL_SCAN_EVERY` ticks, for a lease lost without its process dying; a message
        for such a table takes it at once anyway. Not every tick: with many open tables a
        full scan is costly."""
        every = self.lease_ms / 3000
        tick = 0
        while True:
            await asyncio.sleep(every * random.uniform(0.8, 1.0))
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
        if settled:
            await self.redis.hdel(self._k("load"), *sorted(settled))
        return taken

    async def _renew_all(self) -> None:
        tables = list(self.fences)
        began = asyncio.get_running_loop().time()
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(self._k("alive:" + self.proc), b"1", px=self.lease_ms)
                pipe.hset(self._k("load"), self.proc, len(tables))
                for at in range(0, len(tables), RENEW_CHUNK):
                    await self._renew(
                        keys=[self._lease(t) for t in tables[at : at + RENEW_CHUNK]],
                        args=[self.proc, self.lease_ms],
                        client=pipe,
                    )
                got = [held for chunk in (await pipe.execute())[2:] for held in chunk]
        except Exception:
            # no renewal for a whole lease: the leases may be gone, another process may own
            # these tables; stop serving them (the fence would refuse their writes anyway)
            if began - self._renewed_at >= self.lease_ms / 1000:
                for t in tables:
                    self.lost(t)
            raise
        self._renewed_at = began
        for t, ok in zip(tables, got, strict=True):
            if not ok:
                self.lost(t)

    async def _drop_dead_processes(self) -> set[str]:
        """The processes found dead (every process this one heard of, and every one in
        ``load``), after forgetting what named them: players whose socket was there are
        disconnected from this process's tables (their seats are held, as after any
        disconnection), and tables it owned are looked up again (a live process takes them,
        or this one does, on the next message)."""
        listed = {_text(p) for p in await self.redis.hkeys(self._k("load"))}
        heard = set(self.where.values()) | set(self.owners.values())
        procs = sorted((listed | heard) - {self.proc})
        if not procs:
            return set()
        alive = await self.redis.mget([self._k("alive:" + p) for p in procs])
        dead = {p for p, a in zip(procs, alive, strict=True) if a is None}
        if not dead:
            return dead
        for account, proc in list(self.where.items()):
            if proc in dead:
                self._disconnected(account, proc)
        for table, proc in list(self.owners.items()):
            if proc in dead:
                del self.owners[table]
        return dead

    def _disconnected(self, account: int, proc: str) -> None:
        if self.where.get(account) != proc or account in self.server.hub.conns:
            return
        del self.where[account]
        for t in self.server.seating.tables_of(account):
            actor = self.server.tables.get(t)
            if actor is not None:
                actor.on_disconnect(account)

    # ------------------------------------------------------------------------- routing
    async def forward(self, table_id: int, account: int, username: str, raw: str) -> bool:
        """Send a client's message to the process owning ``table_id``; False if none does."""
        proc = await self.owner_of(table_id)
        if proc is None or proc == self.proc:
            return False
        self.tell(
            proc,
            {
                "t": "msg",
                "table": table_id,
                "account": account,
                "name": username,
                "from": self.proc,
                "raw": raw,
            },
        )
        return True

    async def call(
        self, table_id: int, op: str, account: int, username: str, args: list[Any]
    ) -> tuple[Any, dict[str, Any]]:
        """Run a table operation on its owner and return (its result, the table's summary);
        the owner's typed error is raised here."""
        for _ in range(2):
            proc = await self.owner_of(table_id)
            if proc is None:
                raise ClusterError(f"table {table_id} does not exist", "no_table")
            key = secrets.token_hex(8)
            fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._calls[key] = fut
            self.tell(
                proc,
                {
                    "t": "call",
                    "id": key,
                    "table": table_id,
                    "op": op,
                    "account": account,
                    "name": username,
                    "args": args,
                    "from": self.proc,
                },
            )
            try:
                reply = await asyncio.wait_for(fut, CALL_SECONDS)
            except TimeoutError:
                self.owners.pop(table_id, None)
                raise ClusterError(
                    "the table's server did not answer; nothing changed, try again"
                ) from None
            finally:
                self._calls.pop(key, None)
            if reply.get("moved"):
                self.owners.pop(table_id, None)
                continue
            if "error" in reply:
                err = reply["error"]
                raise MazziereError(err["message"], err["code"])
            return reply.get("value"), reply["summary"]
        raise ClusterError(f"table {table_id} is moving between servers; try again")

    # ------------------------------------------------------------------------- receiving
    async def _listen(self) -> None:
        async for item in self._pubsub.listen():
            if item.get("type") != "message":
                continue
            data: bytes = item["data"]
            if item.get("channel") in (self.everyone, self.everyone.encode()):
                parts = [data]
            else:
                parts, at = [], 0
                while at < len(data):
                    size = int.from_bytes(data[at : at + 4], "big")
                    parts.append(data[at + 4 : at + 4 + size])
                    at += 4 + size
            for part in parts:
                try:
                    await self._on(part)
                except Exception:
                    log.exception("cluster: a bus message failed")

    async def _on(self, data: bytes) -> None:
        hub = self.server.hub
        if data[:1] == b"D":
            head, _, frame = data.partition(b" ")
            hub.deliver_here(int(head[1:]), frame)
            return
        m = _decode(data[1:])
        t = m["t"]
        if t == "msg":
            self.where[m["account"]] = m["from"]
            actor = self.server.tables.get(m["table"])
            if actor is None:  # it moved on: the sender asks again
                self.owners.pop(m["table"], None)
                self.tell(
                    m["from"],
                    {
                        "t": "moved",
                        "table": m["table"],
                        "account": m["account"],
                        "name": m["name"],
                        "raw": m["raw"],
                    },
                )
                return
            self.server.spawn(hub.apply_remote(actor, m["account"], m["name"], m["raw"]))
        elif t == "moved":
            self.owners.pop(m["table"], None)
            self.server.spawn(hub.route_again(m["account"], m["name"], m["table"], m["raw"]))
        elif t == "call":
            self.where[m["account"]] = m["from"]
            self.server.spawn(self._answer(m))
        elif t == "reply":
            fut = self._calls.get(m["id"])
            if fut is not None and not fut.done():
                fut.set_result(m)
        elif t == "replace":
            self.server.spawn(hub.replaced_elsewhere(m["account"], m["serial"]))
        elif t == "gone":
            self._disconnected(m["account"], m["from"])
        elif t == "adopt":
            self.server.spawn(self.adopt(m["table"]))
        elif t == "end":
            self.server.spawn(hub.end_sessions(m["hashes"], m["code"], m["why"], everywhere=False))

    async def _answer(self, m: dict[str, Any]) -> None:
        from mazziere.server.tables import run_op

        reply: dict[str, Any] = {"t": "reply", "id": m["id"]}
        actor = self.server.tables.get(m["table"])
        if actor is None:
            reply["moved"] = True
        else:
            try:
                reply["value"] = await run_op(actor, m["op"], m["account"], m["name"], m["args"])
                reply["summary"] = actor.summary()
            except MazziereError as e:
                reply["error"] = {"code": e.code, "message": e.message}
            except Exception:
                log.exception("cluster: call %s on table %s failed", m["op"], m["table"])
                reply["error"] = {
                    "code": "server_busy",
                    "message": "the server could not record that right now; nothing changed",
                }
        self.tell(m["from"], reply)

    def end_everywhere(self, hashes: list[str], code: int, why: str) -> None:
        self._send(
            "publish",
            self.everyone,
            b"J" + _encode({"t": "end", "hashes": hashes, "code": code, "why": why}),
        )
