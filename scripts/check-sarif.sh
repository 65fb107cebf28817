#!/usr/bin/env bash
# opb's SARIF read by a real consumer: Microsoft's SARIF multitool validates
# it with the SARIF rules and GitHub's ingestion rules (--rule-kind Gh;Sarif),
# for every example, rule fixture and input fixture (unclosed brackets and
# quotes carry related locations), for a run that found nothing, and for
# a run with a file that cannot be read. Any error or warning fails.
# Needs `scripts/setup.sh test` (the multitool) and a built `opb`
# (target/debug/opb, or $OPB).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
multitool=tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
opb="${OPB:-target/debug/opb}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# opb exits 1 when it found errors and 2 for an unreadable file: both are
# what these runs are for.
sarif() {
  local name="$1"
  shift
  "$opb" check --format sarif "$@" > "$work/$name.sarif" 2>/dev/null || [ $? -le 2 ]
}
sarif examples examples/*.json examples/*.yaml
sarif fixtures crates/core/tests/fixtures/rules/*
sarif input crates/core/tests/fixtures/input/*
sarif clean examples/failed-charge-recovery.json
sarif unreadable examples/failed-charge-recovery.json does-not-exist.json

failed=0
for log in "$work"/*.sarif; do
  "$multitool" validate --rule-kind "Gh;Sarif" --output "$log.validation" "$log" >/dev/null
  count="$(node -e '
    const runs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs;
    const results = runs.flatMap((run) => run.results ?? []);
    for (const r of results) console.error(`  ${r.ruleId} ${r.level ?? "warning"}: ${JSON.stringify(r.message)}`);
    console.log(results.length);
  ' "$log.validation")"
  echo "$(basename "$log"): $count findings from the SARIF multitool"
  [ "$count" = 0 ] || failed=1
done
exit "$failed"
