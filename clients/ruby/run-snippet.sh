#!/usr/bin/env bash
# Runs one Ruby program of the README (test/clients/readme-snippets.test.ts) as the README tells a
# newcomer: an app whose Gemfile names this library by path (`bundle install` needs nothing from
# rubygems.org, so it works offline), the program run with `bundle exec ruby`. The app is made
# once per CV_SNIPPET_WORK.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
command -v ruby >/dev/null || { echo "ruby not found (Debian: apt-get install ruby)"; exit 77; }
command -v bundle >/dev/null || { echo "bundler not found (Debian: apt-get install ruby-bundler)"; exit 77; }
app="${CV_SNIPPET_WORK:-$(mktemp -d)}/ruby-app"
if [ ! -f "$app/Gemfile.lock" ]; then
  mkdir -p "$app"
  printf 'source "https://rubygems.org"\n\ngem "contact_verify", path: "%s"\n' "$here" >"$app/Gemfile"
  (cd "$app" && bundle install --quiet)
fi
cd "$app"
exec bundle exec ruby "$file"
