#!/usr/bin/env bash
# Runs one Python program of the README (test/clients.readme-snippets.test.ts) as the README tells
# a newcomer, offline: a virtualenv (with the system's site packages, for Debian's httpx) into
# which `pip install --no-index --no-build-isolation <this folder>` installs the library, and the
# program run with the virtualenv's python. The virtualenv is made once per CV_SNIPPET_WORK.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
# The first python3 that has httpx (pyenv's python3 may shadow Debian's /usr/bin/python3).
python=""
for candidate in ${CV_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import httpx' 2>/dev/null; then
    python="$(command -v "$candidate")"
    break
  fi
done
[ -n "$python" ] || { echo "no python3 with httpx (Debian: apt-get install python3 python3-httpx)"; exit 77; }
{ "$python" -c 'import setuptools, wheel, venv' && "$python" -m pip --version; } >/dev/null 2>&1 \
  || { echo "pip, setuptools, wheel or venv missing for $python (Debian: python3-pip python3-setuptools python3-wheel python3-venv)"; exit 77; }
app="${CV_SNIPPET_WORK:-$(mktemp -d)}/python-app"
if [ ! -x "$app/.venv/bin/python" ]; then
  mkdir -p "$app"
  (
    cd "$app"
    "$python" -m venv --system-site-packages .venv
    .venv/bin/pip install --no-index --no-build-isolation "$here"
  ) >"$app/pip.log" 2>&1 || { cat "$app/pip.log"; rm -rf "$app/.venv"; exit 1; }
fi
cp "$file" "$app/snippet.py"
cd "$app"
exec .venv/bin/python snippet.py
