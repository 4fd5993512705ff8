#!/usr/bin/env bash
# Runs one README snippet (a whole Go program, main.go) as the README tells a newcomer to: in a
# module of its own whose go.mod replaces the library's module path with this folder, tidied
# offline (the library needs nothing but the standard library).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v go >/dev/null || { echo "go not found"; exit 77; }
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
cd "$(dirname "$1")"
[ -f go.mod ] || go mod init example.com/snippet >/dev/null 2>&1
go mod edit -replace github.com/contact-verify/contact-verify-go="$here"
go mod tidy
# A file named on the command line is built even with a //go:build ignore line (readme-row.go).
exec go run "$(basename "$1")"
