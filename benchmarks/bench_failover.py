"""Failover, measured as an operator meets it: ``mazziere serve --workers 2`` on PostgreSQL and
Redis, casino players at their own tables, and one worker killed with SIGKILL in the middle of
hands, again and again; each time the worker that took the tables over the last time is the
one killed next (it serves tables it adopted). The parent starts a new worker each time.

For every kill the script reads, from Redis, the tables whose lease the victim held, then
measures for each of them the time from the kill to its lease held by a live process again
(the new owner takes the lease, then resumes the table from the database before it serves
anything), and to the table's first update reaching its player after the kill (the resumed
table, or the round settled and the session closed, for a player whose socket was on the
survivor; a player whose socket was on the victim reconnects first). It also reads
``mazziere_takeover_seconds`` and ``mazziere_tables_unowned`` from both workers' ``/metrics``.
A table not owned again within ``--give-up`` seconds ends the run with an error. At the end
``mazziere ledger check`` runs on the database.

    python benchmarks/bench_failover.py --kills 10 [--lease-seconds 5] [--players 30] \
        [--pg-admin postgresql://postgres@127.0.0.1:5432/postgres] \
        [--redis-url redis://127.0.0.1:6379/0]

The database is created for the run and dropped after it; the Redis keys carry a fresh
prefix and are deleted after it. The last line is
``kills=K tables_moved=T owned_median_s=.. owned_max_s=.. seen_max_s=.. bound_s=..``, where
the bound is the lease plus one scan tick (a third of a lease).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import redis.asyncio as aioredis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

PASSWORD = "bench-password-1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        return [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return []


class Player:
    """A casino player at its own table: top-up, then stake rounds and the first legal move,
    with a short think time; reconnects (to any worker) whenever its socket drops."""

    def __init__(self, ws_url: str, token: str, table: int) -> None:
        self.ws_url, self.token, self.table = ws_url, token, table
        self.last_update = 0.0
        self.rounds = 0
        self.errors: dict[str, int] = {}
        self.rejoin_at = 0.0

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                await self._session(stop)
            await asyncio.sleep(0.2 + random.random() * 0.3)

    async def _session(self, stop: asyncio.Event) -> None:
        async with connect(self.ws_url, open_timeout=10) as ws:
            await ws.send(json.dumps({"v": 1, "type": "auth", "token": self.token}))
            await ws.send(json.dumps({"v": 1, "type": "join", "table": self.table}))
            last: dict[str, Any] | None = None
            while not stop.is_set():
                if self.rejoin_at and time.monotonic() >= self.rejoin_at:
                    self.rejoin_at = 0.0
                    await ws.send(json.dumps({"v": 1, "type": "join", "table": self.table}))
                try:
                    m = json.loads(
                        await asyncio.wait_for(ws.recv(), 0.25 if self.rejoin_at else 1.0)
                    )
                except TimeoutError:
                    if self.rejoin_at:
                        continue
                    if last is not None:
                        await self._move(ws, last)
                    continue
                if m["type"] == "error":
                    self.errors[m["code"]] = self.errors.get(m["code"], 0) + 1
                    if m["code"] == "table_moving" and not self.rejoin_at:
                        # the owner died: join again once the table is taken (reading on)
                        self.rejoin_at = time.monotonic() + m["retry_after"]
                    continue
                if m["type"] != "table" or m["table"] != self.table:
                    continue
                self.last_update = time.monotonic()
                last = m
                await asyncio.sleep(random.uniform(0.05, 0.3))
                await self._move(ws, m)

    async def _move(self, ws: Any, m: dict[str, Any]) -> None:
        view = m.get("view") or {}
        if m["status"] != "playing":
            if not view.get("credit"):
                if m["seat"] is None:
                    await ws.send(json.dumps({"v": 1, "type": "join", "table": self.table}))
                msg = {"type": "topup", "table": self.table, "amount": 5_000}
                await ws.send(json.dumps({"v": 1, **msg}))
                return
            self.rounds += 1
            msg = {"type": "stake", "table": self.table, "state_no": m["state_no"], "amount": 100}
            await ws.send(json.dumps({"v": 1, **msg}))
        elif m.get("legal"):
            msg = {
                "type": "action",
                "table": self.table,
                "state_no": m["state_no"],
                "action": m["legal"][0]["text"],
            }
            await ws.send(json.dumps({"v": 1, **msg}))


async def metric(base: str, names: tuple[str, ...], tries: int = 30) -> dict[str, dict[str, float]]:
    """Each worker's samples of ``names`` (the port spreads connections over the workers:
    ask until both answered)."""
    out: dict[str, dict[str, float]] = {}
    for _ in range(tries):
        try:
            async with httpx.AsyncClient(base_url=base, timeout=15) as http:
                proc = (await http.get("/health")).json().get("process", "?")
                text = (await http.get("/metrics")).text
        except httpx.HTTPError:
            continue
        out[proc] = {
            line.split(" ")[0]: float(line.split(" ")[1])
            for line in text.splitlines()
            if line.startswith(names)
        }
        if len(out) >= 2:
            break
    return out


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    name = f"mzfail_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(args.pg_admin)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    db_url = args.pg_admin.rsplit("/", 1)[0] + f"/{name}"
    prefix = f"bfail{uuid.uuid4().hex[:6]}:"
    r = aioredis.Redis.from_url(args.redis_url)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    tmp = tempfile.TemporaryDirectory(prefix="bench_failover_")
    log_path = Path(tmp.name) / "server.log"
    cmd = [
        sys.executable, "-m", "mazziere", "serve", "--workers", "2", "--port", str(port),
        "--data", tmp.name, "--database-url", db_url, "--redis-url", args.redis_url,
        "--redis-prefix", prefix, "--lease-seconds", str(args.lease_seconds),
        "--demo-credit", "10000000", "--argon2-time-cost", "1", "--argon2-memory-kib", "1024",
    ]  # fmt: skip
    log = log_path.open("wb")
    sup = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    players: list[Player] = []
    kills: list[dict[str, Any]] = []
    try:
        await healthy(base, sup)
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for i in range(args.players):
                got = await http.post(
                    "/api/signup", json={"username": f"fail{i}", "password": PASSWORD}
                )
                got.raise_for_status()
                token = got.json()["token"]
                made = await http.post(
                    "/api/tables",
                    json={"game": "casino"},
                    headers={"Authorization": f"Bearer {token}"},
                )
                made.raise_for_status()
                players.append(Player(base.replace("http", "ws") + "/ws", token, made.json()["id"]))
        tasks = [asyncio.create_task(p.run(stop)) for p in players]
        tables = [p.table for p in players]
        victim_proc: str | None = None
        for k in range(args.kills):
            procs = await live_workers(r, prefix, sup.pid, tables, args.give_up)
            await asyncio.sleep(args.between)
            if victim_proc not in procs:  # the first kill, or the last survivor died since
                victim_proc = random.choice(sorted(procs))
            pid = int(victim_proc.split(".")[1])
            held = await r.mget([f"{prefix}lease:{t}" for t in tables])
            moved = [
                t for t, h in zip(tables, held, strict=True) if h and h.decode() == victim_proc
            ]
            killed = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            owned: dict[int, float] = {}
            seen: dict[int, float] = {}
            new_owner: set[str] = set()
            while len(owned) < len(moved) or len(seen) < len(moved):
                now = time.monotonic()
                if now - killed > args.give_up:
                    missing = sorted(set(moved) - set(owned))
                    if missing:
                        raise RuntimeError(
                            f"kill {k}: tables {missing} not owned after {args.give_up} s"
                        )
                    break  # owned, but a player was told nothing: counted as unseen
                held = await r.mget([f"{prefix}lease:{t}" for t in moved])
                for t, h in zip(moved, held, strict=True):
                    if t not in owned and h and h.decode() != victim_proc:
                        owned[t] = now - killed
                        new_owner.add(h.decode())
                for p in players:
                    t = p.table
                    if t in owned and t not in seen and p.last_update > killed + owned[t]:
                        seen[t] = p.last_update - killed
                await asyncio.sleep(0.02)
            kills.append(
                {
                    "victim": victim_proc,
                    "tables": len(moved),
                    "owned_max_s": round(max(owned.values(), default=0.0), 2),
                    "owned_median_s": round(statistics.median(owned.values()), 2) if owned else 0,
                    "seen_max_s": round(max(seen.values(), default=0.0), 2),
                    "unseen": len(moved) - len(seen),
                    "owned": {t: round(s, 2) for t, s in sorted(owned.items())},
                }
            )
            print(json.dumps({"kill": k, **kills[-1]}), flush=True)
            victim_proc = sorted(new_owner)[0] if len(new_owner) == 1 else None
        samples = await metric(base, ("mazziere_takeover_seconds", "mazziere_tables_unowned"))
    finally:
        stop.set()
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        sup.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            sup.wait(30)
        if sup.poll() is None:
            sup.kill()
        log.close()
        if args.log:
            Path(args.log).write_bytes(log_path.read_bytes())
        problems = [
            line
            for line in log_path.read_text(errors="replace").splitlines()
            if "Traceback" in line or "ERROR" in line
        ]
        keys = [k async for k in r.scan_iter(match=prefix + "*")]
        if keys:
            await r.delete(*keys)
        await r.aclose()
    check = subprocess.run(
        [sys.executable, "-m", "mazziere", "ledger", "check", "--database-url", db_url],
        capture_output=True,
        text=True,
    )
    admin = await asyncpg.connect(args.pg_admin)
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.close()
    every = [k["owned_max_s"] for k in kills]
    return {
        "kills": kills,
        "metrics": samples,
        "rounds": sum(p.rounds for p in players),
        "player_errors": {
            c: sum(p.errors.get(c, 0) for p in players)
            for c in sorted({c for p in players for c in p.errors})
        },
        "log_problems": problems[:20],
        "ledger_check": check.returncode,
        "owned_median_s": statistics.median(every),
        "owned_max_s": max(every),
        "seen_max_s": max(k["seen_max_s"] for k in kills),
        "bound_s": round(args.lease_seconds * 4 / 3, 2),
    }


async def healthy(base: str, sup: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        while time.monotonic() < deadline:
            if sup.poll() is not None:
                raise RuntimeError(f"server exited with {sup.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/health")).status_code == 200:
                    return
            await asyncio.sleep(0.3)
    raise RuntimeError("server not healthy")


async def live_workers(
    r: aioredis.Redis, prefix: str, sup_pid: int, tables: list[int], timeout: float
) -> set[str]:
    """Wait until two workers are alive and every table's lease is held by one of them; their
    names."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = set(children(sup_pid))
        alive = {
            k.decode()[len(prefix) + len("alive:") :]
            async for k in r.scan_iter(match=prefix + "alive:*")
        }
        procs = {p for p in alive if int(p.split(".")[1]) in pids}
        held = await r.mget([f"{prefix}lease:{t}" for t in tables])
        if len(procs) == 2 and all(h is not None and h.decode() in procs for h in held):
            return procs
        await asyncio.sleep(0.2)
    raise RuntimeError("two live workers owning every table: not reached")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--players", type=int, default=30)
    ap.add_argument("--lease-seconds", type=float, default=5.0)
    ap.add_argument("--between", type=float, default=3.0, help="seconds of play between kills")
    ap.add_argument("--give-up", type=float, default=60.0)
    ap.add_argument("--pg-admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--json", help="write the full report here")
    ap.add_argument("--log", help="keep the server's log here")
    args = ap.parse_args()
    out = asyncio.run(bench(args))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    print(json.dumps({k: v for k, v in out.items() if k != "kills"}, indent=2))
    print(
        f"kills={len(out['kills'])} tables_moved={sum(k['tables'] for k in out['kills'])} "
        f"owned_median_s={out['owned_median_s']} owned_max_s={out['owned_max_s']} "
        f"seen_max_s={out['seen_max_s']} bound_s={out['bound_s']}"
    )


if __name__ == "__main__":
    main()
