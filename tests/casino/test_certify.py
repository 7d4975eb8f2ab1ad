"""The certification report: its figures are the ones measured (RTP, payout
shares, the skill range), a player's result over n rounds is the exact convolution, the RNG
tests run, and ``mazziere certify casino`` writes HTML, JSON and the chart."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from mazziere.cli import app
from mazziere.sim.certify import central_range, certify_casino, result_distribution, write_report
from mazziere.sim.rtp import run_rtp

SMALL = {"search_rounds": 60, "shuffles": 300, "draws": 3000}


def test_result_distribution_is_the_n_fold_convolution() -> None:
    shares = [0.6, 0.05, 0.1, 0.25]
    direct = np.array([1.0])
    for n in range(1, 7):
        direct = np.convolve(direct, shares)
        assert np.allclose(result_distribution(shares, n), direct, atol=1e-12)
    big = result_distribution(shares, 10_000)
    mean = float((np.arange(big.size) * big).sum())
    assert (
        abs(big.sum() - 1) < 1e-9 and abs(mean - 10_000 * 1.0) < 1e-6 * 10_000
    )  # mean payout 1.0 a round


def test_central_ranges_widen_with_the_level() -> None:
    dist = result_distribution([0.6, 0.05, 0.1, 0.25], 1000)
    r90, r99 = central_range(dist, 1000, 0.90), central_range(dist, 1000, 0.99)
    assert r99[0] < r90[0] < 0 < r90[1] < r99[1]


def test_the_report_shows_the_measured_rtp_and_skill_range(tmp_path: Path) -> None:
    result = certify_casino(20_000, seed=4, workers=1, command="test", **SMALL)
    d = result.data
    rtp = run_rtp(20_000, seed=4, workers=1)
    assert d["rtp"]["estimate"] == rtp.rtp.estimate
    assert [d["payouts"][f"x{k}"]["rounds"] for k in range(4)] == list(rtp.paid_counts)
    assert d["legal_minimum"]["met"] is (rtp.rtp.low >= 0.90)
    skill = d["skill_range"]
    assert skill["random"]["rtp"] < skill["default"]["rtp"]
    assert skill["search"]["rounds"] == 60 and skill["default"]["rounds"] == 20_000
    assert d["largest_payout"]["gli11_reachable_in_1e8"]
    for test in ("shuffle_uniformity", "randbelow_108", "serial_correlation"):
        assert 0.0 <= d["rng"][test]["p_value"] <= 1.0
    needed = list(d["rounds_needed"].values())
    assert needed == sorted(needed) and needed[1] > 90 * needed[0]  # 10x narrower: 100x rounds
    paths = write_report(result, tmp_path / "out")
    assert [p.name for p in paths] == ["report.html", "report.json", "payouts.png"]
    page = paths[0].read_text()
    assert f"{d['rtp']['estimate']:.4%}" in page and "data:image/png;base64," in page
    assert json.loads(paths[1].read_text())["rounds"] == 20_000


def test_cli_writes_the_report_and_refuses_a_bad_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cert"
    args = ["certify", "casino", "--rounds", "5000", "--search-rounds", "20", "--workers", "1"]
    ok = runner.invoke(app, [*args, "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    assert (out / "report.html").exists() and (out / "report.json").exists()
    data = json.loads((out / "report.json").read_text())
    assert data["software"]["command"].startswith("mazziere")
    bad = runner.invoke(app, [*args, "--out", str(tmp_path / "no" / "such" / "dir")])
    assert bad.exit_code == 2 and "does not exist" in bad.stderr
