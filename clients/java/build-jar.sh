#!/usr/bin/env bash
# Builds contact-verify-<version>.jar into DIR (default: build/) with javac and jar, against
# Debian's Jackson jars (libjackson2-databind-java), and prints its path; DIR/classpath holds the
# Jackson jars a program needs next to it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$(mkdir -p "${1:-$here/build}" && cd "${1:-$here/build}" && pwd)"
jackson=/usr/share/java/jackson-databind.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-annotations.jar
version=$(sed -n 's/.*String VERSION = "\(.*\)";/\1/p' "$here/src/main/java/com/contactverify/ContactVerifyClient.java")
rm -rf "$dir/classes"
javac --release 17 -Xlint:all -Werror -d "$dir/classes" -cp "$jackson" $(find "$here/src/main" -name '*.java')
jar --create --file "$dir/contact-verify-$version.jar" -C "$dir/classes" . >&2
echo "$jackson" > "$dir/classpath"
echo "$dir/contact-verify-$version.jar"
