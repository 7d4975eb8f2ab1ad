"""Games switched on and off (docs/operators.md): a game or preset switched off leaves the
lobby's catalog and a new table of it, by the lobby or quick play, is refused
(``game_disabled``), while a table already running plays on; switched on again it is offered
again; each switch is in the audit log; bad fields are 422."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .live import live_server
from .test_back_office import CHEAP, make_staff
from .test_back_office_players import casino_in_a_round, post
from .test_live_games import ledger_ok, play_until_over


def offered(catalog: dict[str, Any]) -> dict[str, list[str]]:
    return {g["name"]: [p["name"] for p in g["presets"]] for g in catalog["games"]}


async def test_a_switched_off_game_or_preset_is_not_offered_and_running_tables_finish(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "gestore", "operator")
        player = await live.signup("lia")
        before = (await live.http.get("/api/catalog")).json()
        assert "mattel" in offered(before)["uno"] and "casino" in offered(before)
        acc, c, table = await casino_in_a_round(live, "running")  # a casino round in play

        r = await post(live, "/api/admin/games", boss, {
            "game": "uno", "preset": "mattel", "enabled": False, "reason": "rules under review",
        })  # fmt: skip
        assert r.status_code == 200, r.text
        r = await post(live, "/api/admin/games", boss, {
            "game": "casino", "preset": None, "enabled": False, "reason": "licence renewal",
        })  # fmt: skip
        assert r.status_code == 200, r.text
        now = (await live.http.get("/api/catalog")).json()
        assert "mattel" not in offered(now)["uno"] and "casino" not in offered(now)
        uno = next(g for g in now["games"] if g["name"] == "uno")
        choices = next(s for s in uno["settings"] if s["name"] == "preset")["choices"]
        assert "mattel" not in choices and "classic" in choices
        for body in ({"game": "uno", "preset": "mattel"}, {"game": "casino"}):
            for route in ("/api/tables", "/api/quickplay"):  # every way to a new table
                r = await live.post(route, player["token"], body)
                assert (r.status_code, r.json()["code"]) == (400, "game_disabled"), (route, body)
        r = await live.post("/api/tables", player["token"], {"game": "uno", "preset": "house"})
        assert r.status_code == 200
        listed = {
            (g["game"], g["preset"]): g["enabled"]
            for g in (await live.get("/api/admin/games", boss))["games"]
        }
        assert listed[("uno", "mattel")] is False and listed[("casino", None)] is False
        assert listed[("uno", None)] is True and listed[("uno", "house")] is True

        final = await play_until_over(c, table, 0)  # the running table finishes its round
        assert final["view"]["result"]["stake"] == 500

        r = await post(live, "/api/admin/games", boss, {
            "game": "casino", "preset": None, "enabled": True, "reason": "renewed",
        })  # fmt: skip
        assert "casino" in offered((await live.http.get("/api/catalog")).json())
        assert (
            await live.post("/api/tables", player["token"], {"game": "casino"})
        ).status_code == 200
        audit = (
            await live.get(
                "/api/admin/audit?target=game:casino", await make_staff(live, "rev", "auditor")
            )
        )["entries"]
        assert [(e["action"], e["before"], e["after"]["enabled"]) for e in audit] == [
            ("game_switched", {"enabled": False}, True),
            ("game_switched", {"enabled": True}, False),
        ]
        await c.close()
        await ledger_ok(live)


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "enabled": False, "reason": "x"},
        {"game": "uno", "preset": "nope", "enabled": False, "reason": "x"},
        {"game": "casino", "preset": "classic", "enabled": False, "reason": "x"},
        {"game": "uno", "enabled": "no", "reason": "x"},
        {"game": "uno", "enabled": False},
        {"game": "uno", "enabled": False, "reason": ""},
    ],
)
async def test_bad_switches_are_malformed(
    body: dict[str, Any], db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "gestore", "admin")
        r = await post(live, "/api/admin/games", boss, body)
        assert (r.status_code, r.json()["code"]) == (422, "malformed"), r.text
        assert all(g["enabled"] for g in (await live.get("/api/admin/games", boss))["games"])


async def test_support_may_not_switch_games(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        support = await make_staff(live, "sara", "support")
        body = {"game": "uno", "enabled": False, "reason": "x"}
        r = await post(live, "/api/admin/games", support, body)
        assert (r.status_code, r.json()["code"]) == (403, "forbidden")
