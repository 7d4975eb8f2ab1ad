"""``mazziere admin create-user`` and ``set-role`` (docs/operators.md): the first admin comes
from the command line, with no default password (asked twice, or read from standard input),
on SQLite (``--data``) and PostgreSQL (``--database-url``); it logs in to the back office;
each change is in the audit log; a weak password, an unknown role or name is one line and
exit 1."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import select
from typer.testing import CliRunner

from mazziere.cli import app
from mazziere.server.store.db import Database
from mazziere.server.store.models import Account, AuditEntry

from .live import live_server

runner = CliRunner()
PASSWORD = "quercia-Bianca-1987"


def admin(db_url: str, *args: str, stdin: str = f"{PASSWORD}\n") -> tuple[int, str]:
    r = runner.invoke(app, ["admin", *args, "--database-url", db_url], input=stdin)
    return r.exit_code, r.output


def rows(db_url: str) -> tuple[list[Account], list[AuditEntry]]:
    async def read() -> tuple[list[Account], list[AuditEntry]]:
        db = Database(db_url)
        try:
            async with db.session() as s:
                accs = list((await s.scalars(select(Account).order_by(Account.id))).all())
                log = list((await s.scalars(select(AuditEntry).order_by(AuditEntry.id))).all())
                return accs, log
        finally:
            await db.close()

    return asyncio.run(read())


def test_create_user_makes_an_admin_who_logs_in_to_the_back_office(
    db_url: str, tmp_path: Path
) -> None:
    code, out = admin(db_url, "create-user", "capo", "--role", "admin", "--password-stdin")
    assert code == 0, out
    assert "created capo" in out and "admin" in out

    async def log_in() -> dict[str, object]:
        async with live_server(db_url, tmp_path, argon2_time_cost=1) as live:
            r = await live.http.post("/api/login", json={"username": "capo", "password": PASSWORD})
            assert r.status_code == 200, r.text
            me: dict[str, object] = await live.get("/api/admin/me", r.json()["token"])
            return me

    me = asyncio.run(log_in())
    assert me["role"] == "admin" and "roles.set" in me["permissions"]  # type: ignore[operator]
    accs, log = rows(db_url)
    assert [(a.username, a.role) for a in accs] == [("capo", "admin")]
    created = log[0]
    assert (created.action, created.target, created.actor_id) == (
        "account_created",
        f"account:{accs[0].id}",
        None,
    )
    assert created.actor.startswith("cli:") and created.address == "command line"
    assert created.after == {"username": "capo", "role": "admin"}
    assert [e.action for e in log][-1] == "login"


def test_the_password_is_asked_twice_and_must_match(db_url: str) -> None:
    code, out = admin(db_url, "create-user", "capo", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    assert code == 0, out
    code, out = admin(db_url, "create-user", "vice", stdin=f"{PASSWORD}\nanother-Pass-1987\n" * 3)
    assert code != 0
    assert [a.username for a in rows(db_url)[0]] == ["capo"]


def test_set_role_changes_the_role_and_is_audited(db_url: str) -> None:
    assert admin(db_url, "create-user", "ufficio", "--role", "support", "--password-stdin")[0] == 0
    code, out = admin(db_url, "set-role", "ufficio", "operator")
    assert code == 0 and "support -> operator" in out
    accs, log = rows(db_url)
    assert accs[0].role == "operator"
    assert (log[-1].action, log[-1].before, log[-1].after) == (
        "role_set",
        {"role": "support"},
        {"role": "operator"},
    )


def test_refusals_are_one_line_and_change_nothing(db_url: str) -> None:
    code, out = admin(db_url, "create-user", "capo", "--password-stdin", stdin="short\n")
    assert code == 1 and "10-256 characters" in out
    code, out = admin(db_url, "create-user", "capo", "--role", "root", "--password-stdin")
    assert code == 1 and "unknown role 'root'" in out
    code, out = admin(db_url, "set-role", "nessuno", "admin")
    assert code == 1 and "no account is named 'nessuno'" in out
    assert admin(db_url, "create-user", "capo", "--password-stdin")[0] == 0
    code, out = admin(db_url, "create-user", "capo", "--password-stdin")
    assert code == 1 and "taken" in out
    code, out = admin(db_url, "set-role", "capo", "root")
    assert code == 1 and "unknown role" in out
    accs, log = rows(db_url)
    assert [(a.username, a.role) for a in accs] == [("capo", "admin")]
    assert [e.action for e in log] == ["account_created"]
