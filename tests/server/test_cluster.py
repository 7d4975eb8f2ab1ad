"""Several server processes against one PostgreSQL and one Redis (docs/scaling.md):
real ``mazziere serve`` processes, each a table owner for some tables and a door for any
player. Players on different processes share a table; a second login on another process
closes the first connection; a process killed with SIGKILL mid-hand under casino load has its
tables taken over by the other, resumed exactly as after a restart, and the ledger balances;
login attempts for one account are counted once for both processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from limits import parse

from mazziere.server.settings import Settings

from .conftest import PG_OK, _create_pg_database, _drop_pg_database
from .live import Client, Live
from .test_recovery import free_port, ledger_check

REDIS = os.environ.get("MAZZIERE_TEST_REDIS", "redis://127.0.0.1:6379/0")
LEASE = 1.5


def _redis_reachable() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_timeout=2).ping()
        return True
    except Exception:
        return False


REDIS_OK = _redis_reachable()
if os.environ.get("CI") and not REDIS_OK:  # CI has Redis: never skip these silently there
    raise RuntimeError(f"Redis is not reachable at {REDIS}")

needs_both = pytest.mark.skipif(
    not (PG_OK and REDIS_OK), reason="needs PostgreSQL and Redis (CI has both)"
)


@dataclass
class Proc:
    port: int
    popen: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def live(self, http: httpx.AsyncClient) -> Live:
        return Live(server=None, base=self.base, http=http)  # type: ignore[arg-type]

    def health(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.base}/health", timeout=5).json())

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                os.kill(self.popen.pid, signal.SIGKILL)


def serve_cmd(port: int, data: Path, db_url: str, prefix: str, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "mazziere", "serve",
        "--port", str(port), "--data", str(data),
        "--database-url", db_url, "--redis-url", REDIS, "--redis-prefix", prefix,
        "--lease-seconds", str(LEASE), "--demo-credit", "20000",
        "--argon2-time-cost", "1", "--argon2-memory-kib", "64",
        *extra,
    ]  # fmt: skip


def start(data: Path, db_url: str, prefix: str) -> Proc:
    port = free_port()
    cmd = serve_cmd(port, data, db_url, prefix)
    log = data / f"server-{port}.log"
    with log.open("wb") as out:
        popen = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=out)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return Proc(port, popen, log)
        if popen.poll() is not None:
            raise RuntimeError(log.read_text())
        time.sleep(0.2)
    raise RuntimeError("server did not start")


@pytest.fixture
def pg_url() -> Iterator[str]:
    url = _create_pg_database()
    try:
        yield url
    finally:
        _drop_pg_database(url)


@pytest.fixture
def prefix() -> Iterator[str]:
    p = f"mzt{uuid.uuid4().hex[:8]}:"
    yield p
    import redis

    r = redis.Redis.from_url(REDIS)
    keys = list(r.scan_iter(match=p + "*"))
    if keys:
        r.delete(*keys)


@contextlib.asynccontextmanager
async def two(data: Path, db_url: str, prefix: str) -> AsyncIterator[tuple[Proc, Proc]]:
    a = start(data, db_url, prefix)
    try:
        b = start(data, db_url, prefix)
    except BaseException:
        a.stop()
        raise
    try:
        yield a, b
    except BaseException:
        for p in (a, b):  # what the servers said, with the failure
            print(f"--- server on {p.port}:", p.log.read_text()[-6000:])
        raise
    finally:
        a.stop()
        b.stop()


async def made(live: Live, token: str, body: dict[str, Any]) -> int:
    """A new table's id."""
    r = await live.post("/api/tables", token, body)
    assert r.status_code == 200, r.text
    return int(r.json()["id"])


async def owners(a: Proc, b: Proc, tables: set[int]) -> dict[int, set[int]]:
    """Port -> the tables that process owns, once every table is owned (new tables may be
    handed from their creator to the less loaded process)."""
    for _ in range(100):
        owned = {p.port: set(p.health()["owned"]) for p in (a, b)}
        if owned[a.port] | owned[b.port] >= tables:
            return owned
        await asyncio.sleep(0.1)
    raise AssertionError(f"not every table is owned: {owned}")


async def turn(c: Client, table: int, after: int) -> dict[str, Any]:
    """The next update of ``table`` past state ``after``."""
    return await c.wait(lambda m: m["type"] == "table" and m["table"] == table
                        and m["state_no"] > after)  # fmt: skip


def test_several_workers_refuse_sqlite_with_a_clear_message(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "mazziere", "serve", "--data", str(tmp_path), "--workers", "2"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "--workers > 1 needs PostgreSQL" in out.stderr
    cmd = [sys.executable, "-m", "mazziere", "serve", "--data", str(tmp_path),
           "--redis-url", REDIS]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "not SQLite" in out.stderr


@needs_both
async def test_players_on_two_processes_share_one_uno_table(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        la = a.live(httpx.AsyncClient(base_url=a.base, timeout=30))
        lb = b.live(httpx.AsyncClient(base_url=b.base, timeout=30))
        alice, bob = await la.signup("alice"), await lb.signup("bob")
        table = await made(
            la, alice["token"], {"game": "uno", "preset": "mattel", "seats": 2,
                                 "decision_seconds": 600}
        )  # fmt: skip
        assert a.health()["owned"] == [table] and b.health()["owned"] == []
        ca, cb = await la.connect(alice["token"]), await lb.connect(bob["token"])
        await cb.send({"type": "join", "table": table})  # bob's socket is on B: forwarded
        await cb.wait(lambda m: m["type"] == "table" and m["table"] == table)
        await ca.send({"type": "join", "table": table})
        await ca.send({"type": "start", "table": table})
        first = await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        listed = (await lb.http.get("/api/tables")).json()  # B's lobby shows A's table
        assert sorted(t["name"] for t in listed[0]["seats"]) == ["alice", "bob"]
        state, acted = first["state_no"], {"alice": 0, "bob": 0}
        for _ in range(12):
            ua, ub = await turn(ca, table, state - 1), await turn(cb, table, state - 1)
            assert ua["state_no"] == ub["state_no"]  # both processes' players see one table
            state = ua["state_no"]
            if ua["status"] != "playing":
                break
            for name, c, u in (("alice", ca, ua), ("bob", cb, ub)):
                if u["legal"]:
                    move = next((x for x in u["legal"] if x["kind"] != "draw"), u["legal"][0])
                    await c.send({"type": "action", "table": table, "state_no": state,
                                  "action": move["text"]})  # fmt: skip
                    acted[name] += 1
                    break
            state += 1
        assert acted["alice"] >= 3 and acted["bob"] >= 3, acted
        errors = [m for m in ca.messages + cb.messages if m["type"] == "error"]
        assert errors == []
        for c in (ca, cb):
            await c.close()
        await la.http.aclose()
        await lb.http.aclose()


@needs_both
async def test_new_tables_spread_over_the_processes(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        la = a.live(httpx.AsyncClient(base_url=a.base, timeout=30))
        me = await la.signup("dora")
        made_here = {await made(la, me["token"], {"game": "casino"}) for _ in range(6)}
        owned = await owners(a, b, made_here)  # all created through A
        assert len(owned[a.port]) >= 2 and len(owned[b.port]) >= 2, owned
        assert owned[a.port] | owned[b.port] == made_here and not owned[a.port] & owned[b.port]
        c = await la.connect(me["token"])  # a table handed to B is played through A
        table = min(owned[b.port])
        await c.send({"type": "join", "table": table})
        await c.send({"type": "topup", "table": table, "amount": 1_000})
        u = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit"))
        assert u["table"] == table
        await c.close()
        await la.http.aclose()


@needs_both
async def test_a_second_login_on_another_process_closes_the_first_connection(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        ha = httpx.AsyncClient(base_url=a.base, timeout=30)
        hb = httpx.AsyncClient(base_url=b.base, timeout=30)
        la, lb = a.live(ha), b.live(hb)
        carol = await la.signup("carol")
        first = await la.connect(carol["token"])
        # the same session opened on B: the seed's one connection per account
        second = await lb.connect(carol["token"])
        notice = await first.wait(lambda m: m["type"] == "notice")
        assert notice["kind"] == "replaced"
        for _ in range(100):
            if first.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert first.closed is not None and first.closed[0] == 4001
        assert second.closed is None
        # a new login on A ends the session whose socket is on B
        r = await ha.post("/api/login", json={"username": "carol", "password": "correct horse"})
        assert r.status_code == 200
        await second.wait(lambda m: m["type"] == "notice" and m["kind"] == "replaced")
        for _ in range(100):
            if second.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert second.closed is not None and second.closed[0] == 4001
        await ha.aclose()
        await hb.aclose()


@needs_both
async def test_parallel_wrong_passwords_on_two_processes_are_verified_at_most_the_limit(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    limit = parse(Settings().login_limit_account).amount
    right = {"username": "dora", "password": "correct horse"}
    wrong = [{**right, "password": f"wrong password {i}"} for i in range(30)]
    async with two(tmp_path, pg_url, prefix) as (a, b), httpx.AsyncClient(timeout=30) as http:
        assert (await http.post(f"{a.base}/api/signup", json=right)).status_code == 200
        answers = await asyncio.gather(
            *(http.post(f"{(a, b)[i % 2].base}/api/login", json=w) for i, w in enumerate(wrong))
        )
        codes = Counter(r.status_code for r in answers)
        assert codes == Counter({401: limit, 429: 30 - limit}), codes
        for p in (a, b):  # still throttled, on either process
            r = await http.post(f"{p.base}/api/login", json=right)
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1


async def _casino_player(
    live: Live, token: str, table: int, stop: asyncio.Event, playing: asyncio.Event
) -> int:
    """Play casino rounds (stake 200, the first legal move) until ``stop``; rounds started.
    ``playing`` is set once the table has answered the first stake."""
    c = await live.connect(token)
    rounds = 0
    try:
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
        await c.send({"type": "topup", "table": table, "amount": 5_000})
        u = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit"))
        while not stop.is_set():
            if u["status"] != "playing":
                await c.send({"type": "stake", "table": table, "state_no": u["state_no"],
                              "amount": 200})  # fmt: skip
                rounds += 1
            elif u["legal"]:
                await c.send({"type": "action", "table": table, "state_no": u["state_no"],
                              "action": u["legal"][0]["text"]})  # fmt: skip
            else:
                break
            u = await turn(c, table, u["state_no"])
            if rounds:
                playing.set()
    except (ConnectionError, TimeoutError):
        pass
    finally:
        await c.close()
    return rounds


@needs_both
async def test_sigkill_one_process_mid_hand_the_other_takes_its_tables_over(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    async with two(tmp_path, pg_url, prefix) as (a, b):
        ha = httpx.AsyncClient(base_url=a.base, timeout=30)
        la = a.live(ha)
        players = [await la.signup(f"player{i}") for i in range(5)]
        tokens = [p["token"] for p in players]
        uno = await made(
            la, tokens[3], {"game": "uno", "preset": "mattel", "seats": 4, "decision_seconds": 600}
        )
        tables = [await made(la, t, {"game": "casino"}) for t in tokens[:4]]
        every = {*tables, uno}
        owned = await owners(a, b, every)
        # the process serving the UNO table dies, with a casino round parked mid-hand on one of
        # its casino tables (each process serves at least two tables); every socket is on the
        # other process
        victim, survivor = (a, b) if uno in owned[a.port] else (b, a)
        moved = owned[victim.port]
        parked = next(t for t in tables if t in moved)
        casino = [t for t in tables if t != parked]
        hs = httpx.AsyncClient(base_url=survivor.base, timeout=30)
        ls = survivor.live(hs)
        # player4 stakes a round and leaves it waiting for a decision
        cp = await ls.connect(tokens[4])
        await cp.send({"type": "join", "table": parked})
        await cp.send({"type": "topup", "table": parked, "amount": 5_000})
        u = await cp.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit"))
        await cp.send({"type": "stake", "table": parked, "state_no": u["state_no"], "amount": 400})
        mid = await cp.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        assert mid["legal"]  # the round waits for player4: it is mid-hand when its process dies
        await cp.close()
        cu = await ls.connect(tokens[3])
        await cu.send({"type": "join", "table": uno})
        await cu.send({"type": "start", "table": uno})
        playing = await cu.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        hand_before = playing["view"]["hand"]
        stop, started = asyncio.Event(), [asyncio.Event() for _ in casino]
        load = [  # casino load through the survivor's sockets, on tables of both processes
            asyncio.create_task(_casino_player(ls, t, table, stop, first))
            for t, table, first in zip(tokens[:3], casino, started, strict=True)
        ]
        # each player has a round on the books before the kill, however slow the machine
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in started)), 60)
        await asyncio.sleep(1.0)
        seen = len(cu.messages)
        victim.popen.send_signal(signal.SIGKILL)  # mid-hand, under load
        victim.popen.wait(10)
        stop.set()
        rounds = await asyncio.gather(*load)
        assert sum(rounds) >= 3, rounds
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if set(survivor.health()["owned"]) >= every:
                break
            await asyncio.sleep(0.2)
        assert set(survivor.health()["owned"]) >= every  # taken over after the lease
        # the UNO hand resumed on the survivor, unchanged, and its state is sent again
        back = await cu.wait(lambda m: m["type"] == "table" and m["table"] == uno, start=seen)
        assert back["status"] == "playing" and back["view"]["hand"] == hand_before
        assert back["seats"][0]["name"] == "player3"
        await cu.close()
        for tok, table in zip(tokens[:3], casino, strict=True):
            hist = await ls.get("/api/history", tok)
            assert hist and hist[0]["table"] == table
            if table in moved:  # a cut-off round was completed and settled
                assert all(h["status"] == "done" for h in hist), hist
        # the round cut off by the kill: completed by the default strategy, settled, and the
        # session closed with its credit back in the wallet (as after a restart)
        hist = await ls.get("/api/history", tokens[4])
        assert [h["status"] for h in hist] == ["done"]
        me = await ls.get("/api/me", tokens[4])
        assert me["balance"] == 20_000 - 400 + hist[0]["result"]["payout"]
        listed = {t["id"]: t for t in (await hs.get("/api/tables")).json()}
        assert all(listed[t]["status"] == "open" for t in moved if t != uno)
        print("FAILOVER", {"moved": sorted(moved), "rounds_played": sum(rounds)})
        await ha.aclose()
        await hs.aclose()
    rc, out = ledger_check(tmp_path, pg_url)
    assert rc == 0, out


@pytest.mark.skipif(not REDIS_OK, reason="needs Redis (CI has it)")
async def test_the_orphan_scan_reads_every_table_only_while_a_table_is_left_or_on_its_safety_tick(
    prefix: str,
) -> None:
    """Cluster._scan: a tick looks at a few keys; the full scan (every open table, from the
    database, and its lease) runs when a process is found dead and at every tick after it
    while a table is left without a live owner (its leases not expired yet, or a table that
    failed to load), then the dead one is forgotten; and every FULL_SCAN_EVERY ticks for a
    lease lost by a live process."""
    from types import SimpleNamespace

    from mazziere.server.cluster import Cluster
    from mazziere.server.cluster.ownership import Orphans

    server = SimpleNamespace(tables={}, hub=SimpleNamespace(conns={}), seating=None)
    c = Cluster(server, REDIS, prefix, lease_seconds=LEASE)  # type: ignore[arg-type]
    scans: list[set[str]] = []
    left = [0]

    async def adopt_orphans(dead: set[str] | None = None) -> Orphans:
        scans.append(set(dead or ()))
        return Orphans(taken=0, left=left[0], wake=None)

    c.ownership.adopt_orphans = adopt_orphans  # type: ignore[method-assign]
    try:
        await c.leases.announce()
        assert await c.scan_once() == 0 and scans == []  # nobody died: no full scan
        await c.scan_once(full=True)
        assert scans == [set()]  # the safety tick
        await c.redis.hset(c.bus.key("load"), "ghost", 3)  # a process whose alive key expired
        left[0] = 1  # one of its tables is not taken yet
        await c.scan_once()
        await c.scan_once()
        assert scans[1:] == [{"ghost"}, {"ghost"}]
        assert await c.redis.hexists(c.bus.key("load"), "ghost")
        left[0] = 0
        await c.scan_once()  # none left: it is forgotten
        assert len(scans) == 4
        assert not await c.redis.hexists(c.bus.key("load"), "ghost")
        await c.scan_once()
        assert len(scans) == 4
    finally:
        await c.redis.aclose()


@pytest.mark.skipif(not REDIS_OK, reason="needs Redis (CI has it)")
async def test_a_takeover_is_measured_from_the_dead_owner_s_last_renewal_even_once_it_is_forgotten(
    prefix: str,
) -> None:
    """How long a table went unserved is measured from its dead owner's last renewal, read
    as its lease is taken: the dead process may be forgotten (its renewal dropped from
    ``beat``) before the table is resumed, as it is when the resumption is slow, and the
    takeover counts all the same. A table a live process handed over is no takeover."""
    from types import SimpleNamespace

    from mazziere.server.cluster import Cluster
    from mazziere.server.metrics import Metrics

    def server() -> SimpleNamespace:
        return SimpleNamespace(
            tables={}, hub=SimpleNamespace(conns={}), seating=None, metrics=Metrics()
        )

    a = Cluster(server(), REDIS, prefix, lease_seconds=LEASE)  # type: ignore[arg-type]
    b = Cluster(server(), REDIS, prefix, lease_seconds=LEASE)  # type: ignore[arg-type]
    count = b.server.metrics.takeover.collect()[0]  # type: ignore[attr-defined]
    try:
        await a.leases.announce()
        await b.leases.announce()
        assert await a.leases.take(7) and await a.leases.take(8)
        await a.leases.release(8)  # handed over, a alive
        assert await b.leases.take(8)
        await asyncio.sleep(0.2)
        # a dies: its heartbeat and its lease expire
        await a.redis.delete(a.leases.lease(7), a.leases._alive(a.bus.proc))
        assert await b.leases.take(7)
        await b.leases.forget_processes({a.bus.proc})  # forgotten before table 7 is resumed
        b.ownership._observe_takeover(8)
        b.ownership._observe_takeover(7)
        count = b.server.metrics.takeover.collect()[0]  # type: ignore[attr-defined]
        observed = {x.name: x.value for x in count.samples}
        assert observed["mazziere_takeover_seconds_count"] == 1
        assert 0.2 <= observed["mazziere_takeover_seconds_sum"] < 60
    finally:
        await a.redis.aclose()
        await b.redis.aclose()


@needs_both
def test_workers_each_listen_on_the_port_and_a_dead_one_is_started_again(
    tmp_path: Path, pg_url: str, prefix: str
) -> None:
    """``--workers 2``: two processes, each with its own listening socket on the one port
    (SO_REUSEPORT, mazziere/server/workers.py), so that new connections are spread over both
    by the kernel; a worker killed with SIGKILL is replaced; SIGTERM stops every worker."""
    port = free_port()
    cmd = serve_cmd(port, tmp_path, pg_url, prefix, "--workers", "2")
    log = tmp_path / "supervisor.log"
    with log.open("wb") as out:
        popen = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=out)
    try:

        def processes(tries: int = 400) -> dict[str, int]:
            """Process name -> how many of ``tries`` fresh connections it answered."""
            seen: dict[str, int] = {}
            for _ in range(tries):
                with (
                    contextlib.suppress(httpx.HTTPError),
                    httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=2) as c,
                ):
                    r = c.get("/health")
                    if r.status_code == 200:
                        name = r.json()["process"]
                        seen[name] = seen.get(name, 0) + 1
            return seen

        deadline = time.monotonic() + 90
        seen: dict[str, int] = {}
        while time.monotonic() < deadline and len(seen) < 2:
            seen = processes(40)
            time.sleep(0.3)
        assert len(seen) == 2, (seen, log.read_text()[-3000:])
        spread = processes()
        assert len(spread) == 2 and min(spread.values()) >= 100, spread  # not all on one
        victim = next(iter(spread)).split(".")[1]  # host.pid.random
        os.kill(int(victim), signal.SIGKILL)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            now = processes(40)
            if len(now) == 2 and all(p.split(".")[1] != victim for p in now):
                break
            time.sleep(0.5)
        assert len(now) == 2 and all(p.split(".")[1] != victim for p in now), now
        pids = {int(p.split(".")[1]) for p in now}
    finally:
        popen.send_signal(signal.SIGTERM)
        popen.wait(30)
    assert popen.returncode is not None
    time.sleep(0.5)
    assert not [pid for pid in pids if Path(f"/proc/{pid}").exists()]  # no worker left behind
