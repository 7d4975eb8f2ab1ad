"""The external exclusion register (docs/operators.md "External exclusion register"), against
a small real HTTP register started by the test, on SQLite and PostgreSQL: a login the register
clears plays for money; one it lists as excluded is refused with the end date (a sign-up
too, before the account exists); one it cannot answer (an error, a malformed answer, no answer
within the time-out) is let in but refused real-money play, top-ups and stakes, until a later
login gets a clear answer. The ledger balances."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from .live import Client, Live, live_server
from .test_back_office import CHEAP, make_staff
from .test_live_games import ledger_ok

UNTIL = "2027-03-01T00:00:00+00:00"
TIMEOUT = 0.5


class Register:
    """A register whose answer for each name is set by the test (``clear`` by default):
    ``clear``, ``excluded``, ``failing`` (HTTP 500), ``malformed`` (not the contract's
    object) or ``slow`` (answers after the server's time-out); it keeps every question."""

    def __init__(self) -> None:
        self.mode: dict[str, str] = {}
        self.asked: list[dict[str, str]] = []
        self.url = ""

    async def answer(self, request: Request) -> Response:
        q = dict(request.query_params)
        self.asked.append(q)
        mode = self.mode.get(q.get("username", ""), "clear")
        if mode == "failing":
            return PlainTextResponse("down for maintenance", status_code=500)
        if mode == "malformed":
            return JSONResponse({"excluded": "perhaps"})
        if mode == "slow":
            await asyncio.sleep(TIMEOUT * 4)
        if mode == "excluded":
            return JSONResponse({"excluded": True, "until": UNTIL})
        return JSONResponse({"excluded": False, "until": None})


@contextlib.asynccontextmanager
async def running(register: Register) -> AsyncIterator[Register]:
    """The register on a free port of this machine, for the test's length."""
    app = Starlette(routes=[Route("/check", register.answer)])
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    )
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    register.url = f"http://127.0.0.1:{port}/check"
    try:
        yield register
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


async def login(live: Live, name: str) -> Any:
    return await live.http.post("/api/login", json={"username": name, "password": "correct horse"})


async def at_casino(live: Live, token: str, table: int | None = None) -> tuple[Client, int]:
    """A socket seated at a casino table (a new one unless ``table``) and its state."""
    if table is None:
        table = (await live.post("/api/tables", token, {"game": "casino"})).json()["id"]
    c = await live.connect(token)
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
    return c, table


async def refused(c: Client, msg: dict[str, Any]) -> dict[str, Any]:
    start = len(c.messages)
    await c.send(msg)
    return await c.wait(lambda m: m["type"] == "error", start=start)


async def test_the_register_is_asked_at_login_and_gates_real_money_play(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        running(Register()) as reg,
        live_server(
            db_url,
            tmp_path,
            exclusion_register_url=reg.url,
            exclusion_register_timeout=TIMEOUT,
            **CHEAP,
        ) as live,
    ):
        boss = await make_staff(live, "sportello", "support")
        assert reg.asked == [{"username": "sportello"}]  # a sign-up: no account yet

        reg.mode["escluso"] = "excluded"
        r = await live.http.post(
            "/api/signup", json={"username": "escluso", "password": "correct horse"}
        )
        assert (r.status_code, r.json()["code"], r.json()["until"]) == (
            403,
            "register_excluded",
            UNTIL,
        )
        assert "2027-03-01" in r.json()["message"]
        assert (await live.get("/api/admin/players?q=escluso", boss))["players"] == []
        auditor = await make_staff(live, "revisore", "auditor")
        entries = (await live.get("/api/admin/audit", auditor))["entries"]
        lines = [(e["action"], e["after"]) for e in entries if e["target"] == "username:escluso"]
        assert lines == [("signup_refused", {"code": "register_excluded"})]

        acc = await live.signup("gino")
        player = acc["account"]
        r = await login(live, "gino")
        assert r.status_code == 200
        assert reg.asked[-1] == {"username": "gino", "account": str(player)}
        c, table = await at_casino(live, r.json()["token"])
        await c.send({"type": "topup", "table": table, "amount": 5_000})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 5_000)
        await c.close()

        for mode in ("failing", "malformed", "slow"):
            reg.mode["gino"] = mode
            started = asyncio.get_running_loop().time()
            r = await login(live, "gino")
            assert r.status_code == 200, (mode, r.text)  # let in
            took = asyncio.get_running_loop().time() - started
            assert took < TIMEOUT * 3, (mode, took)  # the slow register did not hold it up
            page = await live.get(f"/api/admin/players/{player}", boss)
            assert page["exclusion_register"]["answer"] == "unavailable", mode
            c, _ = await at_casino(live, r.json()["token"], table)
            upd = c.tables[table]
            assert upd["view"]["credit"] == 5_000
            err = await refused(c, {"type": "topup", "table": table, "amount": 1_000})
            assert err["code"] == "exclusion_register_unavailable", mode
            err = await refused(
                c, {"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500}
            )
            assert err["code"] == "exclusion_register_unavailable", mode
            assert c.tables[table]["view"]["credit"] == 5_000  # nothing moved
            await c.close()
        me = await live.get("/api/me", r.json()["token"])
        assert me["balance"] == 100_000 - 5_000

        reg.mode["gino"] = "clear"
        r = await login(live, "gino")
        c, _ = await at_casino(live, r.json()["token"], table)
        upd = c.tables[table]
        await c.send({"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("stake") == 500)
        await c.close()

        reg.mode["gino"] = "excluded"
        r = await login(live, "gino")
        assert (r.status_code, r.json()["code"], r.json()["until"]) == (
            403,
            "register_excluded",
            UNTIL,
        )
        logins = (await live.get(f"/api/admin/players/{player}/logins", boss))["logins"]
        assert logins[0]["ok"] is False
        page = await live.get(f"/api/admin/players/{player}", boss)
        assert page["exclusion_register"]["answer"] == "excluded"
        assert page["exclusion_register"]["until"] == UNTIL
        await ledger_ok(live)


async def test_without_a_register_nothing_is_asked_and_money_plays(
    db_url: str, tmp_path: Path
) -> None:
    async with running(Register()) as reg, live_server(db_url, tmp_path, **CHEAP) as live:
        acc = await live.signup("lia")
        c, table = await at_casino(live, acc["token"])
        await c.send({"type": "topup", "table": table, "amount": 2_000})
        await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 2_000)
        assert reg.asked == []
        await c.close()
        await ledger_ok(live)


def test_an_answer_outside_the_contract_is_unavailable() -> None:
    from mazziere.server.register import read

    assert read(200, {"excluded": False}).answer == "clear"  # no until: none named
    named = read(200, {"excluded": True, "until": "2027-03-01T00:00:00"})
    assert (named.answer, named.until) == ("excluded", datetime(2027, 3, 1, tzinfo=UTC))
    for status, body in [
        (503, {"excluded": False}),
        (200, None),
        (200, [False]),
        (200, {"excluded": 0}),
        (200, {"excluded": True, "until": "next spring"}),
        (200, {"excluded": True, "until": 20270301}),
    ]:
        got = read(status, body)
        assert got.answer == "unavailable" and got.detail, (status, body)


def test_a_register_url_that_is_not_http_or_a_timeout_not_above_0_is_refused() -> None:
    from mazziere.server.settings import Settings, SettingsError

    for bad in ({"exclusion_register_url": "ftp://register"}, {"exclusion_register_timeout": 0}):
        with pytest.raises(SettingsError):
            Settings(**bad).check()  # type: ignore[arg-type]
    Settings(exclusion_register_url="https://register.example/check").check()
