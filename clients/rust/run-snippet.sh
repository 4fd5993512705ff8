#!/usr/bin/env bash
# Runs one Rust program of the README (test/clients.readme-snippets.test.ts) as the README tells a
# newcomer: `src/main.rs` of the crate that the README's first sh block makes, run as written
# (`cargo new myapp`, Debian's crates in .cargo/config.toml, `cargo add --offline contact-verify
# --path ../contact-verify/clients/rust`) in a folder where `contact-verify` is this checkout. A
# program that uses AsyncClient gets the async section's dependencies (the `tokio` feature and
# tokio itself) in a crate of its own. The crates are made once per CV_SNIPPET_WORK and share one
# target folder, so only the first build compiles the dependencies.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
command -v cargo >/dev/null || { echo "cargo not found (Debian: apt-get install cargo)"; exit 77; }
[ -d /usr/share/cargo/registry ] || { echo "Debian's crates are not installed (apt-get install librust-ureq-dev ...)"; exit 77; }
work="${CV_SNIPPET_WORK:-$(mktemp -d)}"
kind=rust-app
grep -q 'AsyncClient' "$file" && kind=rust-async-app
app="$work/$kind/myapp"
if [ ! -f "$app/.ready" ]; then
  rm -rf "$work/$kind" && mkdir -p "$work/$kind"
  log="$work/$kind.log"
  trap 'cat "$log"' ERR
  cd "$work/$kind"
  # The checkout next to the app, where the README has it.
  ln -s "$(cd "$here/../.." && pwd)" contact-verify
  # The README's quick start, as written: its first sh block.
  awk '/^```sh$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' "$here/README.md" >setup.sh
  bash -e setup.sh >>"$log" 2>&1
  cd myapp
  if [ "$kind" = rust-async-app ]; then
    # The async section's two lines of Cargo.toml, as written there, instead of the plain one
    # (cargo add of Debian's cargo 1.65 misreads the features of tokio from a directory source).
    sed -i '/^contact-verify = /d' Cargo.toml
    awk '/^```toml$/ { inside = 1; block = ""; next } /^```$/ { if (inside && block ~ /features = \["tokio"\]/) { printf "%s", block; exit } inside = 0 } inside { block = block $0 "\n" }' "$here/README.md" >>Cargo.toml
  fi
  touch .ready
  trap - ERR
fi
cp "$file" "$app/src/main.rs"
cd "$app"
CARGO_TARGET_DIR="$work/rust-target" exec cargo run --quiet --offline
