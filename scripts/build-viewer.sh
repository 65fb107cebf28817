#!/usr/bin/env bash
# Builds the viewer docs sites embed (crates/viewer) into DIR (default
# dist/): its wasm and wasm-bindgen loader, named by a digest of their
# content, so a docs site can cache them for ever. js/build-viewer.mjs (the
# Trunk post-build hook) runs this, then writes opb-viewer.js, which names
# them, and opb-viewer.css.
#
# The playground's toolchain, no other: cargo, wasm-bindgen-cli at the
# version Cargo.toml pins, and wasm-opt from node_modules (scripts/setup.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/dist}"
cd "$root"
export PATH="$root/node_modules/.bin:$PATH"

# Offline, as Trunk builds: setup has fetched every crate of Cargo.lock.
cargo build --quiet --locked --offline -p opb-viewer --target wasm32-unknown-unknown --profile viewer-release
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
wasm-bindgen --target web --no-typescript --out-dir "$work" --out-name opb-viewer-core \
  target/wasm32-unknown-unknown/viewer-release/opb_viewer.wasm
# The features rustc's wasm32 target emits, as the playground's build
# passes them (index.html). `-Os --converge --low-memory-unused` came out
# 2.7 KB smaller gzipped than `-Oz` (docs/performance.md); the low 1 KB of
# memory is the bottom of rustc's stack (it places the stack first), reached
# only by an overflow.
wasm-opt -Os --converge --low-memory-unused --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$work/opb-viewer-core_bg.wasm" -o "$work/opb-viewer-core.wasm"

mkdir -p "$out"
rm -f "$out"/opb-viewer-core-*.js "$out"/opb-viewer-core-*.wasm
digest="$(cat "$work/opb-viewer-core.wasm" "$work/opb-viewer-core.js" | sha256sum | cut -c1-16)"
cp "$work/opb-viewer-core.wasm" "$out/opb-viewer-core-$digest.wasm"
# The loader's own default address of the wasm, which the element passes
# anyway, names the file as it is called here (a bundler resolves it).
sed "s/opb-viewer-core_bg\.wasm/opb-viewer-core-$digest.wasm/g" "$work/opb-viewer-core.js" > "$out/opb-viewer-core-$digest.js"
echo "opb-viewer-core-$digest"
