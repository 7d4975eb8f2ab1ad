#!/usr/bin/env bash
# Install everything the tests need into ./.venv, then lint, type-check and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip >/dev/null
python -m pip install -q -e '.[all,dev,bench,ray]'  # ray: tests/test_ray.py on a local Ray
bash scripts/install-browser.sh   # Debian's Chromium for the browser tests (tests/browser)
ruff check .
ruff format --check .
mypy
python -m pytest -n auto --dist loadgroup -rfER --doctest-modules mazziere tests "$@"  # loadgroup: one local Ray (tests/test_ray.py); -rfER: failures, errors and reruns by name
