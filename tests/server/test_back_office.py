"""The back office's gate (docs/operators.md): every ``/api/admin`` route checks a permission
of the one table of roles on the server, so a player's token gets 403 on each of them (the
routes are read from the application, so none can escape), no token gets 401, and each role
is told its permissions; the ORM models and the migrations describe the same schema."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute

from mazziere.server import roles
from mazziere.server.app import create_app
from mazziere.server.context import Server, Settings
from mazziere.server.store import staff

from .live import Live, live_server

CHEAP = {"argon2_time_cost": 1, "argon2_memory_kib": 8192}


def _walk(routes: list[Any], prefix: str = "") -> list[tuple[str, str]]:
    """Every (method, path) of ``routes``, into included routers (whatever their wrapping)."""
    found = []
    for route in routes:
        if isinstance(route, APIRoute):
            found += [(m, prefix + route.path) for m in sorted(route.methods)]
        inner = getattr(route, "original_router", None)
        if inner is not None:
            context = getattr(route, "include_context", None)
            found += _walk(inner.routes, prefix + getattr(context, "prefix", ""))
    return found


def admin_routes() -> list[tuple[str, str]]:
    """Every (method, path) of the application under ``/api/admin``: its routes walked, and
    its OpenAPI description, together (a route hidden from either is still found)."""
    app = create_app(srv=Server(Settings(settle_heap=False)))
    found = set(_walk(app.routes))
    for path, methods in app.openapi()["paths"].items():
        found |= {(m.upper(), path) for m in methods}
    return sorted((m, p) for m, p in found if p.startswith("/api/admin"))


def filled(path: str) -> str:
    """A path with each of its parameters given an id."""
    return re.sub(r"\{[^}]+\}", "1", path)


async def make_staff(live: Live, name: str, role: str) -> str:
    """Sign ``name`` up, give it ``role`` and return its token."""
    token = str((await live.signup(name))["token"])
    async with live.server.db.write() as db:
        await staff.set_role(db, await staff.by_name(db, name), role)
    return token


async def call(live: Live, method: str, path: str, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {} if method in ("POST", "PUT", "PATCH") else None
    return await live.http.request(method, path, json=body, headers=headers)


def test_the_admin_routes_are_found() -> None:
    assert ("GET", "/api/admin/me") in admin_routes()


async def test_every_admin_route_refuses_a_player(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        token = str((await live.signup("giocatore"))["token"])
        for method, path in admin_routes():
            r = await call(live, method, filled(path), token)
            assert r.status_code == 403, (method, path, r.text)
            assert r.json()["code"] == "forbidden"
            r = await call(live, method, filled(path), None)
            assert r.status_code == 401, (method, path, r.text)


@pytest.mark.parametrize("role", roles.STAFF)
async def test_admin_me_tells_each_role_its_permissions(
    role: str, db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        token = await make_staff(live, "staffer", role)
        me = await live.get("/api/admin/me", token)
        assert me["username"] == "staffer" and me["role"] == role
        assert me["permissions"] == [p for p, who in roles.WHO_MAY.items() if role in who]
        assert "players.read" in me["permissions"]
        assert ("audit.read" in me["permissions"]) == (role in ("auditor", "admin"))
        assert ("roles.set" in me["permissions"]) == (role == "admin")


def test_a_player_holds_no_permission() -> None:
    assert roles.PERMISSIONS["player"] == ()
    with pytest.raises(roles.UnknownRole):
        roles.check_role("root")


async def test_the_models_and_the_migrations_agree(database: Any) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from mazziere.server.store.models import Base

    def diff(conn: Any) -> list[Any]:
        return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))

    async with database.engine.connect() as conn:
        assert await conn.run_sync(diff) == []


async def test_a_back_office_login_has_the_shorter_idle_limit(db_url: str, tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from mazziere.server.store.models import AuthToken

    async with live_server(db_url, tmp_path, admin_idle_minutes=15, **CHEAP) as live:
        await make_staff(live, "capo", "operator")
        player = str((await live.signup("giocatore"))["token"])
        r = await live.http.post(
            "/api/login", json={"username": "capo", "password": "correct horse"}
        )
        boss = str(r.json()["token"])
        assert (await live.get("/api/admin/me", boss))["idle_minutes"] == 15
        async with live.server.db.write() as db:  # both unused for 20 minutes
            quiet = datetime.now(UTC) - timedelta(minutes=20)
            await db.execute(update(AuthToken).values(created_at=quiet, last_used_at=quiet))
        assert (await live.get("/api/me", player))["username"] == "giocatore"
        r = await live.http.get("/api/admin/me", headers={"Authorization": f"Bearer {boss}"})
        assert r.status_code == 401 and r.json()["code"] == "token_expired"


async def test_every_admin_route_answers_an_id_no_row_can_have_404(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        token = await make_staff(live, "capo", "admin")
        for method, path in admin_routes():
            if "{" not in path or path.startswith("/api/admin/rtp"):
                continue
            r = await call(live, method, re.sub(r"\{[^}]+\}", str(2**40), path), token)
            assert (r.status_code, r.json()["code"]) == (404, "not_found"), (method, path, r.text)
