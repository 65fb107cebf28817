#!/usr/bin/env bash
# A new user's first run, on any machine: clones this repository's HEAD into
# a temporary folder and runs README's run command there, `scripts/run.sh`,
# in its --check mode, with an empty CARGO_HOME, so that no crate, folder or
# build output left by earlier work can hide a missing install step. The
# tools already installed stay on PATH. What is not committed is not tested.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_HOME="$work/cargo-home"
unset CARGO_TARGET_DIR
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export PORT

git clone --quiet --no-hardlinks "$root" "$work/opb"
cd "$work/opb"
echo "fresh clone of $(git rev-parse --short HEAD) in $work/opb, CARGO_HOME=$CARGO_HOME, port $PORT" >&2
started=$SECONDS
scripts/run.sh --check
echo "fresh-clone check: passed in $((SECONDS - started)) s" >&2
