#!/usr/bin/env bash
# The test command. First a new user's first run: README's run command in a
# fresh clone, checked in headless Chromium (scripts/fresh-clone-check.sh),
# ahead of every other build. Then it installs what testing adds
# (scripts/setup.sh test), checks the supply chain, builds the core alone for
# wasm32 and the playground for release (Trunk, offline), checks its size,
# runs its component tests in headless Chromium (wasm-bindgen-test) and its
# end-to-end tests against the release build (playwright-core), clippy and
# the core's rustdoc with warnings denied, opb's SARIF through Microsoft's
# SARIF multitool, the <opb-viewer> npm package, a MkDocs site built with
# `opb render` and a VitePress site with the package, read in Chromium,
# opb's PyPI wheel (built by maturin, then installed and run with no Rust
# on PATH: opb, `python -m opb`, `opb lsp`, the GitHub Action's steps), the
# editors and CI tools (opb's JSON Schemas read by check-jsonschema and
# yaml-language-server, `opb lsp` in Neovim, the pre-commit hooks, the
# mirror's installing the wheel), each fuzz target briefly, and last every
# Rust test of the workspace, so that the output ends with cargo's summary.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

step() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }

step "a new user's first run: scripts/run.sh --check in a fresh clone, empty cargo registry"
scripts/fresh-clone-check.sh

scripts/setup.sh test
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

step "formatting (cargo fmt --check, rustfmt.toml)"
cargo fmt --all --check
(cd fuzz && cargo fmt --check)

step "clippy, warnings denied (the workspace natively, the viewer's link and embed builds, the app's interface for wasm32)"
cargo clippy --quiet --workspace --all-targets -- -D warnings
cargo clippy --quiet -p opb-viewer --features embed --all-targets -- -D warnings
cargo clippy --quiet -p opb-app --features web --target wasm32-unknown-unknown --all-targets -- -D warnings

step "the core's API documentation builds without a warning (cargo doc)"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps -p opb-syntax -p opb-core -p opb-render -p opb-share -p opb-viewer

step "opb's SARIF read by Microsoft's SARIF multitool, GitHub's ingestion rules (scripts/check-sarif.sh)"
cargo build --quiet -p opb-cli
scripts/check-sarif.sh

step "the <opb-viewer> npm package (scripts/package-viewer.sh, from the release build)"
scripts/package-viewer.sh dist

step "docs sites as their authors build them: a MkDocs site with opb render, a VitePress site with the package, the HTML report, in Chromium (tests/docs-sites)"
node --test tests/docs-sites/

step "opb's PyPI wheel: built by maturin (scripts/build-wheel.sh), then installed by pip and run without Rust, the GitHub Action's steps too (tests/packaging)"
scripts/build-wheel.sh
node --test tests/packaging/

step "editors and CI: the JSON Schemas read by check-jsonschema and yaml-language-server, opb lsp in Neovim, the pre-commit hooks, the mirror's from the wheel (tests/editors)"
node --test tests/editors/

step "fuzz smoke runs (scripts/fuzz-smoke.sh, each target briefly)"
scripts/fuzz-smoke.sh

step "the viewer's reading of links and of host messages (cargo test -p opb-viewer --features embed)"
cargo test --quiet -p opb-viewer --features embed

step "cargo test --workspace"
# The spec and examples are copies of ../shared (scripts/sync-shared.sh),
# which a clone outside the workspace does not have: there the comparison
# cannot run, and says so.
if [ ! -d "$root/../shared" ]; then
  printf 'NOT CHECKED: the copies in spec/ and examples/ against ../shared (shared_copies_are_current): %s has no ../shared\n' "$root" >&2
  export OPB_WITHOUT_SHARED=1
fi
cargo test --workspace
