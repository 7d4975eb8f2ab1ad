"""Failover (docs/scaling.md, "Failover") with ``mazziere serve --workers 2`` on PostgreSQL and
Redis: a worker killed with SIGKILL in the middle of casino rounds, several times in a row,
each time the worker that took the tables over the time before. Every table of the dead
worker is owned and resumed again within a lease and one scan tick of the kill, its cut-off
round completed and settled as after a restart, its player told (the new owner measures the
same from the dead worker's last renewal, a tick at most before the kill:
``mazziere_takeover_seconds``); nothing is logged as a problem and the ledger balances."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from .test_cluster import needs_both, pg_url, prefix, serve_cmd
from .test_recovery import free_port, ledger_check

__all__ = ["pg_url", "prefix"]  # fixtures

LEASE = 6.0
TICK = LEASE / 3
BOUND = LEASE + TICK
"""A dead worker's tables are resumed within a lease and one scan tick of its death."""
PLAYERS = 6
KILLS = 3


def worker(base: str) -> dict[str, Any]:
    """One worker's ``/health`` and takeover metrics, read on one connection (the port
    spreads connections over the workers; one connection stays with one)."""
    with httpx.Client(base_url=base, timeout=10) as c:
        health = c.get("/health").json()
        text = c.get("/metrics").text
    got = {
        line.split(" ")[0]: float(line.split(" ")[1])
        for line in text.splitlines()
        if line.startswith(("mazziere_takeover", "mazziere_tables_unowned"))
    }
    return {**health, "metrics": got}


def workers(base: str) -> dict[str, dict[str, Any]]:
    """Both workers, by process name."""
    seen: dict[str, dict[str, Any]] = {}
    for _ in range(200):
        with contextlib.suppress(httpx.HTTPError, ValueError):
            w = worker(base)
            if w.get("status") == "ok":
                seen[w["process"]] = w
        if len(seen) == 2:
            return seen
    raise AssertionError(f"two workers did not answer: {sorted(seen)}")


class Player:
    """A casino player at its own table, reconnecting to any worker when its socket drops;
    keeps every message."""

    def __init__(self, ws_url: str, token: str, table: int) -> None:
        self.ws_url, self.token, self.table = ws_url, token, table
        self.messages: list[tuple[float, dict[str, Any]]] = []

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError, websockets.ConnectionClosed, TimeoutError):
                await self._session(stop)
            await asyncio.sleep(0.2)

    async def _send(self, ws: Any, msg: dict[str, Any]) -> None:
        await ws.send(json.dumps({"v": 1, **msg}))

    async def _session(self, stop: asyncio.Event) -> None:
        async with websockets.connect(self.ws_url, open_timeout=10) as ws:
            await self._send(ws, {"type": "auth", "token": self.token})
            await self._send(ws, {"type": "join", "table": self.table})
            again = 0.0
            while not stop.is_set():
                if again and time.monotonic() >= again:
                    again = 0.0
                    await self._send(ws, {"type": "join", "table": self.table})
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 0.25))
                except TimeoutError:
                    continue
                self.messages.append((time.monotonic(), m))
                if m["type"] == "error" and m["code"] == "table_moving":
                    again = again or time.monotonic() + m["retry_after"]
                if m["type"] != "table" or m["table"] != self.table:
                    continue
                await asyncio.sleep(0.05)
                if m["status"] == "playing" and m["legal"]:
                    act = {"type": "action", "action": m["legal"][0]["text"]}
                elif m["status"] != "playing" and m["seat"] is None:
                    act = {"type": "join"}
                elif m["status"] != "playing" and not (m["view"] or {}).get("credit"):
                    act = {"type": "topup", "amount": 5_000}
                elif m["status"] != "playing":
                    act = {"type": "stake", "state_no": m["state_no"], "amount": 100}
                else:
                    continue
                if "state_no" not in act and act["type"] == "action":
                    act["state_no"] = m["state_no"]
                await self._send(ws, {**act, "table": self.table})

    def told_after(self, t: float) -> float | None:
        """When it first had an update of its table (the table resumed, or the round settled
        and the session closed) after ``t``."""
        return next((at for at, m in self.messages if at > t and m["type"] == "table"), None)


@needs_both
async def test_a_killed_worker_s_tables_resume_within_a_lease_and_a_tick_kill_after_kill(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = serve_cmd(port, tmp_path, pg_url, prefix, "--workers", "2")
    cmd[cmd.index("--lease-seconds") + 1] = str(LEASE)
    log = tmp_path / "supervisor.log"
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    with log.open("wb") as out:
        popen = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=out)
    try:
        procs = await asyncio.to_thread(workers, base)
        players: list[Player] = []
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for i in range(PLAYERS):
                r = await http.post(
                    "/api/signup", json={"username": f"kill{i}", "password": "correct horse"}
                )
                token = r.json()["token"]
                r = await http.post(
                    "/api/tables", json={"game": "casino"},
                    headers={"Authorization": f"Bearer {token}"},
                )  # fmt: skip
                players.append(Player(base.replace("http", "ws") + "/ws", token, r.json()["id"]))
        tables = {p.table for p in players}
        tasks = [asyncio.create_task(p.run(stop)) for p in players]
        victim: str | None = None
        for kill in range(KILLS):
            await asyncio.sleep(2.0)  # rounds under way
            procs = await asyncio.to_thread(workers, base)
            assert set().union(*(set(w["owned"]) for w in procs.values())) == tables
            if victim not in procs:  # the first kill: either worker
                victim = max(procs, key=lambda p: len(procs[p]["owned"]))
            moved = set(procs[victim]["owned"])
            assert moved, procs
            counted = {p: w["metrics"].get("mazziere_takeover_seconds_count", 0.0)
                       for p, w in procs.items()}  # fmt: skip
            killed = time.monotonic()
            os.kill(int(victim.split(".")[1]), signal.SIGKILL)  # host.pid.random
            survivor = next(p for p in procs if p != victim)
            # every moved table owned and resumed by the survivor or the new worker
            for _ in range(600):
                now = await asyncio.to_thread(workers, base)
                owned = set().union(*(set(w["owned"]) for w in now.values()))
                if victim not in now and owned >= tables:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"kill {kill}: tables not taken over: {now}")
            takeovers = 0.0
            for p, w in now.items():
                m = w["metrics"]
                takeovers += m.get("mazziere_takeover_seconds_count", 0.0) - counted.get(p, 0.0)
                if m.get("mazziere_takeover_seconds_count"):  # from the last renewal
                    assert m["mazziere_takeover_longest_seconds"] <= BOUND + TICK, (kill, p, m)
                assert m["mazziere_tables_unowned"] == 0, (kill, p, m)
            assert takeovers == len(moved), (kill, takeovers, moved)
            for p in players:  # each player heard from its table again, in time
                for _ in range(200):
                    if p.told_after(killed) is not None:
                        break
                    await asyncio.sleep(0.05)
                told = p.told_after(killed)
                assert told is not None, (kill, p.table)
                if p.table in moved:
                    assert told - killed <= BOUND, (kill, p.table, told - killed)
            # the next victim: the worker that took the tables over (it serves them now)
            owners = {q for q, w in now.items() if set(w["owned"]) & moved}
            victim = survivor if survivor in owners else next(iter(owners))
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        rounds = sum(
            1 for p in players for _, m in p.messages
            if m["type"] == "table" and any(e.get("type") == "hand_started" for e in m["events"])
        )  # fmt: skip
        assert rounds >= PLAYERS, rounds
    finally:
        stop.set()
        for t in tasks:
            t.cancel()
        popen.send_signal(signal.SIGTERM)
        try:
            popen.wait(30)
        except subprocess.TimeoutExpired:
            popen.kill()
    text = log.read_text()
    problems = [
        line for line in text.splitlines()
        if "Traceback" in line or "ERROR" in line or " lost" in line
    ]  # fmt: skip
    assert problems == [], text[-4000:]
    out = subprocess.run(
        [*cmd[:3], "ledger", "check", "--database-url", pg_url],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr


@needs_both
async def test_a_player_on_the_other_process_is_told_the_round_settled_by_the_takeover(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    """The process owning a casino table dies mid-round while its player's socket is on the
    other process: an action sent during the dead owner's lease is answered ``table_moving``
    with a retry hint (nothing applied), a REST call then waits for the takeover and is
    answered, and the player gets the round completed, settled and the session closed as soon
    as the new owner has it."""
    from .test_cluster import made, owners, two

    async with two(tmp_path, pg_url, prefix) as (a, b):
        http = httpx.AsyncClient(base_url=a.base, timeout=30)
        la = a.live(http)
        players = [await la.signup(f"told{i}") for i in range(4)]
        tables = [await made(la, p["token"], {"game": "casino"}) for p in players]
        owned = await owners(a, b, set(tables))
        victim, survivor = (a, b) if owned[a.port] else (b, a)
        table = min(owned[victim.port])
        token = players[tables.index(table)]["token"]
        hs = httpx.AsyncClient(base_url=survivor.base, timeout=30)
        ls = survivor.live(hs)
        c = await ls.connect(token)  # the socket is on the survivor, the table on the victim
        await c.send({"type": "join", "table": table})
        await c.send({"type": "topup", "table": table, "amount": 5_000})
        u = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit"))
        await c.send({"type": "stake", "table": table, "state_no": u["state_no"], "amount": 400})
        mid = await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        assert mid["legal"]
        victim.popen.send_signal(signal.SIGKILL)
        victim.popen.wait(10)
        seen = len(c.messages)
        move = {"type": "action", "table": table, "state_no": mid["state_no"],
                "action": mid["legal"][0]["text"]}  # fmt: skip
        await c.send(move)  # during the dead owner's lease
        moving = await c.wait(lambda m: m["type"] == "error", start=seen)
        assert moving["code"] == "table_moving" and moving["table"] == table, moving
        assert 0 < moving["retry_after"] <= 1.5 + 0.5 + 0.1  # the lease's rest and a tick
        # the takeover: the round completed by default, settled, the session closed, told
        last = await c.wait(
            lambda m: m["type"] == "table" and m["table"] == table
            and any(e["type"] == "session_closed" for e in m["events"]),
            start=seen, timeout=30,
        )  # fmt: skip
        assert last["seat"] is None and last["status"] == "open"
        credited = next(e for e in last["events"] if e["type"] == "session_closed")["credited"]
        hist = await ls.get("/api/history", token)
        assert hist[0]["status"] == "done"
        payout = hist[0]["result"]["payout"]
        assert credited == 5_000 - 400 + payout
        me = await ls.get("/api/me", token)
        assert me["balance"] == 20_000 - 400 + payout
        # a REST call for a table whose owner died waits for the takeover, then is answered
        other = next((t for t in owned[victim.port] if t != table), None)
        if other is not None:
            r = await ls.post(f"/api/tables/{other}/join", players[tables.index(other)]["token"])
            assert r.status_code == 200, r.text
        await c.close()
        await http.aclose()
        await hs.aclose()
    rc, out = ledger_check(tmp_path, pg_url)
    assert rc == 0, out
