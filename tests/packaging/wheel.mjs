// opb's PyPI wheel as the tests meet it: the one wheel `cargo xtask package wheel`
// built into target/wheels, pip's offline settings that make it the only
// source of `opb`, and an environment with no Rust in it, where every use of
// the wheel runs.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const wheelDir = join(root, "target/wheels");
// The pre-commit mirror's build backend, as a wheel (scripts/setup.sh test).
export const wheelhouse = join(root, "tools/packaging/wheelhouse");

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 10 * 60_000, maxBuffer: 64 << 20, ...options });
  if (result.error) throw result.error;
  return result;
}

export const version = run("cargo", ["xtask", "version"], { cwd: root }).stdout.trim();

// The wheel, named as PyPI's platform wheels are: one binary for any Python 3.
export function builtWheel() {
  const wheels = readdirSync(wheelDir).filter((name) => name.endsWith(".whl"));
  assert.equal(wheels.length, 1, `one wheel in ${wheelDir} (cargo xtask package wheel builds it): ${wheels.join(", ")}`);
  assert.match(wheels[0], new RegExp(`^opb-${version.replaceAll(".", "\\.")}-py3-none-[a-z0-9_.]+\\.whl$`));
  return join(wheelDir, wheels[0]);
}

// Only the system's directories and `dirs` on PATH: neither ~/.cargo/bin nor
// rustup's, so no cargo, rustc or rustup (asserted, so the test proves it).
// pip reads only the given links, never an index.
export function withoutRust({ dirs = [], home, links = [wheelDir], ...more }) {
  const env = {
    PATH: [...dirs, "/usr/bin", "/bin"].join(":"),
    HOME: home,
    LANG: "C.UTF-8",
    PIP_NO_INDEX: "1",
    PIP_FIND_LINKS: links.join(" "),
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    ...more,
  };
  for (const tool of ["cargo", "rustc", "rustup"]) {
    const found = run("sh", ["-c", `command -v ${tool}`], { env });
    assert.notEqual(found.status, 0, `${tool} should not be on PATH here, found ${found.stdout}`);
  }
  return env;
}
