#!/usr/bin/env bash
# The Go client's own test run, offline (no module proxy; the standard library only): formatting,
# go vet, the unit tests and the drift test against the OpenAPI document ($CV_OPENAPI), then the
# README's install path: a fresh module that depends on this folder through go.mod's replace.
set -euo pipefail
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "go not found"; exit 77; }
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
export CV_OPENAPI="$(realpath "${CV_OPENAPI:-../openapi.json}")"
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"
here="$PWD"

unformatted="$(gofmt -l .)"
[ -z "$unformatted" ] || { echo "gofmt would change: $unformatted"; exit 1; }
go vet ./...
go test -count=1 ./...

# A newcomer's module, made with the README's commands: it builds and vets against this folder.
app="$work/go-app"
rm -rf "$app" && mkdir -p "$app" && cd "$app"
go mod init example.com/myapp >/dev/null 2>&1
go mod edit -replace github.com/contact-verify/contact-verify-go="$here"
cat > main.go <<'GO'
package main

import (
	"fmt"

	contactverify "github.com/contact-verify/contact-verify-go"
)

func main() { fmt.Println(contactverify.Version, contactverify.ChannelEmail) }
GO
go mod tidy
grep -q '^require github.com/contact-verify/contact-verify-go v0.0.0-00010101000000-000000000000$' go.mod \
  || { echo "go mod tidy did not write the require line the README shows:"; cat go.mod; exit 1; }
go vet . && go run . >/dev/null
echo "go: vet, tests, drift and the README's install path passed"
