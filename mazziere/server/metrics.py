"""Prometheus metrics (platform.md "Operator tools"): players connected, tables open,
decisions per second (a counter; Prometheus takes its rate), decision latency, errors by code,
how many writes each group commit carried and how long it took, and the garbage collector's
pauses."""

from __future__ import annotations

import gc
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


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
        self.errors = Counter(
            "mazziere_errors", "Refused messages by error code", ["code"], registry=self.registry
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

    def render(self) -> bytes:
        return generate_latest(self.registry)
