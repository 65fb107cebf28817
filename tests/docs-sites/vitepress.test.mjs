// The <opb-viewer> package as a docs author uses it: the tarball
// cargo xtask package viewer writes (target/npm/, or $OPB_VIEWER_TGZ),
// installed into a fresh copy of the VitePress site in vitepress/ beside the
// pinned VitePress (tools/vitepress, scripts/setup.sh test), built with
// `vitepress build` (which renders every page on the server, importing the
// package there), served, and opened in Chromium; its pages with opb's
// fences (fences.mjs) are drawn by the package's markdown-it plugin at that
// build, and a second build with the plugin strict fails on the broken
// one. Screenshots go to tests/e2e/screenshots/.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, serve, launch, screenshot } from "../e2e/harness.mjs";
import { checkSite, installSite, writePages } from "./fences.mjs";

const site = mkdtempSync(join(tmpdir(), "opb-vitepress-"));
let server;
let browser;

function run(command, args, cwd) {
  const done = spawnSync(command, args, { cwd, encoding: "utf8" });
  assert.equal(done.status, 0, `${command} ${args.join(" ")} failed:\n${done.stdout}\n${done.stderr}`);
  return done.stdout;
}

before(async () => {
  installSite("vitepress", site);
  cpSync(join(root, "docs/examples/refund-with-approval.yaml"), join(site, "public/refund-with-approval.yaml"));
  writePages(site);
  run(join(site, "node_modules/.bin/vitepress"), ["build", "."], site);
  server = await serve(join(site, ".vitepress/dist"));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(site, { recursive: true, force: true });
});

test("the package installs, builds with server-side rendering and draws its graph in the built site", async () => {
  const installed = JSON.parse(readFileSync(join(site, "node_modules/opb-viewer/package.json"), "utf8"));
  assert.equal(installed.exports["."].default, "./opb-viewer.js");
  assert.ok(readdirSync(join(site, "node_modules/opb-viewer")).includes("opb-viewer.d.ts"));
  // The server's render holds the element, for the browser to define.
  const html = readFileSync(join(site, ".vitepress/dist/index.html"), "utf8");
  assert.match(html, /<opb-viewer src="\/refund-with-approval.yaml"><\/opb-viewer>/);
  // The site keeps its theme: VitePress links the first stylesheet its
  // client build emits as the page's, so the package must emit none.
  const stylesheets = [...html.matchAll(/<link rel="preload stylesheet" href="([^"]+)"/g)].map(([, href]) => href);
  assert.ok(stylesheets.some((href) => /^\/assets\/style\.[\w-]+\.css$/.test(href)), `the theme's stylesheet is linked: ${stylesheets}`);
  assert.ok(!readdirSync(join(site, ".vitepress/dist/assets")).some((file) => file.endsWith(".css") && !file.startsWith("style.")), "the package adds no stylesheet of its own");

  for (const [width, colorScheme] of [[1400, "light"], [375, "dark"]]) {
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
    const problems = [];
    page.on("console", (message) => message.type() === "error" && problems.push(`${message.text()} ${message.location().url}`));
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(server.url, { waitUntil: "load" });
    const viewer = page.locator("opb-viewer");
    await viewer.locator('svg.graph [data-step-id="refund"]').waitFor({ timeout: 30_000 });
    assert.match(await viewer.locator('[data-testid="trust-banner"]').textContent(), /Moves money/);
    // The package has no playground to link to.
    assert.equal(await viewer.locator('[data-testid="open-in-playground"]').count(), 0);
    // VitePress's dark mode (a `dark` class on <html>) is the viewer's.
    if (colorScheme === "dark") await page.evaluate(() => document.documentElement.classList.add("dark"));
    await page.waitForFunction((theme) => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme === theme, colorScheme);
    await viewer.scrollIntoViewIfNeeded();
    // The theme's font, which the element takes from the page.
    assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /Inter/);
    assert.match(await viewer.evaluate((element) => getComputedStyle(element.shadowRoot.querySelector(".opb-root")).fontFamily), /Inter/);
    await screenshot(page, `vitepress-${width}-${colorScheme}`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("opb's fences are drawn at build time by the markdown-it plugin, read without script and follow the dark toggle", async () => {
  const built = readFileSync(join(site, ".vitepress/dist/graph.html"), "utf8");
  // In the built page itself, not drawn by a script (Vue's render has
  // taken its `v-pre`).
  assert.match(built, /<div class="opb-fragment" data-theme="auto" data-view="graph"><svg class="opb-style" width="0" height="0" aria-hidden="true"><style>/);
  assert.match(built, /data-step-id="refund"/);
  await checkSite({
    browser,
    base: server.url,
    suffix: ".html",
    site: "vitepress",
    // VitePress's toggle: a `dark` class on <html>.
    dark: (page, on) => page.evaluate((on) => document.documentElement.classList.toggle("dark", on), on),
  });
});

test("a strict build fails on the broken fence, naming the page, the code and the message", () => {
  const done = spawnSync(join(site, "node_modules/.bin/vitepress"), ["build", ".", "--outDir", join(site, "strict-dist")], { cwd: site, encoding: "utf8", env: { ...process.env, OPB_STRICT: "1" } });
  assert.notEqual(done.status, 0, "the strict build fails");
  const said = done.stdout + done.stderr;
  assert.match(said, /opb-viewer: the openplaybook fence at line 5 of broken\.md has 8 errors, and strict forbids any:/);
  assert.match(said, /PB213 line 60: `next` of step `decide` names `file`/);
});
