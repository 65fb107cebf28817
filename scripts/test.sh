#!/usr/bin/env bash
# The test command: installs what is missing (scripts/setup.sh), builds the
# playground for release with Trunk (offline), runs its component tests in
# headless Chromium (wasm-bindgen-test), its end-to-end tests against the
# release build (playwright-core, Chromium), checks the supply chain, builds
# the core alone for wasm32, runs clippy with warnings denied, runs each fuzz
# target briefly, and finally every
# Rust test of the workspace, so the output ends with cargo's summary.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

step() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }

scripts/setup.sh
# wasm-opt (npm's binaryen) and esbuild, for Trunk.
export PATH="$root/node_modules/.bin:$PATH"

step "supply chain: licences, bans, sources, advisories (cargo deny), npm audit"
scripts/check-supply-chain.sh

step "the core builds for wasm32-unknown-unknown on its own"
cargo build --quiet -p opb-core --target wasm32-unknown-unknown

step "release build of the playground (trunk build --release --offline)"
trunk build --release --offline

# Bytes are deterministic, so the budget is a hard check (GUIDE §5): every
# file's size, and a failure when the gzipped app passes its budget.
step "download size of the playground (scripts/check-size.sh)"
scripts/check-size.sh

step "component tests in headless Chromium (wasm-bindgen-test)"
CHROMEDRIVER=/usr/bin/chromedriver cargo test -p opb-app --target wasm32-unknown-unknown --features web --test web

step "end-to-end tests against the release build (tests/e2e, screenshots in tests/e2e/screenshots)"
node --test tests/e2e/

step "clippy, warnings denied (the workspace natively, the app's interface for wasm32)"
cargo clippy --quiet --workspace --all-targets -- -D warnings
cargo clippy --quiet -p opb-app --features web --target wasm32-unknown-unknown -- -D warnings

step "fuzz smoke runs (scripts/fuzz-smoke.sh, each target briefly)"
if cargo +nightly --version >/dev/null 2>&1; then
  scripts/fuzz-smoke.sh
else
  echo "fuzz smoke: NOT RUN: no nightly toolchain on this machine (scripts/setup.sh could not install one)" >&2
fi

step "cargo test --workspace"
cargo test --workspace
