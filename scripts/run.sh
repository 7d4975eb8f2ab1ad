#!/usr/bin/env bash
# Install mazziere into ./.venv and start the main program (pass its arguments through).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# Install (and compile the engine, see setup.py) only when the install is missing or its
# inputs changed since the last one: a restart then starts at once.
stamp=$(cat pyproject.toml setup.py mazziere/_compiled.py mazziere/uno/*.py | sha256sum | cut -c1-64)
if [ ! -x .venv/bin/python ]; then
    echo "run.sh: creating the virtual environment in .venv..." >&2
    "$PY" -m venv .venv
fi
. .venv/bin/activate
if [ "$(cat .venv/.mazziere-installed 2>/dev/null)" != "$stamp" ] || ! command -v mazziere >/dev/null; then
    echo "run.sh: installing mazziere into .venv: the dependencies, then the engine compiled" \
        "with mypyc (the first time takes a few minutes; pip shows its progress below)..." >&2
    set +e
    python -m pip install -e '.[all]' 2>&1 \
        | grep --line-buffered -E '^(Collecting|Building|Installing|Successfully|Obtaining|ERROR|error)' >&2
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ] || ! command -v mazziere >/dev/null; then
        echo "run.sh: the install failed (run: . .venv/bin/activate && pip install -e '.[all]')" >&2
        exit 1
    fi
    echo "$stamp" > .venv/.mazziere-installed
    echo "run.sh: installed." >&2
fi
if [ "$#" -eq 0 ]; then set -- play uno --preset house --players 4; fi
exec mazziere "$@"
