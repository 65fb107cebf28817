// opb's PyPI wheel (pyproject.toml, maturin), as someone without Rust meets
// it: the wheel `cargo xtask package wheel` built is installed by pip into a new
// virtual environment, offline, and run with no cargo, rustc or rustup on
// PATH. `opb` and `python -m opb` print the workspace's version, `opb check`
// gives every example the exit status and the codes the built opb
// (target/debug/opb, or $OPB) gives it, and `opb lsp` answers an editor.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LspClient } from "../editors/lsp.mjs";
import { builtWheel, root, run, version, withoutRust } from "./wheel.mjs";

const builtOpb = resolve(root, process.env.OPB ?? "target/debug/opb");
const dir = mkdtempSync(join(tmpdir(), "opb-wheel-"));
const venv = join(dir, "venv");
let env;

before(() => {
  const created = run("python3", ["-m", "venv", venv]);
  assert.equal(created.status, 0, created.stderr);
  env = withoutRust({ dirs: [join(venv, "bin")], home: dir });
  const installed = run(join(venv, "bin/pip"), ["install", builtWheel()], { env });
  assert.equal(installed.status, 0, installed.stdout + installed.stderr);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("the wheel holds opb at the workspace's version, stripped, with its licences", () => {
  const wheel = builtWheel();
  const listing = run("unzip", ["-Z1", wheel]).stdout.split("\n");
  for (const name of [`opb-${version}.data/scripts/opb`, "opb/__init__.py", "opb/__main__.py"]) {
    assert.ok(listing.includes(name), `${name} in ${listing.join(" ")}`);
  }
  for (const licence of ["LICENSE-MIT", "LICENSE-APACHE"]) {
    assert.ok(listing.includes(`opb-${version}.dist-info/licenses/${licence}`), licence);
  }
  const metadata = run("unzip", ["-p", wheel, `opb-${version}.dist-info/METADATA`]).stdout;
  assert.match(metadata, new RegExp(`^Version: ${version}$`, "m"));
  assert.match(metadata, /^License-Expression: MIT OR Apache-2\.0$/m);
  assert.match(metadata, /^Description-Content-Type: text\/markdown/m);
  const binary = join(dir, "opb");
  run("sh", ["-c", `unzip -p "$1" "$2" > "$3"`, "sh", wheel, `opb-${version}.data/scripts/opb`, binary]);
  const sections = run("readelf", ["--section-headers", "--wide", binary]);
  assert.equal(sections.status, 0, sections.stderr);
  assert.doesNotMatch(sections.stdout, /\.symtab|\.debug_/, "strip = true leaves no symbol table or debug information");
});

test("`cargo xtask version` reads the version cargo reads", () => {
  const metadata = JSON.parse(run("cargo", ["metadata", "--no-deps", "--format-version", "1", "--offline"], { cwd: root }).stdout);
  assert.equal(metadata.packages.find((p) => p.name === "opb-cli").version, version);
});

test("installed without Rust, opb and python -m opb run", () => {
  assert.equal(run("sh", ["-c", "command -v opb"], { env }).stdout.trim(), join(venv, "bin/opb"));
  for (const [command, args] of [
    ["opb", ["--version"]],
    ["python", ["-m", "opb", "--version"]],
  ]) {
    const result = run(command, args, { env });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), `opb ${version}`);
  }
  const missing = run("python", ["-m", "opb", "check", join(dir, "no-such.opb.yaml")], { env });
  assert.equal(missing.status, 2, "python -m opb passes opb's exit status on");
});

test("opb check from the wheel: every example's exit status and codes, as the built opb", () => {
  const examples = readdirSync(join(root, "examples")).filter((name) => /\.(json|ya?ml)$/.test(name));
  assert.ok(examples.length >= 4, examples.join(", "));
  for (const name of examples) {
    const path = join(root, "examples", name);
    const fromWheel = run("opb", ["check", "--format", "json", path], { env });
    const built = run(builtOpb, ["check", "--format", "json", path]);
    const codes = (result) => JSON.parse(result.stdout).files[0].diagnostics.map((d) => d.code);
    assert.equal(fromWheel.status, name.includes(".broken.") ? 1 : 0, `${name}: ${fromWheel.stdout}`);
    assert.equal(fromWheel.status, built.status, name);
    assert.deepEqual(codes(fromWheel), codes(built), name);
  }
  const broken = run("opb", ["check", join(root, "examples/refund-triage.broken.yaml")], { env });
  assert.match(broken.stdout, /error\[PB213 next-unknown\]/);
});

test("opb lsp from the wheel answers initialize and publishes a document's diagnostics", async () => {
  const client = new LspClient(join(venv, "bin/opb"), ["lsp"], { env });
  try {
    const result = await client.request("initialize", { processId: null, rootUri: null, capabilities: {} });
    assert.deepEqual(result.serverInfo, { name: "opb", version });
    assert.equal(result.capabilities.textDocumentSync, 1);
    client.notify("initialized", {});
    const uri = "file:///refund.opb.yaml";
    const published = client.next("the diagnostics of refund.opb.yaml", (m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri);
    const text = readFileSync(join(root, "tests/editors/refund.broken.opb.yaml"), "utf8");
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
    const codes = (await published).params.diagnostics.map((d) => d.code);
    assert.deepEqual(codes, ["PB213"]);
  } finally {
    await client.shutdown();
  }
});
