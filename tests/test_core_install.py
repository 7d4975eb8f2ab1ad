"""pyproject.toml: ``pip install mazziere`` (no extras) installs the rules engines and nothing
else, and they play complete games there (docs/architecture.md "Layers").

The wheel is built once from a copy of the package (the build backend comes from PyPI through
pip's isolated build, as for any user), then installed into a new venv with ``--no-index``: a
dependency declared by mistake cannot be found and the install fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAY_ONE_OF_EACH = """
import random
import sys

from mazziere import casino, poker, uno
from mazziere.poker.bots import find_bot

chooser = random.Random(7)

state = uno.new_game(uno.find_preset("house"), 3, rng=11)
for _ in range(100_000):
    if state.is_over:
        break
    seat, action = chooser.choice(uno.all_legal_actions(state))
    state, _ = uno.apply(state, seat, action)
assert state.is_over and state.result is not None
print("uno", state.result.winner)

r, _ = casino.new_round(casino.CasinoRules(), casino.CasinoRules().min_stake, rng=5)
while r.result is None:
    r, _ = casino.apply(r, chooser.choice(casino.legal_actions(r)))
print("casino", r.result.winner, casino.settle(r))

for players in (None, ("easy", "baseline")):
    state = poker.new_game(poker.Rules(), rng=3)
    while state.deal_no == 1 and not state.is_over:
        seat = state.current
        if players is None:
            action = chooser.choice(poker.legal_actions(state, seat))
        else:
            action = find_bot(players[seat]).act(poker.view(state, seat), chooser)
        state, _ = poker.apply(state, seat, action)
    print("poker", state.bankrolls)

allowed = set(sys.stdlib_module_names) | {"mazziere", "__main__", "_distutils_hack"}
outside = sorted(
    n for n in {name.split(".")[0] for name in sys.modules} - allowed
    if not n.endswith("__mypyc")  # mypyc's runtime of the compiled engine modules
)
assert not outside, outside  # setuptools' startup hook aside, nothing but the stdlib
"""


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_core_install_has_no_third_party_package_and_plays_each_game(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "mazziere",
        source / "mazziere",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"),
    )
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", dist, source, cwd=tmp_path)

    env_dir = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", env_dir, cwd=tmp_path)
    python = env_dir / "bin" / "python"
    clean = {"PATH": os.environ.get("PATH", ""), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    _run(
        python, "-m", "pip", "install", "-q", "--no-index", "--find-links", dist, "mazziere",
        cwd=tmp_path, env=clean,
    )  # fmt: skip

    listed = json.loads(_run(python, "-m", "pip", "list", "--format=json", cwd=tmp_path, env=clean))
    assert {p["name"].lower() for p in listed} <= {"pip", "setuptools", "wheel", "mazziere"}

    out = _run(python, "-c", PLAY_ONE_OF_EACH, cwd=tmp_path, env=clean)
    assert [line.split()[0] for line in out.splitlines()] == ["uno", "casino", "poker", "poker"]
