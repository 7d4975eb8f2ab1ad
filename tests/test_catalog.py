"""One source of truth for the create-table form. The catalog
(:mod:`mazziere.catalog`, ``GET /api/catalog``) is generated from the rules; the browser client
copies no rule facts."""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from enum import Enum
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest

from mazziere import catalog as C
from mazziere.casino.rules import CasinoRules
from mazziere.errors import OptionError
from mazziere.game import REGISTRY, find_game
from mazziere.poker import presets as poker_presets
from mazziere.poker.bots import LEVELS
from mazziere.poker.options import Rules as PokerRules
from mazziere.uno import presets as uno_presets
from mazziere.uno.bots import BOTS
from mazziere.uno.options import Rules as UnoRules

WEB_JS = Path(__file__).resolve().parents[1] / "mazziere" / "server" / "web" / "js"
RULES = {"uno": UnoRules, "casino": CasinoRules, "poker": PokerRules}


@pytest.fixture(scope="module")
def cat() -> dict[str, Any]:
    return C.catalog()


def game(cat: dict[str, Any], name: str) -> dict[str, Any]:
    found = [g for g in cat["games"] if g["name"] == name]
    assert len(found) == 1
    return found[0]


def by_name(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    names = [i["name"] for i in items]
    assert len(names) == len(set(names)), f"a name twice: {names}"
    return {i["name"]: i for i in items}


def test_every_registry_game_in_order(cat: dict[str, Any]) -> None:
    assert [g["name"] for g in cat["games"]] == list(REGISTRY)
    assert set(RULES) == set(REGISTRY), "a new game needs its rules dataclass in this test"
    for g in cat["games"]:
        assert g["doc"] and "\n" not in g["doc"]


def test_json_round_trip_deterministic(cat: dict[str, Any]) -> None:
    text = json.dumps(cat, allow_nan=False)
    assert json.loads(text) == cat
    assert json.dumps(C.catalog(), allow_nan=False) == text  # same order every time


def test_uno_presets_with_their_limits(cat: dict[str, Any]) -> None:
    presets = by_name(game(cat, "uno")["presets"])
    assert list(presets) == list(uno_presets.PRESETS)
    for name, rules in uno_presets.PRESETS.items():
        p = presets[name]
        assert (p["min_players"], p["max_players"]) == (rules.min_players, rules.max_players)
        assert (p["match"], p["target"], p["fixed_hands"]) == (
            rules.match,
            rules.target,
            rules.fixed_hands,
        )
        assert p["values"] == json.loads(json.dumps(C.jsonable(rules.as_dict())))
        assert p["doc"] and "\n" not in p["doc"]
    assert (presets["online"]["min_players"], presets["online"]["max_players"]) == (2, 4)


def test_poker_presets(cat: dict[str, Any]) -> None:
    presets = by_name(game(cat, "poker")["presets"])
    assert list(presets) == list(poker_presets.PRESETS)
    for name, rules in poker_presets.PRESETS.items():
        assert presets[name]["deck"] == rules.deck
        assert presets[name]["values"]["flush_beats_full_house"] == rules.flush_beats_full_house
        assert presets[name]["doc"]


@pytest.mark.parametrize("name", list(RULES))
def test_every_option_once_with_its_default_and_doc(cat: dict[str, Any], name: str) -> None:
    rules = RULES[name]
    options = game(cat, name)["options"]
    fields = dataclasses.fields(rules)
    assert [o["name"] for o in options] == [f.name for f in fields]  # each once, in order
    hints = typing.get_type_hints(rules)
    for o, f in zip(options, fields, strict=True):
        default = f.default
        if dataclasses.is_dataclass(default):  # a rules value: named by its preset
            assert o["type"] == "preset"
            assert C.PRESETS_OF[type(default)][o["default"]] == default
        else:
            assert o["default"] == json.loads(json.dumps(C.jsonable(default)))
            if isinstance(default, tuple):
                assert tuple(o["default"]) == default
        assert o["doc"] and o["doc"] == " ".join(f.metadata["doc"].split())
        tp = hints[f.name]
        if get_origin(tp) is Literal:
            assert o["type"] == "choice" and o["choices"] == list(get_args(tp))
            assert o["default"] in o["choices"]


def test_literal_options_are_choices(cat: dict[str, Any]) -> None:
    uno = by_name(game(cat, "uno")["options"])
    assert uno["stacking"]["choices"] == ["none", "draw2", "draw2_draw4", "all"]
    assert uno["match"]["choices"] == ["single_hand", "target_points", "fixed_hands"]
    assert uno["turn_time_limit"] == {
        "name": "turn_time_limit",
        "type": "float",
        "nullable": True,
        "default": None,
        "doc": uno["turn_time_limit"]["doc"],
        "gt": 0,
    }
    assert uno["zero_groups"]["item"] == {"type": "tuple", "item": {"type": "int"}}
    assert by_name(game(cat, "casino")["options"])["uno"]["choices"] == ["casino"]


def test_enum_options_are_choices() -> None:
    class Speed(Enum):
        SLOW = "slow"
        FAST = "fast"

    assert C.describe_type(Speed) == {"type": "choice", "choices": ["slow", "fast"]}
    assert C.describe_type(Speed | None)["nullable"] is True
    assert C.jsonable(Speed.FAST) == "fast"
    with pytest.raises(TypeError):
        C.describe_type(dict[str, int])


def test_settings_limits_and_defaults(cat: dict[str, Any]) -> None:
    uno = by_name(game(cat, "uno")["settings"])
    assert uno["preset"]["choices"] == list(uno_presets.PRESETS)
    assert uno["bots"]["choices"] == list(BOTS) and uno["bots"]["default"] in BOTS
    assert (uno["seats"]["min"], uno["seats"]["max"]) == (2, 10)
    poker = by_name(game(cat, "poker")["settings"])
    assert poker["level"]["choices"] == list(LEVELS) and poker["level"]["default"] == "normal"
    assert poker["preset"]["choices"] == list(poker_presets.PRESETS)
    assert poker["preset"]["default"] == "classic" and poker["options"]["type"] == "options"
    assert "deck" not in poker  # a preset's (classic32, short32) or an option's
    casino = by_name(game(cat, "casino")["settings"])
    assert casino["min_stake"]["default"] == CasinoRules().min_stake
    assert casino["max_stake"]["default"] == CasinoRules().max_stake
    assert casino["min_stake"]["min"] == 1
    with pytest.raises(OptionError):
        CasinoRules(min_stake=casino["min_stake"]["min"] - 1)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_settings_are_what_table_config_reads(cat: dict[str, Any], name: str) -> None:
    """The defaults are the session's own, and every choice the catalog offers is accepted."""
    session = find_game(name)
    settings = game(cat, name)["settings"]
    defaults = {s["name"]: s["default"] for s in settings}
    config, _ = session.table_config({})
    for key, value in config.items():
        assert defaults[key] == value, key
    assert session.table_config(defaults)[0] == config
    for s in settings:
        for choice in s.get("choices", []):
            if name == "uno" and s["name"] == "preset":
                rules = uno_presets.PRESETS[choice]
                seats = min(max(defaults["seats"], rules.min_players), rules.max_players)
                session.table_config({**defaults, "preset": choice, "seats": seats})
            else:
                session.table_config({**defaults, s["name"]: choice})


def test_uno_seat_limits_refused_outside(cat: dict[str, Any]) -> None:
    session = find_game("uno")
    for p in game(cat, "uno")["presets"]:
        session.table_config({"preset": p["name"], "seats": p["max_players"]})
        with pytest.raises(OptionError):
            session.table_config({"preset": p["name"], "seats": p["max_players"] + 1})
        with pytest.raises(OptionError):
            session.table_config({"preset": p["name"], "seats": p["min_players"] - 1})


def test_table_settings_match_the_server_request(cat: dict[str, Any]) -> None:
    """The create request's own limits (``NewTable``) are the catalog's."""
    import annotated_types as at

    from mazziere.server.routes.lobby import NewTable

    table = by_name(cat["table"])
    seconds = NewTable.model_fields["decision_seconds"]
    assert seconds.default == table["decision_seconds"]["default"]
    assert at.Gt(table["decision_seconds"]["exclusive_min"]) in seconds.metadata
    assert at.Le(table["decision_seconds"]["max"]) in seconds.metadata
    name = NewTable.model_fields["name"]
    assert any(getattr(m, "max_length", None) == table["name"]["max_length"] for m in name.metadata)


async def test_served_over_a_real_socket(tmp_path: Path, cat: dict[str, Any]) -> None:
    from .server.live import live_server

    async with live_server(f"sqlite:///{tmp_path / 'catalog.sqlite3'}", tmp_path) as live:
        r = await live.http.get("/api/catalog")  # no login
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("application/json")
        served = r.json()
        assert {k: v for k, v in served.items() if k != "limits"} == cat
        assert (await live.http.get("/api/catalog")).json() == served


async def test_the_limits_a_client_repeats_come_from_the_servers_one_definition(
    tmp_path: Path,
) -> None:
    """The password and user-name lengths the sign-up form checks, the table name's length and
    the largest amount a message carries: published in the catalog (``limits``) from the
    constants the server enforces, so the client keeps no copy."""
    from mazziere.game import TABLE_NAME_MAX
    from mazziere.server import protocol as P
    from mazziere.server.store import accounts

    from .server.live import live_server

    async with live_server(f"sqlite:///{tmp_path / 'catalog.sqlite3'}", tmp_path) as live:
        limits = (await live.http.get("/api/catalog")).json()["limits"]
    assert limits == {
        "password": {"min": accounts.MIN_PASSWORD, "max": accounts.MAX_PASSWORD},
        "username": {
            "min": accounts.USERNAME_MIN,
            "max": accounts.USERNAME_MAX,
            "chars": "A-Z a-z 0-9 _ . -",
        },
        "table_name": {"max": TABLE_NAME_MAX},
        "cents": {"max": P.MAX_CENTS},
    }
    assert limits["password"] == {"min": 10, "max": 256}
    assert accounts.USERNAME.match("a" * accounts.USERNAME_MAX)
    assert not accounts.USERNAME.match("a" * (accounts.USERNAME_MAX + 1))
    assert not accounts.USERNAME.match("a" * (accounts.USERNAME_MIN - 1))


def literal(value: object) -> str:
    """How ``value`` is written in JavaScript source (a quoted string or a number)."""
    if isinstance(value, str):
        return rf"""['"]{re.escape(value)}['"]"""
    return rf"(?<![\w.]){re.escape(str(value))}(?![\w.])"


def copies(names: list[Any], text: str) -> list[Any]:
    """The names of a list found together in one array literal, or as keys of one object
    literal (``{classic: ..., mattel: ...}``): a copy of the list, not a use of one value."""
    worst: list[Any] = []
    for array in re.findall(r"\[[^\[\]]*\]", text):
        found = [n for n in names if re.search(literal(n), array)]
        worst = max(worst, found, key=len)
    keys = [n for n in names if re.search(rf"(?<![\w.'\"]){re.escape(str(n))}\s*:", text)]
    return max(worst, keys, key=len)


def test_browser_client_copies_no_rule_facts(cat: dict[str, Any]) -> None:
    """The lobby builds its form from the catalog: no preset, bot, level, deck or option
    choice lists in the JS (the messages files may keep their labels and rules text, keyed by
    those names; the pages may still test one value, as ``match === 'single_hand'``)."""
    sources = {
        p.relative_to(WEB_JS).as_posix(): p.read_text()
        for p in WEB_JS.rglob("*.js")
        if p.name != "messages.js"
    }
    assert "pages/lobby.js" in sources and "config.js" in sources
    lists: list[list[Any]] = [list(uno_presets.PRESETS), list(poker_presets.PRESETS)]
    for g in cat["games"]:
        for o in g["options"] + g["settings"]:
            if len(o.get("choices", [])) >= 2:
                lists.append(o["choices"])
    for path, text in sources.items():
        for gone in ("UNO_PRESETS", "POKER_LEVELS", "POKER_DECKS", "UNO_BOTS"):
            assert gone not in text, f"{path} still has {gone}"
        for names in lists:
            found = copies(names, text)
            assert len(found) < 2, f"{path} copies {found} of {names}"


def test_option_limits_are_published_and_enforced() -> None:
    """A bound is written once on its option (mazziere.fields.option), published by the catalog
    and enforced by the rules: the casino's x3 cap, UNO hand sizes, poker's draw of 0-5."""
    from mazziere.casino.rules import MAX_MULTIPLIER, CasinoRules
    from mazziere.errors import OptionError
    from mazziere.poker.options import Rules as PokerRules
    from mazziere.uno.options import Rules as UnoRules

    cat = C.catalog()
    casino = by_name(game(cat, "casino")["options"])
    assert casino["start_multiplier"]["le"] == MAX_MULTIPLIER == 3
    hand = by_name(game(cat, "uno")["options"])["hand_size"]
    assert (hand["ge"], hand["le"]) == (1, 20)
    assert by_name(game(cat, "poker")["options"])["max_replace"]["le"] == 5
    for make, bad in (
        (CasinoRules, {"start_multiplier": 4}),
        (UnoRules, {"hand_size": 21}),
        (UnoRules, {"hand_sizes": (4, 0)}),
        (UnoRules, {"uno_penalty": "2"}),
        (PokerRules, {"max_replace": 6}),
        (PokerRules, {"ante": 1.5}),
    ):
        with pytest.raises(OptionError) as e:
            make(**bad)
        assert e.value.code == "bad_option_value"


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("uno", {"hand_size": None}),
        ("uno", {"teams": "yes"}),
        ("uno", {"hand_sizes": "ab"}),
        ("uno", {"zero_groups": [[1, "a"]]}),
        ("poker", {"ante": None}),
        ("poker", {"ante": "ten"}),
        ("poker", {"items": "abc"}),
        ("poker", {"flush_beats_full_house": 1}),
    ],
)
def test_option_values_of_the_wrong_type_are_refused(game: str, options: dict[str, Any]) -> None:
    """An option from a create request has its field's type (``None`` only where allowed), or
    the request is refused with ``bad_option_value`` before any rules value is built."""
    with pytest.raises(OptionError) as e:
        find_game(game).table_config({"options": options})
    assert e.value.code == "bad_option_value"
    assert next(iter(options)) in e.value.message
