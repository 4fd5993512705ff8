#!/usr/bin/env bash
# Runs the Ruby client's unit tests (the retry rules), then the shared scenario with it (net/http and json only; see clients/README.md).
set -euo pipefail
cd "$(dirname "$0")"
command -v ruby >/dev/null || { echo "ruby not found"; exit 77; }
ruby -w test/retries_test.rb
exec ruby -w scenario.rb
