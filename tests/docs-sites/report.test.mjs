// The HTML report as a reader opens it: `opb render --format html` for a
// playbook and a manifest, served with the Content-Security-Policy the
// report declares, read in Chromium light and dark, at 1400 and 375 px, and
// for print. Needs a built `opb` (target/debug/opb, or $OPB). Screenshots go
// to tests/e2e/screenshots/.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { root, launch, screenshot } from "../e2e/harness.mjs";

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const dir = mkdtempSync(join(tmpdir(), "opb-report-"));
let server;
let base;
let browser;

before(async () => {
  const opb = resolve(root, process.env.OPB ?? "target/debug/opb");
  for (const [source, out] of [["examples/refund-triage.broken.yaml", "playbook.html"], ["examples/acme-github.oz0-plugin.yaml", "manifest.html"]]) {
    const run = spawnSync(opb, ["render", "--format", "html", "--theme", "auto", join(root, source), "-o", join(dir, out)], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
  }
  server = createServer((request, response) => {
    try {
      const body = readFileSync(join(dir, new URL(request.url, "http://x").pathname.slice(1)));
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": POLICY }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => server?.close(ok) ?? ok());
  rmSync(dir, { recursive: true, force: true });
});

async function open(file, width, colorScheme) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
  const problems = [];
  page.on("console", (message) => ["error", "warning"].includes(message.type()) && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  const requests = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.goto(base + file, { waitUntil: "load" });
  return { page, problems, requests };
}

test("the playbook's report reads under its own policy, light and dark, and on a phone", async () => {
  for (const [width, scheme] of [[1400, "light"], [1400, "dark"], [375, "light"]]) {
    const { page, problems, requests } = await open("playbook.html", width, scheme);
    assert.deepEqual(problems, [], "no policy violation, no error");
    assert.deepEqual(requests, [base + "playbook.html"], "the page is all there is");
    assert.equal(await page.textContent("h1"), "Refund triage (refund-triage)");
    const headings = await page.$$eval("h2", (hs) => hs.map((h) => h.textContent));
    assert.deepEqual(headings.slice(0, 4), ["What this document can do", "The step graph", "What opb check finds", "Steps: what each one may do"]);
    assert.match(await page.textContent(".trust-banner"), /Moves money/);
    const colours = await page.evaluate(() => ({
      page: getComputedStyle(document.body).backgroundColor,
      node: getComputedStyle(document.querySelector('svg.graph .node[data-kind="agent"] .node-shape')).fill,
    }));
    assert.deepEqual(colours, scheme === "dark" ? { page: "rgb(11, 16, 32)", node: "rgb(21, 32, 54)" } : { page: "rgb(255, 255, 255)", node: "rgb(255, 255, 255)" });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at ${width} px: ${overflow}`);
    await screenshot(page, `report-playbook-${width}-${scheme}`);
    if (width === 1400 && scheme === "dark") {
      await page.emulateMedia({ media: "print" });
      // Printed in the light theme's colours: dark ink on light paper.
      const [ink, paper] = await page.evaluate(() => [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]);
      const channels = (colour) => colour.match(/\d+/g).slice(0, 3).map(Number);
      assert.ok(channels(ink).every((c) => c < 60) && channels(paper).every((c) => c > 200), `printed dark on light paper: ${ink} on ${paper}`);
    }
    await page.close();
  }
});

test("the manifest's report has its account and no graph", async () => {
  const { page, problems } = await open("manifest.html", 1400, "light");
  assert.deepEqual(problems, []);
  assert.equal(await page.locator("svg").count(), 0);
  assert.match(await page.textContent("main"), /Tools: what each one runs, where, and who approves its calls/);
  await screenshot(page, "report-manifest-1400-light");
  await page.close();
});
