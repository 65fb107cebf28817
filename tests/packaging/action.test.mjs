// opb's GitHub Action (action.yml): check-jsonschema reads it with GitHub's
// own schema for actions, and its steps run as a runner runs a composite
// action's: each `run:` through `bash --noprofile --norc -eo pipefail`, in
// GITHUB_WORKSPACE, with the step's `env:` after the runner's substitution
// of `${{ inputs.* }}`, GITHUB_ACTION_PATH (this repository), RUNNER_TEMP and
// the file commands (a line added to GITHUB_PATH puts a directory on PATH
// for the next steps). PATH holds the system's directories only, no Rust;
// pip installs opb from the built wheel alone (no index). A broken playbook
// must give `::error` lines naming its finding and fail the job.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtWheel, root, run, version, withoutRust } from "./wheel.mjs";

const checkJsonschema = join(root, "tools/editors/.venv/bin/check-jsonschema");
// PyYAML, in the same tools' environment, reads action.yml as a runner does.
const python = join(root, "tools/editors/.venv/bin/python");
const dir = mkdtempSync(join(tmpdir(), "opb-action-"));
after(() => rmSync(dir, { recursive: true, force: true }));

// A playbook whose `next: gaet` names no step (PB213 at line 10, column 11).
const BROKEN = readFileSync(join(root, "tests/editors/refund.broken.opb.yaml"), "utf8");

function readAction(path) {
  const read = run(python, ["-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", path]);
  assert.equal(read.status, 0, read.stderr);
  return JSON.parse(read.stdout);
}

// The runner's substitution of an `env:` value: `${{ inputs.NAME }}` alone
// is the input's value; any other expression is one this test cannot judge.
function substitute(value, inputs) {
  if (typeof value !== "string" || !value.includes("${{")) return String(value);
  const input = /^\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}$/.exec(value);
  assert.ok(input && input[1] in inputs, `an expression this test does not substitute: ${value}`);
  return inputs[input[1]];
}

let runs = 0;

// Runs the action's steps with the given inputs (`with:`) in a new
// workspace holding `files`; stops at the first step that fails, as a runner
// does. Returns each step run: its name, exit status and output.
function runAction(withInputs, files) {
  const action = readAction(join(root, "action.yml"));
  assert.equal(action.runs.using, "composite");
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, withInputs[name] ?? input.default ?? ""]));
  const job = join(dir, `job-${++runs}`);
  const workspace = join(job, "workspace");
  const temp = join(job, "runner-temp");
  mkdirSync(workspace, { recursive: true });
  mkdirSync(temp);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(workspace, name, ".."), { recursive: true });
    writeFileSync(join(workspace, name), text);
  }
  const commands = Object.fromEntries(["GITHUB_PATH", "GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"].map((name) => [name, join(job, name)]));
  for (const file of Object.values(commands)) writeFileSync(file, "");
  const added = [];
  const steps = [];
  for (const step of action.runs.steps) {
    assert.equal(step.shell, "bash", step.name);
    assert.doesNotMatch(step.run, /\$\{\{/, `${step.name}: an expression in a script pastes a value into shell code; pass it in env`);
    const script = join(job, `step-${steps.length}.sh`);
    writeFileSync(script, step.run);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, substitute(value, inputs)]));
    const env = withoutRust({
      dirs: added,
      home: job,
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: root,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: temp,
      ...commands,
      ...stepEnv,
    });
    const result = run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd: workspace, env });
    steps.push({ name: step.name, status: result.status, stdout: result.stdout, stderr: result.stderr });
    if (result.status !== 0) break;
    // Each line added to GITHUB_PATH comes before what is on PATH already.
    added.unshift(...readFileSync(commands.GITHUB_PATH, "utf8").split("\n").filter(Boolean).reverse().filter((d) => !added.includes(d)));
  }
  return steps;
}

test("action.yml is a GitHub Action by GitHub's schema", () => {
  const valid = run(checkJsonschema, ["--builtin-schema", "vendor.github-actions", join(root, "action.yml")]);
  assert.equal(valid.status, 0, valid.stdout + valid.stderr);
  // The schema judges what it reads: a runner it does not know is refused.
  const wrong = join(dir, "action.yml");
  writeFileSync(wrong, readFileSync(join(root, "action.yml"), "utf8").replace("using: composite", "using: compost"));
  const refused = run(checkJsonschema, ["--builtin-schema", "vendor.github-actions", wrong]);
  assert.equal(refused.status, 1, refused.stdout + refused.stderr);
});

test("the action installs opb from the wheel and fails the job with ::error lines on a broken playbook", () => {
  builtWheel();
  const files = { "playbooks/team/refund.opb.yaml": BROKEN, "playbooks/recovery.opb.json": readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8") };
  const [install, check] = runAction({ paths: "**/*.opb.yaml\nplaybooks/*.opb.json" }, files);
  assert.equal(install.status, 0, install.stdout + install.stderr);
  assert.equal(install.stdout.trim(), `opb ${version}`, "the action's own version, from the workspace");
  assert.ok(check, "the check step runs");
  assert.equal(check.status, 1, check.stdout + check.stderr);
  const errors = check.stdout.split("\n").filter((line) => line.startsWith("::error "));
  assert.deepEqual(errors, [
    "::error file=playbooks/team/refund.opb.yaml,line=10,col=11,endLine=10,endColumn=15,title=PB213 next-unknown::`next` of step `triage` names `gaet`, which is no step of this playbook. Did you mean `gate`?",
  ]);

  const fixed = runAction({ paths: "playbooks/**/*.opb.*", version }, { ...files, "playbooks/team/refund.opb.yaml": BROKEN.replace("gaet", "gate") });
  assert.deepEqual(fixed.map((step) => step.status), [0, 0], fixed.map((step) => step.stdout + step.stderr).join("\n"));
  assert.doesNotMatch(fixed[1].stdout, /^::error/m);
});

test("the action's version and args inputs reach pip and opb", () => {
  const unknown = runAction({ paths: "refund.opb.yaml", version: "0.0.0" }, { "refund.opb.yaml": BROKEN });
  assert.equal(unknown.length, 1, "nothing runs after a failed install");
  assert.notEqual(unknown[0].status, 0);
  assert.match(unknown[0].stderr, /opb==0\.0\.0/);

  // Read as a plugin manifest (`--kind plugin`), the playbook has no error,
  // only notices of fields a manifest does not have: the job passes.
  const asPlugin = runAction({ paths: "refund.opb.yaml", args: "--kind plugin" }, { "refund.opb.yaml": BROKEN });
  assert.deepEqual(asPlugin.map((step) => step.status), [0, 0], asPlugin.map((step) => step.stdout + step.stderr).join("\n"));
  assert.match(asPlugin[1].stdout, /^::notice file=refund\.opb\.yaml,.*title=IN007 unknown-field::`steps`/m);
  assert.doesNotMatch(asPlugin[1].stdout, /PB213/);
});
