"""Table traffic between processes: a client's message for a table owned elsewhere is
forwarded to its owner, which applies it as a local one (its updates go back as frames to the
process holding each player's socket); a REST call on such a table (join, leave, start,
top-up) is sent to the owner and waits for its answer, the owner's typed error raised again
here. A process that no longer owns the table answers ``moved`` and the sender asks again.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

from mazziere.errors import MazziereError
from mazziere.server.cluster.bus import Bus
from mazziere.server.cluster.leases import Leases
from mazziere.server.cluster.messages import Call, CallError, Forward, Moved, Reply
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


async def run_call(actor: TableActor, call: Call) -> Any:
    """The table verb that ``call`` names, run on the table's actor here: the one place that
    maps a call from another process to the actor's verbs."""
    from mazziere.server.table.verbs import run_op

    return await run_op(actor, call.op, call.account, call.name, call.args)


class Rpc:
    """Forwarded messages and calls, both ways."""

    def __init__(self, bus: Bus, leases: Leases, presence: Presence, server: Runtime) -> None:
        self.bus = bus
        self.leases = leases
        self.presence = presence
        self.server = server
        self._calls: dict[str, asyncio.Future[Reply]] = {}

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
        if actor is None:  # it moved on: the sender asks again
            self.leases.owners.pop(m.table, None)
            moved = Moved(table=m.table, account=m.account, name=m.name, raw=m.raw)
            self.bus.tell(m.from_, moved)
            return
        self.server.spawn(self.server.hub.apply_remote(actor, m.account, m.name, m.raw))

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
