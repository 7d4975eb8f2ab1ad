"""What an operator graphs (docs/operators.md "Metrics"): a casino round played over a real
socket counts its stake and payout by game once committed, tables are counted by game and
status, and the background checks (the ledger check, the RTP watch) put their results in
``/metrics`` on SQLite and PostgreSQL; with several processes one of them runs the checks,
and another takes over when it stops."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from mazziere.casino.rules import PUBLISHED_RTP
from mazziere.server.metrics import Metrics
from mazziere.server.monitoring import Monitor, snapshot
from mazziere.server.settings import Settings
from mazziere.server.store.db import Database

from .live import Live, live_server
from .test_cluster import REDIS, REDIS_OK
from .test_live_games import ledger_ok, play_until_over
from .test_rtp_watch import _metric


async def _scrape_until(
    live: Live, name: str, want: float | None = None, **labels: str
) -> tuple[float, str]:
    """The sample's value once ``/metrics`` shows it (equal to ``want`` if given: the checks
    run in the background), and the whole text."""
    for _ in range(400):
        text = (await live.http.get("/metrics")).text
        value = _metric(text, name, **labels)
        if value is not None and want in (None, value):
            return value, text
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name}{labels} never showed")


async def test_stakes_payouts_tables_and_the_checks_reach_the_metrics(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(
        db_url, tmp_path, demo_credit=50_000, rtp_watch_seconds=0.05, ledger_check_seconds=0.05
    ) as live:
        a = await live.signup("carla")
        table = (await live.post("/api/tables", a["token"], {"game": "casino"})).json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table")
        await c.send({"type": "topup", "table": table, "amount": 10_000})
        upd = await c.wait(
            lambda m: m["type"] == "table" and (m["view"] or {}).get("credit") == 10_000
        )
        await c.send({"type": "stake", "table": table, "state_no": upd["state_no"], "amount": 500})
        final = await play_until_over(c, table, 0)
        paid = final["view"]["result"]["payout"]

        text = (await live.http.get("/metrics")).text
        assert _metric(text, "mazziere_stakes_cents_total", game="casino") == 500
        assert _metric(text, "mazziere_payouts_cents_total", game="casino") == (paid or None)
        assert _metric(text, "mazziere_tables", game="casino", status="open") == 1
        assert _metric(text, "mazziere_tables_open") == 1
        assert _metric(text, "mazziere_players_connected") == 1
        played = _metric(text, "mazziere_decisions_total", game="casino", actor="player")
        assert played is not None and played >= 1

        ok, text = await _scrape_until(live, "mazziere_check_ok", check="ledger")
        assert ok == 1 and _metric(text, "mazziere_check_problems", check="ledger") == 0
        assert (_metric(text, "mazziere_check_timestamp_seconds", check="ledger") or 0) > 0
        await _scrape_until(live, "mazziere_rtp_rounds", 1, game="casino", window="all")
        realised, text = await _scrape_until(
            live, "mazziere_rtp_realised", paid / 500, game="casino", window="all"
        )
        assert _metric(text, "mazziere_rtp_theoretical", game="casino") == PUBLISHED_RTP
        await c.close()
        await ledger_ok(live)


async def test_the_ledger_check_reads_one_snapshot_while_money_moves(database: Database) -> None:
    from mazziere.server.store import ledger

    async with database.write() as db:
        await ledger.post(db, "first", "demo_credit", "", [(ledger.MINT, -5), ("house", 5)])
    async with database.session() as reading:
        await snapshot(reading)
        before = await ledger.check(reading)
        async with database.write() as db:  # committed while the check reads
            await ledger.post(db, "second", "demo_credit", "", [(ledger.MINT, -7), ("house", 7)])
        again = await ledger.check(reading)
        await reading.rollback()
    assert before.transactions == again.transactions == 1 and again.house == 5
    async with database.session() as db:
        assert (await ledger.check(db)).transactions == 2


@pytest.mark.skipif(not REDIS_OK, reason="needs Redis (CI has it)")
async def test_one_process_runs_the_checks_and_another_takes_over(tmp_path: Path) -> None:
    from mazziere.server.cluster import Cluster

    prefix = f"mzt:{uuid.uuid4().hex[:8]}:"
    server = SimpleNamespace(tables={}, hub=SimpleNamespace(conns={}), seating=None)
    nodes = [Cluster(server, REDIS, prefix, lease_seconds=5) for _ in range(2)]
    metrics = [Metrics(), Metrics()]
    settings = Settings(data_dir=tmp_path, settle_heap=False)
    first, second = (
        Monitor(settings, None, m, n)  # type: ignore[arg-type]
        for m, n in zip(metrics, nodes, strict=True)
    )
    try:
        assert await first._leads(60) and not await second._leads(60)
        metrics[0].checked("ledger", 0, 0.1)
        assert await first._leads(60) and not await second._leads(60)  # renewed, still held
        await nodes[0].redis.delete(nodes[0].bus.key("monitor"))  # its hold ran out
        assert await second._leads(60) and not await first._leads(60)
        assert first.leading is False and second.leading is True
        text = metrics[0].render().decode()
        assert "mazziere_check_ok{" not in text  # the process that lost it shows nothing stale
    finally:
        await nodes[0].redis.delete(nodes[0].bus.key("monitor"))
        for n in nodes:
            await n.redis.aclose()


def _exported() -> set[str]:
    """Every sample name a server's registry writes (``_total``, ``_bucket``... included)."""
    m = Metrics()
    m.money("casino", 1, 1)
    m.checked("ledger", 0, 0.0)
    m.check_failures.labels("ledger").inc()
    m.tables_by_game.labels("casino", "open").set(1)
    for gauge in m._rtp_gauges:  # every label set of the RTP watch, once
        gauge.labels(*(["casino", "all"][: len(gauge._labelnames)])).set(1)
    m.decisions.labels("casino", "player").inc()
    m.latency.observe(0.01)
    m.outbox({}, datetime.now(UTC))
    text = m.render().decode()
    return set(re.findall(r"^(mazziere_[a-z_]+)", text, re.MULTILINE))


def test_the_dashboard_and_the_alerts_read_only_metrics_the_server_writes() -> None:
    ops = Path(__file__).resolve().parents[2] / "docs" / "ops"
    dashboard = json.loads((ops / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    exprs += [v["query"]["query"] for v in dashboard["templating"]["list"]]
    rules = (ops / "alerts.yml").read_text()
    exprs += re.findall(r"^\s+expr: (.+)$", rules, re.MULTILINE)
    assert len(exprs) > len(dashboard["panels"])
    assert "rule_files:\n  - alerts.yml" in (ops / "prometheus.yml").read_text()
    exported = _exported()
    read = {name for e in exprs for name in re.findall(r"mazziere_[a-z_]+", e)}
    assert read and read <= exported, read - exported
    for needed in ("mazziere_rtp_out_of_band", "mazziere_players_connected", "mazziere_tables",
                   "mazziere_decisions_total", "mazziere_stakes_cents_total",
                   "mazziere_payouts_cents_total", "mazziere_check_ok"):  # fmt: skip
        assert needed in read, needed
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))


def test_the_checks_settings_are_refused_when_they_cannot_work(tmp_path: Path) -> None:
    from mazziere.server.settings import SettingsError

    for bad in ({"rtp_watch_seconds": -1.0}, {"ledger_check_seconds": -5.0}):
        with pytest.raises(SettingsError, match="0 or more"):
            Settings(data_dir=tmp_path, **bad).check()  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="no certification report"):
        Settings(data_dir=tmp_path, rtp_report=str(tmp_path / "missing.json")).check()
    Settings(data_dir=tmp_path, rtp_watch_seconds=0, ledger_check_seconds=0).check()
