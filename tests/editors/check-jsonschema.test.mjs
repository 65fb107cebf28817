// opb's JSON Schemas (`opb schema playbook|plugin-manifest`) read by a
// validator that knows nothing of opb: check-jsonschema, pinned in
// tools/editors/requirements.txt (scripts/setup.sh test). Over every document
// of examples/ and the core's fixtures, the schema must agree with
// `opb check`: it rejects a document only where opb reports something (at the
// rejected place or inside it), it accepts every document opb finds nothing
// wrong with, and it rejects the unknown field, the wrong type and the value
// outside an enumeration of their rules' fixtures at that very field.
// Needs a built `opb` (target/debug/opb, or $OPB).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const opb = resolve(root, process.env.OPB ?? "target/debug/opb");
const checkJsonschema = join(root, "tools/editors/.venv/bin/check-jsonschema");
const schemas = mkdtempSync(join(tmpdir(), "opb-check-jsonschema-"));
const schemaFile = { playbook: join(schemas, "openplaybook.schema.json"), "plugin-manifest": join(schemas, "oz0-plugin.schema.json") };

// Syntax broken or no document to read: nothing for a schema to judge.
const UNREADABLE = new Set(["IN001", "IN002", "IN003", "IN005", "IN006"]);

// Per file (relative to the root): opb's kind and diagnostics, and
// check-jsonschema's errors (JSON pointers) or its parse error.
const documents = new Map();
const skipped = [];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  assert.ifError(result.error);
  return result;
}

function walk(dir, out = []) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (/\.(json|ya?ml)$/.test(entry.name)) out.push(path);
  }
  return out;
}

// check-jsonschema names a place as jsonschema's JSON path: `$`, then
// `.name` for a key that is an identifier, `['any key']` (\\ and \'
// escaped) for another and `[3]` for an item.
function pointerOf(path) {
  assert.ok(path.startsWith("$"), path);
  const tokens = [];
  let at = 1;
  while (at < path.length) {
    let m;
    if ((m = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(path.slice(at)))) {
      tokens.push(m[1]);
    } else if ((m = /^\[(\d+)\]/.exec(path.slice(at)))) {
      tokens.push(m[1]);
    } else if ((m = /^\['((?:[^'\\]|\\.)*)'\]/.exec(path.slice(at)))) {
      tokens.push(m[1].replace(/\\(.)/g, "$1"));
    } else {
      assert.fail(`cannot read the JSON path ${path} at ${at}`);
    }
    at += m[0].length;
  }
  return tokens.map((t) => "/" + t.replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

// opb cuts a credential it flagged to its first four characters, in a
// pointer as anywhere else, so a key that is a credential is matched by
// those four characters and the ellipsis opb writes after them.
const sameSegment = (reported, key) => {
  const shown = [...reported];
  return reported === key || (shown.length === 5 && shown[4] === "…" && [...key].slice(0, 4).join("") === shown.slice(0, 4).join(""));
};
const inside = (pointer, place) => {
  const reported = pointer.split("/");
  const at = place.split("/");
  return reported.length >= at.length && at.every((key, i) => sameSegment(reported[i], key));
};
const parent = (pointer) => pointer.slice(0, pointer.lastIndexOf("/"));

// Where opb must report for a schema error to be explained: at its place
// or inside it; for a closed object's unexpected key, at that key; for a
// missing required member, at the object or at that member.
function place(error) {
  const unexpected = /^Additional properties are not allowed \((.*) (?:was|were) unexpected\)$/.exec(error.message);
  if (unexpected) {
    const keys = [...unexpected[1].matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1].replace(/\\(.)/g, "$1"));
    return keys.map((key) => `${error.pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  }
  return [error.pointer];
}

function explained(diagnostics, error) {
  return place(error).every((at) => diagnostics.some((d) => inside(d.pointer, at)));
}

// The opb diagnostics that stand exactly where the schema rejects.
function matching(diagnostics, error) {
  const at = place(error);
  const required = /^'(.*)' is a required property$/.exec(error.message);
  return diagnostics.filter(
    (d) => at.includes(d.pointer) || (required && d.pointer === `${error.pointer}/${required[1]}`),
  );
}

before(() => {
  assert.ok(existsSync(opb), `no opb at ${opb}: cargo build -p opb-cli`);
  assert.ok(existsSync(checkJsonschema), `no check-jsonschema at ${checkJsonschema}: scripts/setup.sh test installs it`);
  const version = run(checkJsonschema, ["--version"]);
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, /check-jsonschema, version 0\.39\.0/);

  for (const [format, file] of [["playbook", schemaFile.playbook], ["plugin-manifest", schemaFile["plugin-manifest"]]]) {
    const made = run(opb, ["schema", format, "-o", file]);
    assert.equal(made.status, 0, made.stderr);
  }

  const files = [...walk("examples"), ...walk("crates/core/tests/fixtures")]
    .filter((f) => !f.includes(".registry.") && !f.startsWith(join("crates/core/tests/fixtures/input") + "/"))
    .sort();
  assert.ok(files.length > 250, `${files.length} documents found`);

  // One run of opb over all of them: a report per file, in order.
  const checked = run(opb, ["check", "--format", "json", ...files]);
  assert.ok(checked.status === 0 || checked.status === 1, `opb check: ${checked.status}\n${checked.stderr}`);
  const report = JSON.parse(checked.stdout);
  assert.equal(report.files.length, files.length);
  for (const [i, entry] of report.files.entries()) {
    assert.equal(entry.path, files[i]);
    const codes = entry.diagnostics.map((d) => d.code);
    if (!entry.kind || codes.some((c) => UNREADABLE.has(c))) {
      skipped.push(entry.path);
      continue;
    }
    documents.set(entry.path, { kind: entry.kind, diagnostics: entry.diagnostics, errors: [], parseError: null });
  }

  // One run of check-jsonschema per kind: it is Python, and starts slowly.
  for (const kind of ["playbook", "plugin-manifest"]) {
    const paths = [...documents].filter(([, d]) => d.kind === kind).map(([path]) => path);
    assert.ok(paths.length > 100, `${paths.length} ${kind} documents`);
    const result = run(checkJsonschema, ["--schemafile", schemaFile[kind], "--output-format", "json", ...paths]);
    assert.ok(result.status === 0 || result.status === 1, `check-jsonschema: ${result.status}\n${result.stdout}\n${result.stderr}`);
    const out = JSON.parse(result.stdout);
    for (const error of out.errors) {
      const document = documents.get(error.filename);
      assert.ok(document, `check-jsonschema names ${error.filename}`);
      document.errors.push({ path: error.path, pointer: pointerOf(error.path), message: error.message });
    }
    for (const failure of out.parse_errors) documents.get(failure.filename).parseError = failure.message;
  }
});

after(() => rmSync(schemas, { recursive: true, force: true }));

const summary = (d) => d.diagnostics.map((x) => `${x.code}@${x.pointer || "/"}`).join(", ") || "nothing";

test("check-jsonschema reads every sound document opb reads, and both schemas are valid draft-07", (t) => {
  const metaschema = run(checkJsonschema, ["--check-metaschema", schemaFile.playbook, schemaFile["plugin-manifest"]]);
  assert.equal(metaschema.status, 0, metaschema.stdout + metaschema.stderr);
  // YAML that ruamel.yaml will not build (a mapping used as a key, holding a
  // key twice): opb reads the key as text and reports an error there.
  const unparsed = [...documents].filter(([, d]) => d.parseError);
  for (const [path, d] of unparsed) {
    assert.ok(
      d.diagnostics.some((x) => x.severity === "error" && /mapping key must be a plain value/.test(x.message)),
      `${path}: check-jsonschema cannot parse it, and opb reports ${summary(d)}`,
    );
  }
  t.diagnostic(`${documents.size} documents read (${skipped.length} skipped: no kind or broken syntax), ${unparsed.length} that ruamel.yaml cannot build`);
  assert.ok(unparsed.length <= 2, `${unparsed.length} unparsed: ${unparsed.map(([p]) => p)}`);
  assert.ok(documents.size > 250, `${documents.size} documents read, ${skipped.length} skipped`);
});

test("every place check-jsonschema rejects is one where opb reports, at it or inside it", (t) => {
  const problems = [];
  let rejected = 0;
  for (const [path, d] of documents) {
    if (d.errors.length) rejected += 1;
    for (const error of d.errors) {
      if (!explained(d.diagnostics, error)) {
        problems.push(`${path}: check-jsonschema rejects ${error.pointer || "/"} (${error.message}); opb reports ${summary(d)}`);
      }
    }
  }
  t.diagnostic(`${rejected} documents rejected, at ${[...documents.values()].reduce((n, d) => n + d.errors.length, 0)} places`);
  assert.deepEqual(problems, []);
  assert.ok(rejected >= 15, `${rejected} documents rejected`);
});

test("check-jsonschema accepts every document in which opb reports nothing the schema expresses", (t) => {
  // What the schema expresses, learnt from the documents: the codes of
  // opb's findings that stand exactly where check-jsonschema rejects.
  const expressed = new Set();
  for (const d of documents.values()) for (const error of d.errors) for (const x of matching(d.diagnostics, error)) expressed.add(x.code);
  for (const code of ["IN004", "IN007", "PB304"]) assert.ok(expressed.has(code), `${code} is among ${[...expressed]}`);

  const problems = [];
  let accepted = 0;
  let clean = 0;
  for (const [path, d] of documents) {
    if (d.parseError) continue;
    if (d.diagnostics.some((x) => expressed.has(x.code))) continue;
    if (d.diagnostics.length === 0) clean += 1;
    if (d.errors.length) {
      problems.push(`${path}: opb reports ${summary(d)}, none of ${[...expressed].sort()}, but check-jsonschema rejects ${d.errors.map((e) => `${e.pointer || "/"} (${e.message})`)}`);
    } else {
      accepted += 1;
    }
  }
  t.diagnostic(`expressed: ${[...expressed].sort().join(" ")}; ${accepted} documents accepted, ${clean} of them with nothing from opb`);
  assert.deepEqual(problems, []);
  assert.ok(accepted > 200, `${accepted} documents accepted`);
  assert.ok(clean > 50, `${clean} documents that opb finds nothing in`);
});

test("the unknown field, the wrong type and the value outside an enumeration are rejected at their field", () => {
  const fixtures = "crates/core/tests/fixtures/rules";
  const expect = { IN004: "is not of type", IN007: "Additional properties are not allowed", PB304: "is not one of" };
  for (const [code, words] of Object.entries(expect)) {
    const bad = readdirSync(join(root, fixtures)).filter((f) => f.startsWith(`${code}.bad.`) && !f.includes(".registry."));
    assert.ok(bad.length >= 1, `a ${code} bad fixture`);
    for (const name of bad) {
      const path = join(fixtures, name);
      const d = documents.get(path);
      assert.ok(d, `${path} was read`);
      const findings = d.diagnostics.filter((x) => x.code === code);
      assert.ok(findings.length >= 1, `${path}: opb reports ${summary(d)}`);
      for (const finding of findings) {
        // An unknown key is reported by the schema at the object holding it.
        const at = code === "IN007" ? parent(finding.pointer) : finding.pointer;
        const hit = d.errors.find((e) => e.pointer === at && e.message.includes(words) && place(e).includes(finding.pointer));
        assert.ok(hit, `${path}: opb reports ${code} at ${finding.pointer}; check-jsonschema says ${JSON.stringify(d.errors)}`);
      }
    }
  }
});

test("a tool that sets more than one way of running is rejected, at the tool, as PM201 reports it", (t) => {
  // Seed 003: "Set exactly one of `mcp` (your own code), `package` or
  // `url`; `package` may also set `mcp` to name the command to run. A flow
  // tool sets `flow` instead, and none of them."
  const dir = mkdtempSync(join(tmpdir(), "opb-runs-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tools = {
    "mcp-url": ["mcp: [node, server.js]", "url: https://helper.example.com/mcp"],
    "package-url": ["package: npm:acme@1.0.0", "url: https://helper.example.com/mcp"],
    "flow-mcp": ["flow: triage", "mcp: [node, server.js]"],
    "package-mcp": ["package: npm:acme@1.0.0", "mcp: [acme-server]"],
    url: ["url: https://helper.example.com/mcp"],
  };
  const paths = Object.entries(tools).map(([name, lines]) => {
    const path = join(dir, `${name}.oz0-plugin.yaml`);
    writeFileSync(path, `name: acme\ntools:\n  - id: acme_helper\n${lines.map((l) => `    ${l}\n`).join("")}`);
    return path;
  });
  const result = run(checkJsonschema, ["--schemafile", schemaFile["plugin-manifest"], "--output-format", "json", ...paths]);
  const out = JSON.parse(result.stdout);
  const rejected = new Set(out.errors.map((e) => `${e.filename.slice(dir.length + 1)}@${pointerOf(e.path)}`));
  const checked = JSON.parse(run(opb, ["check", "--format", "json", ...paths]).stdout);
  const reported = new Set(
    checked.files.flatMap((f) => f.diagnostics.filter((d) => d.code === "PM201").map(() => f.path.slice(dir.length + 1))),
  );
  assert.deepEqual(
    [...rejected].sort(),
    ["flow-mcp.oz0-plugin.yaml@/tools/0", "mcp-url.oz0-plugin.yaml@/tools/0", "package-url.oz0-plugin.yaml@/tools/0"],
  );
  assert.deepEqual([...reported].sort(), ["flow-mcp.oz0-plugin.yaml", "mcp-url.oz0-plugin.yaml", "package-url.oz0-plugin.yaml"]);
});
