"""Bytes of the ``table`` messages a table sends while a game is played.

Runs a real server (the tests' live helpers, SQLite in a temporary directory) and plays UNO
games to the end at 4-seat tables: every human plays its first legal action when it is its
turn. Every ``table`` message the hub sends is encoded as it goes on the wire and counted. The
seeds are fixed, so two checkouts play the same games and their figures compare directly.

    python benchmarks/bench_update_bytes.py [--games 5] [--humans 4]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mazziere.server import protocol as P
from mazziere.server.table import actor as table_actors
from tests.server.live import Client, Live, live_server


async def play_one(live: Live, clients: list[Client], owner: str) -> None:
    body = {
        "game": "uno",
        "preset": "classic",
        "options": {"match": "single_hand"},
        "seats": 4,
        "decision_seconds": 3600,
        "bot_delay": 0,
    }
    r = await live.post("/api/tables", owner, body)
    r.raise_for_status()
    table = int(r.json()["id"])
    for c in clients:
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
    await clients[0].send({"type": "start", "table": table})
    acted: dict[int, int] = {}
    for _ in range(5000):
        done = False
        for i, c in enumerate(clients):
            t = c.tables.get(table)
            if t is None:
                continue
            if t["status"] == "open" and (t["view"] or {}).get("result") is not None:
                done = True
            elif (
                t["legal"]
                and (t["view"] or {}).get("current") == t["seat"]
                and acted.get(i) != t["state_no"]
            ):
                acted[i] = t["state_no"]
                action = {"table": table, "state_no": t["state_no"]}
                await c.send({"type": "action", **action, "action": t["legal"][0]["text"]})
        if done:
            break
        await asyncio.sleep(0.005)
    for c in clients:
        await c.send({"type": "leave", "table": table})
    await live.server.idle()
    await asyncio.sleep(0.1)


async def main(games: int, humans: int) -> None:
    seeds = (f"{n:064x}" for n in itertools.count(1))
    table_actors.new_seed = lambda: next(seeds)  # type: ignore[attr-defined]
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        async with live_server(url, Path(tmp)) as live:
            send = live.server.hub.send

            async def counting(account: int, message: Any) -> None:
                if isinstance(message, P.TableUpdate):
                    sizes.append(len(P.encode(message)))
                await send(account, message)

            live.server.hub.send = counting  # type: ignore[method-assign]
            accounts = [await live.signup(f"player{i}") for i in range(humans)]
            clients = [await live.connect(a["token"]) for a in accounts]
            for _ in range(games):
                await play_one(live, clients, accounts[0]["token"])
            for c in clients:
                await c.close()
    total = sum(sizes)
    print(f"{games} games, {humans} humans at 4-seat UNO tables")
    print(f"table messages: {len(sizes)}, bytes: {total}, mean {total / len(sizes):.0f} B/update")
    ordered = sorted(sizes)
    print(f"median {ordered[len(ordered) // 2]} B, p90 {ordered[len(ordered) * 9 // 10]} B")
    print(f"humans={humans} games={games} updates={len(sizes)} mean_bytes={total / len(sizes):.0f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--humans", type=int, default=4)
    args = ap.parse_args()
    asyncio.run(main(args.games, args.humans))
