// The hooks of .pre-commit-hooks.yaml as an author's repository meets them:
// PyPI's pre-commit (tools/editors, scripts/setup.sh test) runs
// `pre-commit try-repo` on a hook repository from a new git repository that
// holds a broken playbook, a valid one and a file of another name. The hook
// must fail, name the finding's code, and pass once the playbook is fixed.
// `opb-system` runs the built opb (target/debug/opb, or $OPB) from PATH;
// `opb` builds opb from this repository with cargo, as pre-commit's rust
// language does (`cargo install --path .`), into an empty cargo home; the
// pre-commit mirror's `opb` (`cargo xtask pre-commit-mirror`) installs opb's
// wheel (`cargo xtask package wheel`) with pip, offline, with no Rust on PATH.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { builtWheel, wheelDir, wheelhouse, withoutRust } from "../packaging/wheel.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const opb = resolve(root, process.env.OPB ?? "target/debug/opb");
const preCommit = join(root, "tools/editors/.venv/bin/pre-commit");

// A playbook whose `next: gaet` names no step (PB213; `gate` is meant).
const BROKEN = readFileSync(join(root, "tests/editors/refund.broken.opb.yaml"), "utf8");

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 20 * 60_000, ...options });
  if (result.error) throw result.error;
  return result;
}

// A new git repository with the documents, and pre-commit's own cache in it.
function repository() {
  const dir = mkdtempSync(join(tmpdir(), "opb-pre-commit-"));
  const repo = join(dir, "repo");
  run("git", ["init", "-q", repo]);
  writeFileSync(join(repo, "refund.opb.yaml"), BROKEN);
  copyFileSync(join(root, "examples/failed-charge-recovery.json"), join(repo, "recovery.opb.json"));
  copyFileSync(join(root, "examples/acme-github.oz0-plugin.yaml"), join(repo, "oz0-plugin.yaml"));
  writeFileSync(join(repo, "notes.yaml"), "not: [an, opb, document\n");
  run("git", ["-C", repo, "add", "."]);
  const env = { ...process.env, PRE_COMMIT_HOME: join(dir, "cache"), PRE_COMMIT_COLOR: "never", NO_COLOR: "1" };
  return { dir, repo, env };
}

function tryRepo(hook, { repo, env, hooks = root }) {
  return run(preCommit, ["try-repo", hooks, hook, "--all-files", "--verbose"], { cwd: repo, env });
}

function assertHookFailsThenPasses(hook, context) {
  const failed = tryRepo(hook, context);
  const output = failed.stdout + failed.stderr;
  assert.equal(failed.status, 1, `the hook should fail on the broken playbook:\n${output}`);
  assert.match(output, /PB213/, output);
  assert.match(output, /refund\.opb\.yaml/, output);
  assert.doesNotMatch(output, /notes\.yaml/, "a file of another name is not checked");
  writeFileSync(join(context.repo, "refund.opb.yaml"), BROKEN.replace("gaet", "gate"));
  run("git", ["-C", context.repo, "add", "."]);
  const passed = tryRepo(hook, context);
  assert.equal(passed.status, 0, `the hook should pass once the playbook is fixed:\n${passed.stdout}\n${passed.stderr}`);
  assert.match(passed.stdout, /opb check.*Passed/);
}

test("opb-system: the installed opb checks the staged documents", () => {
  const context = repository();
  try {
    context.env.PATH = `${dirname(opb)}:${context.env.PATH}`;
    assertHookFailsThenPasses("opb-system", context);
  } finally {
    rmSync(context.dir, { recursive: true, force: true });
  }
});

test("opb: pre-commit builds opb from this repository with cargo and checks the staged documents", () => {
  const context = repository();
  try {
    // No opb on PATH: the hook runs the one pip installed into its
    // environment, from the wheel, the only source pip was given.
    assert.notEqual(run("sh", ["-c", "command -v opb"], { env: context.env }).status, 0);
    assertHookFailsThenPasses("opb", context);
  } finally {
    rmSync(context.dir, { recursive: true, force: true });
  }
});

test("opb from the pre-commit mirror: pre-commit installs opb's wheel, without Rust, and checks the staged documents", () => {
  const context = repository();
  try {
    builtWheel();
    context.hooks = join(context.dir, "opb-pre-commit");
    const made = run("cargo", ["xtask", "pre-commit-mirror", context.hooks], { cwd: root });
    assert.equal(made.status, 0, made.stderr);
    context.env = withoutRust({
      home: context.dir,
      links: [wheelDir, wheelhouse],
      PRE_COMMIT_HOME: context.env.PRE_COMMIT_HOME,
      PRE_COMMIT_COLOR: "never",
      NO_COLOR: "1",
    });
    // No opb on PATH: the hook runs the one pip installed into its
    // environment, from the wheel, the only source pip was given.
    assert.notEqual(run("sh", ["-c", "command -v opb"], { env: context.env }).status, 0);
    assertHookFailsThenPasses("opb", context);
  } finally {
    rmSync(context.dir, { recursive: true, force: true });
  }
});

test("opb-system: the hook follows the repository's opb.toml, as opb check run there does", () => {
  const context = repository();
  try {
    context.env.PATH = `${dirname(opb)}:${context.env.PATH}`;
    // PB213 a warning, and an unknown-field info left out: the hook passes.
    writeFileSync(join(context.repo, "opb.toml"), '[severity]\nPB213 = "warning"\n');
    run("git", ["-C", context.repo, "add", "."]);
    const hook = tryRepo("opb-system", context);
    const output = hook.stdout + hook.stderr;
    assert.equal(hook.status, 0, output);
    const direct = run(opb, ["check", "refund.opb.yaml"], { cwd: context.repo, env: context.env });
    const headers = direct.stdout.split("\n").filter((line) => /^(error|warning|info)\[/.test(line));
    assert.ok(headers.some((line) => line.startsWith("warning[PB213")), direct.stdout);
    for (const line of headers) assert.ok(output.includes(line), `the hook shows ${line}:\n${output}`);
  } finally {
    rmSync(context.dir, { recursive: true, force: true });
  }
});
