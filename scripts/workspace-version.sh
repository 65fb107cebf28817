#!/usr/bin/env bash
# Prints the workspace's version, `version` in Cargo.toml's
# [workspace.package]: the one version of opb, its PyPI wheel (maturin reads
# it), its pre-commit mirror and its GitHub Action. Read without cargo, since
# the Action runs this on a runner that may have no Rust.
set -euo pipefail

manifest="$(dirname "${BASH_SOURCE[0]}")/../Cargo.toml"
version="$(sed -n '/^\[workspace\.package\]$/,/^\[/ s/^version = "\([^"]*\)"$/\1/p' "$manifest")"
if [ -z "$version" ]; then
  echo "workspace-version.sh: no version in the [workspace.package] table of $manifest" >&2
  exit 1
fi
printf '%s\n' "$version"
