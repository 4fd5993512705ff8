#!/usr/bin/env bash
# Runs the Python client's unit tests (the retry rules), then the shared scenario with it (standard library only; see clients/README.md).
set -euo pipefail
cd "$(dirname "$0")"
python=$(command -v python3 || true)
[ -n "$python" ] || { echo "python3 not found"; exit 77; }
"$python" -m unittest discover -s tests -q
exec "$python" scenario.py
