"""This process's line to the others: one Redis client, the writes that need no answer queued
and sent in one pipeline per event-loop turn, the messages to each process bundled into one
publish, and the listener that decodes every message once and hands it on
(:mod:`mazziere.server.cluster.messages` has their forms).

Each process listens on its own channel ``<prefix>p:<proc>`` and on ``<prefix>all``. A message
for a process that no longer listens (it died: its connection to Redis closed with it) is
handed back to this process's cluster, which answers its sender at once. Redis
pub/sub keeps the order of one publisher's messages to one channel, so a player's messages
reach the table's owner in the order sent and the owner's updates reach the player in order.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis

from mazziere.server.cluster.messages import (
    BusError,
    Deliver,
    Message,
    decode,
    encode,
    framed,
    unbundle,
)

log = logging.getLogger("mazziere.cluster")

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
"""Delete a key only if it still holds the given value (a presence, or a lease)."""


def text(raw: Any) -> str:
    """A value read from Redis as text (the client returns bytes).

    >>> text(b"host.12.ab"), text("x")
    ('host.12.ab', 'x')
    """
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class Bus:
    """The Redis client of this process, its queued writes and its pub/sub channels."""

    def __init__(self, url: str, prefix: str) -> None:
        # a bounded pool that waits for a free connection (the default one raises "Too many
        # connections" when a thousand sockets open at once)
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=20)
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.prefix = prefix
        self.proc = f"{socket.gethostname()}.{os.getpid()}.{secrets.token_hex(3)}"
        """This process's name on the bus (host, pid and a random part: pids are reused)."""
        self.channel = self.key("p:" + self.proc)
        self.everyone = self.key("all")
        self._queue: list[tuple[str, tuple[Any, ...]]] = []
        self._mail: dict[str, list[bytes]] = {}
        self._flushing: asyncio.Task[None] | None = None
        self._pubsub: Any = None
        self.release_script = self.redis.register_script(RELEASE)
        """:data:`RELEASE`, registered."""
        self.undelivered: Callable[[str, list[Message]], None] | None = None
        """Called with the messages for a process that nobody listened to (it died, its
        channel has no listener): Redis answers each publish with its listeners' count."""

    def key(self, key: str) -> str:
        """A Redis key or channel with the cluster's prefix."""
        return self.prefix + key

    # ------------------------------------------------------------------------- sending
    def send(self, command: str, *args: Any) -> None:
        """Queue a command that needs no answer; the queue goes in one pipeline."""
        self._queue.append((command, args))
        self._wake_flusher()

    def send_script(self, script: Any, keys: list[str], args: list[Any]) -> None:
        """Queue a call of a registered Lua script (loaded first if Redis lost it)."""
        self.send("script", script, keys, args)

    def _wake_flusher(self) -> None:
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        await asyncio.sleep(0)
        await self.flush()

    async def flush(self) -> None:
        """Send every queued command and message now, in one pipeline."""
        while self._queue or self._mail:
            batch, self._queue = self._queue, []
            mail, self._mail = self._mail, {}
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for command, args in batch:
                        if command == "script":  # loaded first if Redis lost it
                            script, keys, argv = args
                            await script(keys=keys, args=argv, client=pipe)
                        else:
                            getattr(pipe, command)(*args)
                    for proc, parts in mail.items():  # one message a process: a bundle
                        pipe.publish(self.key("p:" + proc), b"".join(parts))
                    got = await pipe.execute()
            except Exception:
                log.exception("cluster: %d queued Redis commands failed", len(batch) + len(mail))
                continue
            heard = got[len(got) - len(mail) :]  # each publish: how many listeners had it
            for (proc, parts), listeners in zip(mail.items(), heard, strict=True):
                if not listeners and self.undelivered is not None:
                    try:
                        self.undelivered(proc, [decode(p[4:]) for p in parts])
                    except Exception:
                        log.exception("cluster: messages nobody heard could not be answered")

    def publish(self, proc: str, payload: bytes) -> None:
        """Queue ``payload`` (one encoded message) for ``proc``: what one event-loop turn
        queues for a process goes as one pub/sub message, a bundle."""
        self._mail.setdefault(proc, []).append(framed(payload))
        self._wake_flusher()

    def tell(self, proc: str, message: Message) -> None:
        """Queue ``message`` for ``proc``."""
        self.publish(proc, encode(message))

    def deliver(self, proc: str, account: int, frame: bytes) -> None:
        """A frame for ``account``'s socket, which ``proc`` holds."""
        self.publish(proc, encode(Deliver(account, frame)))

    def tell_everyone(self, message: Message) -> None:
        """Queue ``message`` for every process (this one too), on the ``all`` channel."""
        self.send("publish", self.everyone, encode(message))

    # ------------------------------------------------------------------------- receiving
    async def subscribe(self) -> None:
        """Listen on this process's channel and on ``all`` (before announcing it alive, so
        that nothing sent to it once it is known is lost)."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel, self.everyone)

    async def listen(self, handle: Callable[[Message], None]) -> None:
        """Decode every message arriving, once, and hand it to ``handle``; a malformed one is
        logged and skipped, as is one whose handling fails."""
        async for item in self._pubsub.listen():
            if item.get("type") != "message":
                continue
            data: bytes = item["data"]
            try:
                if item.get("channel") in (self.everyone, self.everyone.encode()):
                    parts = [data]
                else:
                    parts = unbundle(data)
            except BusError as e:
                log.warning("cluster: a bus message refused: %s", e)
                continue
            for part in parts:
                try:
                    handle(decode(part))
                except BusError as e:
                    log.warning("cluster: a bus message refused: %s", e)
                except Exception:
                    log.exception("cluster: a bus message failed")

    async def close(self) -> None:
        """Stop listening and close the Redis client."""
        if self._pubsub is not None:
            await self._pubsub.aclose()
        await self.redis.aclose()
