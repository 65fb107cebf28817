// opb's playbook schema read by an editor: Red Hat's yaml-language-server
// (what VS Code's YAML extension, Neovim's and Helix's YAML support run),
// pinned in tools/editors/package.json (scripts/setup.sh test), spoken to
// over stdio as an editor does. A playbook names the schema in its first
// line, the modeline `# yaml-language-server: $schema=<URL>`; the server
// then marks a value outside an enumeration where `opb check` does, marks
// nothing in a sound playbook, and shows the schema's descriptions on hover.
// Needs a built `opb` (target/debug/opb, or $OPB).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LspClient } from "./lsp.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const opb = resolve(root, process.env.OPB ?? "target/debug/opb");
const server = join(root, "tools/editors/node_modules/.bin/yaml-language-server");
const work = mkdtempSync(join(tmpdir(), "opb-yaml-ls-"));
const schemaPath = join(work, "openplaybook.schema.json");
const schema = () => JSON.parse(readFileSync(schemaPath, "utf8"));

// A sound playbook (the YAML twin of examples/failed-charge-recovery.json),
// naming the schema in its first line.
const sound = readFileSync(join(root, "crates/core/tests/fixtures/examples/failed-charge-recovery.yaml"), "utf8");
const modeline = () => `# yaml-language-server: $schema=${pathToFileURL(schemaPath)}\n`;
const lineOf = (text, pattern) => text.split("\n").findIndex((line) => pattern.test(line));

// What the server asks of its editor: settings, answered per section.
const settings = {
  yaml: {
    validate: true,
    hover: true,
    completion: true,
    format: { enable: false },
    // No catalogue from the network: the modeline is the only schema.
    schemaStore: { enable: false, url: "" },
    schemas: {},
  },
  "[yaml]": {},
  editor: { tabSize: 2, detectIndentation: false },
  files: { associations: {} },
  http: { proxy: "", proxyStrictSSL: false },
};
const section = (name) => (name ?? "").split(".").filter(Boolean).reduce((value, key) => value?.[key], settings) ?? null;

let client;
let version = 0;
const opened = new Set();
const asked = [];

function opbCheck(text, name) {
  const file = join(work, name);
  writeFileSync(file, text);
  const result = spawnSync(opb, ["check", "--format", "json", file], { encoding: "utf8" });
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return JSON.parse(result.stdout).files[0].diagnostics;
}

// Opens (or changes) a document and waits for the server's diagnostics.
async function publish(uri, text) {
  const published = client.next(`textDocument/publishDiagnostics for ${uri}`, (m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri);
  version += 1;
  if (!opened.has(uri)) {
    opened.add(uri);
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version, text } });
  } else {
    client.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
  }
  return (await published).params.diagnostics;
}

before(async () => {
  assert.ok(existsSync(opb), `no opb at ${opb}: cargo build -p opb-cli`);
  assert.ok(existsSync(server), `no yaml-language-server at ${server}: scripts/setup.sh test installs it`);
  const made = spawnSync(opb, ["schema", "playbook", "-o", schemaPath], { encoding: "utf8" });
  assert.equal(made.status, 0, made.stderr);

  client = new LspClient(server, ["--stdio"], {
    cwd: work,
    answer(method, params) {
      asked.push(method);
      if (method === "workspace/configuration") return params.items.map((item) => section(item.section));
      return null; // client/registerCapability, window/workDoneProgress/create
    },
  });
  const initialized = await client.request("initialize", {
    processId: process.pid,
    clientInfo: { name: "opb-editors-test" },
    rootUri: pathToFileURL(work).href,
    workspaceFolders: [{ uri: pathToFileURL(work).href, name: "work" }],
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceFolders: true },
      textDocument: {
        synchronization: { dynamicRegistration: false, didSave: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        hover: { dynamicRegistration: false, contentFormat: ["markdown", "plaintext"] },
      },
    },
    initializationOptions: {},
  });
  assert.equal(initialized.serverInfo?.name ?? "yaml-language-server", "yaml-language-server");
  assert.ok(initialized.capabilities.hoverProvider, JSON.stringify(initialized.capabilities));
  client.notify("initialized", {});
  client.notify("workspace/didChangeConfiguration", { settings });
});

after(async () => {
  await client?.shutdown();
  rmSync(work, { recursive: true, force: true });
});

test("a sound playbook that names the schema in its modeline gets no diagnostic", async () => {
  const text = modeline() + sound;
  assert.deepEqual(opbCheck(text, "sound.yaml"), [], "opb finds nothing in it either");
  const uri = pathToFileURL(join(work, "sound.yaml")).href;
  const diagnostics = await publish(uri, text);
  assert.deepEqual(diagnostics, [], client.stderr);
});

test("a riskClass outside the enumeration is marked on its line, with the allowed values, where opb reports PB304", async () => {
  const text = modeline() + sound.replace("riskClass: customer_comms", "riskClass: dangerous");
  assert.notEqual(text, modeline() + sound);
  const line = lineOf(text, /riskClass: dangerous/);

  const reported = opbCheck(text, "dangerous.yaml");
  assert.deepEqual(reported.map((d) => [d.code, d.pointer]), [["PB304", "/tools/3/riskClass"]]);
  assert.equal(reported[0].range.start.line - 1, line, "opb's lines count from 1");

  const uri = pathToFileURL(join(work, "dangerous.yaml")).href;
  const diagnostics = await publish(uri, text);
  assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
  const [marked] = diagnostics;
  assert.equal(marked.range.start.line, line, JSON.stringify(marked));
  assert.equal(text.split("\n")[line].slice(marked.range.start.character, marked.range.end.character), "dangerous");
  assert.equal(marked.severity, 1, "an error");
  assert.match(marked.message, /Value is not accepted/);
  for (const value of schema().properties.tools.items.properties.riskClass.enum.filter((v) => v !== null)) {
    assert.ok(marked.message.includes(`"${value}"`), `${value} in ${marked.message}`);
  }
  assert.match(marked.source ?? "", /openplaybook\.schema\.json|yaml-schema/i, JSON.stringify(marked));

  // Put right, the same document is clean again.
  assert.deepEqual(await publish(uri, modeline() + sound), []);
});

test("an unknown key and a value of the wrong type are marked where opb reports IN007 and IN004", async () => {
  const text = modeline() + sound.replace("    allowedTools: [email.send]\n", "    allowedTools: [email.send]\n    allowedTool: [email.send]\n").replace(/^(\s+purpose: )Send the approved email\.$/m, "$1[Send, the approved email]");
  const reported = opbCheck(text, "shapes.yaml").filter((d) => d.code === "IN007" || d.code === "IN004");
  assert.deepEqual(reported.map((d) => [d.code, d.pointer]).sort(), [["IN004", "/steps/2/purpose"], ["IN007", "/steps/2/allowedTool"]]);

  const diagnostics = await publish(pathToFileURL(join(work, "shapes.yaml")).href, text);
  const lines = text.split("\n");
  const marked = diagnostics.map((d) => [lines[d.range.start.line].trim(), d.message]).sort();
  assert.equal(marked.length, 2, JSON.stringify(diagnostics));
  assert.match(marked[0][0], /^allowedTool: /);
  assert.match(marked[0][1], /Property allowedTool is not allowed/);
  assert.match(marked[1][0], /^purpose: \[Send/);
  assert.match(marked[1][1], /Incorrect type\. Expected (one of )?"?string/);
});

test("hovering a key shows the schema's description of it", async () => {
  const text = modeline() + sound;
  const uri = pathToFileURL(join(work, "hover.yaml")).href;
  await publish(uri, text);
  const lines = text.split("\n");
  const description = (p) => p.reduce((value, key) => value[key], schema().properties);

  const allowed = lineOf(text, /^\s+allowedTools: /);
  const onKey = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: allowed, character: lines[allowed].indexOf("allowedTools") + 3 } });
  const shown = onKey?.contents?.value ?? JSON.stringify(onKey);
  const want = description(["steps", "items", "properties", "allowedTools", "markdownDescription"]);
  assert.ok(want.length > 40);
  assert.ok(shown.includes(want), `hover on allowedTools shows ${JSON.stringify(shown)}`);

  // On an enumeration's value: that value's meaning, from enumDescriptions.
  const risk = lineOf(text, /riskClass: customer_comms/);
  const onValue = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: risk, character: lines[risk].indexOf("customer_comms") + 2 } });
  const riskClass = description(["tools", "items", "properties", "riskClass"]);
  const meaning = riskClass.enumDescriptions[riskClass.enum.indexOf("customer_comms")];
  assert.ok((onValue?.contents?.value ?? "").includes(meaning), `hover on customer_comms shows ${JSON.stringify(onValue)}`);
});

test("the server asked its editor for settings, and got them", () => {
  assert.ok(asked.includes("workspace/configuration"), `asked: ${asked}`);
});
