#!/usr/bin/env bash
# The Rust library's own test run (see test/clients.library-tests.test.ts), offline over Debian's
# crates (/usr/share/cargo/registry as a directory source, through a CARGO_HOME of its own, so
# your ~/.cargo is left alone): rustfmt when installed, `cargo test --all-features` (the client,
# the retry rules, the ureq transport against a local server, the async client, the test helper,
# and tests/drift.rs against $CV_OPENAPI), then `cargo package` and a fresh crate made as the
# README shows that depends on the packaged sources, built and run. Every step shares one target
# folder under CV_TEST_WORK, so the dependencies compile once.
set -euo pipefail
cd "$(dirname "$0")"
here="$PWD"
command -v cargo >/dev/null || { echo "cargo not found (Debian: apt-get install cargo)"; exit 77; }
[ -d /usr/share/cargo/registry ] || { echo "Debian's crates are not installed (apt-get install librust-ureq-dev ...)"; exit 77; }
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
export CV_OPENAPI="$(realpath "${CV_OPENAPI:-../openapi.json}")"
export CARGO_TARGET_DIR="$work/target"
export CARGO_HOME="$work/cargo-home"
mkdir -p "$CARGO_HOME"
cat >"$CARGO_HOME/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
TOML

echo "== $(cargo --version), $(rustc --version)"
checked="tests, drift"
if command -v rustfmt >/dev/null; then
  checked="rustfmt, $checked"
  cargo fmt --check
  rustfmt --edition 2021 --config max_width=120 --check readme-row.rs
fi

echo "== cargo test --all-features"
cargo test --offline --all-features

echo "== cargo package, and a fresh crate that depends on the package (in $work/myapp)"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)"
cargo package --offline --no-verify --allow-dirty
rm -rf "$work/package" "$work/myapp" && mkdir -p "$work/package"
tar -xzf "$CARGO_TARGET_DIR/package/contact-verify-$version.crate" -C "$work/package"
cd "$work"
cargo new --quiet --vcs none myapp
cd myapp
cargo add --offline contact-verify --path "$work/package/contact-verify-$version"
grep -q "^contact-verify = { version = \"$version\", path = " Cargo.toml \
  || { echo "cargo add did not write the line the README shows:"; cat Cargo.toml; exit 1; }
cat >src/main.rs <<'RS'
use contact_verify::{Channel, Client, ErrorCode, SendCode};

fn main() {
    // Port 9 (discard) answers nothing: a typed network error, no panic.
    let cv = Client::builder("http://127.0.0.1:9", "cvk_test_key").max_retries(0).build();
    let err = cv.send_code(SendCode::email("jane@example.com")).unwrap_err();
    assert_eq!(err.code, ErrorCode::NetworkError);
    println!("contact-verify {} builds from its package ({})", contact_verify::VERSION, Channel::Email);
}
RS
cargo run --quiet --offline
# The package carries what the crate needs and nothing of this repository's scripts.
listing="$(tar -tzf "$CARGO_TARGET_DIR/package/contact-verify-$version.crate")"
for f in src/lib.rs src/models.rs README.md tests/drift.rs; do
  grep -qx "contact-verify-$version/$f" <<<"$listing" || { echo "the package lacks $f"; exit 1; }
done
if grep -E '\.sh$|readme-row' <<<"$listing"; then echo "the package ships the repository's scripts"; exit 1; fi
echo "rust: $checked, the package and the README's install path passed ($(cargo --version))"
