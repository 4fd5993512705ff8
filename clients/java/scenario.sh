#!/usr/bin/env bash
# Compiles the Java client against Debian's Jackson jars and runs the shared scenario with it.
# (Users build with the pom.xml; Maven Central is not reachable where the tests run.)
set -euo pipefail
cd "$(dirname "$0")"
command -v javac >/dev/null || { echo "javac not found"; exit 77; }
cp=/usr/share/java/jackson-databind.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-annotations.jar
[ -f /usr/share/java/jackson-databind.jar ] || { echo "libjackson2-databind-java not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
javac -Xlint:all -Werror -d "$out" -cp "$cp" $(find src -name '*.java')
exec java -cp "$out:$cp" com.contactverify.Scenario
