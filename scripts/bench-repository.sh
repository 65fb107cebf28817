#!/usr/bin/env bash
# `opb check` over a team's repository, against PyPI's check-jsonschema with
# opb's own schemas over the same documents (docs/performance.md, "Checking
# a repository"). Generates, in a temporary folder, a git repository with
# 10,000 small documents (5,000 playbooks and 5,000 plugin manifests, in
# nested folders) beside 50,000 files under a .gitignore'd node_modules,
# then times, once each on the same tree:
#   opb check .                      every rule, with 1 thread and with 2
#                                    (the median of 5 runs each)
#   check-jsonschema                 the same 10,000 files, one run per kind
#                                    (opb schema playbook|plugin-manifest)
# Needs a release opb (cargo build --release, or $OPB) and check-jsonschema
# (tools/editors/.venv, from scripts/setup.sh test, or $CHECK_JSONSCHEMA).
#
#   scripts/bench-repository.sh [DOCUMENTS] [IGNORED]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opb="${OPB:-$root/target/release/opb}"
check_jsonschema="${CHECK_JSONSCHEMA:-$root/tools/editors/.venv/bin/check-jsonschema}"
documents="${1:-10000}"
ignored="${2:-50000}"
for tool in "$opb" "$check_jsonschema"; do
  [ -x "$tool" ] || { echo "bench-repository: no $tool" >&2; exit 2; }
done

tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT

python3 - "$tree" "$documents" "$ignored" <<'PY'
import os, sys
tree, documents, ignored = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
playbook = """openplaybook: "1.6"
id: triage-{n}
name: Triage {n}
description: Look a customer up, then hand over to a person.
requires:
  connections: []
tools:
  - name: customer.get
    source: primitive
    description: Read one customer's profile.
    permissions: ["customers:read"]
    inputSchema: {{type: object}}
    outputSchema: {{type: object}}
    riskClass: read
    sideEffecting: false
    requiresApproval: false
steps:
  - id: look
    kind: agent
    agent: lou
    purpose: Look the customer up.
    allowedTools: [customer.get]
    next: done
  - id: done
    kind: agent
    agent: lou
    purpose: Say what was found.
    allowedTools: []
start: look
"""
manifest = """name: acme-{n}
description: Helpers of team {n}.
tools:
  - id: acme_helper_{n}
    mcp: [python, -m, acme.helper]
  - id: acme_remote_{n}
    url: https://helper.example.com/mcp
"""
def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
for n in range(documents):
    team = f"team{n % 50:02d}/area{n % 7}"
    if n % 2 == 0:
        write(f"{tree}/playbooks/{team}/triage-{n}.opb.yaml", playbook.format(n=n))
    else:
        write(f"{tree}/plugins/{team}/p{n}/oz0-plugin.yaml", manifest.format(n=n))
write(f"{tree}/.gitignore", "node_modules/\n")
for n in range(ignored):
    write(f"{tree}/node_modules/pkg{n // 100}/lib/file{n % 100}.opb.json", '{"name": "x", "version": "1.0.0"}\n')
PY
git -C "$tree" init -q

"$opb" schema playbook -o "$tree/playbook.schema.json"
"$opb" schema plugin-manifest -o "$tree/plugin.schema.json"

seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || true
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}

cd "$tree"
files=$("$opb" check --format json . | python3 -c 'import json,sys; r=json.load(sys.stdin); print(len(r["files"]), sum(f["counts"]["error"] for f in r["files"]))')
echo "opb check . reads $files (files, errors)"
median() {
  local runs=() i
  for i in 1 2 3 4 5; do runs+=("$(seconds "$@")"); done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p
}
one=$(RAYON_NUM_THREADS=1 median "$opb" check .)
two=$(RAYON_NUM_THREADS=2 median "$opb" check .)
find playbooks -name '*.opb.yaml' | sort > playbooks.txt
find plugins -name 'oz0-plugin.yaml' | sort > plugins.txt
cjs() {
  xargs -a playbooks.txt "$check_jsonschema" --schemafile playbook.schema.json > /dev/null
  xargs -a plugins.txt "$check_jsonschema" --schemafile plugin.schema.json > /dev/null
}
jsonschema=$(seconds cjs)
echo "opb check . (1 thread):   ${one} s"
echo "opb check . (2 threads):  ${two} s"
echo "check-jsonschema:         ${jsonschema} s"
python3 -c "print(f'check-jsonschema / opb (2 threads): {$jsonschema / $two:.0f}x; 1 thread / 2 threads: {$one / $two:.2f}x')"
