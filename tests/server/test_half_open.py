"""docs/security.md, "Half-written requests": a connection must write its request's head within
``head_seconds`` or it is closed, and one address may have at most ``max_heads_per_address``
heads being written at once (mazziere/server/transport.py, ``HeadGuard``); a good client from
another address connects meanwhile. The figure for a few thousand such sockets is measured by
``benchmarks/bench_half_open.py``."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from .live import live_server

ATTACKER = "127.0.0.2"  # loopback too: another address on the same machine


HELD: list[asyncio.StreamWriter] = []
"""The sockets' writers, kept (a writer collected closes its socket)."""


async def half_written(
    port: int, head: bytes = b"GET /ws HTTP/1.1\r\nHost: x\r\n"
) -> asyncio.StreamReader:
    """A socket from :data:`ATTACKER` that writes part of a request's head and stops."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
    HELD.append(writer)
    with contextlib.suppress(ConnectionError):
        writer.write(head)
        await writer.drain()
    return reader


async def closed(reader: asyncio.StreamReader, within: float = 30.0) -> bool:
    """The server closed the socket (EOF or reset) before ``within`` seconds."""
    try:
        await asyncio.wait_for(reader.read(), within)
    except TimeoutError:  # an OSError too: first
        return False
    except (ConnectionError, OSError):
        pass
    return True


async def test_a_half_written_request_is_closed_after_the_head_deadline(tmp_path: Path) -> None:
    async with live_server(
        f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, head_seconds=1.0
    ) as live:
        port = int(live.base.rsplit(":", 1)[1])
        heads = [
            b"GET /ws HTTP/1.1\r\nHost: x\r\n",  # headers without their end
            b"GET /api/tab",  # half a request line
            b"",  # nothing at all
        ]
        readers = [await half_written(port, h) for h in heads]
        assert all(await asyncio.gather(*(closed(r) for r in readers)))
        for w in HELD:
            w.close()
        HELD.clear()
        # a request written whole, and kept alive, is answered and then held as uvicorn does
        r = await live.http.get("/health")
        assert r.status_code == 200


async def test_one_address_writing_many_heads_does_not_keep_out_a_good_client(
    tmp_path: Path,
) -> None:
    async with live_server(
        f"sqlite:///{tmp_path / 'db.sqlite3'}",
        tmp_path,
        head_seconds=30.0,
        max_heads_per_address=4,
    ) as live:
        port = int(live.base.rsplit(":", 1)[1])
        me = await live.signup("gina")
        readers = [await half_written(port) for _ in range(40)]
        early = await asyncio.gather(*(closed(r, within=3.0) for r in readers))
        assert early.count(False) == 4  # four held until their deadline, the rest closed
        good = await live.connect(me["token"])  # from 127.0.0.1, during the flood
        await good.send({"type": "ping"})
        await good.wait(lambda m: m["type"] == "pong")
        await good.close()
        for w in HELD:
            w.close()
        HELD.clear()
