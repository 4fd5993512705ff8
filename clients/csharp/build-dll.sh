#!/usr/bin/env bash
# Builds ContactVerify.dll into DIR (default: build/) with Mono's mcs, as the README shows, and
# prints its path. mcs 6.8 accepts C# up to 7.2; the library is written in that.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$(mkdir -p "${1:-$here/build}" && cd "${1:-$here/build}" && pwd)"
mcs -nologo -langversion:7.2 -warnaserror -target:library -out:"$dir/ContactVerify.dll" \
  -r:System.Net.Http.dll -r:System.Runtime.Serialization.dll "$here"/src/*.cs >&2
echo "$dir/ContactVerify.dll"
