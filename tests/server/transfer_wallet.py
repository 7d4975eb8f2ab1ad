"""What the transfer wallet's tests share: the reference wallet (``mazziere wallet-demo``) on a
real socket, a game server set to use it, and the proof that no cent was lost or created on
either side."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from sqlalchemy import select

from mazziere.server.store import transfers
from mazziere.server.store.models import Balance, WalletTransfer
from mazziere.server.wallet.demo import DemoWallet, Faults

from .live import Client, Live, live_server
from .test_live_games import ledger_ok

SECRET = b"a secret shared with the operator's wallet"
OPENING = 100_000
"""Cents each player starts with at the reference wallet."""


@dataclass
class Running:
    wallet: DemoWallet
    server: uvicorn.Server
    task: asyncio.Task[None]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def stop(self) -> None:
        self.server.should_exit = True
        await asyncio.wait_for(self.task, 15)
        self.wallet.close()


async def start_wallet(state: Path, port: int = 0, faults: Faults | None = None) -> Running:
    """The reference wallet on ``port`` (0: any free one), its state in ``state``."""
    wallet = DemoWallet(state, SECRET, OPENING, faults or Faults())
    config = uvicorn.Config(
        wallet.app(), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    assert server.started
    return Running(wallet, server, task, server.servers[0].sockets[0].getsockname()[1])


@contextlib.asynccontextmanager
async def reference_wallet(tmp_path: Path, faults: Faults | None = None) -> AsyncIterator[Running]:
    running = await start_wallet(tmp_path / "wallet.sqlite3", 0, faults)
    try:
        yield running
    finally:
        if not running.task.done():
            await running.stop()


FAST = {
    "wallet": "transfer",
    "wallet_timeout_seconds": 0.5,
    "wallet_tries": 3,
    "wallet_retry_seconds": 0.05,
    "wallet_retry_max_seconds": 0.3,
    "wallet_poll_seconds": 0.1,
    "argon2_time_cost": 1,
    "argon2_memory_kib": 1024,
}
"""A game server on the transfer wallet, with short time-outs and pauses (and cheap password
hashes)."""


def secret_file(tmp_path: Path) -> str:
    path = tmp_path / "wallet.secret"
    path.write_bytes(SECRET + b"\n")
    return str(path)


@contextlib.asynccontextmanager
async def transfer_server(
    db_url: str, tmp_path: Path, wallet_url: str, **settings: Any
) -> AsyncIterator[Live]:
    options = {**FAST, **settings}
    async with live_server(
        db_url,
        tmp_path,
        wallet_url=wallet_url,
        wallet_secret_file=secret_file(tmp_path),
        **options,
    ) as live:
        yield live


async def casino_player(live: Live, name: str) -> tuple[str, int, Client, int]:
    """A new player seated at a new casino table: (token, account, socket, table)."""
    acc = await live.signup(name)
    token = str(acc["token"])
    table = (await live.post("/api/tables", token, {"game": "casino"})).json()["id"]
    c = await live.connect(token)
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
    return token, int(acc["account"]), c, table


async def top_up(c: Client, table: int, amount: int, key: str | None = None) -> dict[str, Any]:
    """A top-up's answer: the error, or the table's update with the new credit."""
    n = len(c.messages)
    msg: dict[str, Any] = {"type": "topup", "table": table, "amount": amount}
    if key is not None:
        msg["key"] = key
    await c.send(msg)
    return await c.wait(
        lambda m: (
            (m["type"] == "error" and m.get("table") == table)
            or (m["type"] == "table" and m["table"] == table and m["view"] is not None)
        ),
        start=n,
    )


async def leave(c: Client, table: int) -> None:
    await c.send({"type": "leave", "table": table})
    await c.send({"type": "ping"})
    await c.wait(lambda m: m["type"] == "pong")


async def eventually(what: Callable[[], Awaitable[bool]], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not await what():
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.05)


async def rows(live: Live) -> list[WalletTransfer]:
    async with live.server.db.session() as db:
        return list((await db.scalars(select(WalletTransfer).order_by(WalletTransfer.id))).all())


async def settled(live: Live) -> bool:
    """Nothing owed to or in doubt with the wallet any more (the outbox is empty)."""
    async with live.server.db.session() as db:
        return not await transfers.outbox(db)


async def conserved(live: Live, wallet: DemoWallet) -> None:
    """No cent lost or created on either side: what the wallet holds plus what our ledger
    holds for it (session credits, credits in transit, the house's winnings) is what its
    players started with; and ``mazziere ledger check`` passes."""
    async with live.server.db.session() as db:
        books = {b.book: int(b.balance) for b in (await db.scalars(select(Balance))).all()}
    ours = sum(v for b, v in books.items() if b.startswith("casino:"))
    ours += books.get(transfers.TRANSIT, 0) + books.get("house", 0)
    assert books.get("mint", 0) == 0  # no demo credit with the operator's wallet
    assert wallet.total() + ours == wallet.players() * OPENING
    assert -books.get(transfers.OPERATOR, 0) == ours
    await ledger_ok(live)
