"""A poker table takes a preset and options through the same path as UNO
(``POST /api/tables`` -> ``TableGame.table_config``), checked by the rules before anything
exists: an unknown option, a value out of its bounds or of the wrong type is a typed 4xx and
creates no table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mazziere.errors import OptionError
from mazziere.poker.table_game import PokerTableGame, poker_rules

from .live import Live, live_server


async def first_deal(live: Live, token: str, body: dict[str, Any]) -> dict[str, Any]:
    """Create a poker table with ``body``, sit, start: the first update of the game."""
    r = await live.post("/api/tables", token, {"game": "poker", **body})
    assert r.status_code == 200, r.text
    table = r.json()["id"]
    c = await live.connect(token)
    await c.send({"type": "join", "table": table})
    await c.wait(lambda m: m["type"] == "table" and m["seat"] == 0)
    await c.send({"type": "start", "table": table})
    first = await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
    await c.close()
    return first


async def test_poker_table_with_its_own_ante_and_bankroll(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("paola")
        body = {"preset": "classic32", "level": "easy", "options": {"ante": 10, "bankroll": 300}}
        first = await first_deal(live, a["token"], body)
        view = first["view"]
        assert (view["deck"], view["level"], view["ante"]) == (32, "easy", 10)
        committed = sum(m["amount"] or 0 for m in view["history"])  # a bet the computer made
        assert view["pot"] == 20 + committed
        assert view["bankrolls"][0] == 300 - 10
        assert sum(view["bankrolls"]) == 2 * 300 - 20 - committed
        tables = await live.get("/api/tables", a["token"])
        config = next(t for t in tables if t["game"] == "poker")["config"]
        assert config == {
            "level": "easy",
            "preset": "classic32",
            "options": {"ante": 10, "bankroll": 300},
            "bot_delay": 0,  # the table's pace (the test client asks for none), beside the game's
        }


async def test_poker_table_defaults_to_the_classic_preset(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("pina")
        view = (await first_deal(live, a["token"], {}))["view"]
        assert (view["deck"], view["level"], view["ante"]) == (52, "normal", 5)
        assert view["bankrolls"][0] == 500 - 5


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"options": {"antes": 10}}, "unknown_option"),
        ({"options": {"ante": 0}}, "bad_option_value"),
        ({"options": {"ante": "ten"}}, "bad_option_value"),
        ({"options": {"bankroll": None}}, "bad_option_value"),
        ({"options": {"max_replace": 6}}, "bad_option_value"),
        ({"options": {"ante": 50, "bankroll": 20}}, "bad_combination"),
        ({"preset": "texas"}, "unknown_preset"),
        ({"level": "genius"}, "unknown_level"),
    ],
)
async def test_poker_table_refuses_a_bad_option_and_creates_nothing(
    tmp_path: Path, body: dict[str, Any], code: str
) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'poker.sqlite3'}", tmp_path) as live:
        a = await live.signup("pia")
        r = await live.post("/api/tables", a["token"], {"game": "poker", **body})
        assert r.status_code == 400, r.text
        assert r.json()["code"] == code
        assert await live.get("/api/tables", a["token"]) == []
        assert live.server.tables == {}


def test_poker_table_config_reads_the_preset_then_the_options() -> None:
    config, seats = PokerTableGame.table_config({"preset": "short32", "options": {"ante": 7}})
    assert seats == 2
    rules = poker_rules(config)
    assert (rules.deck, rules.flush_beats_full_house, rules.ante) == (32, True, 7)


def test_a_poker_table_stored_before_presets_keeps_its_deck() -> None:
    assert poker_rules({"level": "normal", "deck": 32}).deck == 32
    assert poker_rules({"level": "normal"}).deck == 52


def test_poker_options_are_an_object() -> None:
    with pytest.raises(OptionError):
        poker_rules({"options": [["ante", 5]]})
