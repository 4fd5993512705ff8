#!/usr/bin/env bash
# The C# library's own test run (see test/clients.library-tests.test.ts), offline with Mono (the
# .NET SDK is not in Debian): ContactVerify.dll built as the README does (build-dll.sh, mcs with
# -langversion:7.2, the newest mcs 6.8 accepts), the tests (a small runner of their own, as NUnit's
# console runner is not packaged): the client, the retry rules, cancellation, an injected
# HttpClient, the test helper, and the drift test against $CV_OPENAPI; then the README's install
# path: a program in a fresh folder compiled against the dll and run.
set -euo pipefail
cd "$(dirname "$0")"
{ command -v mcs && command -v mono; } >/dev/null || { echo "mcs/mono not found (Debian: apt-get install mono-devel)"; exit 77; }
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"
export CV_OPENAPI="$(realpath "${CV_OPENAPI:-../openapi.json}")"

echo "== build-dll.sh ($(mcs --version))"
dll=$(bash build-dll.sh "$work/build")

echo "== tests"
mcs -nologo -langversion:7.2 -warnaserror -out:"$work/build/Tests.exe" -r:"$dll" \
  -r:System.Net.Http.dll -r:System.Json.dll -r:System.Runtime.Serialization.dll tests/*.cs
mono "$work/build/Tests.exe"

echo "== a program compiled and run against the dll in a fresh folder, as the README shows"
app="$work/csharp-app"
rm -rf "$app" && mkdir -p "$app" && cd "$app"
cp "$dll" .
cat > Program.cs <<'CS'
using System;
using ContactVerify;

public static class Program
{
    public static void Main()
    {
        using (var cv = new ContactVerifyClient("http://127.0.0.1:1", "key"))
            Console.WriteLine(ContactVerifyClient.Version + " " + WireValue.Of(SendCodeRequest.ByEmail("j@example.com").WithPurpose("sign-in").Channel.Value) + " " + WireValue.Of(Channel.Sms));
    }
}
CS
mcs -nologo -langversion:7.2 -warnaserror -r:ContactVerify.dll -r:System.Net.Http.dll Program.cs
out=$(mono Program.exe)
[ "$out" = "0.2.0 EMAIL SMS" ] || { echo "Program printed: $out"; exit 1; }
echo "csharp: the dll, the tests, the drift test and the README's install path passed"
