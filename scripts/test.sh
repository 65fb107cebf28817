#!/usr/bin/env bash
# The test command: installs what is missing (scripts/setup.sh), builds the
# playground for release with Trunk (offline), runs its component tests in
# headless Chromium (wasm-bindgen-test), its end-to-end tests against the
# release build (playwright-core, Chromium), and finally every Rust test of
# the workspace, so the output ends with cargo's summary.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

step() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }

scripts/setup.sh
# wasm-opt (npm's binaryen) and esbuild, for Trunk.
export PATH="$root/node_modules/.bin:$PATH"

step "release build of the playground (trunk build --release --offline)"
trunk build --release --offline

# Bytes are deterministic, so the budget is a hard check (GUIDE §5).
budget=$((2 * 1024 * 1024))
for file in dist/*.wasm dist/*.js dist/*.css; do
  printf '  %-48s %8d bytes, %7d gzipped\n' "$(basename "$file")" "$(stat -c %s "$file")" "$(gzip -9 -c "$file" | wc -c)" >&2
done
wasm_bytes=$(stat -c %s dist/*.wasm)
if [ "$wasm_bytes" -gt "$budget" ]; then
  echo "the playground's wasm is $wasm_bytes bytes, over its budget of $budget" >&2
  exit 1
fi

step "component tests in headless Chromium (wasm-bindgen-test)"
CHROMEDRIVER=/usr/bin/chromedriver cargo test -p opb-app --target wasm32-unknown-unknown --features web --test web

step "end-to-end tests against the release build (tests/e2e, screenshots in tests/e2e/screenshots)"
node --test tests/e2e/

step "cargo test --workspace"
cargo test --workspace
