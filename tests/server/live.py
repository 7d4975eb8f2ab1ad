"""A real server on a real socket for tests: uvicorn in the test's event loop, an HTTP client
and WebSocket clients that speak the protocol."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from mazziere.server.app import create_app
from mazziere.server.clock import Clock
from mazziere.server.context import Server, Settings
from mazziere.server.transport import uvicorn_config


@dataclass
class Live:
    server: Server
    base: str
    http: httpx.AsyncClient

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    async def signup(self, name: str, password: str = "correct horse") -> dict[str, Any]:
        r = await self.http.post("/api/signup", json={"username": name, "password": password})
        r.raise_for_status()
        return dict(r.json())

    async def post(self, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
        if path == "/api/tables" and body is not None and "bot_delay" not in body:
            # the tests want the computer players' moves at once unless they ask for a pace
            body = {**body, "bot_delay": 0}
        r = await self.http.post(
            path, json=body or {}, headers={"Authorization": f"Bearer {token}"}
        )
        return r

    async def get(self, path: str, token: str) -> Any:
        r = await self.http.get(path, headers={"Authorization": f"Bearer {token}"})
        r.raise_for_status()
        return r.json()

    async def connect(self, token: str) -> Client:
        """Open a socket and log it in with its first message (``auth``)."""
        c = await self.open_socket()
        await c.send({"type": "auth", "token": token})
        await c.wait(lambda m: m["type"] == "hello")
        return c

    async def open_socket(self) -> Client:
        """A socket that has sent nothing yet."""
        ws = await websockets.connect(f"{self.ws_base}/ws", max_size=2**22)
        c = Client(ws)
        c.reader = asyncio.create_task(c._read())
        return c


@dataclass
class Client:
    ws: Any
    messages: list[dict[str, Any]] = field(default_factory=list)
    tables: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Each table as the client knows it: its last update, with the last seat list."""
    notes: dict[int, dict[int, dict[str, Any]]] = field(default_factory=dict)
    """Each table's notes received, by number."""
    reader: asyncio.Task[None] | None = None
    new: asyncio.Event = field(default_factory=asyncio.Event)
    closed: tuple[int, str] | None = None
    max_rate: int = 15
    sent_at: deque[float] = field(default_factory=deque)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                m = json.loads(raw)
                self.messages.append(m)
                if m["type"] == "table":
                    self.tables[m["table"]] = self._merge(m)
                self.new.set()
        except websockets.ConnectionClosed as e:
            self.closed = (e.rcvd.code, e.rcvd.reason) if e.rcvd else (1006, "")
        finally:
            if self.closed is None and self.ws.close_code is not None:
                self.closed = (self.ws.close_code, self.ws.close_reason or "")
            self.new.set()

    def _merge(self, m: dict[str, Any]) -> dict[str, Any]:
        """The table as the client knows it after update ``m``, as a browser merges it: the
        last seat list when ``m`` has none (it did not change), every note once in
        ``notes`` (by number: ``log_from``)."""
        last = self.tables.get(m["table"])
        if m["seats"] is None and last is not None:
            m = {**m, "seats": last["seats"]}
        got = self.notes.setdefault(m["table"], {})
        for i, note in enumerate(m["log"]):
            got.setdefault(m["log_from"] + i, note)
        return m

    async def send(self, msg: dict[str, Any]) -> None:
        """Send a message as a well-behaved client does: see :meth:`send_raw`."""
        await self.send_raw(json.dumps({"v": 1, **msg}))

    async def send_raw(self, frame: str | bytes, *, text: bool | None = None) -> None:
        """Send one frame, at most ``max_rate`` in any second. The server's limit is 20 a
        second, counted in windows it opens on arrival; a client sending exactly 20 in any
        second of its own clock can still land 21 in one server window when the machine is
        loaded (frames delayed, then handled together), and the 21st is answered
        ``rate_limited`` instead of what the test waits for. So the well-behaved pace keeps
        a margin (15). Tests that probe the limits use ``ws.send`` directly."""
        now = time.monotonic()
        while len(self.sent_at) >= self.max_rate:
            wait = self.sent_at[0] + 1.0 - now
            if wait <= 0:
                self.sent_at.popleft()
                continue
            await asyncio.sleep(wait)
            now = time.monotonic()
        self.sent_at.append(now)
        await self.ws.send(frame, text=text)

    async def wait(self, pred: Any, timeout: float = 15.0, start: int = 0) -> dict[str, Any]:
        async def find() -> dict[str, Any]:
            seen = start
            while True:
                for m in self.messages[seen:]:
                    if pred(m):
                        return m
                seen = len(self.messages)
                if self.closed is not None:
                    raise ConnectionError(f"closed: {self.closed}")
                self.new.clear()
                await self.new.wait()

        return await asyncio.wait_for(find(), timeout)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.reader, 5)


@contextlib.asynccontextmanager
async def live_server(
    db_url: str, data_dir: Path, clock: Clock | None = None, **settings: Any
) -> AsyncIterator[Live]:
    settings.setdefault("settle_heap", False)  # many servers share this test process
    srv = Server(Settings(data_dir=data_dir, database_url=db_url, **settings), clock=clock)
    app = create_app(srv=srv)
    config = uvicorn_config(app, srv.settings, "127.0.0.1", 0, lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        try:
            yield Live(srv, base, http)
            seating_matches_the_tables(srv)
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 15)


def seating_matches_the_tables(srv: Server) -> None:
    """The seating directory (kept as seats change) says what a scan of every table says."""
    seated = {s.account for t in srv.tables.values() for s in t.seats if s.account is not None}
    assert set(srv.seating.accounts()) == seated
    for account in seated:
        scan = sorted(t.id for t in srv.tables.values() if t.seat_of(account) is not None)
        assert srv.seating.tables_of(account) == scan, account
