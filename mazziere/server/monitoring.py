"""The periodic checks an operator watches (docs/operators.md "Metrics"): the ledger check
and the RTP watch, run in the background by one process of the server, their results in its
metrics; the RTP watch also answers ``GET /api/admin/rtp`` on any process.

**Why in the background, and on one process.** The ledger check reads the whole ledger (it
reconciles every book with its entries), and a reading of the RTP watch looks up the postings
of the last 100,000 rounds and of every round settled since the last reading (the all-time
sums are carried forward, :class:`AllTime`): too much work for each Prometheus scrape, so
``/metrics`` only shows what the last run left. With several processes (docs/scaling.md) one
of them runs the checks: the one holding the ``monitor`` key in Redis (``SET NX PX``, kept
for three intervals of the most frequent check and renewed at each run), so a process that
dies hands the checks to another within three intervals. A process that does not hold it
shows none of the checks' figures (they would go stale).

**A consistent reading.** The ledger check runs its queries in one snapshot of the database
(PostgreSQL: a ``REPEATABLE READ`` transaction; SQLite: one read transaction), so postings
committed while it runs cannot make a book look unbalanced.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.metrics import Metrics
from mazziere.server.rtp_monitor import (
    WINDOWS,
    GameWatch,
    PublishedReturn,
    Totals,
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


SETTLE_SECONDS = 300.0
"""A hand id seen this long ago belongs to a hand whose opening transaction has committed (or
never will): from then on no hand below it can appear, and settled rounds below it can be
carried forward (:class:`AllTime`)."""


@dataclass
class Carried:
    """A game's sums over its settled rounds with hand ids up to ``upto``, in all and by
    player (``account -> (name, sums)``)."""

    upto: int = 0
    totals: Totals = field(default_factory=Totals)
    players: dict[int, tuple[str, Totals]] = field(default_factory=dict)


def _merge(
    into: dict[int, tuple[str, Totals]], more: dict[int, tuple[str, Totals]]
) -> dict[int, tuple[str, Totals]]:
    for account, (name, t) in more.items():
        into[account] = (name, into[account][1] + t if account in into else t)
    return into


class AllTime:
    """All-time sums of each game, in all and by player, carried from one reading to the next
    so that a reading reads only the rounds settled since, not every round again.

    Rounds are carried up to a hand id below which nothing can change any more: below every
    hand of the game still being played, and at most the largest hand id seen
    :data:`SETTLE_SECONDS` ago (on PostgreSQL a hand may get its id before a hand with a
    larger one and commit after it). Each reading adds the rounds newly below that id, then
    sums the few above it afresh."""

    def __init__(self, settle_seconds: float = SETTLE_SECONDS) -> None:
        self.settle = settle_seconds
        self.seen: deque[tuple[float, int]] = deque()
        """``(time, largest hand id)`` of the readings not yet :attr:`settle` old."""
        self.ready = 0
        """The largest hand id seen :attr:`settle` ago or more."""
        self.carried: dict[str, Carried] = {}

    async def observe(self, db: AsyncSession) -> None:
        """Note the largest hand id now (once a reading, before the games are read)."""
        now = time.monotonic()
        self.seen.append((now, await rtp.last_hand(db)))
        while self.seen and now - self.seen[0][0] >= self.settle:
            self.ready = max(self.ready, self.seen.popleft()[1])

    async def read(
        self, db: AsyncSession, game: str
    ) -> tuple[Totals, dict[int, tuple[str, Totals]]]:
        """``game``'s sums over every settled round, in all and by player."""
        c = self.carried.setdefault(game, Carried())
        playing = await rtp.first_unsettled(db, game, c.upto)
        upto = self.ready if playing is None else min(self.ready, playing - 1)
        if upto > c.upto:
            c.totals += await rtp.range_totals(db, game, c.upto, upto)
            _merge(c.players, await rtp.range_player_totals(db, game, c.upto, upto))
            c.upto = upto
        tail = await rtp.range_totals(db, game, c.upto, None)
        players = _merge(dict(c.players), await rtp.range_player_totals(db, game, c.upto, None))
        return c.totals + tail, players


async def watch_rtp(
    db: AsyncSession, returns: dict[str, PublishedReturn], every: AllTime | None = None
) -> list[GameWatch]:
    """Every game's windows and players above the band, from the database (the all-time sums
    carried in ``every`` from earlier readings, if given)."""
    every = every or AllTime(settle_seconds=0.0)
    await every.observe(db)
    out = []
    for game, ret in returns.items():
        windows = [
            window(ret, await rtp.window_totals(db, game, n), n) for n in WINDOWS if n is not None
        ]
        total, by_player = await every.read(db, game)
        windows.append(window(ret, total, None))
        players = [(a, name, t) for a, (name, t) in sorted(by_player.items())]
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
        self.all_time = AllTime()
        """The all-time sums, carried from one reading to the next."""
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
                self._last = await watch_rtp(db, self.returns, self.all_time)
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
