#!/usr/bin/env bash
# Installs what the playground needs (scripts/setup.sh run), then builds it
# for release and serves it on localhost with failed-charge-recovery.json
# open. Trunk rebuilds when a source changes; reload the page to see it.
# PORT picks another port. scripts/serve.mjs serves the build with the
# headers a host sends (docs/embedding.md): the playground refuses to be
# framed by another site, the embed page does not.
#
#   scripts/run.sh           serve until Ctrl-C
#   scripts/run.sh --check   serve, open the page in headless Chromium, wait
#                            until the example is checked, fail on any error
#                            or console message, then stop (the test command
#                            runs this in a fresh clone)
set -euo pipefail

mode=serve
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *)
    echo "usage: scripts/run.sh [--check]" >&2
    exit 2
    ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [ "$mode" = check ]; then
  scripts/setup.sh browser
else
  scripts/setup.sh run
fi
export PATH="$root/node_modules/.bin:$PATH"
# The dependencies' source paths made relative to their registry's index, as
# cargo xtask builds the playground (xtask/src/shell.rs says why).
for index in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  [ -d "$index" ] && CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} --remap-path-prefix=${index}="
done
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS

port="${PORT:-8080}"
url="http://127.0.0.1:$port/"

if [ "$mode" = serve ]; then
  printf '\n\033[1mThe playground will be at %s once built (the first build takes a few minutes).\033[0m\n\n' "$url" >&2
  # Trunk's watch adds no reload script (an inline one, which the page's
  # Content-Security-Policy would refuse).
  trunk watch --release --offline &
  watcher=$!
  trap 'kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null || true' EXIT
  node scripts/serve.mjs "$port"
  exit
fi

started=$SECONDS
trunk build --release --offline
node scripts/serve.mjs "$port" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
node xtask/browser/check-served.mjs "$url" "$server"
echo "run.sh --check: served and checked in $((SECONDS - started)) s after setup" >&2
