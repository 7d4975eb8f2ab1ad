"""The RTP watch (docs/operators.md "Watching the return to player"): the band is the
theoretical return plus or minus z standard errors of the rounds' stakes, from the
certification report's payout distribution; a run of planted payouts raises the alarm and a
fair one does not, on SQLite and PostgreSQL; players above their band over at least 500
rounds are named; ``GET /api/admin/rtp`` answers a back-office role over a real socket and
refuses a player; the figures reach ``/metrics``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from mazziere.casino.rules import MAX_MULTIPLIER, PUBLISHED_RTP
from mazziere.server.monitoring import AllTime, watch_rtp
from mazziere.server.rtp_monitor import (
    CERTIFIED_REPORT,
    PublishedReturn,
    Totals,
    band,
    players_above,
    published_returns,
    widest,
    window,
    z_value,
)
from mazziere.server.store import hands, ledger, money, rtp
from mazziere.server.store.db import Database

from .live import live_server
from .rtp_rounds import assisted, casino_player, fair, money_in, plant_rounds
from .test_back_office import make_staff

Z99 = 2.5758293035489004
"""The 99.5% quantile of the standard normal (tables: 2.5758)."""
EVEN = PublishedReturn("even", 0.96, ((0, 0.5), (2, 0.5)), "by hand")
"""Half the rounds pay nothing, half pay twice the stake: sd exactly 1."""


# ------------------------------------------------------------------------------ the band
def test_the_band_is_the_theoretical_return_plus_minus_z_sd_over_root_n() -> None:
    assert z_value() == pytest.approx(Z99, abs=1e-12)
    assert EVEN.sd == 1.0
    stakes = Totals(rounds=10_000, staked=100 * 10_000, staked_sq=100 * 100 * 10_000, paid=0)
    assert stakes.effective_rounds == 10_000
    low, high = band(EVEN, stakes)  # 0.96 +- 2.5758 * 1 / sqrt(10,000)
    assert low == pytest.approx(0.96 - 0.025758293, abs=1e-9)
    assert high == pytest.approx(0.96 + 0.025758293, abs=1e-9)


def test_unequal_stakes_count_as_fewer_rounds() -> None:
    two = Totals(rounds=2, staked=100 + 300, staked_sq=100**2 + 300**2, paid=0)
    assert two.effective_rounds == pytest.approx(400**2 / 100_000)  # 1.6 rounds
    low, high = band(EVEN, two)
    assert high - 0.96 == pytest.approx(Z99 / math.sqrt(1.6))  # 2.0363...


def test_a_window_outside_its_band_is_an_alert_and_an_empty_one_is_not() -> None:
    n = Totals(rounds=10_000, staked=10_000, staked_sq=10_000, paid=0)
    inside = window(EVEN, Totals(10_000, 10_000, 10_000, 9_857), 10_000)  # 98.57% < 98.58%
    above = window(EVEN, Totals(10_000, 10_000, 10_000, 9_860), 10_000)
    below = window(EVEN, Totals(10_000, 10_000, 10_000, 9_340), 10_000)
    assert not inside.out_of_band and above.out_of_band and below.out_of_band
    assert (inside.low, inside.high) == band(EVEN, n)
    empty = window(EVEN, Totals(), 1_000)
    assert empty.realised is None and empty.low is None and not empty.out_of_band
    assert empty.as_json()["rounds"] == 0 and above.label == "10000"
    assert window(EVEN, n, None).label == "all"


def test_the_casino_volatility_is_the_certification_reports() -> None:
    report = json.loads(CERTIFIED_REPORT.read_text())
    casino = published_returns()["casino"]
    assert casino.theoretical == PUBLISHED_RTP
    assert casino.source == str(CERTIFIED_REPORT)
    assert casino.sd == pytest.approx(report["volatility"]["sd_per_unit_staked"], rel=1e-12)
    shares = dict(casino.payouts)
    assert shares == {int(k[1:]): v["share"] for k, v in report["payouts"].items()}


def test_without_a_report_the_widest_volatility_stands_in(tmp_path: Path) -> None:
    bound = widest("casino", PUBLISHED_RTP, MAX_MULTIPLIER)
    mu, m = PUBLISHED_RTP, MAX_MULTIPLIER
    assert bound.sd == pytest.approx(math.sqrt(mu * (m - mu)))
    assert bound.sd > published_returns()["casino"].sd
    with pytest.raises(FileNotFoundError):
        published_returns(tmp_path / "missing.json")
    given = tmp_path / "report.json"
    given.write_text(json.dumps({"payouts": {"x0": {"share": 0.5}, "x3": {"share": 0.5}}}))
    assert published_returns(given)["casino"].sd == 1.5


def test_players_are_listed_above_their_band_over_500_rounds_or_more() -> None:
    def t(rounds: int, rtp: float) -> Totals:
        return Totals(rounds, 100 * rounds, 100 * 100 * rounds, round(rtp * 100 * rounds))

    got = players_above(
        EVEN,
        [
            (1, "fair", t(5_000, 0.97)),
            (2, "lucky_short", t(499, 1.40)),
            (3, "helped", t(600, 1.35)),
            (4, "helped_more", t(2_000, 1.30)),
            (5, "unlucky", t(2_000, 0.50)),
        ],
    )
    assert [p.username for p in got] == ["helped_more", "helped"]  # farthest above first
    helped = got[1]
    assert helped.high == pytest.approx(0.96 + Z99 / math.sqrt(600))
    assert helped.z == pytest.approx((1.35 - 0.96) * math.sqrt(600))


# ------------------------------------------------------------------------------ the database
async def _watch(database: Database) -> dict[str, Any]:
    async with database.session() as db:
        (casino,) = await watch_rtp(db, published_returns())
        rep = await ledger.check(db)
    assert rep.ok, rep.problems
    return casino.as_json()


async def test_a_fair_run_stays_inside_every_band(database: Database) -> None:
    alba, t1 = await casino_player(database, "alba")
    bice, t2 = await casino_player(database, "bice")
    await plant_rounds(database, alba, t1, fair(700, seed=1))
    await plant_rounds(database, bice, t2, fair(700, seed=2), stake=250)
    got = await _watch(database)
    assert [w["rounds"] for w in got["windows"]] == [1_000, 1_400, 1_400, 1_400]
    for w in got["windows"]:
        assert w["low"] < PUBLISHED_RTP < w["high"]
        assert w["low"] <= w["realised"] <= w["high"] and not w["out_of_band"], w
    assert not got["alert"] and got["players_above"] == []


async def test_a_planted_run_of_payouts_fires_the_alarm_and_names_the_player(
    database: Database,
) -> None:
    alba, t1 = await casino_player(database, "alba")
    bice, t2 = await casino_player(database, "bice")
    carla, t3 = await casino_player(database, "carla")
    await plant_rounds(database, alba, t1, fair(600))
    await plant_rounds(database, bice, t2, assisted(600))
    await plant_rounds(database, carla, t3, assisted(400, seed=3))  # too few rounds to name
    got = await _watch(database)
    last_1000 = got["windows"][0]
    assert last_1000["window"] == 1_000 and last_1000["rounds"] == 1_000
    assert last_1000["realised"] > last_1000["high"] and last_1000["out_of_band"]
    every = got["windows"][-1]
    assert every["window"] is None and every["rounds"] == 1_600
    assert every["paid_cents"] * 1.0 / every["staked_cents"] == every["realised"]
    assert got["alert"]
    (named,) = got["players_above"]
    assert (named["account"], named["username"], named["rounds"]) == (bice, "bice", 600)
    assert named["realised"] > named["high"] > PUBLISHED_RTP


async def test_all_time_sums_carried_from_reading_to_reading_equal_a_full_sum(
    database: Database,
) -> None:
    every = AllTime(settle_seconds=0.0)
    returns = published_returns()

    async def read() -> dict[str, Any]:
        async with database.session() as db:
            (casino,) = await watch_rtp(db, returns, every)
            full = await rtp.range_totals(db, "casino", 0, None)
            players = await rtp.range_player_totals(db, "casino", 0, None)
        every_round = casino.windows[-1]
        assert (every_round.rounds, every_round.staked, every_round.paid) == (
            full.rounds, full.staked, full.paid,
        )  # fmt: skip
        listed = {p.account: p.rounds for p in casino.above}
        assert listed == {a: t.rounds for a, (_, t) in players.items() if a in listed}
        return casino.as_json()

    alba, t1 = await casino_player(database, "alba")
    bice, t2 = await casino_player(database, "bice")
    await plant_rounds(database, alba, t1, assisted(300))
    await read()
    carried = every.carried["casino"].upto
    assert carried > 0 and every.carried["casino"].totals.rounds == 300
    async with database.write() as db:  # a round still being played
        await money_in(db, bice, 100)
        session, _ = await money.top_up(db, bice, t2, None, 100, None)
        seats: list[dict[str, Any]] = [
            {"account": bice, "name": "bice", "bot": None},
            {"account": None, "bot": "bank"},
        ]
        open_round = await hands.open_hand(db, t2, "casino", "1" * 64, {}, seats)
        await money.stake(db, session, open_round, 100)
    await plant_rounds(database, alba, t1, assisted(300, seed=5))
    got = await read()
    assert every.carried["casino"].upto == open_round - 1  # nothing carried past it
    assert got["windows"][-1]["rounds"] == 600 and got["players_above"][0]["rounds"] == 600
    async with database.write() as db:  # it settles: counted once, then carried
        await hands.close_hand(db, open_round, {"winner": 0, "stake": 100, "payout": 300})
        await money.payout(db, session, open_round, 300)
        await money.close(db, session, "left")
    got = await read()
    assert got["windows"][-1]["rounds"] == 601
    assert every.carried["casino"].totals.rounds == 601
    assert every.carried["casino"].players[bice][1].paid == 300
    async with database.session() as db:
        assert (await ledger.check(db)).ok


# ------------------------------------------------------------------------------ the route
def _metric(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample of the Prometheus text ``text`` (its labels in name order, as
    the client writes them)."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    line = f"{name}{{{want}}} " if labels else f"{name} "
    for row in text.splitlines():
        if row.startswith(line):
            return float(row[len(line) :])
    return None


async def test_the_rtp_route_shows_the_alarm_to_staff_and_refuses_a_player(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, argon2_time_cost=1, argon2_memory_kib=8192) as live:
        staff = await make_staff(live, "revisore", "auditor")
        player = str((await live.signup("giocatrice"))["token"])
        r = await live.http.get("/api/admin/rtp", headers={"Authorization": f"Bearer {player}"})
        assert r.status_code == 403 and r.json()["code"] == "forbidden"
        assert (await live.http.get("/api/admin/rtp")).status_code == 401

        empty = (await live.get("/api/admin/rtp", staff))["games"]
        assert [g["game"] for g in empty] == ["casino"]
        assert all(w["rounds"] == 0 and not w["out_of_band"] for w in empty[0]["windows"])
        text = (await live.http.get("/metrics")).text
        assert _metric(text, "mazziere_rtp_out_of_band", game="casino", window="all") == 0
        assert _metric(text, "mazziere_rtp_realised", game="casino", window="all") is None

        db = live.server.db
        alba, t1 = await casino_player(db, "alba")
        await plant_rounds(db, alba, t1, fair(1_000))
        (quiet,) = (await live.get("/api/admin/rtp", staff))["games"]
        assert not quiet["alert"] and quiet["theoretical"] == PUBLISHED_RTP
        assert [w["window"] for w in quiet["windows"]] == [1_000, 10_000, 100_000, None]
        text = (await live.http.get("/metrics")).text
        assert _metric(text, "mazziere_rtp_out_of_band", game="casino", window="1000") == 0
        assert _metric(text, "mazziere_check_ok", check="rtp") == 1

        bice, t2 = await casino_player(db, "bice")
        await plant_rounds(db, bice, t2, assisted(600))
        (loud,) = (await live.get("/api/admin/rtp", staff))["games"]
        assert loud["alert"] and loud["windows"][0]["out_of_band"]
        assert [p["username"] for p in loud["players_above"]] == ["bice"]
        text = (await live.http.get("/metrics")).text
        assert _metric(text, "mazziere_rtp_out_of_band", game="casino", window="1000") == 1
        assert (
            _metric(text, "mazziere_rtp_realised", game="casino", window="1000")
            == (loud["windows"][0]["realised"])
        )
        assert _metric(text, "mazziere_rtp_rounds", game="casino", window="all") == 1_600
        assert _metric(text, "mazziere_rtp_players_above_band", game="casino") == 1
        assert _metric(text, "mazziere_check_ok", check="rtp") == 0
        async with db.session() as s:
            assert (await ledger.check(s)).ok
