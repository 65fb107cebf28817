#!/usr/bin/env bash
# Supply-chain checks against the committed lockfiles (docs/supply-chain.md):
# - cargo deny: licences, bans and sources of Cargo.lock and fuzz/Cargo.lock
#   (deny.toml), every workspace member's graph, always;
# - cargo deny: advisories (vulnerabilities, unmaintained, unsound, yanked),
#   against the RustSec database fetched when it can be, else against the
#   copy in tests/data/rustsec-advisory-db (its date in COMMIT), always;
# - npm audit --omit=dev on package-lock.json when the registry's audit
#   endpoint answers.
# A check that cannot run fails, unless it is named in
# SUPPLY_CHAIN_MAY_SKIP (space-separated): then it prints NOT CHECKED with
# the reason and the run goes on. By default that is `npm-audit` alone: the
# npm registry these machines reach refuses its bulk audit endpoint (405),
# so no machine of ours could ever pass it. SUPPLY_CHAIN_MAY_SKIP= (empty)
# makes every check required. Anything found fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

may_skip="${SUPPLY_CHAIN_MAY_SKIP-npm-audit}"
say() { printf 'supply chain: %s\n' "$*" >&2; }
# not_checked NAME WHY: fails unless NAME may be skipped.
not_checked() {
  if [[ " $may_skip " != *" $1 "* ]]; then
    say "FAILED: $2 ($1 is not in SUPPLY_CHAIN_MAY_SKIP)"
    exit 1
  fi
  say "NOT CHECKED: $2 (SUPPLY_CHAIN_MAY_SKIP names $1)"
}

lockfiles=(Cargo.toml fuzz/Cargo.toml)

for manifest in "${lockfiles[@]}"; do
  say "licences, bans and sources of ${manifest%Cargo.toml}Cargo.lock"
  cargo deny --manifest-path "$manifest" --workspace --all-features --locked --log-level error \
    check bans licenses sources
done

if cargo deny --log-level off fetch db >/dev/null 2>&1; then
  for manifest in "${lockfiles[@]}"; do
    say "advisories and yanked crates of ${manifest%Cargo.toml}Cargo.lock (the RustSec database as of today)"
    cargo deny --manifest-path "$manifest" --workspace --all-features --locked --log-level error check advisories
  done
else
  # The vendored database, where cargo-deny looks for the default one
  # (the folder name is its URL's hash); read offline, so the crates'
  # metadata is fetched first.
  vendored="$root/tests/data/rustsec-advisory-db"
  as_of="$(cut -d' ' -f2 "$vendored/COMMIT" | cut -dT -f1)"
  db="$(mktemp -d)"
  trap 'rm -rf "$db"' EXIT
  git clone -q "$vendored/advisory-db.bundle" "$db/advisory-db-3157b0e258782691" 2>/dev/null
  sed "s|^\[advisories\]|[advisories]\ndb-path = \"$db\"\ndb-urls = [\"https://github.com/rustsec/advisory-db\"]|" deny.toml >"$db/deny.toml"
  for manifest in "${lockfiles[@]}"; do
    say "advisories and yanked crates of ${manifest%Cargo.toml}Cargo.lock (the vendored RustSec database as of $as_of: it cannot be fetched from this machine)"
    cargo fetch --quiet --manifest-path "$manifest" --locked
    cargo deny --offline --manifest-path "$manifest" --workspace --all-features --locked --log-level error \
      --config "$db/deny.toml" check advisories
  done
fi

say "npm audit --omit=dev (package-lock.json)"
audit="$(npm audit --omit=dev --json 2>/dev/null)" && audit_status=0 || audit_status=$?
if [ "$audit_status" -eq 0 ]; then
  say "npm: no known vulnerability in the production dependencies"
elif grep -q '"vulnerabilities"' <<<"$audit"; then
  npm audit --omit=dev >&2 || true
  say "npm audit found vulnerabilities in the production dependencies"
  exit 1
else
  not_checked npm-audit "npm audit: the registry's audit endpoint did not answer ($(grep -o '"message": *"[^"]*"' <<<"$audit" | head -n 1))"
fi

say "done"
