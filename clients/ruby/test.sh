#!/usr/bin/env bash
# The Ruby library's own test run (see test/clients.library-tests.test.ts): minitest (the client,
# the retry rules, the test helper, and the drift test against $CV_OPENAPI), then the gem built
# with `gem build` and installed offline from that file into a scratch GEM_HOME, as the README
# shows, and loaded from there.
set -euo pipefail
cd "$(dirname "$0")"
{ command -v ruby && command -v gem; } >/dev/null || { echo "ruby not found (Debian: apt-get install ruby)"; exit 77; }
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"
export CV_OPENAPI="${CV_OPENAPI:-$PWD/../openapi.json}"

echo "== minitest ($(ruby -e 'print RUBY_VERSION'))"
ruby -w -e 'Dir["test/*_test.rb"].sort.each { |f| require File.expand_path(f) }'

echo "== gem build, gem install --local into $work/gems"
version=$(ruby -e 'require "./lib/contact_verify/version"; print ContactVerify::VERSION')
rm -rf "$work/gems" "$work/build"
mkdir -p "$work/build"
gem build contact_verify.gemspec --output "$work/build/contact_verify-$version.gem"
cd "$work/build"
GEM_HOME="$work/gems" GEM_PATH="$work/gems" gem install --local --no-document "./contact_verify-$version.gem"
# Loaded from the installed gem alone: every file the library needs is in the package.
GEM_HOME="$work/gems" GEM_PATH="$work/gems" ruby -w -e '
  require "contact_verify"
  own = $LOADED_FEATURES.grep(/contact_verify/)
  outside = own.reject { |f| f.start_with?(ENV.fetch("GEM_HOME")) }
  abort "loaded from outside the gem: #{outside}" unless outside.empty? && own.size > 5
  abort "version #{ContactVerify::VERSION}" unless Gem.loaded_specs["contact_verify"].version.to_s == ARGV[0]
  ContactVerify::Client.new(base_url: "http://127.0.0.1:1", api_key: "k")
  puts "contact_verify #{ARGV[0]} loads from the installed gem (#{own.size} files)"' "$version"
