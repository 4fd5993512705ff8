#!/usr/bin/env bash
# Builds the Java client's jar as the README does (javac + jar, Debian's Jackson jars) and runs the
# shared scenario ($CV_SCENARIO) with it.
set -euo pipefail
cd "$(dirname "$0")"
command -v javac >/dev/null || { echo "javac not found (Debian: apt-get install openjdk-17-jdk-headless)"; exit 77; }
[ -f /usr/share/java/jackson-databind.jar ] || { echo "Jackson not installed (Debian: apt-get install libjackson2-databind-java)"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
jar=$(bash build-jar.sh "$out")
cp="$jar:$(cat "$out/classpath")"
javac -Xlint:all -Werror -d "$out/scenario" -cp "$cp" scenario/Scenario.java
exec java -cp "$out/scenario:$cp" Scenario
