#!/usr/bin/env bash
# The Java library's own test run (see test/clients.library-tests.test.ts), offline (Debian's jars,
# no Maven Central): the jar built as the README does (build-jar.sh: javac + jar), the JUnit 5
# tests (Debian's junit5, console launcher) against that jar: the client, the retry rules, the
# async calls, an injected HttpClient, the test helper, and the drift test against $CV_OPENAPI;
# then the README's install path: a program in a fresh folder compiled and run against the jar.
set -euo pipefail
cd "$(dirname "$0")"
here="$PWD"
command -v javac >/dev/null || { echo "javac not found (Debian: apt-get install openjdk-17-jdk-headless)"; exit 77; }
[ -f /usr/share/java/jackson-databind.jar ] || { echo "Jackson not installed (Debian: apt-get install libjackson2-databind-java)"; exit 77; }
J=/usr/share/java
[ -f $J/junit-platform-console-standalone.jar ] || { echo "JUnit 5 not installed (Debian: apt-get install junit5)"; exit 77; }
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"
export CV_OPENAPI="$(realpath "${CV_OPENAPI:-../openapi.json}")"

echo "== build-jar.sh ($(javac -version 2>&1))"
jar=$(bash build-jar.sh "$work/build")
cp="$jar:$(cat "$work/build/classpath")"
jar --list --file "$jar" | grep -q '^com/contactverify/ContactVerifyClient.class$'

echo "== junit $(basename $J/junit-jupiter-api-*.jar .jar | cut -d- -f4)"
rm -rf "$work/test-classes"
javac -Xlint:all -Werror -d "$work/test-classes" \
  -cp "$cp:$J/junit-jupiter-api.jar:$J/apiguardian-api.jar:$J/opentest4j.jar:$J/junit-platform-commons.jar" \
  $(find src/test -name '*.java')
# The launcher exits 1 on a failed test and 2 when it found none.
java -jar $J/junit-platform-console-standalone.jar --disable-banner --details=summary --fail-if-no-tests \
  -cp "$work/test-classes:$cp" --select-package com.contactverify --include-engine junit-jupiter \
  --exclude-engine junit-vintage --exclude-engine junit-platform-suite

echo "== a program compiled and run against the jar in a fresh folder, as the README shows"
app="$work/java-app"
rm -rf "$app" && mkdir -p "$app" && cd "$app"
cat > Main.java <<'JAVA'
import com.contactverify.Channel;
import com.contactverify.ContactVerifyClient;
import com.contactverify.SendCode;

public class Main {
  public static void main(String[] args) {
    new ContactVerifyClient("http://127.0.0.1:1", "key");
    System.out.println(ContactVerifyClient.VERSION + " " + SendCode.email("j@example.com").purpose("sign-in") + " " + Channel.SMS);
  }
}
JAVA
javac -Xlint:all -Werror -cp "$cp" Main.java
out=$(java -cp ".:$cp" Main)
[ "$out" = "0.2.0 SendCode{channel=EMAIL, email=j@example.com, purpose=sign-in} SMS" ] || { echo "Main printed: $out"; exit 1; }
echo "java: the jar, the JUnit tests, the drift test and the README's install path passed"
