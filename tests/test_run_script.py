"""``scripts/run.sh`` installs only when the install is missing or its inputs
changed, says so and shows pip's progress when it does, and otherwise starts at once. The
script runs here in a copy of the repository's layout whose ``.venv`` holds a recording
``python`` (pip) and ``mazziere``, so nothing is installed."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fake_repo(tmp: Path) -> Path:
    (tmp / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "run.sh", tmp / "scripts" / "run.sh")
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy(ROOT / name, tmp / name)
    (tmp / "mazziere" / "uno").mkdir(parents=True)
    shutil.copy(ROOT / "mazziere" / "_compiled.py", tmp / "mazziere" / "_compiled.py")
    (tmp / "mazziere" / "uno" / "game.py").write_text("# the engine\n")
    bin_dir = tmp / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp / "calls.log"
    scripts = {
        # pip prints progress lines as it installs, and the install puts `mazziere` on PATH
        "python": (
            f'echo "python $*" >> {log}\n'
            'echo "Collecting msgspec"; echo "Building wheel for mazziere"\n'
            f"printf '#!/bin/sh\\necho \"mazziere $*\" >> {log}\\n' > {bin_dir}/mazziere\n"
            f"chmod +x {bin_dir}/mazziere\n"
        ),
        "activate": f'export PATH="{bin_dir}:$PATH"\n',
    }
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return tmp


def run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = "/usr/bin:/bin"
    return subprocess.run(
        ["bash", str(repo / "scripts" / "run.sh"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=True,
    )


def test_run_script_installs_once_then_starts_without_pip(tmp_path: Path) -> None:
    repo = fake_repo(tmp_path)
    log = repo / "calls.log"
    first = run(repo, "serve", "--port", "8000")
    assert "installing mazziere" in first.stderr
    assert "Collecting msgspec" in first.stderr  # pip's progress is shown
    assert "installed." in first.stderr
    assert log.read_text().splitlines() == [
        "python -m pip install -e .[all]",
        "mazziere serve --port 8000",
    ]
    # the next start: no pip, no message, straight to the program
    log.write_text("")
    again = run(repo, "serve")
    assert again.stderr == ""
    assert log.read_text().splitlines() == ["mazziere serve"]


def test_run_script_installs_again_when_the_engine_changed(tmp_path: Path) -> None:
    repo = fake_repo(tmp_path)
    run(repo, "--version")
    log = repo / "calls.log"
    log.write_text("")
    (repo / "mazziere" / "uno" / "game.py").write_text("# the engine, changed\n")
    changed = run(repo, "--version")
    assert "installing mazziere" in changed.stderr
    assert log.read_text().splitlines()[0] == "python -m pip install -e .[all]"
