#!/usr/bin/env bash
# Builds the C# client with Mono as the README does (build-dll.sh) and runs the shared scenario
# ($CV_SCENARIO) with it.
set -euo pipefail
cd "$(dirname "$0")"
{ command -v mcs && command -v mono; } >/dev/null || { echo "mcs/mono not found (Debian: apt-get install mono-devel)"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
dll=$(bash build-dll.sh "$out")
mcs -nologo -langversion:7.2 -warnaserror -out:"$out/Scenario.exe" -r:"$dll" \
  -r:System.Net.Http.dll -r:System.Json.dll scenario/Scenario.cs
exec mono "$out/Scenario.exe"
