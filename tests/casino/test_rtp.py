"""docs/rules/casino.md "Return to player (RTP)": the RTP driver and ``mazziere rtp`` (N rounds with
both strategies, 95% interval, win rate, payout distribution; identical for any worker count
and for either engine)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from typer.testing import CliRunner

from mazziere.cli.casino import app, parse_count
from mazziere.errors import OptionError
from mazziere.sim.rtp import (
    RtpResult,
    checkpoint_rounds,
    payout_interval,
    plan_jobs,
    run_rtp,
)

runner = CliRunner()
TIMING_KEYS = {"rounds_per_second", "wall_seconds", "workers"}
REQUIRED_KEYS = {"rounds", "rtp", "ci95", "win_rate", "payouts", "rounds_per_second"}


def _numbers(r: RtpResult) -> dict[str, Any]:
    """Everything but the timings and the worker count."""
    data = {k: v for k, v in r.as_json().items() if k not in TIMING_KEYS}
    data["checkpoints"] = r.checkpoints
    data["turns"] = r.turns
    return data


def test_rtp_is_the_same_for_one_and_two_workers() -> None:
    assert len(plan_jobs("kernel", 11, 4000, 2)) > 2
    one = run_rtp(4000, seed=11, workers=1)
    two = run_rtp(4000, seed=11, workers=2)
    assert _numbers(one) == _numbers(two)
    assert two.workers == 2 and one.workers == 1


def test_python_and_kernel_engines_give_identical_results() -> None:
    py = run_rtp(400, seed=5, workers=2, engine="python")
    kernel = run_rtp(400, seed=5, workers=1, engine="kernel")
    assert py.engine == "python" and kernel.engine == "kernel"
    assert {k: v for k, v in _numbers(py).items() if k != "engine"} == {
        k: v for k, v in _numbers(kernel).items() if k != "engine"
    }


def test_rtp_json_keys_interval_and_payout_shares() -> None:
    r = run_rtp(20_000, seed=3, workers=1)
    data = json.loads(json.dumps(r.as_json()))
    assert set(data) >= REQUIRED_KEYS
    assert data["rounds"] == 20_000
    low, high = data["ci95"]
    assert low < data["rtp"] < high
    assert set(data["payouts"]) == {"0", "1", "2", "3"}
    assert math.isclose(sum(data["payouts"].values()), 1.0, abs_tol=1e-12)
    paid = sum(int(k) * v for k, v in data["payouts"].items())
    assert math.isclose(paid, data["rtp"], rel_tol=1e-12)
    assert math.isclose(data["win_rate"], 1 - data["payouts"]["0"], rel_tol=1e-12)
    wl, wh = data["win_rate_ci95"]
    assert wl < data["win_rate"] < wh


def test_rtp_interval_is_the_normal_approximation_of_the_payout_variance() -> None:
    ci = payout_interval([2, 0, 0, 2])  # payouts 0, 0, 3, 3: mean 1.5, sample variance 3
    half = 1.959963984540054 * math.sqrt(3 / 4)
    assert ci.estimate == 1.5
    assert math.isclose(ci.low, 1.5 - half) and math.isclose(ci.high, 1.5 + half)
    one = payout_interval([0, 0, 1, 0])
    assert (one.estimate, one.low, one.high) == (2.0, 2.0, 2.0)


def test_checkpoints_are_log_spaced_and_end_at_the_final_estimate() -> None:
    marks = checkpoint_rounds(10**6)
    assert marks[0] == 100 and marks[-1] == 10**6 and marks == sorted(set(marks))
    assert len(marks) == 81
    assert checkpoint_rounds(50) == [50]
    r = run_rtp(5000, seed=2, workers=1)
    assert [p.rounds for p in r.checkpoints] == checkpoint_rounds(5000)
    last = r.checkpoints[-1]
    assert (last.rtp, last.low, last.high) == (r.rtp.estimate, r.rtp.low, r.rtp.high)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"rounds": 0}, "bad_rounds"),
        ({"rounds": 10, "workers": 0}, "bad_workers"),
        ({"rounds": 10, "engine": "turbo"}, "unknown_engine"),
        ({"rounds": 10, "seed": -1}, "bad_seed"),
        ({"rounds": 10, "seed": 2**64}, "bad_seed"),
    ],
)
def test_run_rtp_refuses_bad_runs(kwargs: dict[str, Any], code: str) -> None:
    with pytest.raises(OptionError) as e:
        run_rtp(**kwargs)
    assert e.value.code == code


def test_numbers_on_the_command_line_may_use_underscores_or_exponents() -> None:
    assert parse_count("--rounds", "100_000") == 100_000
    assert parse_count("--rounds", "1e8") == 100_000_000
    for bad in ("abc", "1.5", "inf", "nan", ""):
        with pytest.raises(OptionError):
            parse_count("--rounds", bad)


# ------------------------------------------------------------------------------ the CLI
def test_cli_json_prints_exactly_one_object() -> None:
    args = ["rtp", "--rounds", "600", "--seed", "4", "--workers", "1", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= REQUIRED_KEYS and data["rounds"] == 600 and data["seed"] == 4
    assert set(data) >= TIMING_KEYS and data["rounds_per_second"] > 0
    same = run_rtp(600, seed=4, workers=1)
    assert data["rtp"] == same.rtp.estimate and data["ci95"] == [same.rtp.low, same.rtp.high]


def test_cli_python_engine_matches_the_kernel() -> None:
    base = ["rtp", "--rounds", "200", "--seed", "8", "--workers", "1", "--json"]
    py = json.loads(runner.invoke(app, [*base, "--engine", "python"]).stdout)
    kernel = json.loads(runner.invoke(app, [*base, "--engine", "kernel"]).stdout)
    for key in ("rtp", "ci95", "win_rate", "payouts", "mean_turns"):
        assert py[key] == kernel[key]


def test_cli_table_and_plot(tmp_path: Any) -> None:
    png = tmp_path / "rtp.png"
    args = ["rtp", "-n", "3000", "--workers", "2", "--plot", str(png)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    for text in ("RTP", "95% CI", "Player win rate", "Paid x3", "rounds/s", "Legal minimum"):
        assert text in result.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rounds", "abc"], "--rounds takes a whole number, not 'abc'"),
        (["--rounds", "2.5"], "--rounds takes a whole number"),
        (["--rounds", "0"], "--rounds must be between 1 and 2**62, not 0"),
        (["--rounds", "-5"], "--rounds must be between 1"),
        (["--workers", "0"], "--workers must be at least 1, not 0"),
        (["--workers", "two"], "--workers takes a whole number"),
        (["--seed", "-1"], "--seed must be between 0 and 2**64 - 1"),
        (["--seed", "x"], "--seed takes a whole number"),
        (["--engine", "turbo"], "unknown engine 'turbo': use kernel or python"),
        (["--plot", "/no/such/folder/rtp.png"], "does not exist"),
        (["--plot", "rtp.jpg"], "--plot writes a PNG file"),
    ],
)
def test_cli_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["rtp", "--rounds", "10", *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert result.stdout == ""
