"""Time for the server: a real clock and a manual one for tests (docs/architecture.md: timers
live only in the server and enter the rules as ordinary actions; tests drive them without
sleeping)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def wall(self) -> datetime:
        """The date and time (UTC) that the server's dated rules read: a limit's window, a
        pending raise, a reality check."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...


class RealClock:
    """Wall-clock time and the running event loop's timers."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> datetime:
        return datetime.now(UTC)

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)


class _ManualTimer:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when a test calls :meth:`advance`; due callbacks then run in
    time order."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._wall_at_zero = datetime.now(UTC) - timedelta(seconds=start)
        """The date at ``now() == 0``: the manual clock's date starts at the real one and
        moves only with :meth:`advance`."""
        self._heap: list[tuple[float, int, _ManualTimer, Callable[[], None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> datetime:
        return self._wall_at_zero + timedelta(seconds=self._now)

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        t = _ManualTimer()
        heapq.heappush(self._heap, (self._now + max(0.0, delay), next(self._seq), t, callback))
        return t

    def advance(self, seconds: float) -> int:
        """Move time forward, firing every due timer; returns how many fired."""
        target = self._now + seconds
        fired = 0
        while self._heap and self._heap[0][0] <= target:
            when, _, timer, cb = heapq.heappop(self._heap)
            self._now = when
            if not timer.cancelled:
                cb()
                fired += 1
        self._now = target
        return fired

    def pending(self) -> int:
        return sum(1 for _, _, t, _ in self._heap if not t.cancelled)
