"""Prometheus metrics (platform.md "Operator tools"): players connected, tables open and
tables by game, decisions per second (a counter; Prometheus takes its rate), decision latency,
stakes and payouts by game (counters in cents), errors by code, how many writes each group
commit carried and how long it took, the garbage collector's pauses, and the periodic checks of
one process (:mod:`mazziere.server.monitoring`): the ledger check's last result and time, and
the RTP watch's realised returns, bands and alerts; with the transfer wallet, its outbox's rows
and the age of the oldest (docs/operators.md, "Metrics")."""

from __future__ import annotations

import gc
import time
from collections import Counter as Tally
from collections.abc import Iterable
from datetime import datetime

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from mazziere.server.rtp_monitor import GameWatch


class Metrics:
    """One registry per server, so tests can run several servers in one process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.players_connected = Gauge(
            "mazziere_players_connected", "Players with an open connection", registry=self.registry
        )
        self.tables_open = Gauge(
            "mazziere_tables_open", "Tables not closed", registry=self.registry
        )
        self.decisions = Counter(
            "mazziere_decisions",
            "Actions applied, by game and actor",
            ["game", "actor"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "mazziere_decision_latency_seconds",
            "From a player's action arriving to its acknowledgement being sent",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.commit_batch = Histogram(
            "mazziere_commit_batch_writes",
            "Table writes carried by one group commit (store/db.py)",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "mazziere_commit_batch_seconds",
            "Wall time of one group commit, from its first statement to its commit",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.gc_pause = Histogram(
            "mazziere_gc_pause_seconds",
            "Garbage collections by generation: the event loop stops while one runs",
            ["generation"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.swept = Counter(
            "mazziere_gc_swept_objects",
            "Objects the periodic heap sweep freed: cycles among objects frozen while alive "
            "(app.sweep_heap); a steady climb means freezing holds garbage that long",
            registry=self.registry,
        )
        self.tables_unowned = Gauge(
            "mazziere_tables_unowned",
            "Several processes: tables not closed whose lease is free or held by a process "
            "found dead, at this process's last scan for them (docs/scaling.md, Failover)",
            registry=self.registry,
        )
        self.takeover = Histogram(
            "mazziere_takeover_seconds",
            "Several processes: from a dead owner's last lease renewal to its table resumed "
            "here (lease, detection and recovery together)",
            buckets=(0.5, 1, 2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 30, 60),
            registry=self.registry,
        )
        self.takeover_longest = Gauge(
            "mazziere_takeover_longest_seconds",
            "Several processes: the longest takeover this process made since it started",
            registry=self.registry,
        )
        self.errors = Counter(
            "mazziere_errors", "Refused messages by error code", ["code"], registry=self.registry
        )
        self.outbox_rows = Gauge(
            "mazziere_wallet_outbox_rows",
            "Transfer wallet: credits and cancels waiting in the outbox for the operator's "
            "wallet to confirm them, by direction (docs/wallet.md, Retries)",
            ["direction"],
            registry=self.registry,
        )
        self.outbox_oldest = Gauge(
            "mazziere_wallet_outbox_oldest_seconds",
            "Transfer wallet: age of the oldest row waiting in the outbox (0 when it is empty)",
            registry=self.registry,
        )
        self.tables_by_game = Gauge(
            "mazziere_tables",
            "Tables this process runs, by game and status (open, playing)",
            ["game", "status"],
            registry=self.registry,
        )
        self.stakes = Counter(
            "mazziere_stakes_cents",
            "Cents staked, by game, counted once the stake's transaction committed",
            ["game"],
            registry=self.registry,
        )
        self.payouts = Counter(
            "mazziere_payouts_cents",
            "Cents paid out, by game, counted once the payout's transaction committed",
            ["game"],
            registry=self.registry,
        )
        check = ["check"]
        self.check_ok = Gauge(
            "mazziere_check_ok",
            "1 if the last run of a periodic check (ledger, rtp) found nothing wrong, else 0",
            check,
            registry=self.registry,
        )
        self.check_problems = Gauge(
            "mazziere_check_problems",
            "What the last run of a check found wrong (ledger: problems; rtp: windows out of "
            "band and players above it)",
            check,
            registry=self.registry,
        )
        self.check_time = Gauge(
            "mazziere_check_timestamp_seconds",
            "Unix time a check last finished",
            check,
            registry=self.registry,
        )
        self.check_seconds = Gauge(
            "mazziere_check_duration_seconds",
            "How long a check's last run took",
            check,
            registry=self.registry,
        )
        self.check_failures = Counter(
            "mazziere_check_failures",
            "Runs of a check that could not finish (the database unreachable...)",
            check,
            registry=self.registry,
        )
        watch = ["game", "window"]
        self.rtp_out = Gauge(
            "mazziere_rtp_out_of_band",
            "1 when a window's realised return lies outside its 99% control band",
            watch,
            registry=self.registry,
        )
        self.rtp_realised = Gauge(
            "mazziere_rtp_realised",
            "Realised return to player over a window of settled rounds (paid / staked)",
            watch,
            registry=self.registry,
        )
        self.rtp_low = Gauge(
            "mazziere_rtp_band_low",
            "Lower edge of a window's 99% band",
            watch,
            registry=self.registry,
        )
        self.rtp_high = Gauge(
            "mazziere_rtp_band_high",
            "Upper edge of a window's 99% band",
            watch,
            registry=self.registry,
        )
        self.rtp_rounds = Gauge(
            "mazziere_rtp_rounds", "Settled rounds a window holds", watch, registry=self.registry
        )
        self.rtp_theoretical = Gauge(
            "mazziere_rtp_theoretical",
            "The published theoretical return to player",
            ["game"],
            registry=self.registry,
        )
        self.rtp_players_above = Gauge(
            "mazziere_rtp_players_above_band",
            "Players whose realised return over enough rounds lies above their band",
            ["game"],
            registry=self.registry,
        )
        self._check_gauges = (
            self.check_ok,
            self.check_problems,
            self.check_time,
            self.check_seconds,
        )
        self._rtp_gauges = (
            self.rtp_out,
            self.rtp_realised,
            self.rtp_low,
            self.rtp_high,
            self.rtp_rounds,
            self.rtp_theoretical,
            self.rtp_players_above,
        )

    def time_gc(self) -> None:
        """Observe every garbage collection of this process in :attr:`gc_pause` (a server
        process calls this once; the callback costs a clock read and an observation)."""
        started = [0.0]
        pauses = [self.gc_pause.labels(str(g)) for g in range(3)]

        def callback(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started[0] = time.perf_counter()
            else:
                pauses[info["generation"]].observe(time.perf_counter() - started[0])

        gc.callbacks.append(callback)

    def observe_batch(self, writes: int, seconds: float) -> None:
        """One group commit: the writes it carried and its wall time (store/db.py)."""
        self.commit_batch.observe(writes)
        self.commit_seconds.observe(seconds)

    def count_tables(self, tables: Iterable[tuple[str, str]]) -> None:
        """Set the tables gauges from ``(game, status)`` of every table this process runs
        (at each scrape: a count over the tables in memory)."""
        counts = Tally(tables)
        self.tables_by_game.clear()
        for (game, status), n in counts.items():
            self.tables_by_game.labels(game, status).set(n)
        self.tables_open.set(sum(counts.values()))

    def outbox(self, owed: dict[str, tuple[int, datetime]], now: datetime) -> None:
        """Set the outbox gauges from :func:`mazziere.server.store.transfers.owed` (at each
        scrape, in transfer-wallet mode)."""
        for direction in ("credit", "cancel"):
            self.outbox_rows.labels(direction).set(owed.get(direction, (0, now))[0])
        oldest = min((t for _, t in owed.values()), default=now)
        self.outbox_oldest.set(max(0.0, (now - oldest).total_seconds()))

    def money(self, game: str, staked: int = 0, paid: int = 0) -> None:
        """A stake or a payout of ``game`` committed (cents)."""
        if staked:
            self.stakes.labels(game).inc(staked)
        if paid:
            self.payouts.labels(game).inc(paid)

    def checked(self, check: str, problems: int, seconds: float) -> None:
        """A check's run finished: what it found wrong (a count) and how long it took."""
        self.check_ok.labels(check).set(0 if problems else 1)
        self.check_problems.labels(check).set(problems)
        self.check_seconds.labels(check).set(seconds)
        self.check_time.labels(check).set(time.time())

    def watched(self, games: Iterable[GameWatch], seconds: float) -> None:
        """The RTP watch's figures, replacing the last ones."""
        for gauge in self._rtp_gauges:
            gauge.clear()
        problems = 0
        for g in games:
            game = g.ret.game
            problems += len(g.above) + sum(w.out_of_band for w in g.windows)
            self.rtp_theoretical.labels(game).set(g.ret.theoretical)
            self.rtp_players_above.labels(game).set(len(g.above))
            for w in g.windows:
                labels = (game, w.label)
                self.rtp_rounds.labels(*labels).set(w.rounds)
                self.rtp_out.labels(*labels).set(1 if w.out_of_band else 0)
                if w.realised is None or w.low is None or w.high is None:
                    continue  # no round yet: no return, no band
                self.rtp_realised.labels(*labels).set(w.realised)
                self.rtp_low.labels(*labels).set(w.low)
                self.rtp_high.labels(*labels).set(w.high)
        self.checked("rtp", problems, seconds)

    def forget_checks(self) -> None:
        """Drop the checks' figures: a process that no longer runs them shows none, rather
        than figures that go stale."""
        for gauge in (*self._check_gauges, *self._rtp_gauges):
            gauge.clear()

    def render(self) -> bytes:
        return generate_latest(self.registry)
