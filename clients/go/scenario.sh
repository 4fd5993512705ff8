#!/usr/bin/env bash
# Runs the shared scenario (clients/scenario.json) with the Go client against a running service
# (standard library only, offline). Its unit and drift tests are test.sh's.
set -euo pipefail
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "go not found"; exit 77; }
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
exec go run ./cmd/scenario
