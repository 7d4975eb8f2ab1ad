"""Table traffic between processes: a client's message for a table owned elsewhere is
forwarded to its owner, which applies it as a local one (its updates go back as frames to the
process holding each player's socket); a REST call on such a table (join, leave, start,
top-up) is sent to the owner and waits for its answer, the owner's typed error raised again
here. A process that no longer owns the table answers ``moved`` and the sender asks again.

A message for an owner that died is answered too, at once: Redis tells the sender that
nobody listened to it. While the dead owner's lease lasts, the table is moving: a client's
message is answered ``table_moving`` with the seconds until it can be sent again (the lease's
rest and a tick to take the table), a REST call waits for the table to be taken and is then
made there (within :data:`CALL_SECONDS`). Once the lease is gone, the message is routed again:
the table is taken over where it arrives.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from mazziere.errors import MazziereError
from mazziere.server import protocol as P
from mazziere.server.cluster.bus import Bus
from mazziere.server.cluster.leases import Leases
from mazziere.server.cluster.messages import Call, CallError, Forward, Message, Moved, Reply
from mazziere.server.cluster.presence import Presence

if TYPE_CHECKING:
    from mazziere.server.cluster.runtime import Runtime
    from mazziere.server.table.actor import TableActor

log = logging.getLogger("mazziere.cluster")

CALL_SECONDS = 10.0
"""How long a REST call waits for the owning process's answer."""


class ClusterError(MazziereError):
    """A table's owner could not be reached or found (``server_busy``, ``no_table``)."""

    default_code = "server_busy"


class TableMoving(ClusterError):
    """The table's owner died and its lease has not expired yet: nothing was applied; the
    message can be sent again after ``retry_after`` seconds."""

    default_code = "table_moving"

    def __init__(self, table: int, lease_left: float, tick: float) -> None:
        self.table = table
        self.lease_left = lease_left
        """Seconds until the dead owner's lease expires."""
        self.retry_after = round(lease_left + tick, 1)
        """Seconds until the table is taken: the lease's rest and a tick."""
        super().__init__(
            f"table {table} is moving to another server; send it again in {self.retry_after:.1f} s",
            "table_moving",
        )


async def run_call(actor: TableActor, call: Call) -> Any:
    """The table verb that ``call`` names, run on the table's actor here: the one place that
    maps a call from another process to the actor's verbs."""
    from mazziere.server.table.verbs import run_op

    return await run_op(actor, call.op, call.account, call.name, call.args)


class Rpc:
    """Forwarded messages and calls, both ways."""

    def __init__(
        self,
        bus: Bus,
        leases: Leases,
        presence: Presence,
        server: Runtime,
        adopt: Callable[[int], Awaitable[TableActor | None]] | None = None,
    ) -> None:
        self.bus = bus
        self.leases = leases
        self.presence = presence
        self.server = server
        self.adopt = adopt
        """The table's actor here once it is loaded (a table this process is taking)."""
        self._calls: dict[str, asyncio.Future[Reply]] = {}
        self._call_to: dict[str, tuple[int, str]] = {}
        """A call waiting for its answer -> its table and the process it went to."""
        bus.undelivered = self.undelivered

    # ------------------------------------------------------------------------- sending
    async def forward(self, table_id: int, account: int, username: str, raw: str) -> bool:
        """Send a client's message to the process owning ``table_id``; False if none does."""
        proc = await self.leases.owner_of(table_id)
        if proc is None or proc == self.bus.proc:
            return False
        self.bus.tell(
            proc,
            Forward(table=table_id, account=account, name=username, from_=self.bus.proc, raw=raw),
        )
        return True

    async def call(
        self, table_id: int, op: str, account: int, username: str, args: list[Any]
    ) -> tuple[Any, dict[str, Any]]:
        """Run a table operation on its owner and return (its result, the table's summary);
        the owner's typed error is raised here."""
        for _ in range(2):
            proc = await self.leases.owner_of(table_id)
            if proc is None:
                raise ClusterError(f"table {table_id} does not exist", "no_table")
            key = secrets.token_hex(8)
            fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
            self._calls[key] = fut
            self._call_to[key] = (table_id, proc)
            self.bus.tell(
                proc,
                Call(
                    id=key,
                    table=table_id,
                    op=op,
                    account=account,
                    name=username,
                    args=args,
                    from_=self.bus.proc,
                ),
            )
            try:
                reply = await asyncio.wait_for(fut, CALL_SECONDS)
            except TimeoutError:
                self.leases.owners.pop(table_id, None)
                raise ClusterError(
                    "the table's server did not answer; nothing changed, try again"
                ) from None
            finally:
                self._calls.pop(key, None)
                self._call_to.pop(key, None)
            if reply.error is not None and reply.error.code == "table_moving":
                left = await self.lease_left(table_id, proc)
                if left is None:
                    continue  # the table has left the dead owner: ask again
                raise TableMoving(table_id, left, self.leases.seconds)
            if reply.moved:
                self.leases.owners.pop(table_id, None)
                continue
            if reply.error is not None:
                raise MazziereError(reply.error.message, reply.error.code)
            if reply.summary is None:
                raise ClusterError(f"the answer for table {table_id} had no summary")
            return reply.value, reply.summary
        raise ClusterError(f"table {table_id} is moving between servers; try again")

    # ------------------------------------------------------------------------- receiving
    def on_forward(self, m: Forward) -> None:
        """A client's message for a table here; ``moved`` if it is here no more."""
        self.presence.heard_from(m.account, m.from_)
        actor = self.server.tables.get(m.table)
        if actor is None and m.table in self.leases.fences and self.adopt is not None:
            self.server.spawn(self._when_loaded(m))  # taken here, loading: it waits
            return
        if actor is None:  # it moved on: the sender asks again
            self._moved(m)
            return
        self.server.spawn(self.server.hub.apply_remote(actor, m.account, m.name, m.raw))

    def _moved(self, m: Forward) -> None:
        self.leases.owners.pop(m.table, None)
        moved = Moved(table=m.table, account=m.account, name=m.name, raw=m.raw)
        self.bus.tell(m.from_, moved)

    async def _when_loaded(self, m: Forward) -> None:
        assert self.adopt is not None
        actor = await self.adopt(m.table)
        if actor is None:
            self._moved(m)
        else:
            await self.server.hub.apply_remote(actor, m.account, m.name, m.raw)

    def on_moved(self, m: Moved) -> None:
        """The table a message was forwarded for has moved on: route the message again."""
        self.leases.owners.pop(m.table, None)
        self.server.spawn(self.server.hub.route_again(m.account, m.name, m.table, m.raw))

    def on_call(self, m: Call) -> None:
        self.presence.heard_from(m.account, m.from_)
        self.server.spawn(self._answer(m))

    def on_reply(self, m: Reply) -> None:
        fut = self._calls.get(m.id)
        if fut is not None and not fut.done():
            fut.set_result(m)

    async def _answer(self, m: Call) -> None:
        actor = self.server.tables.get(m.table)
        if actor is None and m.table in self.leases.fences and self.adopt is not None:
            actor = await self.adopt(m.table)  # taken here, loading: the call waits
        if actor is None:
            reply = Reply(id=m.id, moved=True)
        else:
            try:
                value = await run_call(actor, m)
                reply = Reply(id=m.id, value=value, summary=actor.summary())
            except MazziereError as e:
                reply = Reply(id=m.id, error=CallError(e.code, e.message))
            except Exception:
                log.exception("cluster: call %s on table %s failed", m.op, m.table)
                busy = "the server could not record that right now; nothing changed"
                reply = Reply(id=m.id, error=CallError("server_busy", busy))
        self.bus.tell(m.from_, reply)

    # ------------------------------------------------------------------------- dead owners
    def undelivered(self, proc: str, messages: list[Message]) -> None:
        """Messages for ``proc`` that nobody listened to: it died. A client's message is
        routed again or answered ``table_moving``; a call is answered ``table_moving``."""
        for table in {m.table for m in messages if isinstance(m, Forward | Call)}:
            if self.leases.owners.get(table) == proc:
                del self.leases.owners[table]
        for m in messages:
            if isinstance(m, Call):
                fut = self._calls.get(m.id)
                if fut is not None and not fut.done():
                    moving = CallError("table_moving", "the table's server is gone")
                    fut.set_result(Reply(id=m.id, error=moving))
        forwards = [m for m in messages if isinstance(m, Forward)]
        if forwards:
            self.server.spawn(self._again_or_moving(proc, forwards))

    async def _again_or_moving(self, proc: str, forwards: list[Forward]) -> None:
        """Each message in the order sent: routed again if its table's lease is no longer
        the dead owner's (another process took the table, or this one takes it now), else
        answered ``table_moving`` with the seconds until the lease expires and a tick."""
        hub = self.server.hub
        for m in forwards:
            left = await self.lease_left(m.table, proc)
            if left is None:
                await hub.route_again(m.account, m.name, m.table, m.raw)
                continue
            moving = TableMoving(m.table, left, self.leases.seconds)
            self.server.metrics.errors.labels(moving.code).inc()
            answer = P.Error(
                code=moving.code,
                message=moving.message,
                table=m.table,
                retry_after=moving.retry_after,
            )
            await hub.send(m.account, answer)

    async def lease_left(self, table: int, proc: str) -> float | None:
        """Seconds left on ``table``'s lease if ``proc`` still holds it, else None."""
        ((holder, ttl),) = await self.leases.leases_of([table])
        return ttl if holder == proc else None
