#!/usr/bin/env bash
# Compiles the C# client (netstandard2.0 sources) and the scenario runner with Mono and runs it.
# (Users build src/ContactVerify.csproj with the .NET SDK; it is not packaged in Debian.)
set -euo pipefail
cd "$(dirname "$0")"
command -v mcs >/dev/null && command -v mono >/dev/null || { echo "mono-devel not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mcs -nologo -warnaserror -target:library -out:"$out/ContactVerify.dll" \
  -r:System.Net.Http.dll -r:System.Runtime.Serialization.dll src/*.cs
mcs -nologo -warnaserror -out:"$out/Scenario.exe" -r:"$out/ContactVerify.dll" \
  -r:System.Net.Http.dll -r:System.Runtime.Serialization.dll -r:System.Json.dll scenario/Scenario.cs
exec mono "$out/Scenario.exe"
