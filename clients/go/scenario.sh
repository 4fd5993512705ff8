#!/usr/bin/env bash
# Vets the Go client, runs its unit tests (the retry rules) and the shared scenario with it (standard library only, offline).
set -euo pipefail
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "go not found"; exit 77; }
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
go vet ./...
go test -count=1 ./...
exec go run ./cmd/scenario
