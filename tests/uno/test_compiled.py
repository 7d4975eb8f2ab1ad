"""The compiled engine (mazziere/_compiled.py) is the pure one: the same random games give
the same hash of every step (and of greedy's decision at every step: its rules of thumb are
compiled too), and the modules' doctests pass on the pure sources.

The pure run happens in a subprocess with ``MAZZIERE_PURE=1`` (the guard then imports the
``.py`` sources); the in-process run uses whatever this install has, compiled or not, so on
a pure install the test still checks the guard's switch and the doctests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mazziere._compiled import COMPILED_MODULES, compiled_state

ROOT = Path(__file__).resolve().parents[2]

TRACE = r"""
import hashlib, json, random, sys
from mazziere.rng import SplitMixRng
from mazziere.uno import PRESETS, Game
from mazziere.uno.bots.policy import Sight, decide
from mazziere._compiled import compiled_state

out = {"state": compiled_state()}
for name, rules in PRESETS.items():
    players = max(rules.min_players, min(4, rules.max_players))
    h = hashlib.sha256()
    steps = 0
    for game in range(int(sys.argv[1])):
        g = Game.new(rules, players, SplitMixRng(game))
        pick = random.Random(game)
        for e in g.events:
            h.update(str(e).encode())
        while not g.is_over and steps < 200_000:
            seat = g.current
            legal = g.legal_actions(seat)
            action = legal[pick.randrange(len(legal))]
            greedy = decide(Sight.of_game(g, seat))  # the compiled rules of thumb too
            h.update(f"{seat}:{action}:{len(legal)}:{greedy}".encode())
            for e in g.push(action, seat):
                h.update(str(e).encode())
            steps += 1
    out[name] = [h.hexdigest(), steps]
print(json.dumps(out))
"""


def _run(env_extra: dict[str, str], games: int) -> dict[str, object]:
    env = {**os.environ, **env_extra}
    done = subprocess.run(
        [sys.executable, "-c", TRACE, str(games)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_engine_plays_the_same_games_as_the_pure_sources() -> None:
    pure = _run({"MAZZIERE_PURE": "1"}, games=3)
    here = _run({}, games=3)
    assert pure.pop("state") == "pure (MAZZIERE_PURE=1)" or compiled_state() == "pure"
    assert here.pop("state") == compiled_state()
    assert here == pure  # per preset: the hash of every step and event, and the step count


def test_compiled_modules_doctests_pass_on_the_pure_sources() -> None:
    script = (
        "import doctest, importlib, sys\n"
        f"mods = {list(COMPILED_MODULES)!r}\n"
        "failed = sum(doctest.testmod(importlib.import_module(m)).failed for m in mods)\n"
        "sys.exit(1 if failed else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "MAZZIERE_PURE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


PROBE = r"""
import json, sys
from numba import njit
from mazziere._compiled import compiled_state
from mazziere.sim.casino_kernel.compiling import share
from mazziere.uno.matching import face_matches

share(face_matches)


@njit(cache=True)
def probe(card, top):
    return face_matches(card, top, -1, False)


value = probe(1, 1)
hits = sum(probe.stats.cache_hits.values())
print(json.dumps({"state": compiled_state(), "value": value, "hits": hits}))
"""


def test_numba_cache_of_a_shared_rule_loads_whether_the_modules_run_compiled_or_pure(
    tmp_path: Path,
) -> None:
    """A function numba compiled from a compiled module's source records the source copy's
    module name in its on-disk cache; a later process running the pure sources (or the
    compiled ones, after a pure run) must load that cache, not fail to import the name."""
    (tmp_path / "probe.py").write_text(PROBE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    env.pop("MAZZIERE_PURE", None)
    runs = []
    for pure in (False, True, False):
        done = subprocess.run(
            [sys.executable, str(tmp_path / "probe.py")],
            cwd=tmp_path,
            env={**env, "MAZZIERE_PURE": "1"} if pure else env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert [r["value"] for r in runs] == [True, True, True]
    assert runs[1]["state"].startswith("pure") and runs[1]["hits"] == 1  # loaded, not compiled
    assert runs[2]["hits"] == 1
