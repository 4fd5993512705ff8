#!/usr/bin/env bash
# Builds the Rust client offline from Debian's crates (/usr/share/cargo/registry, through a
# CARGO_HOME of its own: your ~/.cargo is left alone) and runs the shared scenario with it
# (examples/scenario.rs). Its unit and drift tests are test.sh's.
set -euo pipefail
cd "$(dirname "$0")"
command -v cargo >/dev/null || { echo "cargo not found (Debian: apt-get install cargo)"; exit 77; }
[ -d /usr/share/cargo/registry ] || { echo "Debian's librust-*-dev crates are not installed"; exit 77; }
export CARGO_HOME="$PWD/target/cargo-home"
mkdir -p "$CARGO_HOME"
cat > "$CARGO_HOME/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
TOML
exec cargo run --quiet --offline --example scenario
