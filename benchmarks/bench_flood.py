"""One client cannot slow the others: a well-behaved client's ping round trip while another
client floods the server with messages.

Starts ``mazziere serve`` (SQLite in a temporary folder) in its own process, signs up two
accounts, then for ``--seconds``:
- the good client sends a ping every ``--interval`` seconds and records the time to its pong;
- the flooder sends ``--rate`` messages a second (pings, in batches every 10 ms), never reads
  what the server answers (``--flooder-reads`` to read it) and, when the server closes it, logs
  in again and goes on, as an attacker would.
The same is measured first without the flood (the baseline). Prints p50/p99/max of the good
client's round trip for both, and what happened to the flooder.

    python benchmarks/bench_flood.py                 # 20,000 messages/s for 10 s
    python benchmarks/bench_flood.py --legacy-url    # a server that takes ?token= in the URL
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Bench:
    def __init__(self, base: str, legacy: bool) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.legacy = legacy

    async def signup(self, http: httpx.AsyncClient, name: str) -> str:
        r = await http.post("/api/signup", json={"username": name, "password": "flood-bench-77"})
        r.raise_for_status()
        return str(r.json()["token"])

    async def connect(self, token: str) -> Any:
        if self.legacy:
            ws = await websockets.connect(f"{self.ws_base}/ws?token={token}", max_size=2**22)
        else:
            ws = await websockets.connect(f"{self.ws_base}/ws", max_size=2**22)
            await ws.send(json.dumps({"v": 1, "type": "auth", "token": token}))
        while json.loads(await ws.recv())["type"] != "hello":
            pass
        return ws

    async def pinger(self, token: str, seconds: float, interval: float) -> list[float]:
        ws = await self.connect(token)
        rtts: list[float] = []
        pong = asyncio.Event()

        async def reader() -> None:
            async for raw in ws:
                if json.loads(raw)["type"] == "pong":
                    pong.set()

        task = asyncio.create_task(reader())
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pong.clear()
            t = time.perf_counter()
            await ws.send('{"v": 1, "type": "ping"}')
            try:
                await asyncio.wait_for(pong.wait(), 10)
                rtts.append(time.perf_counter() - t)
            except TimeoutError:
                rtts.append(10.0)
            await asyncio.sleep(interval)
        task.cancel()
        await ws.close()
        return rtts

    async def flooder(self, token: str, seconds: float, rate: int, reads: bool) -> dict[str, Any]:
        sent = closes = 0
        codes: dict[str, int] = {}
        end = time.perf_counter() + seconds
        batch = max(1, rate // 100)
        frame = '{"v": 1, "type": "ping"}'
        while time.perf_counter() < end:
            try:
                ws = await self.connect(token)
            except Exception as e:
                codes[type(e).__name__] = codes.get(type(e).__name__, 0) + 1
                await asyncio.sleep(0.05)
                continue
            drain = asyncio.create_task(self._drain(ws) if reads else asyncio.sleep(seconds))
            try:
                tick = time.perf_counter()
                while time.perf_counter() < end:
                    for _ in range(batch):
                        await ws.send(frame)
                    sent += batch
                    tick += 0.01
                    await asyncio.sleep(max(0.0, tick - time.perf_counter()))
                await ws.close()
            except websockets.ConnectionClosed as e:
                closes += 1
                code = str(e.rcvd.code if e.rcvd else 1006)
                codes[code] = codes.get(code, 0) + 1
            drain.cancel()
        return {"sent": sent, "closed_by_server": closes, "close_codes": codes}

    @staticmethod
    async def _drain(ws: Any) -> None:
        async for _ in ws:
            pass


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    b = Bench(base, args.legacy_url)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        good, bad = await b.signup(http, "goodclient"), await b.signup(http, "flooder")
    quiet = await b.pinger(good, args.baseline_seconds, args.interval)
    rtts, flood = await asyncio.gather(
        b.pinger(good, args.seconds, args.interval),
        b.flooder(bad, args.seconds, args.rate, args.flooder_reads),
    )
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        metrics = (await http.get("/metrics")).text
    cut = [ln for ln in metrics.splitlines() if ln.startswith('mazziere_errors_total{code="flood')]
    return {
        "server_flood_closes": float(cut[0].split()[-1]) if cut else 0.0,
        "baseline_ms": {"p50": pct(quiet, 0.5), "p99": pct(quiet, 0.99), "max": max(quiet) * 1000},
        "flood_ms": {"p50": pct(rtts, 0.5), "p99": pct(rtts, 0.99), "max": max(rtts) * 1000},
        "pings": len(rtts),
        "flood_rate_target": args.rate,
        "flood_rate_achieved": round(flood["sent"] / args.seconds),
        **flood,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rate", type=int, default=20_000, help="flood messages per second")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--baseline-seconds", type=float, default=3.0)
    ap.add_argument("--interval", type=float, default=0.05, help="good client's ping period")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--flooder-reads",
        action="store_true",
        help="the flooder reads the server's answers (default: it never reads, as an attack)",
    )
    ap.add_argument("--legacy-url", action="store_true", help="token in the URL (old servers)")
    args = ap.parse_args()
    results = []
    for _ in range(args.repeats):
        port = free_port()
        with tempfile.TemporaryDirectory() as data:
            env = {**os.environ, "PYTHONUNBUFFERED": "1"}
            cmd = [sys.executable, "-m", "mazziere", "serve", "--port", str(port), "--data", data]
            cmd += ["--argon2-time-cost", "1", "--argon2-memory-kib", "8192"]
            proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
            try:
                base = f"http://127.0.0.1:{port}"
                for _ in range(300):
                    try:
                        if httpx.get(f"{base}/health").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.1)
                r = asyncio.run(run(args, base))
            finally:
                proc.terminate()
                proc.wait(10)
        results.append(r)
        print(json.dumps(r))
    med = {k: statistics.median(r["flood_ms"][k] for r in results) for k in ("p50", "p99", "max")}
    base_med = {
        k: statistics.median(r["baseline_ms"][k] for r in results) for k in ("p50", "p99", "max")
    }
    print(
        f"baseline (no flood): p50_ms={base_med['p50']:.1f} p99_ms={base_med['p99']:.1f} "
        f"max_ms={base_med['max']:.1f}"
    )
    print(
        f"ping_under_flood rate={args.rate}/s repeats={args.repeats} (medians): "
        f"p50_ms={med['p50']:.1f} p99_ms={med['p99']:.1f} max_ms={med['max']:.1f}"
    )


if __name__ == "__main__":
    main()
