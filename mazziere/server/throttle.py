"""Login throttling per account and per client address, on the ``limits`` library's moving
windows, so that the counters can live in memory or, for several processes, in Redis
(``Settings.rate_limit_storage``)."""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from mazziere.errors import MazziereError


class Throttled(MazziereError):
    """Too many login attempts: HTTP 429 with ``Retry-After``."""

    default_code = "too_many_attempts"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, "too_many_attempts")
        self.retry_after = retry_after


class LoginThrottle:
    """Login attempts in a moving window per client address and per account.

    Every attempt takes a slot in both windows *before* its password is verified, with the
    storage's atomic test-and-increment (``hit``): however many attempts arrive at once, on
    one process or on several sharing Redis, no more than the limit are verified in a window.
    An attempt refused by either window is not verified (429). A right password then clears
    the account's window (its owner is back); the address keeps its slot, so the address
    window counts every attempt, successes included. Were successes given back to the address,
    an attacker holding one account could empty the address's count between guesses; and a
    moving window cannot return a single slot, only forget them all.

    The address is asked first, so that attempts from an address already over its limit take
    no slot from the account (they cannot lock its owner out).
    """

    def __init__(self, per_account: str, per_address: str, storage: str, key_prefix: str) -> None:
        self.per_account: RateLimitItem = parse(per_account)
        self.per_address: RateLimitItem = parse(per_address)
        extra = {}
        if storage.startswith("redis"):
            # redis-py is the Redis client the cluster already uses (limits defaults to
            # coredis); the keys carry the cluster's prefix, like every other key it keeps
            extra = {"implementation": "redispy", "key_prefix": f"{key_prefix}limits"}
        self.limiter = MovingWindowRateLimiter(storage_from_string(f"async+{storage}", **extra))

    def _windows(self, username: str, address: str) -> list[tuple[RateLimitItem, str]]:
        return [
            (self.per_address, f"login:address:{address}"),
            (self.per_account, self._account(username)),
        ]

    @staticmethod
    def _account(username: str) -> str:
        return f"login:account:{username.lower()}"

    async def attempt(self, username: str, address: str) -> None:
        """Take this attempt's slot in the address's window, then the account's; raise
        :class:`Throttled` (the password is not to be verified) if either is full."""
        for item, key in self._windows(username, address):
            if not await self.limiter.hit(item, key):
                stats = await self.limiter.get_window_stats(item, key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                raise Throttled(f"too many login attempts: try again in {wait} s", wait)

    async def succeeded(self, username: str) -> None:
        """A right password clears the account's window (the address's slots stay)."""
        await self.limiter.clear(self.per_account, self._account(username))
