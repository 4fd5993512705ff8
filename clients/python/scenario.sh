#!/usr/bin/env bash
# Runs the shared scenario with the Python client (standard library only; see clients/README.md).
set -euo pipefail
cd "$(dirname "$0")"
python=$(command -v python3 || true)
[ -n "$python" ] || { echo "python3 not found"; exit 77; }
exec "$python" scenario.py
