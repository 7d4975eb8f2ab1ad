"""``mazziere wallet-demo``: a small reference transfer wallet (docs/wallet.md), implementing
the contract exactly, for trying the transfer wallet and for testing the server against it
over real HTTP. Starlette on uvicorn; its state (balances, every request's first answer, the
nonces seen) lives in a SQLite file, so it survives a restart.

A player it has not seen yet starts with ``opening_balance`` cents. Faults on demand
(:class:`Faults`): answer slowly, fail a share of calls, or lose each movement's first
answer so that the caller's retry is answered twice."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mazziere.server.wallet import contract as C

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (player TEXT PRIMARY KEY, balance INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS requests (
    request_id TEXT PRIMARY KEY, path TEXT NOT NULL, body_sha TEXT, status INTEGER NOT NULL,
    answer TEXT NOT NULL, player TEXT, amount INTEGER, applied INTEGER NOT NULL DEFAULT 0,
    cancelled INTEGER NOT NULL DEFAULT 0, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, at REAL NOT NULL);
"""


@dataclass
class Faults:
    """What the demo wallet does wrong, on purpose (changeable while it runs)."""

    slow_seconds: float = 0.0
    """Wait this long before answering (after the call is applied)."""
    slow_first_only: bool = False
    """Only a request id's first call is slow (its retry is answered at once)."""
    fail_share: float = 0.0
    """This share of calls is answered 503 ``unavailable``, nothing applied."""
    answer_twice: bool = False
    """A movement's first call is applied but its answer is lost (a 502 that does not
    verify), so the caller's retry gets the first answer again."""


@dataclass
class DemoWallet:
    """The reference wallet's state and behaviour, over a SQLite file."""

    path: Path
    secret: bytes
    opening_balance: int = 100_000
    faults: Faults = field(default_factory=Faults)
    skew: float = C.MAX_SKEW_SECONDS

    def __post_init__(self) -> None:
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.executescript(SCHEMA)
        self.lock = asyncio.Lock()
        self.calls: Counter[str] = Counter()
        """Verified calls received, by request id (since this object was made)."""

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ state
    def balance_of(self, player: str) -> int:
        row = self.db.execute("SELECT balance FROM players WHERE player = ?", (player,)).fetchone()
        return int(row[0]) if row else self.opening_balance

    def total(self) -> int:
        """Every player's balance summed (what the wallet holds)."""
        return int(self.db.execute("SELECT COALESCE(SUM(balance), 0) FROM players").fetchone()[0])

    def players(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM players").fetchone()[0])

    def _player(self, player: str) -> int:
        self.db.execute(
            "INSERT OR IGNORE INTO players VALUES (?, ?)", (player, self.opening_balance)
        )
        return self.balance_of(player)

    # ------------------------------------------------------------------ HTTP
    def app(self) -> Starlette:
        return Starlette(routes=[Route(p, self.endpoint, methods=["POST"]) for p in C.PATHS])

    def _answer(
        self, status: int, path: str, rid: str, data: dict[str, Any], signed: bool = True
    ) -> Response:
        body = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
        headers = C.answer_headers(self.secret, status, path, rid, body, time.time())
        if not signed:
            headers[C.SIGNATURE] = "0" * 64
        return Response(body, status, headers=headers, media_type="application/json")

    def _error(self, status: int, path: str, rid: str, code: str, message: str) -> Response:
        return self._answer(
            status, path, rid, {"status": "error", "code": code, "message": message}
        )

    async def endpoint(self, request: Request) -> Response:
        path = request.url.path
        h = request.headers
        rid, ts = h.get(C.REQUEST_ID, ""), h.get(C.TIMESTAMP, "")
        nonce, sig = h.get(C.NONCE, ""), h.get(C.SIGNATURE, "")
        raw = await request.body()
        canonical = C.request_string(request.method, path, rid, ts, nonce, raw)
        if not (rid and nonce and C.verify(self.secret, canonical, sig)):
            return self._error(401, path, rid, C.BAD_SIGNATURE, "the signature does not verify")
        now = time.time()
        if not C.fresh(ts, now, self.skew):
            return self._error(401, path, rid, C.STALE, "the timestamp is stale")
        self.calls[rid] += 1
        async with self.lock:
            self.db.execute("DELETE FROM nonces WHERE at < ?", (now - 2 * self.skew,))
            seen = self.db.execute("SELECT 1 FROM nonces WHERE nonce = ?", (nonce,)).fetchone()
            if seen:
                return self._error(409, path, rid, C.REPLAYED, "this message was seen before")
            self.db.execute("INSERT INTO nonces VALUES (?, ?)", (nonce, now))
            try:
                body = json.loads(raw)
                if not isinstance(body, dict) or not isinstance(body.get("player"), str):
                    raise ValueError("player")
            except ValueError:
                return self._error(400, path, rid, C.MALFORMED, "a JSON object with a player")
            if random.random() < self.faults.fail_share:
                return self._error(503, path, rid, C.UNAVAILABLE, "try again later")
            first = not self.db.execute(
                "SELECT 1 FROM requests WHERE request_id = ?", (rid,)
            ).fetchone()
            status, data = self._handle(path, rid, body, hashlib.sha256(raw).hexdigest())
        if self.faults.slow_seconds and (first or not self.faults.slow_first_only):
            await asyncio.sleep(self.faults.slow_seconds)
        if first and self.faults.answer_twice and path in C.MOVES:
            return self._answer(502, path, rid, {"status": "error", "code": "lost"}, signed=False)
        return self._answer(status, path, rid, data)

    def _handle(
        self, path: str, rid: str, body: dict[str, Any], sha: str
    ) -> tuple[int, dict[str, Any]]:
        """Apply a verified call (once per request id) and return its answer."""
        player = body["player"]
        if path == C.BALANCE:
            return 200, {"status": "ok", "balance": self._player(player)}
        row = self.db.execute(
            "SELECT path, body_sha, status, answer FROM requests WHERE request_id = ?", (rid,)
        ).fetchone()
        if row is not None:
            if row[1] is not None and (row[0], row[1]) != (path, sha):
                return 409, {
                    "status": "error",
                    "code": C.REQUEST_ID_REUSED,
                    "message": "this request id was used for another call",
                }
            return int(row[2]), json.loads(row[3])
        amount = body.get("amount")
        if path != C.CANCEL and (not isinstance(amount, int) or amount <= 0):
            return 400, {"status": "error", "code": C.MALFORMED, "message": "amount in cents"}
        self.db.execute("BEGIN IMMEDIATE")
        try:
            status, data, applied = self._apply(path, rid, player, body)
            self.db.execute(
                "INSERT INTO requests VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (rid, path, sha, status, json.dumps(data), player, amount, applied, time.time()),
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return status, data

    def _apply(
        self, path: str, rid: str, player: str, body: dict[str, Any]
    ) -> tuple[int, dict[str, Any], int]:
        balance = self._player(player)
        ref = f"w-{rid[:12]}"
        if path == C.CANCEL:
            return self._cancel(str(body.get("refers_to", "")), player, ref)
        amount = int(body["amount"])
        if path == C.DEBIT and balance < amount:
            error = {"status": "error", "code": C.INSUFFICIENT_FUNDS, "message": "not enough"}
            return 409, error, 0
        delta = -amount if path == C.DEBIT else amount
        self.db.execute(
            "UPDATE players SET balance = balance + ? WHERE player = ?", (delta, player)
        )
        return 200, {"status": "ok", "reference": ref, "balance": balance + delta}, 1

    def _cancel(self, target: str, player: str, ref: str) -> tuple[int, dict[str, Any], int]:
        """Undo debit ``target``: refunded if it applied, else it never will (a tombstone
        answers it ``cancelled``)."""
        row = self.db.execute(
            "SELECT path, applied, cancelled, amount, player FROM requests WHERE request_id = ?",
            (target,),
        ).fetchone()
        refunded = 0
        if row is None:
            tomb = {"status": "error", "code": C.CANCELLED, "message": "cancelled before it came"}
            self.db.execute(
                "INSERT INTO requests VALUES (?, ?, NULL, 409, ?, ?, 0, 0, 1, ?)",
                (target, C.DEBIT, json.dumps(tomb), player, time.time()),
            )
        elif row[0] == C.DEBIT and row[1] and not row[2]:
            refunded = int(row[3])
            self.db.execute(
                "UPDATE players SET balance = balance + ? WHERE player = ?", (refunded, row[4])
            )
            self.db.execute("UPDATE requests SET cancelled = 1 WHERE request_id = ?", (target,))
        data = {"status": "ok", "reference": ref, "refunded": refunded}
        return 200, data, 0
