"""The narrow interfaces the server's parts see of each other (docs/architecture.md "Server"):
a table actor sees a runtime with an outbox; the hub sees a runtime with a directory of tables.
The concrete parts (``context.Server``, ``hub.Hub``, ``table.actor.TableActor``) satisfy these
Protocols; none of them imports another, so the package has no import circle."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, Protocol

from mazziere.server.clock import Clock, Timer
from mazziere.server.metrics import Metrics
from mazziere.server.protocol import TableUpdate
from mazziere.server.seating import Seating
from mazziere.server.settings import Settings
from mazziere.server.store.accounts import TokenPolicy
from mazziere.server.store.audit import Actor
from mazziere.server.store.db import Database
from mazziere.server.wallet.base import Wallet


class Outbox(Protocol):
    """Where a table sends a player's messages (the player's connection, if any)."""

    async def send(self, account: int, message: Any) -> None: ...


class Jobs(Protocol):
    """Background work and timers on the server's clock."""

    settings: Settings
    db: Database
    clock: Clock
    metrics: Metrics

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None: ...

    def later(self, delay: float, job: Callable[[], Awaitable[Any]]) -> Timer: ...


class MoneyGate(Protocol):
    """Whether money tables may open (:class:`mazziere.server.attestation.Attestation`)."""

    def require_for_money(self) -> None: ...


class ActorRuntime(Jobs, Protocol):
    """What a table actor uses: settings, database, clock, metrics, jobs, an outbox, the
    seating directory it keeps up to date, the player's wallet and the gate of money
    tables."""

    seating: Seating
    wallet: Wallet
    """Where a casino session's money comes from (docs/wallet.md)."""

    @property
    def attestation(self) -> MoneyGate: ...

    @property
    def cluster(self) -> ClusterPort | None: ...

    @property
    def hub(self) -> Outbox: ...


class ClusterPort(Protocol):
    """What the hub and the actors use of :class:`mazziere.server.cluster.Cluster` (several
    processes); ``None`` in a server that runs alone."""

    async def where_is(self, account: int) -> str | None: ...

    def deliver(self, proc: str, account: int, frame: bytes) -> None: ...

    async def tables_of(self, account: int) -> list[int]: ...

    def end_everywhere(self, hashes: list[str], code: int, why: str) -> None: ...

    def serial_of(self, presence: str) -> str: ...

    async def claim_connection(self, account: int) -> str: ...

    def release_connection(self, account: int, mine: str) -> None: ...

    async def gone(self, account: int, tables: list[int]) -> None: ...

    async def forward(self, table_id: int, account: int, username: str, raw: str) -> bool: ...

    async def adopt(self, table_id: int) -> Any: ...

    async def owner_of(self, table_id: int) -> str | None: ...

    def publish_summary(self, table_id: int, summary: dict[str, Any]) -> None: ...

    def lost(self, table_id: int) -> None: ...


class Table(Protocol):
    """What the hub uses of a table actor."""

    id: int
    state_no: int

    def seat_of(self, account: int) -> int | None: ...

    async def join(self, account: int, username: str) -> int: ...

    async def leave(self, account: int) -> None: ...

    async def watch(self, account: int, username: str) -> None: ...

    async def start(self, account: int) -> None: ...

    async def act(self, account: int, state_no: int, action: str) -> None: ...

    async def stake(self, account: int, state_no: int, amount: int) -> None: ...

    async def top_up(self, account: int, amount: int, key: str | None = None) -> int: ...

    async def close(self, reason: str, by: Actor, note: str) -> int: ...

    async def update_for(self, seat: int, *, full: bool = False) -> TableUpdate: ...

    def on_disconnect(self, account: int) -> None: ...


class HubRuntime(Jobs, Protocol):
    """What the hub uses: settings, database, clock, metrics, jobs, token lifetimes and the
    directory of tables and who sits where."""

    tokens: TokenPolicy
    seating: Seating

    @property
    def cluster(self) -> ClusterPort | None: ...

    @property
    def tables(self) -> Mapping[int, Table]: ...
