"""Players in the back office (docs/operators.md): search by name or id, an account's page
(wallet, open casino sessions, hands, logins), its ledger lines and hands paged; a suspended
player is thrown out (sockets closed with 4008, logins ended, login refused), its casino
round finished and its credit session closed and credited as on an ordinary leave; a
reinstated one logs in again; every action is in the audit log, every refusal typed, and the
ledger balances after each."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from .live import Client, Live, live_server
from .test_back_office import CHEAP, make_staff
from .test_live_games import ledger_ok
from .test_player_limits import set_limits


async def post(live: Live, path: str, token: str, body: dict[str, Any]) -> Any:
    return await live.http.post(path, json=body, headers={"Authorization": f"Bearer {token}"})


async def casino_in_a_round(
    live: Live, name: str, credit: int = 10_000
) -> tuple[dict[str, Any], Client, int]:
    """A player at a casino table with ``credit`` topped up and a 500-cent stake in play."""
    acc = await live.signup(name)
    table = (await live.post("/api/tables", acc["token"], {"game": "casino"})).json()["id"]
    c = await live.connect(acc["token"])
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table")
    await c.send({"type": "topup", "table": table, "amount": credit})
    upd = await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == credit)
    await c.send({"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500})
    await c.wait(lambda m: m["type"] == "table" and (m["view"] or {}).get("stake") == 500)
    return acc, c, table


async def closed(c: Client) -> tuple[int, str]:
    """The close code and reason of ``c``'s socket, once closed."""
    for _ in range(500):
        if c.closed is not None:
            return c.closed
        await asyncio.sleep(0.02)
    raise AssertionError("the socket stayed open")


async def test_search_the_page_ledger_hands_and_logins_of_a_player(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "sportello", "support")
        for name in ("anna", "annalisa", "bruno"):
            await live.signup(name)
        found = await live.get("/api/admin/players?q=ANNA", boss)
        assert [p["username"] for p in found["players"]] == ["anna", "annalisa"]
        anna = found["players"][0]
        assert anna["balance_cents"] == 50_000 and anna["status"] == "active"
        assert anna["role"] == "player" and anna["created_at"]
        by_id = await live.get(f"/api/admin/players?q={anna['id']}", boss)
        assert [p["username"] for p in by_id["players"]] == ["anna"]
        first = await live.get("/api/admin/players?limit=2", boss)
        rest = await live.get(f"/api/admin/players?limit=2&after={first['next']}", boss)
        names = [p["username"] for p in first["players"] + rest["players"]]
        assert names == ["sportello", "anna", "annalisa", "bruno"]
        end = await live.get(f"/api/admin/players?limit=2&after={rest['next']}", boss)
        assert end == {"players": [], "next": None}
        assert (await live.get("/api/admin/players?q=nessuno", boss))["players"] == []

        acc, c, table = await casino_in_a_round(live, "carla")
        await live.http.post("/api/login", json={"username": "carla", "password": "bad one 12"})
        page = await live.get(f"/api/admin/players/{acc['account']}", boss)
        assert page["username"] == "carla" and page["balance_cents"] == 40_000
        [session] = page["open_sessions"]
        assert session["table"] == table and session["balance_cents"] == 9_500
        assert page["hands_played"] == 1
        assert [(x["ok"], x["address"]) for x in page["logins"]] == [(False, "127.0.0.1")]
        lines = await live.get(f"/api/admin/players/{acc['account']}/ledger?limit=2", boss)
        assert [(e["kind"], e["amount_cents"]) for e in lines["entries"]] == [
            ("stake", -500),
            ("topup", 10_000),
        ]
        older = await live.get(
            f"/api/admin/players/{acc['account']}/ledger?before={lines['next']}", boss
        )
        assert [(e["kind"], e["book"]) for e in older["entries"]] == [
            ("topup", f"wallet:{acc['account']}"),
            ("demo_credit", f"wallet:{acc['account']}"),
        ]
        hands = await live.get(f"/api/admin/players/{acc['account']}/hands", boss)
        assert [(h["table"], h["game"]) for h in hands["hands"]] == [(table, "casino")]
        logins = await live.get(f"/api/admin/players/{acc['account']}/logins", boss)
        assert [x["ok"] for x in logins["logins"]] == [False]
        await c.close()
        await ledger_ok(live)


async def test_a_suspended_player_is_thrown_out_and_credited(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "sportello", "support")
        acc, c, table = await casino_in_a_round(live, "dario")
        player = acc["account"]
        r = await post(live, f"/api/admin/players/{player}/suspend", boss, {"reason": "chargeback"})
        assert r.status_code == 200, r.text
        done = r.json()
        assert done["status"] == "suspended" and done["tables_left"] == [table]
        assert done["logins_ended"] == 1 and done["tables_kept"] == []
        notice = await c.wait(lambda m: m["type"] == "notice" and m["kind"] == "suspended", start=0)
        assert "suspended" in notice["message"]
        await closed(c)
        assert c.closed is not None and c.closed[0] == 4008
        r = await live.http.get("/api/me", headers={"Authorization": f"Bearer {acc['token']}"})
        assert r.status_code == 401
        r = await live.http.post(
            "/api/login", json={"username": "dario", "password": "correct horse"}
        )
        assert r.status_code == 403 and r.json()["code"] == "suspended"
        page = await live.get(f"/api/admin/players/{player}", boss)
        assert page["status"] == "suspended" and page["open_sessions"] == []
        hand = (await live.get(f"/api/admin/players/{player}/hands", boss))["hands"][0]
        assert hand["status"] == "done"  # the round was finished by the default strategy
        lines = (await live.get(f"/api/admin/players/{player}/ledger", boss))["entries"]
        payout = sum(e["amount_cents"] for e in lines if e["kind"] == "payout")
        assert page["balance_cents"] == 50_000 - 500 + payout
        assert lines[0]["kind"] == "session_close"
        assert (await live.get(f"/api/admin/players/{player}", boss))["logins"][0]["ok"] is False
        await ledger_ok(live)

        r = await post(live, f"/api/admin/players/{player}/reinstate", boss, {"reason": "paid"})
        assert r.status_code == 200 and r.json()["status"] == "active"
        r = await live.http.post(
            "/api/login", json={"username": "dario", "password": "correct horse"}
        )
        assert r.status_code == 200
        admin = await make_staff(live, "revisore", "auditor")
        audit = (await live.get(f"/api/admin/audit?target=account:{player}", admin))["entries"]
        assert [(e["action"], e["actor"], e["after"]) for e in audit] == [
            ("login", "dario", None),
            ("player_reinstated", "sportello", {"status": "active", "reason": "paid"}),
            ("login_refused", "dario", {"code": "suspended"}),
            (
                "player_suspended",
                "sportello",
                {"status": "suspended", "reason": "chargeback", "logins_ended": 1},
            ),
            ("signup", "dario", None),
        ]
        assert audit[3]["before"] == {"status": "active"}
        await c.close()


async def test_suspension_refusals_are_typed_and_change_nothing(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        support = await make_staff(live, "sportello", "support")
        await make_staff(live, "gestore", "operator")
        player = (await live.signup("elena"))["account"]
        me = (await live.get("/api/admin/me", support))["id"]
        operator = (await live.get("/api/admin/players?q=gestore", support))["players"][0]["id"]
        cases = [
            (f"/api/admin/players/{player}/suspend", {}, 422, "malformed"),
            (f"/api/admin/players/{player}/suspend", {"reason": "   "}, 422, "malformed"),
            (f"/api/admin/players/{player}/suspend", {"reason": 5}, 422, "malformed"),
            (f"/api/admin/players/{player}/suspend", {"reason": "x", "extra": 1}, 422, "malformed"),
            ("/api/admin/players/99999/suspend", {"reason": "x"}, 404, "not_found"),
            ("/api/admin/players/abc/suspend", {"reason": "x"}, 422, "malformed"),
            (f"/api/admin/players/{me}/suspend", {"reason": "x"}, 403, "self"),
            (f"/api/admin/players/{operator}/suspend", {"reason": "x"}, 403, "forbidden"),
            (f"/api/admin/players/{player}/reinstate", {"reason": "x"}, 409, "not_suspended"),
            (
                f"/api/admin/players/{player}/role",
                {"role": "admin", "reason": "x"},
                403,
                "forbidden",
            ),
        ]
        for path, body, status, code in cases:
            r = await post(live, path, support, body)
            assert (r.status_code, r.json()["code"]) == (status, code), (path, body, r.text)
        assert (
            await post(live, f"/api/admin/players/{player}/suspend", support, {"reason": "a"})
        ).status_code == 200
        r = await post(live, f"/api/admin/players/{player}/suspend", support, {"reason": "b"})
        assert (r.status_code, r.json()["code"]) == (409, "already_suspended")
        for path in ("", "/ledger", "/hands", "/logins"):
            r = await live.http.get(
                f"/api/admin/players/424242{path}", headers={"Authorization": f"Bearer {support}"}
            )
            assert (r.status_code, r.json()["code"]) == (404, "not_found"), path
        admin = await make_staff(live, "revisore", "auditor")
        audit = (await live.get(f"/api/admin/audit?target=account:{player}", admin))["entries"]
        assert [e["action"] for e in audit] == ["player_suspended", "signup"]


async def test_an_admin_changes_a_role_but_never_the_last_admin(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        admin = await make_staff(live, "capo", "admin")
        me = (await live.get("/api/admin/me", admin))["id"]
        player = (await live.signup("franco"))["account"]
        r = await post(
            live,
            f"/api/admin/players/{player}/role",
            admin,
            {"role": "operator", "reason": "hired"},
        )
        assert r.status_code == 200 and r.json()["role"] == "operator"
        for body, status, code in (
            ({"role": "root", "reason": "x"}, 422, "malformed"),
            ({"role": "player"}, 422, "malformed"),
        ):
            r = await post(live, f"/api/admin/players/{player}/role", admin, body)
            assert (r.status_code, r.json()["code"]) == (status, code)
        r = await post(
            live, f"/api/admin/players/{me}/role", admin, {"role": "player", "reason": "x"}
        )
        assert (r.status_code, r.json()["code"]) == (409, "last_admin")
        page = await live.get(f"/api/admin/players/{player}", admin)
        assert page["role"] == "operator"
        audit = (await live.get(f"/api/admin/audit?target=account:{player}", admin))["entries"]
        assert [(e["action"], e["before"], e["after"]) for e in audit] == [
            ("role_set", {"role": "player"}, {"role": "operator", "reason": "hired"}),
            ("signup", None, None),
        ]


@pytest.mark.parametrize("query", ["limit=0", "limit=201", "after=0", "q=" + "x" * 65])
async def test_bad_player_queries_are_malformed(query: str, db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "sportello", "support")
        r = await live.http.get(
            f"/api/admin/players?{query}", headers={"Authorization": f"Bearer {boss}"}
        )
        assert (r.status_code, r.json()["code"]) == (422, "malformed")


async def test_a_players_page_shows_the_limits_in_force_and_a_raise_waiting(
    db_url: str, tmp_path: Path
) -> None:
    """Support sees what the player sees on their limits page: each limit in force, a raise
    waiting with when it takes effect, the sign-up answer and the reality-check rhythm."""
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "sportello", "support")
        dora = await live.signup("dora")
        page = await live.get(f"/api/admin/players/{dora['account']}", boss)
        assert page["limits"]["chosen"] is False and page["limits"]["reality_minutes"] == 60
        assert page["limits"]["limits"] == {}  # no limit of any kind
        await set_limits(live, dora["token"], limits={"loss_week": 5_000}, reality_minutes=30)
        await set_limits(live, dora["token"], limits={"loss_week": 8_000})  # a raise: waits
        page = await live.get(f"/api/admin/players/{dora['account']}", boss)
        week = page["limits"]["limits"]["loss_week"]
        assert (week["amount"], week["pending"], week["pending_set"]) == (5_000, 8_000, True)
        assert week["pending_from"] and page["limits"]["reality_minutes"] == 30
        assert set(page["limits"]["limits"]) == {"loss_week"}
