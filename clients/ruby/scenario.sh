#!/usr/bin/env bash
# Runs the shared scenario with the Ruby client against a running service (see clients/README.md);
# the library's own tests are test.sh.
set -euo pipefail
cd "$(dirname "$0")"
command -v ruby >/dev/null || { echo "ruby not found"; exit 77; }
exec ruby -w scenario.rb
