"""Tables and hands in the back office (docs/operators.md): the live list of tables with
their seats, owner process, age and last action; any hand replayed with every card (every
seat's view at every step, every private event in full), its seed matching its commitment;
a back-office account watches any table as a spectator; unknown ids are 404."""

from __future__ import annotations

from pathlib import Path

from mazziere.game import commitment
from mazziere.server.routes.admin_tables import PROCESS

from .live import live_server
from .test_back_office import CHEAP, make_staff
from .test_back_office_players import casino_in_a_round
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
