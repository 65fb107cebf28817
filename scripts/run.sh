#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), then builds the playground for
# release and serves it on localhost, with failed-charge-recovery.json open.
# Trunk rebuilds when a source changes. PORT picks another port.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/setup.sh
export PATH="$root/node_modules/.bin:$PATH"

port="${PORT:-8080}"
printf '\n\033[1mThe playground will be at http://127.0.0.1:%s/ once built (the first build takes a few minutes).\033[0m\n\n' "$port" >&2
exec trunk serve --release --offline --address 127.0.0.1 --port "$port"
