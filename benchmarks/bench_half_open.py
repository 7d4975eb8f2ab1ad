"""Half-written requests against a good client (docs/security.md, "Half-written requests").

Starts ``mazziere serve`` (SQLite), then from one address (127.0.0.2) opens ``--sockets``
connections as fast as it can, each writing half a WebSocket request's head and then
nothing, and holds them; meanwhile a good client from another address (127.0.0.1) connects
a WebSocket, logs in and pings, again and again. It prints how many of the good client's
connections succeeded and how long each took, how many half-written sockets the server closed
at once (past ``--max-heads-per-address``), and the server's open file descriptors at their
highest.

    python benchmarks/bench_half_open.py [--sockets 20000] [--head-seconds 5]

The last line is ``sockets=N good_ok=K/T good_p50_ms=.. good_max_ms=.. server_fds_max=..``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ATTACKER = "127.0.0.2"
HEAD = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fds(pid: int) -> int:
    with contextlib.suppress(OSError):
        return len(os.listdir(f"/proc/{pid}/fd"))
    return 0


async def attack(port: int, n: int, held: list[Any], closed_at_once: list[int]) -> None:
    """Open ``n`` half-written connections from :data:`ATTACKER`, a few hundred at a time."""

    async def one() -> None:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(ATTACKER, 0)
            )
            writer.write(HEAD)
            with contextlib.suppress(TimeoutError):
                if await asyncio.wait_for(reader.read(1), 0.5) == b"":
                    closed_at_once[0] += 1
                    writer.close()  # the server closed it: its descriptor is free here too
                    return
            held.append(writer)  # held open, half-written, until the server closes it
        except OSError:
            closed_at_once[1] += 1

    for at in range(0, n, 500):
        await asyncio.gather(*(one() for _ in range(min(500, n - at))))


async def good_client(base: str, token: str, stop: asyncio.Event, times: list[float]) -> int:
    """Connect, log in and ping until ``stop``; the failures."""
    failed = 0
    while not stop.is_set():
        t = time.monotonic()
        try:
            async with connect(base.replace("http", "ws") + "/ws", open_timeout=10) as ws:
                await ws.send(json.dumps({"v": 1, "type": "auth", "token": token}))
                while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "hello":
                    pass
                await ws.send(json.dumps({"v": 1, "type": "ping"}))
                while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
                    pass
            times.append(time.monotonic() - t)
        except Exception:
            failed += 1
        await asyncio.sleep(0.05)
    return failed


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tmp = tempfile.TemporaryDirectory(prefix="bench_half_open_")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "mazziere", "serve", "--port", str(port), "--data", tmp.name,
        "--argon2-time-cost", "1", "--argon2-memory-kib", "1024",
        "--head-seconds", str(args.head_seconds),
        "--max-heads-per-address", str(args.max_heads_per_address),
    ]  # fmt: skip
    log = Path(tmp.name) / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/health")).status_code == 200:
                        break
                await asyncio.sleep(0.2)
            r = await http.post(
                "/api/signup", json={"username": "good", "password": "bench-password-1"}
            )
            token = r.json()["token"]
        before = fds(server.pid)
        stop = asyncio.Event()
        times: list[float] = []
        held: list[Any] = []
        closed = [0, 0]  # closed by the server at once; refused by the kernel
        highest = [before]

        async def watch() -> None:
            while not stop.is_set():
                highest[0] = max(highest[0], fds(server.pid))
                await asyncio.sleep(0.1)

        watcher = asyncio.create_task(watch())
        good = asyncio.create_task(good_client(base, token, stop, times))
        started = time.monotonic()
        await attack(port, args.sockets, held, closed)
        attack_s = time.monotonic() - started
        await asyncio.sleep(1.0)
        stop.set()
        failed = await good
        await watcher
        for w in held:
            w.close()
        await asyncio.sleep(0.5)
    finally:
        server.terminate()
        server.wait(20)
        tmp.cleanup()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    ms = sorted(t * 1000 for t in times)
    return {
        "sockets": args.sockets,
        "attack_seconds": round(attack_s, 1),
        "closed_at_once": closed[0],
        "refused": closed[1],
        "good_ok": len(times),
        "good_failed": failed,
        "good_p50_ms": round(statistics.median(ms), 1) if ms else None,
        "good_max_ms": round(ms[-1], 1) if ms else None,
        "server_fds_before": before,
        "server_fds_max": highest[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=20_000)
    ap.add_argument("--head-seconds", type=float, default=5.0)
    ap.add_argument("--max-heads-per-address", type=int, default=16)
    args = ap.parse_args()
    out = asyncio.run(bench(args))
    print(json.dumps(out, indent=2))
    print(
        f"sockets={out['sockets']} good_ok={out['good_ok']}/{out['good_ok'] + out['good_failed']}"
        f" good_p50_ms={out['good_p50_ms']} good_max_ms={out['good_max_ms']}"
        f" server_fds_max={out['server_fds_max']}"
    )


if __name__ == "__main__":
    main()
