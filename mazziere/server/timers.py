"""Every timer of the server in one place (platform.md "Time and presence"), on the server's
clock so tests drive them: per table the pending decision, each dropped player's held seat and
the casino session's idle close; per connection the inactivity warning and disconnection. The
callbacks come back into the table actor or the hub as ordinary messages."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from mazziere.server.clock import Timer

if TYPE_CHECKING:
    from mazziere.server.ports import Jobs

Job = Callable[[], Awaitable[Any]]


class TableTimers:
    """A table's timers: at most one decision timer, one computer player thinking, one per
    held seat, one idle close."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self.deadline: float | None = None
        """When the pending decision times out (server clock), if a timer runs."""
        self._decision: Timer | None = None
        self._holds: dict[int, Timer] = {}
        self._close: Timer | None = None
        self._bot: Timer | None = None

    # --- the pending decision
    def decide_within(self, seconds: float, on_timeout: Job) -> None:
        self.cancel_decision()
        self.deadline = self.jobs.clock.now() + seconds
        self._decision = self.jobs.later(seconds, on_timeout)

    def cancel_decision(self) -> None:
        if self._decision is not None:
            self._decision.cancel()
            self._decision = None
        self.deadline = None

    def time_left(self) -> float | None:
        """Seconds left for the pending decision, to a tenth (``None``: no timer runs)."""
        if self.deadline is None:
            return None
        return round(max(0.0, self.deadline - self.jobs.clock.now()), 1)

    # --- held seats
    def hold(self, seat: int, seconds: float, on_expiry: Job) -> None:
        self.release(seat)
        self._holds[seat] = self.jobs.later(seconds, on_expiry)

    def release(self, seat: int) -> None:
        t = self._holds.pop(seat, None)
        if t is not None:
            t.cancel()

    def expired(self, seat: int) -> None:
        """The hold of ``seat`` ran out (its timer is spent)."""
        self._holds.pop(seat, None)

    # --- a computer player thinking before its move
    def think(self, seconds: float, job: Job) -> None:
        self.cancel_think()
        self._bot = self.jobs.later(seconds, job)

    def cancel_think(self) -> None:
        if self._bot is not None:
            self._bot.cancel()
            self._bot = None

    # --- a casino session's idle close
    def close_after(self, seconds: float, job: Job) -> None:
        self.cancel_close()
        self._close = self.jobs.later(seconds, job)

    def cancel_close(self) -> None:
        if self._close is not None:
            self._close.cancel()
            self._close = None

    def close_fired(self) -> None:
        self._close = None

    def cancel_all(self) -> None:
        """Every timer of the table (it moved to another process)."""
        self.cancel_decision()
        self.cancel_think()
        for seat in list(self._holds):
            self.release(seat)
        self.cancel_close()


class InactivityTimers:
    """A connection's inactivity clock (seed 000: 20 minutes without a game action): a warning
    a minute before, then the disconnection.

    Lazy: an action only notes its time; one timer, armed at the first action, wakes when the
    warning would be due and looks at the last action: if there was one since, it sleeps again
    for what is left, rather than re-arming two timers at every action, a cost on every move."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self._last = 0.0
        self._timer: Timer | None = None
        self._warned = False
        self._warn: Callable[[], None] | None = None
        self._kick: Job | None = None

    def restart(self, warn: Callable[[], None], kick: Job) -> None:
        """A game action now: the 20 minutes start again."""
        self._last = self.jobs.clock.now()
        self._warn, self._kick, self._warned = warn, kick, False
        if self._timer is None:
            s = self.jobs.settings
            self._arm(s.inactivity_seconds - s.inactivity_warning_seconds)

    def _arm(self, delay: float) -> None:
        self._timer = self.jobs.clock.call_later(delay, self._check)

    def _check(self) -> None:
        self._timer = None
        s = self.jobs.settings
        idle = self.jobs.clock.now() - self._last
        warn_at = s.inactivity_seconds - s.inactivity_warning_seconds
        if idle < warn_at:
            self._arm(warn_at - idle)
        elif idle < s.inactivity_seconds:
            if not self._warned and self._warn is not None:
                self._warned = True
                self._warn()
            self._arm(s.inactivity_seconds - idle)
        elif self._kick is not None:
            self.jobs.spawn(_run(self._kick))

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None


async def _run(job: Job) -> None:
    await job()
