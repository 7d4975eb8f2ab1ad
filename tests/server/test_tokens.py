"""Tokens expire (idle and absolute lifetimes); logout revokes the token and
closes every socket opened with it; a second login ends the first login's session the same way;
a revoked or expired token is refused everywhere, also by a socket already open; the token
never travels in the WebSocket URL."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import select

from mazziere.server.hub import Close
from mazziere.server.store.models import AuthToken

from .live import Client, Live, live_server


async def _closed(c: Client, timeout: float = 10) -> tuple[int, str]:
    assert c.reader is not None
    await asyncio.wait_for(c.reader, timeout)
    assert c.closed is not None
    return c.closed


async def _refused_everywhere(live: Live, token: str, code: str) -> None:
    r = await live.http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 401 and r.json()["code"] == code, r.text
    s = await live.open_socket()
    await s.send({"type": "auth", "token": token})
    err = await s.wait(lambda m: m["type"] == "error")
    assert err["code"] == code
    assert (await _closed(s))[0] == Close.UNAUTHORIZED


async def test_logout_revokes_the_token_and_closes_its_sockets(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("karla")
        c = await live.connect(a["token"])
        r = await live.post("/api/logout", a["token"])
        assert r.status_code == 200
        note = await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "logged_out")
        assert "logged out" in note["message"]
        code, reason = await _closed(c)
        assert code == Close.LOGGED_OUT and reason
        await _refused_everywhere(live, a["token"], "bad_token")
        async with live.server.db.session() as db:
            row = (await db.scalars(select(AuthToken))).one()
        assert row.revoked_at is not None and row.revoked_reason == "logout"


async def test_second_login_revokes_the_first_and_closes_its_sockets(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        first = await live.signup("lara")
        c = await live.connect(first["token"])
        r = await live.http.post(
            "/api/login", json={"username": "lara", "password": "correct horse"}
        )
        assert r.status_code == 200
        second = r.json()["token"]
        note = await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "replaced")
        assert "logged in elsewhere" in note["message"]
        assert (await _closed(c))[0] == Close.REPLACED
        await _refused_everywhere(live, first["token"], "bad_token")
        c2 = await live.connect(second)  # the new login works
        assert (await live.get("/api/me", second))["username"] == "lara"
        await c2.close()


async def test_idle_token_expires_everywhere_including_an_open_socket(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, token_idle_seconds=1.5) as live:
        a = await live.signup("mara")
        c = await live.connect(a["token"])
        note = await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "expired", 10)
        assert "expired" in note["message"]
        assert (await _closed(c))[0] == Close.EXPIRED
        await _refused_everywhere(live, a["token"], "token_expired")


async def test_use_extends_the_idle_lifetime_but_not_the_absolute_one(
    db_url: str, tmp_path: Path
) -> None:
    settings = {"token_idle_seconds": 1.2, "token_absolute_seconds": 3.0, "token_touch_seconds": 0}
    async with live_server(db_url, tmp_path, **settings) as live:
        a = await live.signup("nadia")
        for _ in range(4):  # used every 0.6 s: alive past the idle lifetime
            await asyncio.sleep(0.6)
            assert (await live.get("/api/me", a["token"]))["username"] == "nadia"
        await asyncio.sleep(0.8)  # now past the absolute lifetime (3 s)
        r = await live.http.get("/api/me", headers={"Authorization": f"Bearer {a['token']}"})
        assert r.status_code == 401 and r.json()["code"] == "token_expired"


async def test_token_in_the_url_is_refused(db_url: str, tmp_path: Path) -> None:
    import websockets

    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("olga")
        ws = await websockets.connect(f"{live.ws_base}/ws?token={a['token']}")
        c = Client(ws)
        c.reader = asyncio.create_task(c._read())
        err = await c.wait(lambda m: m["type"] == "error")
        assert err["code"] == "token_in_url"
        assert (await _closed(c))[0] == Close.UNAUTHORIZED


async def test_first_message_must_be_auth(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        s = await live.open_socket()
        await s.send({"type": "ping"})
        err = await s.wait(lambda m: m["type"] == "error")
        assert err["code"] == "not_logged_in"
        assert (await _closed(s))[0] == Close.UNAUTHORIZED
