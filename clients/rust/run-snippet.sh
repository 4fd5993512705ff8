#!/usr/bin/env bash
# Runs one Rust program of the README (test/clients.readme-snippets.test.ts) as the README tells a
# newcomer: `src/main.rs` of a crate made by `cargo new myapp`, which depends on this folder
# through `cargo add contact-verify --path`, offline over Debian's crates (the README's
# .cargo/config.toml). A program that uses AsyncClient gets the async section's dependencies
# (the `tokio` feature and tokio itself) in a crate of its own. The crates are made once per
# CV_SNIPPET_WORK and share one target folder, so only the first build compiles the dependencies.
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
  cargo new --quiet myapp >>"$log" 2>&1
  cd myapp
  mkdir -p .cargo
  cat >.cargo/config.toml <<'TOML'
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"
TOML
  if [ "$kind" = rust-async-app ]; then
    # The async section's two lines of Cargo.toml, as written there (cargo add of Debian's cargo
    # 1.65 misreads the features of tokio from a directory source).
    cat >>Cargo.toml <<TOML
contact-verify = { version = "0.2.0", path = "$here", features = ["tokio"] }
tokio = { version = "1.24", features = ["rt-multi-thread", "macros"] }
TOML
  else
    cargo add --offline contact-verify --path "$here" >>"$log" 2>&1
  fi
  touch .ready
  trap - ERR
fi
cp "$file" "$app/src/main.rs"
cd "$app"
CARGO_TARGET_DIR="$work/rust-target" exec cargo run --quiet --offline
