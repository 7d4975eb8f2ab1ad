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
    """A table's timers: at most one decision timer, one per held seat, one idle close."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self.deadline: float | None = None
        """When the pending decision times out (server clock), if a timer runs."""
        self._decision: Timer | None = None
        self._holds: dict[int, Timer] = {}
        self._close: Timer | None = None

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
        for seat in list(self._holds):
            self.release(seat)
        self.cancel_close()


class InactivityTimers:
    """A connection's inactivity clock (seed 000: 20 minutes without a game action): a warning
    a minute before, then the disconnection."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self._warn: Timer | None = None
        self._kick: Timer | None = None

    def restart(self, warn: Callable[[], None], kick: Job) -> None:
        s = self.jobs.settings
        self.cancel()
        self._warn = self.jobs.clock.call_later(
            s.inactivity_seconds - s.inactivity_warning_seconds, warn
        )
        self._kick = self.jobs.later(s.inactivity_seconds, kick)

    def cancel(self) -> None:
        for t in (self._warn, self._kick):
            if t is not None:
                t.cancel()
        self._warn = self._kick = None
