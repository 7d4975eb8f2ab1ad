"""Tables and hands in the back office (docs/operators.md): the live list of tables with
their seats, owner process, age and last action; any hand replayed with every card (every
seat's view at every step, every private event in full), its seed matching its commitment;
a back-office account watches any table as a spectator; unknown ids are 404."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazziere.game import commitment
from mazziere.server.routes.admin_tables import PROCESS

from .live import live_server
from .test_back_office import CHEAP, make_staff
from .test_back_office_players import casino_in_a_round, post
from .test_live_games import ledger_ok, play_until_over


async def test_the_table_list_and_a_hand_with_every_card(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "revisore", "auditor")
        acc, c, table = await casino_in_a_round(live, "giada")
        listed = (await live.get("/api/admin/tables", boss))["tables"]
        [row] = [t for t in listed if t["id"] == table]
        assert row["game"] == "casino" and row["status"] == "playing"
        assert row["owner"] == PROCESS and row["age_s"] >= 0
        assert row["seats"][0]["name"] == "giada" and row["seats"][0]["seat"] == 0
        assert row["last_action_at"] is None  # staked, nothing decided yet
        await play_until_over(c, table, 0)
        listed = (await live.get("/api/admin/tables", boss))["tables"]
        [row] = [t for t in listed if t["id"] == table]
        assert row["last_action_at"] is not None and row["status"] == "open"

        [h] = (await live.get(f"/api/admin/players/{acc['account']}/hands", boss))["hands"]
        hand = await live.get(f"/api/admin/hands/{h['id']}", boss)
        assert hand["table"] == table and hand["game"] == "casino" and hand["status"] == "done"
        assert commitment(hand["seed"]) == hand["commitment"]
        assert hand["steps"] and all(len(s["views"]) == len(hand["players"]) for s in hand["steps"])
        assert all(s["action"] for s in hand["steps"])
        assert hand["initial"][0] is not None and hand["result"]["stake"] == 500
        await c.close()
        await ledger_ok(live)


async def test_a_back_office_account_watches_any_table(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "sportello", "support")
        _, c, table = await casino_in_a_round(live, "ivo")
        w = await live.connect(boss)
        await w.send({"type": "watch", "table": table})
        seen = await w.wait(lambda m: m["type"] == "table" and m["table"] == table)
        assert seen["seat"] is None and seen["seats"][0]["name"] == "ivo"
        await w.close()
        await c.close()


async def test_unknown_hands_are_404(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "sportello", "support")
        r = await live.http.get("/api/admin/hands/777", headers={"Authorization": f"Bearer {boss}"})
        assert (r.status_code, r.json()["code"]) == (404, "not_found")
        r = await live.http.get("/api/admin/hands/x", headers={"Authorization": f"Bearer {boss}"})
        assert (r.status_code, r.json()["code"]) == (422, "malformed")
        r = await live.http.get(
            f"/api/admin/hands/{2**63}", headers={"Authorization": f"Bearer {boss}"}
        )
        assert (r.status_code, r.json()["code"]) == (404, "not_found")


async def test_closing_a_table_credits_its_players_and_shows_it_closed(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "gestore", "operator")
        acc, c, table = await casino_in_a_round(live, "olga")
        w = await live.connect(await make_staff(live, "guardia", "support"))
        await w.send({"type": "watch", "table": table})
        await w.wait(lambda m: m["type"] == "table" and m["table"] == table)
        r = await post(live, f"/api/admin/tables/{table}/close", boss, {"reason": "stuck"})
        assert r.status_code == 200, r.text
        assert r.json() == {"id": table, "status": "closed", "players_left": 1}
        seen = await w.wait(lambda m: m["type"] == "table" and m["status"] == "closed")
        assert {"note": "closed", "reason": "operator"} in seen["log"]
        await c.wait(lambda m: any(e["type"] == "session_closed" for e in m.get("events", [])))
        page = await live.get(f"/api/admin/players/{acc['account']}", boss)
        lines = (await live.get(f"/api/admin/players/{acc['account']}/ledger", boss))["entries"]
        payout = sum(e["amount_cents"] for e in lines if e["kind"] == "payout")
        assert page["open_sessions"] == [] and page["balance_cents"] == 50_000 - 500 + payout
        assert table not in [t["id"] for t in (await live.get("/api/admin/tables", boss))["tables"]]
        assert table not in [t["id"] for t in await live.get("/api/tables", acc["token"])]
        r = await post(live, f"/api/admin/tables/{table}/close", boss, {"reason": "again"})
        assert (r.status_code, r.json()["code"]) == (409, "already_closed")
        audit = (
            await live.get(
                f"/api/admin/audit?target=table:{table}", await make_staff(live, "rev", "auditor")
            )
        )["entries"]
        assert [(e["action"], e["actor"], e["after"]["reason"]) for e in audit] == [
            ("table_closed", "gestore", "stuck")
        ]
        await w.close()
        await c.close()
        await ledger_ok(live)


async def test_a_table_is_never_closed_without_its_audit_line(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit line of a close is written in the transaction that marks the table closed:
    if the line cannot be written, the table is not closed (its players have left, as on any
    leave, and their money is back in the wallet); the next close closes it, with one line."""
    from mazziere.server.store import audit

    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "gestore", "operator")
        acc, c, table = await casino_in_a_round(live, "olga")
        record = audit.record

        async def refused(db, actor, action, *args):  # type: ignore[no-untyped-def]
            if action == "table_closed":
                raise RuntimeError("the audit log cannot be written")
            return await record(db, actor, action, *args)

        monkeypatch.setattr(audit, "record", refused)
        r = await post(live, f"/api/admin/tables/{table}/close", boss, {"reason": "stuck"})
        assert r.status_code == 500
        listed = {t["id"]: t for t in (await live.get("/api/admin/tables", boss))["tables"]}
        assert listed[table]["status"] != "closed"
        page = await live.get(f"/api/admin/players/{acc['account']}", boss)
        assert page["open_sessions"] == []  # the player left: the credit is in the wallet
        monkeypatch.setattr(audit, "record", record)
        r = await post(live, f"/api/admin/tables/{table}/close", boss, {"reason": "stuck again"})
        assert r.status_code == 200 and r.json()["players_left"] == 0, r.text
        auditor = await make_staff(live, "rev", "auditor")
        lines = (await live.get(f"/api/admin/audit?target=table:{table}", auditor))["entries"]
        assert [(e["action"], e["after"]["reason"]) for e in lines] == [
            ("table_closed", "stuck again")
        ]
        await c.close()
        await ledger_ok(live)


async def test_closing_a_uno_match_plays_it_out_and_closes_it(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "gestore", "admin")
        acc = await live.signup("pino")
        body = {"game": "uno", "seats": 3, "bots": "greedy", "decision_seconds": 30}
        table = (await live.post("/api/tables", acc["token"], body)).json()["id"]
        c = await live.connect(acc["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["table"] == table)
        await c.send({"type": "start", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        r = await post(live, f"/api/admin/tables/{table}/close", boss, {"reason": "complaint"})
        assert r.status_code == 200 and r.json()["players_left"] == 1, r.text
        [hand] = (await live.get(f"/api/admin/players/{acc['account']}/hands", boss))["hands"]
        assert hand["status"] == "done"
        await c.close()
        await ledger_ok(live)


async def test_table_close_refusals_are_typed(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "gestore", "operator")
        support = await make_staff(live, "sara", "support")
        acc = await live.signup("rita")
        table = (await live.post("/api/tables", acc["token"], {"game": "uno"})).json()["id"]
        for path, token, body, status, code in (
            ("/api/admin/tables/424242/close", boss, {"reason": "x"}, 404, "not_found"),
            (f"/api/admin/tables/{2**40}/close", boss, {"reason": "x"}, 404, "not_found"),
            ("/api/admin/tables/abc/close", boss, {"reason": "x"}, 422, "malformed"),
            (f"/api/admin/tables/{table}/close", boss, {}, 422, "malformed"),
            (f"/api/admin/tables/{table}/close", support, {"reason": "x"}, 403, "forbidden"),
        ):
            r = await post(live, path, token, body)
            assert (r.status_code, r.json()["code"]) == (status, code), (path, r.text)
        assert table in [t["id"] for t in (await live.get("/api/admin/tables", boss))["tables"]]
        r = await post(live, f"/api/admin/tables/{table}/close", boss, {"reason": "empty"})
        assert r.json() == {"id": table, "status": "closed", "players_left": 0}
