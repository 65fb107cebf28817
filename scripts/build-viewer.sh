#!/usr/bin/env bash
# Builds the viewer docs sites embed (crates/viewer) into DIR (default
# dist/), three times: for the <opb-viewer> element, for the playground's
# reading view (a shared link's first view) and for the embed page
# (embed.html). Each is a wasm and its wasm-bindgen loader, named by a
# digest of their content, so a docs site can cache them for ever; the
# script prints the three names. js/build-viewer.mjs (the Trunk post-build
# hook) runs this, then writes opb-viewer.js and opb-embed.js, which name
# them, and opb-viewer.css.
#
# The playground's toolchain, no other: cargo, wasm-bindgen-cli at the
# version Cargo.toml pins, and wasm-opt and esbuild from node_modules
# (scripts/setup.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/dist}"
cd "$root"
export PATH="$root/node_modules/.bin:$PATH"

# The paths of the crates' sources, which the wasm keeps in its panic
# messages, without the registry's folder: shorter, and the same bytes
# whatever CARGO_HOME a machine has, so the byte budget (check-size.sh)
# measures the same wasm everywhere.
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
export RUSTFLAGS="${RUSTFLAGS:-}"
for source in "$registry"/*/; do
  [ -d "$source" ] && RUSTFLAGS+=" --remap-path-prefix=$source="
done

# One build: `build NAME [FEATURES]` compiles the viewer (with FEATURES),
# optimises it and writes NAME-<digest>.wasm and .js into DIR, then prints
# NAME-<digest>.
build() {
  local name="$1" features="${2:-}"
  # Offline, as Trunk builds: setup has fetched every crate of Cargo.lock.
  cargo build --quiet --locked --offline -p opb-viewer --target wasm32-unknown-unknown --profile viewer-release ${features:+--features "$features"}
  local work
  work="$(mktemp -d)"
  wasm-bindgen --target web --no-typescript --out-dir "$work" --out-name "$name" \
    target/wasm32-unknown-unknown/viewer-release/opb_viewer.wasm
  # The features rustc's wasm32 target emits, as the playground's build
  # passes them (index.html). `-Os --converge --low-memory-unused` came out
  # 2.7 KB smaller gzipped than `-Oz`, and merging similar functions (the
  # generic code's instances that differ in a constant) first 1.2 KB smaller
  # again (docs/performance.md); the low 1 KB of memory is the bottom of
  # rustc's stack (it places the stack first), reached only by an overflow.
  wasm-opt --merge-similar-functions -Os --converge --low-memory-unused --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$work/${name}_bg.wasm" -o "$work/$name.wasm"
  rm -f "$out/$name"-*.js "$out/$name"-*.wasm
  local digest
  digest="$(cat "$work/$name.wasm" "$work/$name.js" | sha256sum | cut -c1-16)"
  cp "$work/$name.wasm" "$out/$name-$digest.wasm"
  # The loader's own default address of the wasm, which the element passes
  # anyway, names the file as it is called here (a bundler resolves it).
  # Minified, as js/build-viewer.mjs minifies the element.
  sed "s/${name}_bg\.wasm/$name-$digest.wasm/g" "$work/$name.js" > "$work/loader.js"
  esbuild "$work/loader.js" --minify --format=esm --target=es2020 --log-level=warning --outfile="$out/$name-$digest.js"
  rm -rf "$work"
  echo "$name-$digest"
}

mkdir -p "$out"
# The element's, the reading view's (the same viewer, and opb-share's
# reading of share links but for the inflating, which the browser does:
# crates/viewer's `link`), then the embed page's (opb-share's reading of
# links and of host messages: `embed`).
build opb-viewer-core
build opb-read-core link
build opb-embed-core embed
