"""The transfer wallet from the command line (docs/wallet.md): ``mazziere wallet-demo`` and
``mazziere serve --wallet transfer`` as an operator starts them, the secret read from a file; a
casino session's money goes there and back, then ``mazziere ledger check`` and ``mazziere wallet
reconcile`` agree."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from mazziere.server.wallet.contract import WALLET_SECRET_ENV

OPENING = 50_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(cmd: list[str], port: int, path: str, log: Path) -> Iterator[str]:
    """``mazziere CMD`` in its own process until it answers ``path`` on ``port``."""
    env = {k: v for k, v in os.environ.items() if k != WALLET_SECRET_ENV}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mazziere", *cmd], stdout=out, stderr=out, env=env
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            try:  # the reference wallet answers an unsigned call (401); /health, 200 once ready
                r = httpx.request(
                    "POST" if path.startswith("/v1") else "GET", base + path, timeout=1
                )
                if path.startswith("/v1") or r.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(30)


def mazziere(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mazziere", *args], capture_output=True, text=True, timeout=120
    )


def test_serve_on_the_reference_wallet_from_the_command_line(db_url: str, tmp_path: Path) -> None:
    secret = tmp_path / "wallet.secret"
    secret.write_text("a secret only these two processes know\n")
    wallet_port, port = free_port(), free_port()
    demo = ["wallet-demo", "--port", str(wallet_port), "--state", str(tmp_path / "w.sqlite3")]
    demo += ["--secret-file", str(secret), "--opening-balance", str(OPENING)]
    where = ["--data", str(tmp_path)]
    if not db_url.startswith("sqlite"):
        where += ["--database-url", db_url]
    serve = ["serve", "--port", str(port), *where, "--wallet", "transfer"]
    serve += [
        "--wallet-url",
        f"http://127.0.0.1:{wallet_port}",
        "--wallet-secret-file",
        str(secret),
    ]
    serve += ["--argon2-time-cost", "1", "--argon2-memory-kib", "8192"]
    with (
        running(demo, wallet_port, "/v1/balance", tmp_path / "wallet.log"),
        running(serve, port, "/health", tmp_path / "server.log") as base,
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        acc = http.post("/api/signup", json={"username": "gino", "password": "correct horse"})
        token = acc.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert http.get("/api/me", headers=auth).json()["balance"] == OPENING
        table = http.post("/api/tables", json={"game": "casino"}, headers=auth).json()["id"]
        assert http.post(f"/api/tables/{table}/join", json={}, headers=auth).status_code == 200
        r = http.post(f"/api/tables/{table}/topup", json={"amount": 1_700}, headers=auth)
        assert r.status_code == 200, r.text
        assert http.get("/api/wallet", headers=auth).json()["balance"] == OPENING - 1_700
        assert http.post(f"/api/tables/{table}/leave", json={}, headers=auth).status_code == 200
        deadline = time.monotonic() + 60
        while http.get("/api/me", headers=auth).json()["balance"] != OPENING:
            assert time.monotonic() < deadline, "the credit did not arrive"
            time.sleep(0.2)
    check = mazziere("ledger", "check", *where)
    assert check.returncode == 0 and "ledger: OK" in check.stdout, check.stdout + check.stderr
    listed = mazziere("wallet", "reconcile", *where, "--csv")
    assert listed.returncode == 0, listed.stderr
    moves = [line.split(",") for line in listed.stdout.splitlines()[1:]]
    assert [(m[5], m[6], m[7]) for m in moves] == [
        ("debit", "1700", "confirmed"),
        ("credit", "1700", "confirmed"),
    ]
