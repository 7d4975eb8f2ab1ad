"""One client cannot slow the others. A connection that keeps sending after
being rate-limited is closed with 1008 after a short grace, while another client's pings are
answered; a socket that never logs in, or goes silent, is closed after a time-out; a dead peer
(no pong) is found by WebSocket ping/pong. ``benchmarks/bench_flood.py`` measures the ping
latency of a well-behaved client during a 20,000 message/s flood."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import time
from pathlib import Path

import websockets

from mazziere.server.hub import Close

from .live import live_server


async def test_flooding_connection_is_closed_with_1008_and_others_keep_playing(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, flood_grace_seconds=1.0) as live:
        bad = await live.connect((await live.signup("vanni"))["token"])
        good = await live.connect((await live.signup("wanda"))["token"])
        frame = '{"v": 1, "type": "ping"}'
        rtts: list[float] = []

        async def flood() -> int:
            sent = 0
            while bad.closed is None and sent < 200_000:
                try:
                    await bad.ws.send(frame)
                except websockets.ConnectionClosed:
                    break
                sent += 1
                if sent % 200 == 0:
                    await asyncio.sleep(0)
            return sent

        async def pings() -> None:
            while bad.closed is None:
                n = len(good.messages)
                t = time.perf_counter()
                await good.send({"type": "ping"})
                await good.wait(lambda m: m["type"] == "pong", start=n, timeout=5)
                rtts.append(time.perf_counter() - t)
                await asyncio.sleep(0.05)

        t0 = time.perf_counter()
        sent, _ = await asyncio.wait_for(asyncio.gather(flood(), pings()), 30)
        assert bad.reader is not None
        await asyncio.wait_for(bad.reader, 5)
        took = time.perf_counter() - t0
        assert bad.closed is not None and bad.closed[0] == Close.POLICY, bad.closed
        assert took < 10, took  # the grace is a second: cut off well before the cap
        errors = [m for m in bad.messages if m["type"] == "error"]
        assert errors and all(m["code"] == "rate_limited" for m in errors)
        assert len(errors) < sent / 10  # a flood is mostly dropped unanswered
        assert any(m["type"] == "notice" and m["kind"] == "rate_limited" for m in bad.messages)
        assert rtts and good.closed is None  # the other client was answered all along
        await good.close()


async def test_socket_that_never_logs_in_is_closed(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, auth_seconds=0.5) as live:
        s = await live.open_socket()
        err = await s.wait(lambda m: m["type"] == "error", timeout=5)
        assert err["code"] == "not_logged_in"
        assert s.reader is not None
        await asyncio.wait_for(s.reader, 5)
        assert s.closed is not None and s.closed[0] == Close.UNAUTHORIZED


async def test_silent_socket_is_closed(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, silent_seconds=0.8) as live:
        c = await live.connect((await live.signup("xenia"))["token"])
        note = await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "silent", timeout=5)
        assert "nothing received" in note["message"]
        assert c.reader is not None
        await asyncio.wait_for(c.reader, 5)
        assert c.closed is not None and c.closed[0] == Close.SILENT


async def test_dead_peer_is_found_by_ping_pong(db_url: str, tmp_path: Path) -> None:
    """A peer that completes the handshake, logs in, then never reads or answers a ping."""
    async with live_server(db_url, tmp_path, ws_ping_seconds=0.5) as live:
        token = (await live.signup("yara"))["token"]
        port = int(live.base.rsplit(":", 1)[1])
        key = base64.b64encode(os.urandom(16)).decode()
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await asyncio.sleep(0.2)
        payload = ('{"v": 1, "type": "auth", "token": "' + token + '"}').encode()
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        for _ in range(50):  # logged in
            await asyncio.sleep(0.1)
            if live.server.hub.conns:
                break
        assert live.server.hub.conns
        for _ in range(100):  # then dropped once its pong is overdue
            await asyncio.sleep(0.1)
            if not live.server.hub.conns:
                break
        assert not live.server.hub.conns
        sock.close()
