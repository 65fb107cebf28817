#!/usr/bin/env bash
# Runs every fuzz target briefly from the seeded corpora: a smoke run that the
# targets build and find no crash, hang or leak in their first seconds. Each
# target runs FUZZ_SECONDS (20 by default) one after the other, so the total
# is bounded (5 targets: under two minutes after the build). The long runs
# recorded in docs/fuzzing.md are this script with FUZZ_SECONDS=720. A crash
# stops the script and leaves its input in fuzz/artifacts/<target>/ (run the
# target's binary on that file, or `cargo +nightly fuzz run <target> <file>`,
# to reproduce it).
set -euo pipefail

seconds="${FUZZ_SECONDS:-20}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz smoke: the fuzz targets need a nightly toolchain (scripts/setup.sh installs it)" >&2
  exit 1
fi

scripts/fuzz-seed.sh >/dev/null
cd fuzz
# No sanitizer: everything fuzzed is safe Rust, and without AddressSanitizer
# a target runs three to four times as many inputs. Debug assertions (and
# overflow checks) stay on; docs/fuzzing.md says more.
cargo +nightly fuzz build --sanitizer none
# The built binaries run directly: `cargo fuzz run` would build again.
bin="target/$(rustc +nightly -vV | sed -n 's/^host: //p')/release"
logs=target/smoke-logs
mkdir -p "$logs" artifacts
for target in $(cargo +nightly fuzz list); do
  log="$logs/$target.log"
  mkdir -p "artifacts/$target"
  # -timeout: one input running 10 s is a hang; -rss_limit_mb: a runaway
  # allocation is a crash, not a slow machine.
  if ! "$bin/$target" "corpus/$target" -artifact_prefix="artifacts/$target/" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz smoke: $target failed (full log: fuzz/$log)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  printf 'fuzz smoke: %-13s %8s executions in %ss, %s, no crash\n' "$target" "$runs" "$seconds" "$coverage"
done
