#!/usr/bin/env bash
# Supply-chain checks against the committed lockfiles (docs/supply-chain.md):
# - cargo deny: licences, bans and sources of Cargo.lock and fuzz/Cargo.lock
#   (deny.toml), always;
# - cargo deny: advisories (vulnerabilities, unmaintained, unsound, yanked)
#   when the RustSec database can be fetched;
# - npm audit --omit=dev on package-lock.json when the registry's audit
#   endpoint answers.
# A database or endpoint that cannot be reached is printed as NOT CHECKED and
# does not fail the run, unless SUPPLY_CHAIN_STRICT=1. Anything found fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

strict="${SUPPLY_CHAIN_STRICT:-0}"
say() { printf 'supply chain: %s\n' "$*" >&2; }
not_checked() {
  say "NOT CHECKED: $*"
  if [ "$strict" = 1 ]; then
    say "SUPPLY_CHAIN_STRICT=1: a check that cannot run is a failure"
    exit 1
  fi
}

lockfiles=(Cargo.toml fuzz/Cargo.toml)

for manifest in "${lockfiles[@]}"; do
  say "licences, bans and sources of ${manifest%Cargo.toml}Cargo.lock"
  cargo deny --manifest-path "$manifest" --all-features --locked --log-level error \
    check bans licenses sources
done

if cargo deny --log-level off fetch db >/dev/null 2>&1; then
  for manifest in "${lockfiles[@]}"; do
    say "advisories and yanked crates of ${manifest%Cargo.toml}Cargo.lock"
    cargo deny --manifest-path "$manifest" --all-features --locked --log-level error check advisories
  done
else
  not_checked "advisories and yanked crates: the RustSec advisory database cannot be fetched from this machine"
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
  not_checked "npm audit: the registry's audit endpoint did not answer ($(grep -o '"message": *"[^"]*"' <<<"$audit" | head -n 1))"
fi

say "done"
