#!/usr/bin/env bash
# Install the browser the browser tests drive (tests/browser): Debian's Chromium, when
# `chromium` is not on the PATH already (what the tests look for: shutil.which("chromium")).
# Non-interactive; needs root (or sudo) for apt-get. Playwright's own browser download is not
# used: the tests launch this Chromium by path.
set -euo pipefail

PY=${PYTHON:-python3}
if "$PY" -c 'import shutil, sys; sys.exit(0 if shutil.which("chromium") else 1)'; then
    echo "install-browser: chromium is already installed ($(command -v chromium))"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-browser: chromium is missing and this user cannot run apt-get (not root, no sudo)" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q chromium

"$PY" -c 'import shutil, sys; p = shutil.which("chromium"); print(f"install-browser: chromium at {p}"); sys.exit(0 if p else 1)'
