#!/usr/bin/env bash
# Install mazziere into ./.venv and start the main program (pass its arguments through).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
. .venv/bin/activate
# Install (and compile the engine, see setup.py) only when the install is missing or its
# inputs changed since the last one: a restart then starts at once.
stamp=$(cat pyproject.toml setup.py mazziere/_compiled.py mazziere/uno/*.py | sha256sum | cut -c1-64)
if [ "$(cat .venv/.mazziere-installed 2>/dev/null)" != "$stamp" ] || ! command -v mazziere >/dev/null; then
    echo "run.sh: installing mazziere into .venv (the first time takes a few minutes)..." >&2
    python -m pip install -q -e '.[all]' >/dev/null
    echo "$stamp" > .venv/.mazziere-installed
fi
if [ "$#" -eq 0 ]; then set -- play uno --preset house --players 4; fi
exec mazziere "$@"
