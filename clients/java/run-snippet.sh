#!/usr/bin/env bash
# Runs one README program (test/clients.readme-snippets.test.ts) as the README tells a newcomer:
# the jar built once with build-jar.sh (per CV_SNIPPET_WORK), the program saved as Main.java in a
# folder of its own, compiled with javac against the jar and Debian's Jackson jars, and run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v javac >/dev/null || { echo "javac not found (Debian: apt-get install openjdk-17-jdk-headless)"; exit 77; }
[ -f /usr/share/java/jackson-databind.jar ] || { echo "Jackson not installed (Debian: apt-get install libjackson2-databind-java)"; exit 77; }
build="${CV_SNIPPET_WORK:-$(mktemp -d)}/java-jar"
if [ ! -f "$build/classpath" ]; then
  bash "$here/build-jar.sh" "$build" >"$build.log" 2>&1 || { cat "$build.log"; exit 1; }
fi
CP="$(ls "$build"/contact-verify-*.jar):$(cat "$build/classpath")"
cd "$(dirname "$1")"
[ "$(basename "$1")" = Main.java ] || cp "$(basename "$1")" Main.java
javac -cp "$CP" Main.java
exec java -cp ".:$CP" Main
