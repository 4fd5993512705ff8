#!/usr/bin/env bash
# Runs one README program (test/clients.readme-snippets.test.ts) as the README tells a newcomer:
# ContactVerify.dll built once with build-dll.sh (per CV_SNIPPET_WORK) and copied next to the
# program, saved as Program.cs, compiled with `mcs -langversion:7.2` and run with mono.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
{ command -v mcs && command -v mono; } >/dev/null || { echo "mcs/mono not found (Debian: apt-get install mono-devel)"; exit 77; }
build="${CV_SNIPPET_WORK:-$(mktemp -d)}/csharp-dll"
if [ ! -f "$build/ContactVerify.dll" ]; then
  bash "$here/build-dll.sh" "$build" >"$build.log" 2>&1 || { cat "$build.log"; exit 1; }
fi
cd "$(dirname "$1")"
[ "$(basename "$1")" = Program.cs ] || cp "$(basename "$1")" Program.cs
cp "$build/ContactVerify.dll" .
mcs -nologo -langversion:7.2 -r:ContactVerify.dll -r:System.Net.Http.dll Program.cs
exec mono Program.exe
