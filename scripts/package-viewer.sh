#!/usr/bin/env bash
# The <opb-viewer> element as an npm package a docs site installs:
# writes target/npm/opb-viewer-<version>.tgz (npm pack) holding the element
# (js/opb-viewer.js, without a playground to link to), the viewer's wasm and
# loader (scripts/build-viewer.sh), its stylesheet, its types
# (js/package/opb-viewer.d.ts), a README for docs authors
# (js/package/README.md) and the licences. The version is the workspace's
# (Cargo.toml). Prints the tarball's path.
#
#   scripts/package-viewer.sh [BUILD]
#
# With BUILD (a release build, dist/), its viewer wasm is packed rather than
# built again.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)"
[ -n "$version" ] || { echo "package-viewer: no workspace version in Cargo.toml" >&2; exit 2; }

stage="$root/target/npm/opb-viewer"
rm -rf "$stage"
mkdir -p "$stage"
if [ -n "${1:-}" ]; then
  OPB_VIEWER_BUILT="$(cd "$1" && pwd)" node js/build-viewer.mjs "$stage" ""
else
  node js/build-viewer.mjs "$stage" "" >/dev/null
fi
cp js/package/opb-viewer.d.ts js/package/README.md LICENSE-MIT LICENSE-APACHE "$stage/"
node - "$stage" "$version" <<'JS'
const [stage, version] = process.argv.slice(2);
const { readdirSync, writeFileSync } = require("node:fs");
const core = readdirSync(stage).filter((f) => f.startsWith("opb-viewer-core-"));
const manifest = {
  name: "opb-viewer",
  version,
  description: "The opb viewer as a custom element: what an OpenPlaybook playbook or an Orchestrator Zero plugin manifest can do, on a docs page",
  license: "MIT OR Apache-2.0",
  type: "module",
  exports: {
    ".": { types: "./opb-viewer.d.ts", default: "./opb-viewer.js" },
    "./opb-viewer.css": "./opb-viewer.css",
  },
  types: "./opb-viewer.d.ts",
  // Importing the module defines the element; a bundler must keep it.
  sideEffects: ["./opb-viewer.js"],
  files: ["opb-viewer.js", "opb-viewer.css", "opb-viewer.d.ts", ...core, "README.md", "LICENSE-MIT", "LICENSE-APACHE"],
  keywords: ["openplaybook", "web-component", "custom-element", "docs"],
};
writeFileSync(`${stage}/package.json`, JSON.stringify(manifest, null, 2) + "\n");
JS
npm pack --silent --pack-destination "$root/target/npm" "$stage" >/dev/null
tarball="$root/target/npm/opb-viewer-$version.tgz"
[ -f "$tarball" ] || { echo "package-viewer: npm pack wrote no $tarball" >&2; exit 1; }
echo "$tarball"
