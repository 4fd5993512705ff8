#!/usr/bin/env bash
# Runs one Ruby program of the README (test/clients.readme-snippets.test.ts) as the README tells a
# newcomer: an app made by `bundle init` whose Gemfile names this library by path (`bundle install`
# needs nothing from rubygems.org, so it works offline), the program saved in it and run with
# `bundle exec ruby`. The app is made once per CV_SNIPPET_WORK.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v ruby >/dev/null || { echo "ruby not found (Debian: apt-get install ruby)"; exit 77; }
command -v bundle >/dev/null || { echo "bundler not found (Debian: apt-get install ruby-bundler)"; exit 77; }
app="${CV_SNIPPET_WORK:-$(mktemp -d)}/ruby-app"
if [ ! -f "$app/Gemfile.lock" ]; then
  mkdir -p "$app"
  (
    cd "$app"
    bundle init
    echo "gem \"contact_verify\", path: \"$here\"" >>Gemfile
    bundle install
  ) >"$app/bundle.log" 2>&1 || { cat "$app/bundle.log"; exit 1; }
fi
cp "$1" "$app/snippet.rb"
cd "$app"
exec bundle exec ruby snippet.rb
