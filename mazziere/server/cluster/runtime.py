"""What the cluster sees of the running server (``context.Server``): the jobs, database and
seating of a table actor's runtime, the directory of this process's table actors, and the few
calls it makes on the hub for messages arriving from other processes. Protocols only
(docs/architecture.md "Layers"), so the cluster imports neither the hub nor the server."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from mazziere.server.ports import ActorRuntime, Outbox

if TYPE_CHECKING:
    from mazziere.server.table.actor import TableActor


class HubSide(Outbox, Protocol):
    """What the cluster uses of the hub (``hub.Hub``): its outbox, and more."""

    @property
    def conns(self) -> Mapping[int, object]:
        """The sockets this process holds, by account."""
        ...

    def deliver_here(self, account: int, frame: bytes) -> None: ...

    async def apply_remote(
        self, actor: TableActor, account: int, username: str, raw: str
    ) -> None: ...

    async def route_again(self, account: int, username: str, table: int, raw: str) -> None: ...

    async def replaced_elsewhere(self, account: int, serial: str) -> None: ...

    async def end_logins(
        self, token_hashes: Iterable[str], code: int, why: str, everywhere: bool = True
    ) -> int: ...


class Runtime(ActorRuntime, Protocol):
    """What the cluster uses of the running server (``context.Server``)."""

    tables: dict[int, TableActor]

    @property
    def hub(self) -> HubSide: ...
