"""The running server's parts, assembled: settings, database, clock, metrics, connections
(the hub) and the table actors. Each part depends only on the narrow interfaces of
:mod:`mazziere.server.ports`, never on this module, so nothing imports in a circle."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from mazziere.server.attestation import Attestation
from mazziere.server.clock import Clock, RealClock
from mazziere.server.cluster import Cluster
from mazziere.server.hub import Hub
from mazziere.server.metrics import Metrics
from mazziere.server.monitoring import Monitor
from mazziere.server.seating import Seating
from mazziere.server.settings import Settings
from mazziere.server.store.db import Database
from mazziere.server.table.actor import TableActor
from mazziere.server.throttle import LoginThrottle
from mazziere.server.wallet.base import TRANSFER, BuiltinWallet, Wallet

__all__ = ["Server", "Settings"]


class Server:
    """The running server's parts: settings, database, clock, connections, tables, metrics."""

    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.db = Database(settings.url())
        self.clock: Clock = clock or RealClock()
        self.metrics = Metrics()
        self.db.on_batch = self.metrics.observe_batch
        self.hub = Hub(self)
        self.tables: dict[int, TableActor] = {}
        self.cluster: Cluster | None = None
        """Several processes (``redis_url`` set): leases, presence, forwarding."""
        if settings.redis_url:
            settings.check()
            self.cluster = Cluster(
                self, settings.redis_url, settings.redis_prefix, settings.lease_seconds
            )
        self.seating = Seating(self.cluster)
        self.monitor = Monitor(settings, self.db, self.metrics, self.cluster)
        """The ledger check and the RTP watch (:mod:`mazziere.server.monitoring`)."""
        self.wallet: Wallet = BuiltinWallet(self.db, settings.demo_credit)
        """Where a casino session's money comes from (docs/wallet.md)."""
        if settings.wallet == TRANSFER:
            from mazziere.server.wallet.transfer import TransferWallet

            self.wallet = TransferWallet.from_settings(settings, self.db)
        self.attestation = Attestation()
        """The last check of this process's files (docs/security.md "Attested software")."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.accepting = False
        from mazziere.server.store.accounts import Verifier, make_hasher

        self.hasher = make_hasher(settings.argon2_time_cost, settings.argon2_memory_kib)
        self.verifier = Verifier(self.hasher)
        self.tokens = settings.token_policy()
        self.throttle = LoginThrottle(
            settings.login_limit_account,
            settings.login_limit_address,
            settings.rate_limit_storage,
            settings.redis_prefix,
        )

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a background job; :meth:`idle` waits for all of them (tests)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def later(self, delay: float, job: Callable[[], Awaitable[Any]]) -> Any:
        """Schedule ``job`` after ``delay`` seconds of the server's clock."""
        return self.clock.call_later(delay, lambda: self.spawn(_run(job)))

    async def idle(self) -> None:
        """Wait until no background job is running (lets tests settle a ManualClock)."""
        for _ in range(1000):
            pending = [t for t in self._tasks if not t.done()]
            if not pending:
                await asyncio.sleep(0)
                if not [t for t in self._tasks if not t.done()]:
                    return
                continue
            await asyncio.gather(*pending, return_exceptions=True)


async def _run(job: Callable[[], Awaitable[Any]]) -> None:
    await job()
