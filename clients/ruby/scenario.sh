#!/usr/bin/env bash
# Runs the shared scenario with the Ruby client (net/http and json only; see clients/README.md).
set -euo pipefail
cd "$(dirname "$0")"
command -v ruby >/dev/null || { echo "ruby not found"; exit 77; }
exec ruby -w scenario.rb
