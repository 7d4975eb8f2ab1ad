"""Ray: the simulations' chunks on a Ray cluster give exactly what the local process
pool gives for the same seed (``mazziere rtp --ray``, ``mazziere sim uno|poker --ray``), the
progress moves as chunks finish, and a missing Ray or a bad ``--address`` is one line, exit 2.

One local Ray (``num_cpus=2``) serves the whole module. Without Ray installed these tests are
skipped, except under CI (``CI`` set), where Ray must be there: ``scripts/test.sh`` installs
the ``ray`` extra.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from mazziere.cli import app
from mazziere.cli.poker import simulate
from mazziere.errors import OptionError
from mazziere.poker import Rules as PokerRules
from mazziere.sim.pool import run_chunks
from mazziere.sim.ray_backend import INSTALL_HINT, RayCluster, check_address
from mazziere.sim.rtp import RtpResult, run_rtp
from mazziere.sim.uno_sim import UnoSimResult, simulate_uno
from mazziere.uno import find_preset

HAVE_RAY = importlib.util.find_spec("ray") is not None
if os.environ.get("CI") and not HAVE_RAY:  # CI installs the ray extra: never skip silently
    raise RuntimeError("Ray is not installed (pip install -e '.[ray]')")

skip_without_ray = pytest.mark.skipif(
    not HAVE_RAY, reason="needs Ray (pip install 'mazziere[ray]')"
)
one_ray = pytest.mark.xdist_group("ray")  # one local Ray for these tests, not one per process
runner = CliRunner()
CPUS = 2
TIMING_KEYS = {"rounds_per_second", "wall_seconds", "games_per_second", "seconds"}


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    """A local Ray of two CPUs started for this module (and stopped after it)."""
    if not HAVE_RAY:
        pytest.skip("needs Ray")
    with RayCluster(num_cpus=CPUS) as c:
        yield c


def _rtp_numbers(r: RtpResult) -> RtpResult:
    return dataclasses.replace(r, wall_seconds=0.0)


def _numbers(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING_KEYS}


# ------------------------------------------------------------------ the library
@pytest.mark.parametrize("strategy", ["default", "random"])
@skip_without_ray
@one_ray
def test_rtp_on_ray_equals_the_process_pool(cluster: RayCluster, strategy: str) -> None:
    seen: list[int] = []
    on_ray = run_rtp(
        60_000, seed=7, strategy=strategy, cluster=cluster, progress=lambda d, _t: seen.append(d)
    )
    local = run_rtp(60_000, seed=7, workers=CPUS, strategy=strategy)
    assert on_ray.workers == CPUS and len(seen) > 2
    assert seen == sorted(seen) and seen[-1] == 60_000
    assert _rtp_numbers(on_ray) == _rtp_numbers(local)
    assert len(on_ray.checkpoints) > 10


@skip_without_ray
@one_ray
def test_certify_on_ray_equals_the_local_report(cluster: RayCluster) -> None:
    """``certify --ray`` measures what the local processes measure."""
    from mazziere.sim.certify import certify_casino

    kw: dict[str, Any] = {"seed": 3, "search_rounds": 40, "shuffles": 200, "draws": 2000}
    on_ray = certify_casino(30_000, cluster=cluster, **kw).data
    local = certify_casino(30_000, workers=CPUS, **kw).data
    assert on_ray["ray"] and not local["ray"]
    skip = {"wall_seconds", "rounds_per_second", "ray"}
    assert {k: v for k, v in on_ray.items() if k not in skip} == {
        k: v for k, v in local.items() if k not in skip
    }


@skip_without_ray
@one_ray
def test_uno_sim_on_ray_equals_the_process_pool(cluster: RayCluster) -> None:
    rules = find_preset("house")  # full matches to 500 points
    bots = ["greedy", "random", "autoplay"]
    seen: list[int] = []
    on_ray = simulate_uno(
        rules, 3, 24, 7, bots, progress=lambda d, _t: seen.append(d), cluster=cluster
    )
    local = simulate_uno(rules, 3, 24, 7, bots, workers=CPUS)

    def same(r: UnoSimResult) -> UnoSimResult:
        return dataclasses.replace(r, wall_seconds=0.0)

    assert same(on_ray) == same(local) and on_ray.workers == CPUS
    assert seen[-1] == 24 and seen == sorted(seen)


@skip_without_ray
@one_ray
def test_poker_sim_on_ray_equals_the_process_pool(cluster: RayCluster) -> None:
    rules = PokerRules(deck=32)
    seen: list[int] = []
    on_ray, _ = simulate(
        rules, "hard", "baseline", 1200, "3", CPUS, lambda d, _t: seen.append(d), cluster
    )
    local, _ = simulate(rules, "hard", "baseline", 1200, "3", CPUS)
    assert on_ray == local and on_ray.deals == 1200 and seen[-1] == 1200


@skip_without_ray
@one_ray
def test_a_job_error_is_raised_as_on_the_pool(cluster: RayCluster) -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        run_chunks(int, ["1", "x", "3"], CPUS, cluster=cluster)
    assert run_chunks(int, ["1", "2", "3"], CPUS, cluster=cluster) == [1, 2, 3]


# ------------------------------------------------------------------ the command line
def _json(args: list[str]) -> dict[str, Any]:
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    data: dict[str, Any] = json.loads(r.stdout)
    return data


@skip_without_ray
@one_ray
def test_cli_ray_flags_give_the_local_results(cluster: RayCluster) -> None:
    rtp = ["rtp", "--rounds", "30000", "--seed", "5", "--workers", "2", "--json"]
    assert _numbers(_json([*rtp, "--ray"])) == _numbers(_json(rtp))
    uno = ["sim", "uno", "--preset", "classic", "--games", "16", "--seed", "4", "--json"]
    on_ray = _json([*uno, "--ray"])
    assert on_ray["workers"] == CPUS  # every core of the cluster
    assert _numbers(on_ray) == _numbers(_json([*uno, "--workers", "2"]))
    poker = ["sim", "poker", "--deck", "32", "--a", "normal", "--b", "easy", "--deals", "600"]
    poker += ["--seed", "2", "--json"]
    assert _numbers(_json([*poker, "--ray"])) == _numbers(_json([*poker, "--workers", "2"]))


@skip_without_ray
@one_ray
def test_an_unreachable_address_is_one_line_exit_2() -> None:
    for args in (["rtp", "--rounds", "100"], ["sim", "uno"], ["sim", "poker"]):
        r = runner.invoke(app, [*args, "--ray", "--address", "127.0.0.1:1"])
        assert r.exit_code == 2, r.output
        assert "no Ray cluster answers at 127.0.0.1:1" in r.output
        assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


@skip_without_ray
@one_ray
def test_another_process_joins_the_cluster_by_address(cluster: RayCluster) -> None:
    """``--address HOST:PORT`` from another process: this package shipped to the workers."""
    import ray

    address = ray.get_runtime_context().gcs_address
    args = ["sim", "uno", "--preset", "classic", "--games", "12", "--seed", "9", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "mazziere", *args, "--address", address],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    joined = json.loads(done.stdout)
    assert joined["workers"] == CPUS
    assert _numbers(joined) == _numbers(_json([*args, "--workers", "2"]))


# ------------------------------------------------------------------ without Ray
def test_a_malformed_address_is_refused_before_anything_starts() -> None:
    for bad in ("nowhere", "host:port", "host:70000", "http://h:1", ""):
        with pytest.raises(OptionError) as e:
            check_address(bad)
        assert e.value.code == "bad_ray_address"
    r = runner.invoke(app, ["sim", "uno", "--address", "nowhere"])
    assert r.exit_code == 2 and "--address is auto, HOST:PORT" in r.output


def test_ray_missing_is_one_line_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails
    for args in (["rtp", "--rounds", "100"], ["sim", "uno"], ["sim", "poker", "--deals", "10"]):
        r = runner.invoke(app, [*args, "--ray"])
        assert r.exit_code == 2, r.output
        assert r.output.strip() == f"error: {INSTALL_HINT}"
