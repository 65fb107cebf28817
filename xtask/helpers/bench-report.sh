#!/usr/bin/env bash
# The core's speed figures (native, release), as docs/performance.md
# shows them: parse + check + explain (`opb_core::analyze`) of
# generated playbooks and plugin manifests beside a bare
# `serde_json::from_str::<serde_json::Value>` of the same bytes, the fitted
# scaling exponent, and the graph layout of 1,000 nodes.
#
# Usage: cargo xtask bench core            run the benchmarks, then print
#        cargo xtask bench core --no-run   print the last run's figures
#
# The benchmarks are criterion's (crates/core/benches/analyze.rs and
# layout.rs); this reads their estimates (the median of the samples) from
# target/criterion/*/new/estimates.json.
#
# Then the largest documents' wall clock measured in pairs (one analyze, then
# one serde_json parse, in each of 41 rounds; crates/core/examples/
# instructions.rs), and, when valgrind is installed, the same documents'
# instruction counts (callgrind, the same example): the figure that does
# not move with the other work on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ "${1:-}" != "--no-run" ]]; then
  cargo bench -p opb-core --bench analyze
  cargo bench -p opb-layout --bench layout -- '/1000$'
fi

target=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')

python3 - "$target/criterion" <<'PY'
import json, math, sys
from pathlib import Path

criterion = Path(sys.argv[1])

def estimate(bench):
    """The median time in seconds and the bytes of one benchmark, or None."""
    new = criterion / bench / "new"
    try:
        median = json.loads((new / "estimates.json").read_text())["median"]["point_estimate"]
        throughput = json.loads((new / "benchmark.json").read_text()).get("throughput") or {}
    except FileNotFoundError:
        return None
    return median / 1e9, throughput.get("Bytes")

def ms(seconds):
    return f"{seconds * 1e3:,.2f} ms"

def exponent(points):
    """Least-squares slope of log(time) against log(size)."""
    xs = [math.log(size) for size, _ in points]
    ys = [math.log(time) for _, time in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)

verdicts = []
for group, unit, sizes, fitted in [
    ("playbook", "steps", [10, 100, 1_000, 10_000], [100, 1_000, 10_000]),
    ("manifest", "tools", [20, 200, 2_000], [200, 2_000]),
]:
    print(f"\n{group}s: parse + check + explain (analyze) vs serde_json::Value")
    print(f"| {unit} | bytes | analyze | MB/s | serde_json | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    times, serde_times, ratios = {}, {}, {}
    for size in sizes:
        ours = estimate(f"{group}/analyze/{size}")
        serde = estimate(f"{group}/serde_json_value/{size}")
        if ours is None or serde is None:
            print(f"| {size:,} | (not measured) | | | | |")
            continue
        (time, size_bytes), (serde_time, _) = ours, serde
        times[size], serde_times[size], ratios[size] = time, serde_time, time / serde_time
        print(f"| {size:,} | {size_bytes:,} | {ms(time)} | {size_bytes / time / 1e6:.1f} | {ms(serde_time)} | {time / serde_time:.2f}× |")
    if all(size in times for size in fitted):
        ours = exponent([(size, times[size]) for size in fitted])
        serde = exponent([(size, serde_times[size]) for size in fitted])
        span = f"{fitted[0]:,} → {fitted[-1]:,} {unit}"
        print(f"fitted exponent of time vs size, {span}: {ours:.3f} (serde_json alone: {serde:.3f})")
        largest = fitted[-1]
        verdicts.append((f"{group} {largest:,} {unit}: ratio {ratios[largest]:.2f}× (target ≤ 3×)", ratios[largest] <= 3))
        verdicts.append((f"{group} exponent {ours:.3f} (target < 1.15)", ours < 1.15))

print("\nlayout (opb-layout) of 1,000 nodes")
print("| graph | time |")
print("|---|---:|")
for shape in ["chain", "random_dag_local", "random_dag_uniform"]:
    found = estimate(f"layout/{shape}/1000")
    print(f"| {shape} | {ms(found[0]) if found else '(not measured)'} |")
    if found:
        verdicts.append((f"layout {shape} 1,000 nodes: {ms(found[0])} (target < 50 ms)", found[0] < 0.05))

print()
for text, met in verdicts:
    print(f"{'met    ' if met else 'NOT MET'}  {text}")
PY

cargo build --release -p opb-core --example instructions
instructions="$target/release/examples/instructions"

# Criterion times each function in a run of its own, seconds apart, and on
# a shared machine the load moves in between; here each round times one
# analyze and then one serde_json parse of the same bytes, so a round's
# ratio compares times taken under the same load.
if [[ "${1:-}" != "--no-run" ]]; then
  echo; echo "wall clock in pairs (41 rounds of one analyze, then one serde_json parse; medians)"
  echo "| document | analyze | serde_json | ratio |"
  echo "|---|---:|---:|---:|"
  verdicts=()
  for document in "playbook 10000" "manifest 2000"; do
    read -r ours serde ratio < <("$instructions" $document paired)
    echo "| $document | $ours ms | $serde ms | ${ratio}× |"
    met=$(python3 -c "print('met    ' if $ratio <= 3 else 'NOT MET')")
    verdicts+=("$met  $document in pairs: ratio ${ratio}× (target ≤ 3×)")
  done
  echo; printf '%s\n' "${verdicts[@]}"
fi

if ! command -v valgrind >/dev/null; then
  echo; echo "valgrind not found: no instruction counts"
  exit 0
fi
python3 - "$instructions" <<'PY'
import math, re, subprocess, sys, tempfile

program = sys.argv[1]

def instructions(kind, size, what):
    """Instructions of one call, and the document's bytes."""
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}",
             "--toggle-collect=instructions::run_*", program, kind, str(size), what],
            capture_output=True, text=True, check=True)
    count = re.search(r"refs:\s+([\d,]+)", run.stderr).group(1)
    return int(count.replace(",", "")), int(run.stdout)

def exponent(points):
    xs = [math.log(size) for size, _ in points]
    ys = [math.log(count) for _, count in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)

# The leaky playbooks hold a credential in every agent step's purpose
# (generate.rs): every step's finding flagged, and each masked wherever the
# analysis shows it.
for kind, title, unit, sizes, fitted in [
    ("playbook", "playbooks", "steps", [10, 100, 1_000, 10_000], [100, 1_000, 10_000]),
    ("leaky", "playbooks with a credential per step", "steps", [100, 1_000, 10_000], [100, 1_000, 10_000]),
    ("manifest", "manifests", "tools", [20, 200, 2_000], [200, 2_000]),
]:
    print(f"\n{title}: instructions (callgrind) of analyze vs serde_json::Value")
    print(f"| {unit} | bytes | analyze | per byte | serde_json | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    counts = {}
    for size in sizes:
        ours, size_bytes = instructions(kind, size, "analyze")
        serde, _ = instructions(kind, size, "serde_json")
        counts[size] = ours
        print(f"| {size:,} | {size_bytes:,} | {ours / 1e6:,.1f} M | {ours / size_bytes:.0f} | {serde / 1e6:,.1f} M | {ours / serde:.2f}× |")
    span = f"{fitted[0]:,} → {fitted[-1]:,} {unit}"
    print(f"fitted exponent of instructions vs size, {span}: {exponent([(s, counts[s]) for s in fitted]):.3f}")
PY
