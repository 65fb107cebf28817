#!/usr/bin/env bash
# Refreshes the repository's copies of the shared spec and examples, and of
# the RustSec advisory database, from ../shared, so that a clean clone (and
# CI) has them. The test
# `shared_copies_are_current` fails when they drift.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="${1:-$root/../shared}"
cp "$shared"/spec/RULES.md "$shared"/spec/DOCUMENTS.md "$root/spec/"
cp "$shared"/spec/seeds/* "$root/spec/seeds/"
for f in "$shared"/examples/*; do cp "$f" "$root/examples/"; done
cp "$shared"/vendor/rustsec-advisory-db/{advisory-db.bundle,COMMIT,LICENSE.txt} "$root/tests/data/rustsec-advisory-db/"
chmod -R u+w "$root/spec" "$root/examples" "$root/tests/data/rustsec-advisory-db"
echo "synced from $shared"
