#!/usr/bin/env bash
# `opb render` of dense playbooks (crates/core/benches/dense.rs: gates
# whose branches each lead anywhere in the playbook), as docs/performance.md
# shows it: for each document and format, what the layout's budget chose,
# the wall-clock time and the peak memory (GNU time's maximum resident set
# size), the best of RUNS runs (5 by default), with the release build.
#
# Usage: cargo xtask bench dense [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-5}"

if ! /usr/bin/time -f %e true 2>/dev/null; then
  echo "bench-dense: needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
cargo build --quiet --release --bin opb
cargo build --quiet --release -p opb-core --example dense
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "| document | bytes | format | drawn | time | peak memory |"
echo "|---|---:|---|---|---:|---:|"
for size in "150 8" "500 3" "200 20" "500 20" "1000 20" "2000 3"; do
  read -r steps branches <<<"$size"
  document="$work/dense-$steps-$branches.yaml"
  target/release/examples/dense "$steps" "$branches" >"$document"
  for format in svg html; do
    best_time="" best_memory=""
    for _ in $(seq "$runs"); do
      started=$(date +%s%N)
      /usr/bin/time -f "%M" -o "$work/memory" \
        target/release/opb render --format "$format" -o "$work/out" "$document"
      milliseconds=$((($(date +%s%N) - started) / 1000000))
      kilobytes=$(tail -n 1 "$work/memory")
      if [ -z "$best_time" ] || [ "$milliseconds" -lt "$best_time" ]; then best_time="$milliseconds"; fi
      if [ -z "$best_memory" ] || [ "$kilobytes" -lt "$best_memory" ]; then best_memory="$kilobytes"; fi
    done
    if grep -q "Too many crossing edges to draw" "$work/out"; then
      drawn="listed"
    elif grep -q "Simplified drawing" "$work/out"; then
      drawn="simplified"
    else
      drawn="exact"
    fi
    printf '| %s gates × %s branches | %s | %s | %s | %s ms | %s MB |\n' \
      "$steps" "$branches" "$(stat -c %s "$document")" "$format" "$drawn" "$best_time" \
      "$((best_memory / 1024))"
  done
done
