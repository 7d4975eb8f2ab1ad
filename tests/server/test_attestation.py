"""Attested software (docs/security.md "Attested software"): the manifest of the package's
files finds a changed, missing or added file; the server records the manifest at its first
start, checks its files at start and every ``attest_seconds``, and while they differ from the
accepted manifest refuses money tables (a new casino table, a top-up, a stake) with a typed
error and a logged problem, while tables without money open and play."""

from __future__ import annotations

import hashlib
import logging
import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from mazziere import attest
from mazziere.cli import app
from mazziere.server.clock import ManualClock
from mazziere.server.store import manifests
from mazziere.server.store.models import SoftwareManifest

from .live import Live, live_server
from .test_live_games import ledger_ok


def package_copy(tmp_path: Path) -> Path:
    root = tmp_path / "site" / "mazziere"
    shutil.copytree(attest.PACKAGE_DIR, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_manifest_lists_every_file_and_finds_a_changed_missing_or_added_one(
    tmp_path: Path,
) -> None:
    root = package_copy(tmp_path)
    before = attest.build(root)
    paths = [p for p, _ in before.files]
    assert paths == sorted(paths)
    for must in ("game.py", "verify.py", "server/app.py", "server/web/index.html"):
        assert must in paths
    assert any(p.startswith("server/web/js/") for p in paths)
    assert not any("__pycache__" in p or p.endswith(".pyc") for p in paths)
    # sha256sum's own format, and the whole is the hash of those lines
    line = next(x for x in before.text().splitlines() if x.endswith("  game.py"))
    digest, path = line.split("  ", 1)
    assert digest == hashlib.sha256((root / path).resolve().read_bytes()).hexdigest()
    assert before.sha256 == hashlib.sha256(before.text().encode()).hexdigest()

    (root / "uno" / "scoring.py").write_text((root / "uno" / "scoring.py").read_text() + "# \n")
    (root / "poker" / "presets.py").unlink()
    (root / "server" / "web" / "js" / "extra.js").write_text("export {};\n")
    after = attest.build(root)
    assert after.sha256 != before.sha256
    assert [(d.path, d.kind) for d in before.differences(after)] == [
        ("poker/presets.py", "missing"),
        ("server/web/js/extra.js", "added"),
        ("uno/scoring.py", "changed"),
    ]
    assert attest.Manifest.from_json(before.to_json()) == before


async def _altered(live: Live) -> str:
    """Accept a manifest with one altered hash (the installed files are left as they are):
    to the server, one of its files now differs from the accepted manifest."""
    current = attest.build()
    path, digest = next(f for f in current.files if f[0] == "casino/rules.py")
    files = tuple((p, "0" * 64 if p == path else d) for p, d in current.files)
    async with live.server.db.write() as db:
        await manifests.record(db, attest.Manifest(files), "test")
    return path


async def test_money_tables_are_refused_while_the_files_differ_and_clean_ones_open(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    async with live_server(db_url, tmp_path, clock=clock, attest_seconds=60.0) as live:
        async with live.server.db.session() as db:
            (first,) = (await db.scalars(select(SoftwareManifest))).all()
        assert first.recorded_by.startswith("first start")
        got = (await live.http.get("/api/attest")).json()
        assert got["status"] == "ok" and got["accepted"]["sha256"] == first.sha256
        assert got["sha256"] == first.sha256 and got["count"] == len(got["files"])

        a = await live.signup("nina")
        token = a["token"]
        r = await live.post("/api/tables", token, {"game": "casino"})
        assert r.status_code == 200
        casino = r.json()["id"]
        c = await live.connect(token)
        await c.send({"type": "join", "table": casino})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == casino)

        path = await _altered(live)
        with caplog.at_level(logging.ERROR, logger="mazziere.server.attestation"):
            clock.advance(60.0)  # the periodic check
            await live.server.idle()
        assert any(path in r.getMessage() for r in caplog.records), caplog.text
        got = (await live.http.get("/api/attest")).json()
        assert got["status"] == "differs"
        assert got["differences"] == [{"path": path, "kind": "changed"}]

        # a new money table, and a top-up (opening a session), are refused
        r = await live.post("/api/tables", token, {"game": "casino"})
        assert r.status_code == 503 and r.json()["code"] == "software_unattested"
        n = len(c.messages)
        await c.send({"type": "topup", "table": casino, "amount": 1_000})
        err = await c.wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "software_unattested"
        me = await live.get("/api/me", token)
        # tables without money open and play
        r = await live.post("/api/tables", token, {"game": "uno", "seats": 2})
        assert r.status_code == 200
        uno = r.json()["id"]
        await c.send({"type": "join", "table": uno})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == uno)
        await c.send({"type": "start", "table": uno})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == uno and m["view"])
        r = await live.post("/api/tables", token, {"game": "poker"})
        assert r.status_code == 200

        # the install accepted again (mazziere attest --record does this): money opens
        async with live.server.db.write() as db:
            await manifests.record(db, attest.build(), "mazziere attest --record")
        await live.server.attestation.check(live.server)
        assert (await live.http.get("/api/attest")).json()["status"] == "ok"
        n = len(c.messages)
        await c.send({"type": "topup", "table": casino, "amount": 1_000})
        upd = await c.wait(
            lambda m: m["type"] == "table" and m["table"] == casino and m["view"] is not None,
            start=n,
        )
        assert upd["view"]["credit"] == 1_000
        assert (await live.get("/api/me", token))["balance"] == me["balance"] - 1_000
        await c.close()
        await ledger_ok(live)


async def test_a_stake_is_refused_while_the_files_differ(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("otto")
        table = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
        await c.send({"type": "topup", "table": table, "amount": 5_000})
        upd = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit"))
        await _altered(live)
        await live.server.attestation.check(live.server)
        n = len(c.messages)
        await c.send({"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500})
        err = await c.wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "software_unattested"
        async with live.server.db.session() as db:
            accepted = await db.scalar(select(func.count()).select_from(SoftwareManifest))
        assert accepted == 2  # the first start's, and the one altered
        # the session still closes, paying the credit back
        await c.send({"type": "leave", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["seat"] is None)
        assert (await live.get("/api/me", a["token"]))["balance"] == 100_000
        await c.close()
        await ledger_ok(live)


def test_mazziere_attest_prints_records_and_checks_the_manifest(tmp_path: Path) -> None:
    run = CliRunner()
    out = run.invoke(app, ["attest"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    body, last = lines[:-1], lines[-1]
    assert last.startswith("# ") and "the whole" in last
    whole = last.split()[1]
    assert whole == hashlib.sha256(("\n".join(body) + "\n").encode()).hexdigest()
    assert all(len(x.split("  ", 1)[0]) == 64 for x in body)

    data = tmp_path / "data"
    data.mkdir()
    out = run.invoke(app, ["attest", "--check", "--data", str(data)])
    assert out.exit_code == 2  # no database yet
    out = run.invoke(app, ["attest", "--record", "--data", str(data)])
    assert out.exit_code == 0 and "recorded" in out.output
    out = run.invoke(app, ["attest", "--check", "--data", str(data)])
    assert out.exit_code == 0 and "attest: OK" in out.output
