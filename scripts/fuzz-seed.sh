#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/<target>/, git-ignored) from the
# examples and the core's fixtures: the documents themselves for the check
# and explain targets, and share links of them (both schemes, written by
# Node's zlib as the playground's JavaScript would) for share_decode.
# Idempotent: seeds keep their names, so a second run rewrites the same files
# and leaves what the fuzzer added alone.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seeds=(examples/* crates/core/tests/fixtures/examples/* crates/core/tests/fixtures/rules/*)

seed() { # target, files...
  local target="$1"; shift
  mkdir -p "fuzz/corpus/$target"
  for file in "$@"; do
    cp "$file" "fuzz/corpus/$target/seed-${file//\//_}"
  done
}

json_seeds=()
for file in "${seeds[@]}"; do
  [[ "$file" == *.json ]] && json_seeds+=("$file")
done

seed check_json "${json_seeds[@]}"
# JSON is YAML too (flow style), so the YAML reader gets every seed.
seed check_yaml "${seeds[@]}"
seed check_detect "${seeds[@]}"
seed explain "${seeds[@]}"

mkdir -p fuzz/corpus/share_decode
node - fuzz/corpus/share_decode "${seeds[@]}" <<'JS'
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const [out, ...files] = process.argv.slice(2);
for (const file of files) {
  const code = fs.readFileSync(file, "utf8");
  const kind = file.includes("oz0-plugin") ? "plugin-manifest" : "playbook";
  const json = Buffer.from(JSON.stringify({ code, kind, view: "graph" }), "utf8");
  const name = "seed-" + file.replace(/\//g, "_");
  const pako = zlib.deflateSync(json, { level: 9 }).toString("base64url");
  fs.writeFileSync(path.join(out, name + ".pako"), "#pako:" + pako);
  fs.writeFileSync(path.join(out, name + ".base64"), "#base64:" + json.toString("base64url"));
}
JS

for target in check_json check_yaml check_detect explain share_decode; do
  printf 'fuzz/corpus/%-13s %4d files\n' "$target" "$(find "fuzz/corpus/$target" -type f | wc -l)"
done
