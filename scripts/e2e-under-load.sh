#!/usr/bin/env bash
# Runs end-to-end test files several times in a row as a slow phone or a
# loaded machine runs them: every page's CPU slowed 4 times (OPB_CPU_SLOWDOWN,
# which tests/e2e/harness.mjs reads) while one `yes` per core keeps the
# machine busy. A timing-sensitive file (drafts, the reading view) is called
# stable once it passes every run. It builds nothing: it tests dist/ (or
# OPB_DIST), as `node --test` does.
#
#   scripts/e2e-under-load.sh [RUNS [FILE...]]
#
# RUNS is 10 unless given; the files are tests/e2e/drafts.test.mjs and
# tests/e2e/reading.test.mjs unless given. Exits 1 unless every run passed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

runs="${1:-10}"
shift || true
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/e2e/drafts.test.mjs tests/e2e/reading.test.mjs)
export OPB_CPU_SLOWDOWN="${OPB_CPU_SLOWDOWN:-4}"

load=()
stop_load() { [ ${#load[@]} -eq 0 ] || kill "${load[@]}" 2>/dev/null || true; }
trap stop_load EXIT
for _ in $(seq "$(nproc)"); do
  yes > /dev/null &
  load+=("$!")
done

logs="$(mktemp -d)"
passed=0
for run in $(seq "$runs"); do
  log="$logs/run-$run.log"
  started=$SECONDS
  if node --test "${files[@]}" > "$log" 2>&1; then
    passed=$((passed + 1))
    echo "run $run: passed ($((SECONDS - started)) s)"
  else
    echo "run $run: FAILED ($((SECONDS - started)) s); the failing tests, from $log:"
    grep -E '^not ok|^# (pass|fail)|AssertionError|Error:' "$log" | head -20 | sed 's/^/  /'
  fi
done
echo "$passed of $runs runs passed (${files[*]}, CPU slowed ${OPB_CPU_SLOWDOWN}x, $(nproc) busy processes beside)"
[ "$passed" -eq "$runs" ]
