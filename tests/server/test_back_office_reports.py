"""Daily reports (docs/operators.md): per game and day, the stakes, payouts, gross gaming
revenue, settled rounds and players, from the ledger and the hand records; the same rows as a
CSV download; bad dates are 422."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from .live import live_server
from .test_back_office import CHEAP, make_staff
from .test_back_office_players import casino_in_a_round
from .test_live_games import ledger_ok, play_until_over


async def test_the_daily_report_sums_rounds_players_stakes_and_payouts(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=50_000, **CHEAP) as live:
        boss = await make_staff(live, "revisore", "auditor")
        paid = 0
        for name in ("mara", "nico"):
            acc, c, table = await casino_in_a_round(live, name)
            final = await play_until_over(c, table, 0)
            paid += final["view"]["result"]["payout"]
            await c.close()
        today = datetime.now(UTC).date().isoformat()
        report = await live.get(f"/api/admin/reports/daily?from={today}&to={today}", boss)
        assert report["rows"] == [
            {
                "day": today,
                "game": "casino",
                "stakes_cents": 1_000,
                "payouts_cents": paid,
                "ggr_cents": 1_000 - paid,
                "rounds": 2,
                "players": 2,
            }
        ]
        assert (await live.get("/api/admin/reports/daily", boss))["rows"] == report["rows"]
        r = await live.http.get(
            f"/api/admin/reports/daily?from={today}&to={today}&format=csv",
            headers={"Authorization": f"Bearer {boss}"},
        )
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        assert f"daily-{today}-{today}.csv" in r.headers["content-disposition"]
        [row] = list(csv.DictReader(io.StringIO(r.text)))
        assert row == {k: str(v) for k, v in report["rows"][0].items()}
        yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
        empty = await live.get(f"/api/admin/reports/daily?from={yesterday}&to={yesterday}", boss)
        assert empty["rows"] == []
        await ledger_ok(live)


@pytest.mark.parametrize(
    "query",
    [
        "from=2026-13-01",
        "from=yesterday",
        "from=2026-11-02&to=2026-11-01",
        "from=2024-01-01&to=2026-01-01",
        "format=xml",
    ],
)
async def test_bad_report_dates_are_malformed(query: str, db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        boss = await make_staff(live, "revisore", "support")
        r = await live.http.get(
            f"/api/admin/reports/daily?{query}", headers={"Authorization": f"Bearer {boss}"}
        )
        assert (r.status_code, r.json()["code"]) == (422, "malformed"), query
