#!/usr/bin/env bash
# Install mazziere into ./.venv and start the main program (pass its arguments through).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
. .venv/bin/activate
python -m pip install -q -e '.[all]' >/dev/null
if [ "$#" -eq 0 ]; then set -- play uno --preset house --players 4; fi
exec mazziere "$@"
