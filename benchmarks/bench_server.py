"""Game-server load test, read like an operator's sizing sheet: N clients over real WebSockets
play UNO, casino and poker tables for a fixed time.

Clients sign up (the spawned server uses a cheap Argon2 setting, time cost 1 and 1 MiB: signing
up 2,000 accounts would otherwise take minutes; logins are not what is measured), create or
join tables and play:

* UNO: two clients share a table (``--uno-humans``; the rest of the four seats are greedy
  computer players, preset ``mattel``, one hand per game); its first client starts each game
  once the others are seated;
* casino: one client against the bank (top-up, then stake rounds);
* poker: one client against the computer (``--poker-share`` of the clients).

Whenever a client has a decision it waits an exponential think time of mean ``--think``
seconds, sends the first legal action and measures two latencies: to its acknowledgement (the
next ``table`` message with a higher ``state_no``, or an ``error``), and, at a shared table, to
the update each other client at the table receives. Clients never exceed ``--max-rate``
messages a second (the server refuses more than 20).

Connections open gradually (``--ramp`` a second); latencies are recorded only for messages sent
after every client is connected (the warm-up) and during the next ``--seconds``. Errors and
connection failures are counted over the whole run. Unless ``--url`` names a running server,
the script starts one itself (``python -m mazziere serve`` on a fresh SQLite folder, or on
``--database-url``), waits for ``GET /health`` == 200, and then also reports the server's CPU
time per decision and its memory per connected client (RSS growth from before the clients
signed up, over the clients connected), and stops it at the end. The load generator runs on
the same machine: its own CPU share is printed too.

    python benchmarks/bench_server.py [--clients 1000] [--seconds 60] [--think 1.0]
    python benchmarks/bench_server.py --url http://127.0.0.1:8000 --clients 200
    python benchmarks/bench_server.py --workers 2 --database-url postgresql://... \
        --redis-url redis://127.0.0.1:6379/0 --clients 2000 --think 2

With ``--workers K`` the spawned server runs K processes sharing its port (PostgreSQL and
Redis, docs/scaling.md); CPU and memory are then the sum over its processes, and the
server-side latency histogram is the one worker that answered ``/metrics``.

The last line is ``clients=N think=S workers=K decisions_per_s=D p99_ms=P errors=E``: the
clients, the mean think time, the server processes, the
clients' decisions a second, the 99th percentile from a decision to its acknowledgement, and
every error (error messages received, unanswered actions and connection failures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

PASSWORD = "bench-password-1"
UNO_TABLE: dict[str, Any] = {
    "game": "uno",
    "preset": "mattel",
    "options": {"match": "single_hand"},
    "seats": 4,
    "bots": "greedy",
    "decision_seconds": 3600,
    "bot_delay": 0,
}
"""Every table here plays its computer players' moves at once (``bot_delay`` 0, a table
setting): the benchmark measures the server's work, not the pace a real table keeps."""
CASINO_TABLE: dict[str, Any] = {"game": "casino", "decision_seconds": 3600, "bot_delay": 0}
POKER_TABLE: dict[str, Any] = {"game": "poker", "decision_seconds": 3600, "bot_delay": 0}


@dataclass(frozen=True)
class Config:
    clients: int
    seconds: float
    think: float
    casino_share: float
    poker_share: float
    uno_humans: int
    idle: bool
    ramp: float
    warmup: float
    signup_concurrency: int
    max_rate: int
    ack_timeout: float
    reconnects: int
    stake: int
    topup: int
    url: str | None
    database_url: str | None
    redis_url: str | None
    workers: int
    port: int
    server_log: Path | None
    json_out: str | None
    seed: int | None


# ---------------------------------------------------------------------------------- server
class ServerProcess:
    """``python -m mazziere serve`` on a fresh data folder, stopped with SIGTERM then SIGKILL."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.tmp = tempfile.TemporaryDirectory(prefix="bench_server_")
        self.port = cfg.port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = cfg.server_log or Path(self.tmp.name) / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "mazziere",
            "serve",
            "--port",
            str(self.port),
            "--data",
            str(Path(self.tmp.name) / "data"),
            "--argon2-time-cost",
            "1",
            "--argon2-memory-kib",
            "1024",
        ]
        if self.cfg.database_url:
            cmd += ["--database-url", self.cfg.database_url]
        if self.cfg.redis_url:  # a fresh key prefix: nothing left from an earlier run
            prefix = f"bench{os.getpid()}x{int(time.time())}:"
            cmd += ["--redis-url", self.cfg.redis_url, "--redis-prefix", prefix]
        if self.cfg.workers > 1:
            cmd += ["--workers", str(self.cfg.workers)]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)

    async def wait_healthy(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base, timeout=5) as http:
            while time.monotonic() < deadline:
                if self.proc is not None and self.proc.poll() is not None:
                    raise RuntimeError(f"server exited with {self.proc.returncode}: {self.tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/health")).status_code == 200:
                        return
                await asyncio.sleep(0.2)
        raise RuntimeError(f"server not healthy after {timeout:.0f} s: {self.tail()}")

    def pids(self) -> list[int]:
        """The server's processes: the one started and (``--workers``) its children."""
        if self.proc is None:
            return []
        found, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            with contextlib.suppress(OSError):
                kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                todo.extend(int(k) for k in kids)
        return found

    def cpu_seconds(self) -> float | None:
        """CPU time of every server process."""
        total, seen = 0.0, False
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            seen = True
        return total if seen else None

    def rss_mib(self) -> float | None:
        """Resident memory of every server process."""
        total, seen = 0.0, False
        for pid in self.pids():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) / 1024
                        seen = True
        return total if seen else None

    def stop(self) -> str:
        """SIGTERM, then SIGKILL after 20 s; says how the process ended."""
        if self.proc is None:
            return "not started"
        if self.proc.poll() is not None:
            return f"had exited ({self.proc.returncode})"
        workers = self.pids()[1:]
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(20)
            how = "stopped (SIGTERM)" if rc in (0, -signal.SIGTERM) else f"stopped ({rc})"
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            how = "killed (SIGKILL after 20 s)"
        # a worker left behind would keep serving (and, on a shared database, take over the
        # next run's tables): none survives the benchmark
        deadline = time.monotonic() + 3  # children (the resource tracker) exit just after
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in workers):
            time.sleep(0.1)
        left = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        return how + (f", {len(left)} worker(s) killed" if left else "")

    def unhandled(self) -> Counter[str]:
        """The server's unhandled exceptions (uvicorn's ``Exception in ASGI application``
        reports), by the last exception line of each traceback."""
        found: Counter[str] = Counter()
        last: str | None = None
        for line in [*self.log_text().splitlines(), "ERROR:"]:
            if line.startswith("ERROR:"):
                if last is not None:
                    found[last[:160]] += 1
                last = None
            elif re.match(r"[A-Za-z_][\w.]*(Error|Exception|Timeout)\w*: ", line):
                last = line
        return found

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def cleanup(self) -> None:
        self.tmp.cleanup()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_fd_limit(wanted: int) -> int:
    """Raise this process's (and the spawned server's) open-file limit towards ``wanted``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


# ---------------------------------------------------------------------------------- stats
@dataclass
class Stats:
    window_start: float | None = None
    window_end: float | None = None
    latencies_ms: list[float] = field(default_factory=list)
    others_ms: list[float] = field(default_factory=list)
    """From a client's action to the update another client at its table receives."""
    control_ms: list[float] = field(default_factory=list)
    decisions: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    conn_failures: Counter[str] = field(default_factory=Counter)
    notices: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    loop_lag_ms: list[float] = field(default_factory=list)

    def in_window(self, t: float) -> bool:
        return (
            self.window_start is not None
            and self.window_end is not None
            and self.window_start <= t < self.window_end
        )


@dataclass
class Run:
    """Progress shared by all clients: who is connected, when the window opens and closes."""

    clients: int
    stats: Stats
    settled: int = 0
    connected: int = 0
    all_settled: asyncio.Event = field(default_factory=asyncio.Event)
    stopping: bool = False
    last_action: dict[int, tuple[int, float, int, bool]] = field(default_factory=dict)
    """Table -> (state_no it was sent at, when, sender, measured): the latest action there."""

    def settle(self, ok: bool) -> None:
        self.settled += 1
        self.connected += ok
        if self.settled >= self.clients:
            self.all_settled.set()


@dataclass
class Account:
    index: int
    game: str
    username: str
    token: str = ""
    table: int = 0
    owner: bool = True
    """Created the table (and starts its games); the others join it."""
    humans: int = 1
    """Clients that share the table."""


@dataclass
class Pending:
    kind: str
    state_no: int
    sent: float
    measured: bool
    late: bool = False
    """Not acknowledged within ``--ack-timeout`` (counted as unanswered; still awaited)."""


class RateLimiter:
    """At most ``n`` messages in any ``period`` seconds (the server allows 20 a second)."""

    def __init__(self, n: int, period: float = 1.0) -> None:
        self.n, self.period = n, period
        self.sent: deque[float] = deque()

    async def wait(self) -> None:
        now = time.perf_counter()
        while self.sent and now - self.sent[0] >= self.period:
            self.sent.popleft()
        if len(self.sent) >= self.n:
            await asyncio.sleep(self.sent[0] + self.period - now)
            self.sent.popleft()
        self.sent.append(time.perf_counter())


# ---------------------------------------------------------------------------------- client
class Bot:
    def __init__(self, acc: Account, cfg: Config, run: Run, rng: random.Random) -> None:
        self.acc, self.cfg, self.run, self.stats = acc, cfg, run, run.stats
        self.rng = rng
        self.latest: dict[str, Any] | None = None
        self.pending: Pending | None = None
        self.send_at: float | None = None
        self.limiter = RateLimiter(cfg.max_rate)
        self.result_seen = -1
        self.others_seen: int = -1

    async def main(self, ws_base: str) -> None:
        """Connect, join and play; on a lost connection reconnect with back-off (as the web
        client does), up to ``--reconnects`` times."""
        settled = False
        failures = 0
        while True:
            try:
                async with connect(
                    f"{ws_base}/ws",
                    max_size=2**22,
                    open_timeout=60,
                    ping_interval=20,
                    ping_timeout=60,
                    close_timeout=5,
                ) as ws:
                    await self._open(ws)
                    if not settled:
                        settled = True
                        self.run.settle(True)
                    if self.cfg.idle:
                        await self._idle(ws)
                    else:
                        await self._play(ws)
                    return
            except ConnectionClosed as e:
                reason = f"closed {e.rcvd.code if e.rcvd else 1006}"
            except (OSError, InvalidHandshake, TimeoutError, RuntimeError) as e:
                reason = type(e).__name__
            except Exception as e:  # a bug of this script or a malformed message: say so
                reason = f"{type(e).__name__}: {e}"[:80]
            except asyncio.CancelledError:  # the run is over and this answer never came
                self._lose_pending()
                raise
            finally:
                if not settled and (self.run.stopping or failures >= self.cfg.reconnects):
                    self.run.settle(False)
            self.stats.conn_failures[f"{'play' if settled else 'connect'}: {reason}"] += 1
            self._lose_pending()
            failures += 1
            if self.run.stopping or failures > self.cfg.reconnects:
                return
            await asyncio.sleep(min(10.0, 0.5 * 2**failures) * self.rng.uniform(0.5, 1.0))
            self.latest, self.send_at = None, None

    def _lose_pending(self) -> None:
        if self.pending is not None and not self.pending.late:
            self.stats.unanswered += 1
        self.pending = None

    async def _open(self, ws: ClientConnection) -> None:
        """Log in (the first message), the hello, then join (or rejoin the held seat) until the
        table's view arrives."""
        await ws.send(_encode({"v": 1, "type": "auth", "token": self.acc.token}))
        first = await self._recv(ws, 60)
        if first.get("type") != "hello":
            raise RuntimeError(f"no hello: {first.get('type')} {first.get('code')}")
        if self.cfg.idle:
            return
        await self._send(ws, {"type": "join", "table": self.acc.table})
        while self.latest is None:
            self._handle(await self._recv(ws, 60), time.perf_counter())

    async def _idle(self, ws: ClientConnection) -> None:
        """Stay connected and silent (the library answers the server's pings) until the end;
        ping the server now and then as the web client does, so it is not closed as silent."""
        while not self.run.stopping:
            await asyncio.sleep(min(5.0, self.cfg.seconds))
            await self._send(ws, {"type": "ping"})

    async def _recv(self, ws: ClientConnection, timeout: float) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            raw = await ws.recv()
        msg: dict[str, Any] = _decode(raw)
        return msg

    async def _send(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        await self.limiter.wait()
        await ws.send(_encode({"v": 1, **msg}))

    def _think(self) -> float:
        return self.rng.expovariate(1 / self.cfg.think) if self.cfg.think > 0 else 0.0

    async def _play(self, ws: ClientConnection) -> None:
        while True:
            now = time.perf_counter()
            p = self.pending
            if p is not None and not p.late and now - p.sent > self.cfg.ack_timeout:
                self.stats.unanswered += 1
                p.late = True
            if self.run.stopping and self.pending is None:
                return
            if self.pending is None and not self.run.stopping:
                req = self._decide()
                if req is None:
                    self.send_at = None
                else:
                    if self.send_at is None:
                        self.send_at = now + self._think()
                    if now >= self.send_at:
                        kind, msg = req
                        assert self.latest is not None
                        state_no = int(self.latest["state_no"])
                        await self.limiter.wait()
                        sent = time.perf_counter()
                        self.pending = Pending(kind, state_no, sent, self.stats.in_window(sent))
                        if self.acc.humans > 1:
                            self.run.last_action[self.acc.table] = (
                                state_no,
                                sent,
                                self.acc.index,
                                self.pending.measured,
                            )
                        self.send_at = None
                        await ws.send(_encode({"v": 1, **msg}))
                        continue
            if self.pending is not None:
                timeout = (
                    1.0 if self.pending.late else self.pending.sent + self.cfg.ack_timeout - now
                )
            elif self.send_at is not None:
                timeout = self.send_at - now
            else:
                timeout = 0.5
            try:
                async with asyncio.timeout(max(timeout, 0.0)):
                    raw = await ws.recv()
            except TimeoutError:
                continue
            self._handle(_decode(raw), time.perf_counter())

    def _decide(self) -> tuple[str, dict[str, Any]] | None:
        t = self.latest
        if t is None:
            return None
        table = self.acc.table
        view: dict[str, Any] = t.get("view") or {}
        legal: list[str] = [a["text"] for a in t.get("legal") or []]
        if self.acc.game == "uno":
            if t.get("status") != "playing" or view.get("result") is not None or not view:
                seated = sum(1 for s in t.get("seats") or [] if s.get("name") and not s.get("bot"))
                if not self.acc.owner or seated < self.acc.humans:
                    return None  # the table's first client starts, once everyone sits
                return "start", {"type": "start", "table": table}
            if view.get("current") == t.get("seat") and legal:
                act = {"type": "action", "table": table, "state_no": t["state_no"]}
                return "action", {**act, "action": legal[0]}
            return None
        if self.acc.game == "poker":
            if t.get("status") != "playing" or view.get("result") is not None or not view:
                return "start", {"type": "start", "table": table}
            if legal:
                act = {"type": "action", "table": table, "state_no": t["state_no"]}
                return "action", {**act, "action": legal[0]}
            return None
        if "phase" in view and view.get("result") is None:
            if legal:
                act = {"type": "action", "table": table, "state_no": t["state_no"]}
                return "action", {**act, "action": legal[0]}
            return None
        credit = view.get("credit")
        if credit is None or credit < self.cfg.stake:
            return "topup", {"type": "topup", "table": table, "amount": self.cfg.topup}
        return "stake", {
            "type": "stake",
            "table": table,
            "state_no": t["state_no"],
            "amount": self.cfg.stake,
        }

    def _handle(self, msg: dict[str, Any], now: float) -> None:
        kind = msg.get("type")
        if kind == "table" and msg.get("table") == self.acc.table:
            state_no = int(msg["state_no"])
            if self.pending is not None and state_no > self.pending.state_no:
                self._ack(now, ok=True)
            seen = self.run.last_action.get(self.acc.table)
            if (
                seen is not None
                and seen[2] != self.acc.index
                and state_no > seen[0]
                and self.others_seen < seen[0]
            ):
                self.others_seen = seen[0]
                if seen[3]:
                    self.stats.others_ms.append((now - seen[1]) * 1000)
            if msg.get("seats") is None and self.latest is not None:
                msg = {**msg, "seats": self.latest.get("seats")}  # unchanged: keep the last
            self.latest = msg
            view = msg.get("view") or {}
            if view.get("result") is not None and self.result_seen != state_no:
                self.result_seen = state_no
                if self.stats.in_window(now):
                    self.stats.games[self.acc.game] += 1
        elif kind == "error":
            self.stats.errors[str(msg.get("code"))] += 1
            if self.pending is not None:
                self._ack(now, ok=False)
                self.send_at = now + max(0.2, self._think())  # back off before deciding again
        elif kind == "notice":
            self.stats.notices[str(msg.get("kind"))] += 1

    def _ack(self, now: float, ok: bool) -> None:
        p = self.pending
        assert p is not None
        self.pending = None
        if not p.measured:
            return
        ms = (now - p.sent) * 1000
        if p.kind == "action":
            self.stats.latencies_ms.append(ms)
            if ok:
                self.stats.decisions[self.acc.game] += 1
        else:
            self.stats.control_ms.append(ms)


# ---------------------------------------------------------------------------------- setup
def plan_accounts(cfg: Config, run_id: str) -> list[Account]:
    """Every client's game; UNO clients in groups of ``--uno-humans`` sharing a table."""
    accounts: list[Account] = []
    uno = 0
    for i in range(cfg.clients):
        game = game_of(i, cfg)
        acc = Account(i, game, f"bench{run_id}_{i}")
        if game == "uno":
            acc.owner = uno % cfg.uno_humans == 0
            uno += 1
        accounts.append(acc)
    owner: Account | None = None
    groups: dict[int, list[Account]] = {}
    for acc in accounts:
        if acc.game == "uno":
            if acc.owner:
                owner = acc
            assert owner is not None
            groups.setdefault(owner.index, []).append(acc)
    for members in groups.values():
        for acc in members:
            acc.humans = len(members)
    return accounts


async def sign_up_all(base: str, cfg: Config, stats: Stats) -> list[Account]:
    accounts = plan_accounts(cfg, secrets.token_hex(3))
    sem = asyncio.Semaphore(cfg.signup_concurrency)
    limits = httpx.Limits(max_connections=cfg.signup_concurrency)
    tables: dict[int, int] = {}  # owner's index -> its table

    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:

        async def one(acc: Account) -> bool:
            async with sem:
                try:
                    r = await http.post(
                        "/api/signup", json={"username": acc.username, "password": PASSWORD}
                    )
                    if r.status_code != 200:
                        stats.conn_failures[f"signup: HTTP {r.status_code}"] += 1
                        return False
                    acc.token = r.json()["token"]
                    if not acc.owner or cfg.idle:
                        acc.table = -1 if cfg.idle else acc.table
                        return True
                    body = {"casino": CASINO_TABLE, "poker": POKER_TABLE}.get(acc.game, UNO_TABLE)
                    r = await http.post(
                        "/api/tables", json=body, headers={"Authorization": f"Bearer {acc.token}"}
                    )
                    if r.status_code != 200:
                        stats.conn_failures[f"create table: HTTP {r.status_code}"] += 1
                        return False
                    acc.table = tables[acc.index] = int(r.json()["id"])
                    return True
                except httpx.HTTPError as e:
                    stats.conn_failures[f"signup: {type(e).__name__}"] += 1
                    return False

        ok = await asyncio.gather(*(one(a) for a in accounts))
    last_owner = -1
    for acc in accounts:  # a guest plays at its group's table
        if cfg.idle:
            break
        if acc.game == "uno" and acc.owner:
            last_owner = acc.index
        elif acc.game == "uno":
            acc.table = tables.get(last_owner, 0)
    return [a for a, good in zip(accounts, ok, strict=True) if good and a.table]  # idle: -1


_DECODER = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()


def _decode(raw: str | bytes) -> Any:
    """A server message (msgspec: measured, the standard library's json.loads and
    asyncio.wait_for's task a message were a quarter of this load generator's CPU)."""
    return _DECODER.decode(raw)


def _encode(msg: dict[str, Any]) -> str:
    return _ENCODER.encode(msg).decode()


async def scrape_metrics(base: str) -> dict[str, float]:
    """The server's Prometheus counters this benchmark reads (decision latency histogram)."""
    out: dict[str, float] = {}
    with contextlib.suppress(httpx.HTTPError):
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            text = (await http.get("/metrics")).text
        for line in text.splitlines():
            m = re.match(
                r"((?:mazziere_decision_latency_seconds|mazziere_gc_pause_seconds"
                r"|mazziere_commit_batch_seconds|mazziere_commit_batch_writes)_"
                r"(?:bucket|count|sum))(\{.*\})? (\S+)",
                line,
            )
            if m:
                out[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return out


def server_side_latency(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """Bucket upper bounds of the server's own p50/p99 over the window (act() to broadcast)."""
    buckets: list[tuple[float, float]] = []
    for key, value in after.items():
        m = re.match(r'mazziere_decision_latency_seconds_bucket\{le="([^"]+)"\}', key)
        if m:
            buckets.append((float(m.group(1)), value - before.get(key, 0.0)))
    buckets.sort()
    name = "mazziere_decision_latency_seconds_"
    count = after.get(name + "count", 0.0) - before.get(name + "count", 0.0)
    total = after.get(name + "sum", 0.0) - before.get(name + "sum", 0.0)
    res: dict[str, Any] = {"count": int(count), "mean_ms": 1000 * total / count if count else None}
    for q in (0.5, 0.99):
        bound = next((le for le, c in buckets if count and c >= q * count), None)
        res[f"p{int(q * 100)}_le_ms"] = None if bound is None else 1000 * bound
    return res


def _le(bound: float) -> str:
    return "+Inf" if math.isinf(bound) else repr(bound)


def gc_pauses(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """The server's garbage-collector pauses over the window, by generation: how many, their
    total and the bucket bound of the longest (one process: the one that answered /metrics)."""
    out: dict[str, Any] = {}
    for gen in ("0", "1", "2"):
        name = "mazziere_gc_pause_seconds_"
        label = f'{{generation="{gen}"}}'
        n = after.get(name + "count" + label, 0.0) - before.get(name + "count" + label, 0.0)
        total = after.get(name + "sum" + label, 0.0) - before.get(name + "sum" + label, 0.0)
        longest = None
        bounds = sorted(
            float(m.group(1))
            for k in after
            if k.startswith(name + "bucket") and f'generation="{gen}"' in k
            for m in [re.search(r'le="([^"]+)"', k)]
            if m
        )
        for le in bounds:
            key = f'{name}bucket{{generation="{gen}",le="{_le(le)}"}}'
            if n and after.get(key, 0.0) - before.get(key, 0.0) >= n:
                longest = le
                break
        out[gen] = {
            "n": int(n),
            "total_ms": 1000 * total,
            "longest_le_ms": None if longest is None else 1000 * longest,
        }
    return out


def group_commits(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """The server's group commits over the window (one process): how many, the writes each
    carried on average, their mean wall time and the bucket bound of their 99th percentile."""

    def delta(key: str) -> float:
        return after.get(key, 0.0) - before.get(key, 0.0)

    n = delta("mazziere_commit_batch_seconds_count")
    if not n:
        return {"n": 0}
    buckets = sorted(
        (float(m.group(1)), delta(k))
        for k in after
        for m in [re.match(r'mazziere_commit_batch_seconds_bucket\{le="([^"]+)"\}', k)]
        if m
    )
    p99 = next((le for le, c in buckets if c >= 0.99 * n), None)
    return {
        "n": int(n),
        "writes_mean": delta("mazziere_commit_batch_writes_sum") / n,
        "mean_ms": 1000 * delta("mazziere_commit_batch_seconds_sum") / n,
        "p99_le_ms": None if p99 is None else 1000 * p99,
    }


async def loop_lag_monitor(stats: Stats, period: float = 0.1) -> None:
    while True:
        t = time.perf_counter()
        await asyncio.sleep(period)
        late = time.perf_counter() - t - period
        if stats.in_window(t):
            stats.loop_lag_ms.append(late * 1000)


# ---------------------------------------------------------------------------------- main
def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


async def bench(cfg: Config) -> dict[str, Any]:
    stats = Stats()
    fd_limit = raise_fd_limit(2 * cfg.clients + 1024)
    server = None if cfg.url else ServerProcess(cfg)
    base = cfg.url.rstrip("/") if cfg.url else server.base if server else ""
    report: dict[str, Any] = {"clients": cfg.clients, "fd_limit": fd_limit, "base": base}
    try:
        if server is not None:
            server.start()
            try:
                await server.wait_healthy()
            except RuntimeError as e:
                report["aborted"] = str(e)
                return report
        rss0 = server.rss_mib() if server else None
        t = time.perf_counter()
        accounts = await sign_up_all(base, cfg, stats)
        if not accounts:
            report["aborted"] = f"no account signed up: {counts(stats.conn_failures)}"
            report["connection_failures"] = dict(stats.conn_failures)
            return report
        report["signup_seconds"] = time.perf_counter() - t
        rss_signed = server.rss_mib() if server else None
        report["signed_up"] = len(accounts)

        run = Run(len(accounts), stats)
        rng = random.Random(cfg.seed)
        ws_base = base.replace("http://", "ws://").replace("https://", "wss://")
        bots = [Bot(a, cfg, run, random.Random(rng.random())) for a in accounts]
        lag = asyncio.create_task(loop_lag_monitor(stats))
        t = time.perf_counter()
        tasks: list[asyncio.Task[None]] = []
        for i, b in enumerate(bots):
            delay = t + i / cfg.ramp - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(b.main(ws_base)))
        await run.all_settled.wait()
        report["connect_seconds"] = time.perf_counter() - t
        report["connected"] = run.connected
        await asyncio.sleep(cfg.warmup)

        metrics_before = await scrape_metrics(base)
        cpu0 = server.cpu_seconds() if server else None
        pcpu0 = time.process_time()
        stats.window_start = time.perf_counter()
        stats.window_end = stats.window_start + cfg.seconds
        await asyncio.sleep(cfg.seconds)
        measured = time.perf_counter() - stats.window_start
        cpu1 = server.cpu_seconds() if server else None
        pcpu1 = time.process_time()
        run.stopping = True
        metrics_after = await scrape_metrics(base)
        report["rss_mib"] = server.rss_mib() if server else None
        if rss0 is not None and report["rss_mib"] is not None and run.connected:
            report["rss_kib_per_client"] = 1024 * (report["rss_mib"] - rss0) / run.connected
        if rss_signed is not None and report["rss_mib"] is not None and run.connected:
            report["rss_kib_per_socket"] = 1024 * (report["rss_mib"] - rss_signed) / run.connected
        # the clients stop sending and wait for their last acknowledgements
        _, late = await asyncio.wait(tasks, timeout=cfg.ack_timeout + 15)
        for task in late:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        lag.cancel()

        lat = sorted(stats.latencies_ms)
        others = sorted(stats.others_ms)
        decisions = sum(stats.decisions.values())
        report.update(
            seconds=measured,
            decisions=decisions,
            decisions_by_game=dict(stats.decisions),
            decisions_per_s=decisions / measured,
            games=dict(stats.games),
            latency_ms={
                "n": len(lat),
                "p50": percentile(lat, 0.50),
                "p95": percentile(lat, 0.95),
                "p99": percentile(lat, 0.99),
                "max": lat[-1] if lat else float("nan"),
            },
            others_ms={
                "n": len(others),
                "p50": percentile(others, 0.50),
                "p95": percentile(others, 0.95),
                "p99": percentile(others, 0.99),
            },
            server_cpu_ms_per_decision=None
            if cpu0 is None or cpu1 is None or not decisions
            else 1000 * (cpu1 - cpu0) / decisions,
            control_ms=control_summary(stats.control_ms),
            errors=dict(stats.errors),
            unanswered=stats.unanswered,
            connection_failures=dict(stats.conn_failures),
            notices=dict(stats.notices),
            client_cpu_pct=100 * (pcpu1 - pcpu0) / measured,
            client_loop_lag_ms=lag_summary(stats.loop_lag_ms),
            server_cpu_pct=None if cpu0 is None or cpu1 is None else 100 * (cpu1 - cpu0) / measured,
            server_side=server_side_latency(metrics_before, metrics_after),
            server_gc=gc_pauses(metrics_before, metrics_after),
            server_commits=group_commits(metrics_before, metrics_after),
        )
    finally:
        if server is not None:
            report["server_exit"] = server.stop()
            report["server_unhandled"] = dict(server.unhandled())
            server.cleanup()
    return report


def control_summary(values: list[float]) -> dict[str, float | int]:
    v = sorted(values)
    return {"n": len(v), "p50": percentile(v, 0.5), "p99": percentile(v, 0.99)}


def lag_summary(values: list[float]) -> dict[str, float]:
    v = sorted(values)
    return {"p50": percentile(v, 0.5), "p99": percentile(v, 0.99), "max": v[-1] if v else 0.0}


def counts(c: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(c.items(), key=lambda kv: -kv[1])) or "none"


def print_report(cfg: Config, r: dict[str, Any]) -> int:
    where = cfg.url or ("postgresql" if cfg.database_url else "sqlite") + " (spawned)"
    if cfg.redis_url and not cfg.url:
        where += f" + redis, {cfg.workers} processes"
    games = Counter(game_of(i, cfg) for i in range(cfg.clients))
    print(
        f"bench_server: clients={cfg.clients} ({counts(dict(games))}; {cfg.uno_humans} clients "
        f"a UNO table) think=exponential mean {cfg.think:g}s seconds={cfg.seconds:g} "
        f"server={where} fd_limit={r['fd_limit']}"
    )
    if "seconds" not in r:
        print(f"run aborted: {r.get('aborted', 'before the measurement window')}")
        return max(1, int(sum(r.get("connection_failures", {}).values())))
    print(
        f"setup: signed up {r['signed_up']} in {r['signup_seconds']:.1f} s; "
        f"connected {r['connected']} in {r['connect_seconds']:.1f} s (ramp {cfg.ramp:g}/s)"
    )
    print(f"seconds measured: {r['seconds']:.1f}")
    by_game = ", ".join(f"{k} {v}" for k, v in sorted(r["decisions_by_game"].items()))
    print(
        f"decisions: {r['decisions']} ({r['decisions_per_s']:.1f}/s; {by_game or '-'}); "
        f"games finished: {counts(r['games'])}"
    )
    lat = r["latency_ms"]
    print(
        f"latency ms (action -> ack, n={lat['n']}): p50={lat['p50']:.1f} p95={lat['p95']:.1f} "
        f"p99={lat['p99']:.1f} max={lat['max']:.1f}"
    )
    o = r["others_ms"]
    print(
        f"latency ms (action -> the other seats' update, n={o['n']}): p50={o['p50']:.1f} "
        f"p95={o['p95']:.1f} p99={o['p99']:.1f}"
    )
    c = r["control_ms"]
    print(
        f"start/stake/topup ms (n={c['n']}): p50={c['p50']:.1f} p99={c['p99']:.1f}",
    )
    ss = r["server_side"]
    if ss.get("count"):
        print(
            f"server-side act() ms (n={ss['count']}): mean={ss['mean_ms']:.1f} "
            f"p50 {bucket(ss['p50_le_ms'])} p99 {bucket(ss['p99_le_ms'])} (histogram buckets)"
        )
    gcs = r.get("server_gc") or {}
    if any(g["n"] for g in gcs.values()):
        print(
            "server GC pauses (one process), by generation: "
            + ", ".join(
                f"gen{gen} n={g['n']} total={g['total_ms']:.0f} ms "
                f"longest {bucket(g['longest_le_ms'])}"
                for gen, g in sorted(gcs.items())
                if g["n"]
            )
        )
    gcm = r.get("server_commits") or {}
    if gcm.get("n"):
        print(
            f"server group commits (one process): n={gcm['n']} "
            f"writes a commit={gcm['writes_mean']:.1f} mean={gcm['mean_ms']:.1f} ms "
            f"p99 {bucket(gcm['p99_le_ms'])}"
        )
    errors = int(sum(r["errors"].values()) + r["unanswered"])
    failures = int(sum(r["connection_failures"].values()))
    print(f"errors: {counts(r['errors'])}; unanswered actions: {r['unanswered']}")
    print(f"connection failures: {counts(r['connection_failures'])}")
    if r["notices"]:
        print(f"notices: {counts(r['notices'])}")
    lag = r["client_loop_lag_ms"]
    srv_cpu = r.get("server_cpu_pct")
    print(
        f"client: cpu={r['client_cpu_pct']:.0f}% loop lag p50={lag['p50']:.1f} "
        f"p99={lag['p99']:.1f} max={lag['max']:.1f} ms; server: "
        + (
            "n/a"
            if srv_cpu is None
            else f"cpu={srv_cpu:.0f}% ({_num(r.get('server_cpu_ms_per_decision'))} ms a decision) "
            f"rss={r['rss_mib'] or 0:.0f} MiB ({_num(r.get('rss_kib_per_client'))} KiB a client "
            f"since before sign-up, {_num(r.get('rss_kib_per_socket'))} KiB a connected socket)"
        )
        + (f", {r['server_exit']}" if "server_exit" in r else "")
    )
    unhandled = r.get("server_unhandled") or {}
    if unhandled:
        print(f"server unhandled exceptions: {sum(unhandled.values())}")
        for line, n in sorted(unhandled.items(), key=lambda kv: -kv[1]):
            print(f"  {n} x {line}")
    return errors + failures


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}" if x < 10 else f"{x:.0f}"


def bucket(le_ms: float | None) -> str:
    """A histogram bucket's upper bound as text (the last bucket of the server's is 2.5 s)."""
    if le_ms is None:
        return "n/a"
    return "> 2500" if math.isinf(le_ms) else f"<= {le_ms:g}"


def is_share(i: int, share: float) -> bool:
    """Whether client ``i`` is among an evenly spread ``share`` of the clients."""
    return math.floor((i + 1) * share) > math.floor(i * share)


def game_of(i: int, cfg: Config) -> str:
    """Client ``i``'s game: casino, poker (evenly spread shares) or UNO."""
    if is_share(i, cfg.casino_share):
        return "casino"
    rest = 1 - cfg.casino_share
    if rest > 0 and is_share(i, cfg.poker_share / rest):
        return "poker"
    return "uno"


def parse_args(argv: list[str] | None = None) -> Config:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=60.0, help="measured seconds")
    ap.add_argument("--think", type=float, default=1.0, help="mean think time (exponential)")
    ap.add_argument("--casino-share", type=float, default=0.3, help="share of casino clients")
    ap.add_argument("--poker-share", type=float, default=0.2, help="share of poker clients")
    ap.add_argument("--uno-humans", type=int, default=2, help="clients sharing a UNO table")
    ap.add_argument(
        "--idle", action="store_true", help="clients only connect and stay (memory per socket)"
    )
    ap.add_argument("--ramp", type=float, default=100.0, help="connections opened a second")
    ap.add_argument("--warmup", type=float, default=0.0, help="extra seconds after connecting")
    ap.add_argument("--signup-concurrency", type=int, default=20)
    ap.add_argument("--max-rate", type=int, default=18, help="messages a second per client")
    ap.add_argument("--ack-timeout", type=float, default=30.0, help="seconds, then unanswered")
    ap.add_argument("--reconnects", type=int, default=5, help="reconnections per client")
    ap.add_argument("--stake", type=int, default=100, help="casino stake (cents)")
    ap.add_argument("--topup", type=int, default=10_000, help="casino top-up (cents)")
    ap.add_argument("--url", help="a running server (default: start one)")
    ap.add_argument("--database-url", help="PostgreSQL URL for the spawned server")
    ap.add_argument("--redis-url", help="Redis URL: the spawned server runs as a cluster")
    ap.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (>1: --database-url and --redis-url)",
    )
    ap.add_argument("--port", type=int, default=0, help="port of the spawned server (0: free)")
    ap.add_argument("--server-log", type=Path, help="keep the spawned server's log here")
    ap.add_argument("--json", dest="json_out", metavar="PATH", help="write the report ('-')")
    ap.add_argument("--seed", type=int, help="seed of the think-time jitter")
    a = ap.parse_args(argv)
    if a.clients < 1 or a.seconds <= 0 or a.think < 0:
        ap.error("need --clients >= 1, --seconds > 0, --think >= 0")
    if not (a.casino_share >= 0 and a.poker_share >= 0 and a.casino_share + a.poker_share <= 1):
        ap.error("need shares >= 0 with --casino-share + --poker-share <= 1")
    if not 1 <= a.uno_humans <= 4:
        ap.error("need 1 <= --uno-humans <= 4 (a UNO table has four seats)")
    if a.workers > 1 and not (a.database_url and a.redis_url):
        ap.error("--workers > 1 needs --database-url (PostgreSQL) and --redis-url")
    if a.ramp <= 0 or a.max_rate < 1 or a.signup_concurrency < 1:
        ap.error("need --ramp > 0, --max-rate >= 1, --signup-concurrency >= 1")
    return Config(
        clients=a.clients,
        seconds=a.seconds,
        think=a.think,
        casino_share=a.casino_share,
        poker_share=a.poker_share,
        uno_humans=a.uno_humans,
        idle=a.idle,
        ramp=a.ramp,
        warmup=a.warmup,
        signup_concurrency=a.signup_concurrency,
        max_rate=a.max_rate,
        ack_timeout=a.ack_timeout,
        reconnects=a.reconnects,
        stake=a.stake,
        topup=a.topup,
        url=a.url,
        database_url=a.database_url,
        redis_url=a.redis_url,
        workers=a.workers,
        port=a.port,
        server_log=a.server_log,
        json_out=a.json_out,
        seed=a.seed,
    )


def main(argv: list[str] | None = None) -> None:
    cfg = parse_args(argv)
    factory: Callable[[], asyncio.AbstractEventLoop] = asyncio.new_event_loop
    with contextlib.suppress(ImportError):  # uvloop, when installed, as uvicorn uses it
        import uvloop

        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        report = runner.run(bench(cfg))
    errors = print_report(cfg, report)
    if cfg.json_out == "-":
        print(json.dumps(report, default=str))
    elif cfg.json_out:
        Path(cfg.json_out).write_text(json.dumps(report, indent=2, default=str) + "\n")
    p99 = report.get("latency_ms", {}).get("p99", float("nan"))
    rate = report.get("decisions_per_s", float("nan"))
    print(
        f"clients={cfg.clients} think={cfg.think:g} workers={cfg.workers} "
        f"decisions_per_s={rate:.1f} p99_ms={p99:.1f} errors={errors}"
    )


if __name__ == "__main__":
    main()
