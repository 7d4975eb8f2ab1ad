"""The audit log (docs/operators.md): every sign-up and login, let in or refused, is a line
(who, when, from where, on what); auditors and admins page it newest first and download it as
CSV; the database refuses to change or delete a line, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from mazziere.server.store import audit
from mazziere.server.store.audit import Actor

from .live import live_server
from .test_back_office import CHEAP, make_staff


async def test_the_audit_log_refuses_update_and_delete(database: Any) -> None:
    async with database.write() as db:
        await audit.record(db, Actor(None, "cli:root", "command line"), "role_set", "account:1")
    for statement in (
        "UPDATE audit_log SET action = 'nothing'",
        "UPDATE audit_log SET after = NULL WHERE id = 1",
        "DELETE FROM audit_log",
        "DELETE FROM audit_log WHERE id = 1",
    ):
        with pytest.raises(DBAPIError, match="append-only"):
            async with database.write() as db:
                await db.execute(text(statement))
    if not database.is_sqlite:
        with pytest.raises(DBAPIError, match="append-only"):
            async with database.write() as db:
                await db.execute(text("TRUNCATE audit_log"))
    async with database.session() as db:
        rows = await audit.entries(db)
    assert [(e.action, e.target, e.actor) for e in rows] == [("role_set", "account:1", "cli:root")]


async def test_logins_let_in_and_refused_are_in_the_audit_log(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        player = (await live.signup("giulia"))["account"]
        boss = await make_staff(live, "revisore", "auditor")
        for name, password in (("giulia", "wrong password 1"), ("nessuno", "whatever 123")):
            r = await live.http.post("/api/login", json={"username": name, "password": password})
            assert r.status_code == 401
        r = await live.http.post(
            "/api/login", json={"username": "giulia", "password": "correct horse"}
        )
        assert r.status_code == 200
        page = await live.get("/api/admin/audit?limit=3", boss)
        lines = [(e["action"], e["target"], e["actor"], e["after"]) for e in page["entries"]]
        assert lines == [
            ("login", f"account:{player}", "giulia", None),
            ("login_refused", "username:nessuno", "nessuno", {"code": "bad_credentials"}),
            ("login_refused", f"account:{player}", "giulia", {"code": "bad_credentials"}),
        ]
        assert all(e["address"] == "127.0.0.1" and e["at"] for e in page["entries"])
        first = await live.get("/api/admin/audit?limit=2", boss)
        assert first["entries"] == page["entries"][:2]
        older = await live.get(f"/api/admin/audit?limit=2&before={first['next']}", boss)
        assert older["entries"][0] == page["entries"][2]
        mine = await live.get(f"/api/admin/audit?target=account:{player}", boss)
        assert [e["action"] for e in mine["entries"]] == ["login", "login_refused", "signup"]
        assert mine["next"] is None


async def test_the_audit_log_downloads_as_csv(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "capo", "admin")
        await live.http.post("/api/login", json={"username": "capo", "password": "nope nope 1"})
        r = await live.http.get(
            "/api/admin/audit?format=csv", headers={"Authorization": f"Bearer {boss}"}
        )
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        assert "attachment" in r.headers["content-disposition"]
        rows = list(csv.DictReader(io.StringIO(r.text)))
        assert rows[0]["action"] == "login_refused" and rows[0]["actor"] == "capo"
        assert rows[0]["after"] == '{"code": "bad_credentials"}'


@pytest.mark.parametrize("role", ["support", "operator"])
async def test_only_auditors_and_admins_read_the_audit_log(
    role: str, db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        token = await make_staff(live, "ufficio", role)
        r = await live.http.get("/api/admin/audit", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 403 and r.json()["code"] == "forbidden"


@pytest.mark.parametrize(
    "query",
    [
        "limit=0",
        "limit=201",
        "format=csv&limit=10001",
        "before=0",
        "before=x",
        "format=xml",
        "limit=1.5",
    ],
)
async def test_bad_audit_queries_are_malformed(query: str, db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        token = await make_staff(live, "capo", "admin")
        r = await live.http.get(
            f"/api/admin/audit?{query}", headers={"Authorization": f"Bearer {token}"}
        )
        assert r.status_code == 422 and r.json()["code"] == "malformed", query
