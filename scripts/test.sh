#!/usr/bin/env bash
# The test command (README, CI's .ci/run): `cargo xtask ci`, which runs a
# new user's first run in a fresh clone first, then every check and test,
# and ends with cargo's test summary. `cargo xtask help` lists its steps'
# commands for running one at a time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec cargo xtask ci
