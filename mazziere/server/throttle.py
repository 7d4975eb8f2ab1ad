"""Failed-login throttling per account and per client address (issue 9), on the ``limits``
library's moving windows, so that the counters can live in memory or, for several processes,
in Redis (``Settings.rate_limit_storage``)."""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from mazziere.errors import MazziereError


class Throttled(MazziereError):
    """Too many failed logins: HTTP 429 with ``Retry-After``."""

    default_code = "too_many_attempts"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, "too_many_attempts")
        self.retry_after = retry_after


class LoginThrottle:
    """Counts failed logins; refuses a login attempt while either count is over its limit."""

    def __init__(self, per_account: str, per_address: str, storage: str = "memory://") -> None:
        self.per_account: RateLimitItem = parse(per_account)
        self.per_address: RateLimitItem = parse(per_address)
        extra = {"implementation": "redispy"} if storage.startswith("redis") else {}
        # redis-py is the Redis client the cluster already uses (limits defaults to coredis)
        self.limiter = MovingWindowRateLimiter(storage_from_string(f"async+{storage}", **extra))

    def _keys(self, username: str, address: str) -> list[tuple[RateLimitItem, str]]:
        return [
            (self.per_account, f"login:account:{username.lower()}"),
            (self.per_address, f"login:address:{address}"),
        ]

    async def check(self, username: str, address: str) -> None:
        """Raise :class:`Throttled` if this account or address failed too often lately."""
        for item, key in self._keys(username, address):
            if not await self.limiter.test(item, key):
                stats = await self.limiter.get_window_stats(item, key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                raise Throttled(f"too many failed logins: try again in {wait} s", wait)

    async def failed(self, username: str, address: str) -> None:
        for item, key in self._keys(username, address):
            await self.limiter.hit(item, key)

    async def succeeded(self, username: str) -> None:
        """A right password clears the account's count (the address's stays)."""
        await self.limiter.clear(self.per_account, f"login:account:{username.lower()}")
