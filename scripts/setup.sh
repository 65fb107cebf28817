#!/usr/bin/env bash
# Installs what building and testing opb needs, idempotently: each tool is
# skipped when it is already there at the pinned version. Safe to run twice.
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen crate pinned in Cargo.toml

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { printf '\033[1msetup:\033[0m %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The test command runs clippy; a minimal rustup profile lacks it.
if ! cargo clippy --version >/dev/null 2>&1; then
  say "adding clippy"
  rustup component add clippy
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (takes several minutes the first time)"
  cargo install --quiet trunk --version "$TRUNK_VERSION" --locked
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install --quiet wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# Fuzzing (fuzz/, scripts/fuzz-smoke.sh) needs a nightly toolchain and
# cargo-fuzz; the supply-chain check (scripts/check-supply-chain.sh) needs
# cargo-deny.
CARGO_FUZZ_VERSION=0.13.2
CARGO_DENY_VERSION=0.20.2

if ! cargo +nightly --version >/dev/null 2>&1; then
  say "installing the nightly toolchain (the fuzz targets need it)"
  rustup toolchain install nightly --profile minimal \
    || say "WARNING: no nightly toolchain: scripts/fuzz-smoke.sh cannot run"
fi

if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install --quiet cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

if [ "$(cargo deny --version 2>/dev/null)" != "cargo-deny $CARGO_DENY_VERSION" ]; then
  say "installing cargo-deny $CARGO_DENY_VERSION (takes several minutes the first time)"
  cargo install --quiet cargo-deny --version "$CARGO_DENY_VERSION" --locked
fi

if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
  say "installing Debian's chromium and chromium-driver"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# npm packages: the editor (CodeMirror, esbuild), wasm-opt (binaryen), fonts
# and playwright-core. A stamp holding the lockfile's hash says whether
# node_modules matches it.
if [ -f package-lock.json ]; then
  stamp=node_modules/.opb-setup-stamp
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing npm packages from package-lock.json"
    npm ci --no-audit --no-fund --loglevel=error
    printf '%s\n' "$want" > "$stamp"
  fi
fi

say "ready"
