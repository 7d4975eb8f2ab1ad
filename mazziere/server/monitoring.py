"""The periodic checks an operator watches (docs/operators.md "Metrics"): the ledger check
and the RTP watch, run in the background by one process of the server, their results in its
metrics; the RTP watch also answers ``GET /api/admin/rtp`` on any process.

**Why in the background, and on one process.** Both read the whole ledger (the check
reconciles every book with its entries; the all-time RTP sums every settled round), which is
far too much work for each Prometheus scrape: ``/metrics`` only reads the figures the last run
left. With several processes (docs/scaling.md) one of them runs the checks: the one holding
the ``monitor`` key in Redis (``SET NX PX``, kept for three intervals and renewed at each
run), so a process that dies hands the checks to another within three intervals of the most
frequent check. A process
that does not hold it shows none of the RTP figures (they would go stale) and no ledger check.

**A consistent reading.** The ledger check runs its queries in one read-only snapshot
(PostgreSQL: a ``REPEATABLE READ`` transaction; SQLite: one read transaction), so postings
committed while it runs cannot make a book look unbalanced.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.metrics import Metrics
from mazziere.server.rtp_monitor import (
    PLAYER_MIN_ROUNDS,
    WINDOWS,
    GameWatch,
    PublishedReturn,
    players_above,
    published_returns,
    window,
)
from mazziere.server.settings import Settings
from mazziere.server.store import ledger, rtp
from mazziere.server.store.db import Database

if TYPE_CHECKING:
    from mazziere.server.cluster import Cluster

log = logging.getLogger("mazziere.monitor")

HOLD = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
"""Take the ``monitor`` key if it is free, renew it if this process holds it (1), or leave it
to its holder (0)."""


async def snapshot(db: AsyncSession) -> None:
    """Make ``db``'s next statements read one consistent state of the database (module
    docstring), before it has run any."""
    if db.get_bind().dialect.name == "postgresql":
        await db.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    else:  # the SQLite driver opens no transaction for reads: open one, every read shares it
        conn = await db.connection()
        await conn.exec_driver_sql("BEGIN")


async def watch_rtp(db: AsyncSession, returns: dict[str, PublishedReturn]) -> list[GameWatch]:
    """Every game's windows and players above the band, from the database."""
    out = []
    for game, ret in returns.items():
        windows = [window(ret, await rtp.window_totals(db, game, n), n) for n in WINDOWS]
        players = await rtp.player_totals(db, game, PLAYER_MIN_ROUNDS)
        out.append(GameWatch(ret, tuple(windows), tuple(players_above(ret, players))))
    return out


class Monitor:
    """The ledger check and the RTP watch of one server process (module docstring)."""

    def __init__(
        self, settings: Settings, db: Database, metrics: Metrics, cluster: Cluster | None
    ) -> None:
        self.settings = settings
        self.db = db
        self.metrics = metrics
        self.cluster = cluster
        self._returns: dict[str, PublishedReturn] | None = None
        self._rtp_lock = asyncio.Lock()
        self._last: list[GameWatch] = []
        self.leading = cluster is None
        """Whether this process runs the periodic checks (one process: always)."""

    @property
    def returns(self) -> dict[str, PublishedReturn]:
        """Every game's published return (read once, from ``Settings.rtp_report`` or the
        source tree's certification report)."""
        if self._returns is None:
            path = self.settings.rtp_report
            self._returns = published_returns(Path(path) if path else None)
        return self._returns

    async def rtp(self) -> list[GameWatch]:
        """The RTP watch, read now; requests arriving while a reading runs share it. The
        leading process shows it in its metrics."""
        if self._rtp_lock.locked():
            async with self._rtp_lock:
                return self._last
        async with self._rtp_lock:
            started = time.perf_counter()
            async with self.db.session() as db:
                self._last = await watch_rtp(db, self.returns)
            if self.leading:
                self.metrics.watched(self._last, time.perf_counter() - started)
            return self._last

    async def ledger_check(self) -> ledger.LedgerReport:
        """Reconcile the ledger in one snapshot; its result goes to the metrics."""
        started = time.perf_counter()
        async with self.db.session() as db:
            await snapshot(db)
            report = await ledger.check(db)
            await db.rollback()
        self.metrics.checked("ledger", len(report.problems), time.perf_counter() - started)
        for p in report.problems:
            log.error("ledger check: %s", p)
        return report

    async def run(self) -> None:
        """The RTP watch every ``Settings.rtp_watch_seconds`` and the ledger check every
        ``Settings.ledger_check_seconds`` (0: never), the first runs one interval after the
        start, while this process leads."""
        jobs = [
            ("rtp", self.settings.rtp_watch_seconds, self.rtp),
            ("ledger", self.settings.ledger_check_seconds, self.ledger_check),
        ]
        jobs = [j for j in jobs if j[1] > 0]
        if not jobs:
            return
        hold = 3 * min(seconds for _, seconds, _ in jobs)
        await asyncio.gather(*(self._every(n, s, job, hold) for n, s, job in jobs))

    async def _every(
        self, name: str, seconds: float, job: Callable[[], Awaitable[object]], hold: float
    ) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                if await self._leads(hold):
                    await job()
            except asyncio.CancelledError:
                raise
            except Exception:  # logged and counted; the next run tries again
                log.exception("the %s check failed", name)
                self.metrics.check_failures.labels(name).inc()

    async def _leads(self, hold: float) -> bool:
        """Whether this process runs the checks: it holds (or takes now) the ``monitor`` key
        for ``hold`` seconds; one that lost it drops its figures."""
        if self.cluster is None:
            return True
        held = await self.cluster.redis.eval(
            HOLD, 1, self.cluster.bus.key("monitor"), self.cluster.proc, int(hold * 1000)
        )
        leading = bool(held)
        if self.leading and not leading:
            self.metrics.forget_checks()
        self.leading = leading
        return leading
