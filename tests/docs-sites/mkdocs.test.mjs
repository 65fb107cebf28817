// A docs site as its author builds one: the MkDocs site in mkdocs/, whose
// hook runs `opb render` at build time, built with the pinned MkDocs
// (scripts/setup.sh test), served, and read in Chromium. Needs a built
// `opb` (target/debug/opb, or $OPB). Screenshots go to tests/e2e/screenshots/.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { root, serve, launch, screenshot } from "../e2e/harness.mjs";

const built = mkdtempSync(join(tmpdir(), "opb-mkdocs-"));
let server;
let browser;

before(async () => {
  const opb = resolve(root, process.env.OPB ?? "target/debug/opb");
  const mkdocs = join(root, "tools/mkdocs/.venv/bin/mkdocs");
  const build = spawnSync(mkdocs, ["build", "--strict", "--quiet", "-f", join(root, "tests/docs-sites/mkdocs/mkdocs.yml"), "-d", built], {
    env: { ...process.env, OPB: opb },
    encoding: "utf8",
  });
  assert.equal(build.status, 0, `mkdocs build failed:\n${build.stdout}\n${build.stderr}`);
  server = await serve(built);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(built, { recursive: true, force: true });
});

async function open(width, colorScheme = "light") {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
  const problems = [];
  page.on("console", (message) => ["error", "warning"].includes(message.type()) && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  const outside = [];
  page.on("request", (request) => !request.url().startsWith(server.url) && !request.url().startsWith("data:") && outside.push(request.url()));
  await page.goto(server.url, { waitUntil: "load" });
  return { page, problems, outside };
}

test("the page built with opb render shows both drawings, described and styled by themselves", async () => {
  const { page, problems, outside } = await open(1400);
  const drawings = await page.$$eval(".opb-graph > svg.graph", (svgs) =>
    svgs.map((svg) => {
      const label = svg.getAttribute("aria-labelledby").split(" ").map((id) => document.getElementById(id)?.textContent);
      const shape = svg.querySelector('.node[data-kind="agent"] .node-shape');
      const badge = svg.querySelector('.risk-badge[data-risk="customer_comms"] text');
      const box = svg.getBoundingClientRect();
      return {
        theme: svg.dataset.theme,
        label,
        steps: [...svg.querySelectorAll(".node")].map((n) => n.dataset.stepId),
        nodeFill: getComputedStyle(shape).fill,
        badge: badge?.textContent,
        badgeFill: getComputedStyle(badge).fill,
        width: box.width,
        height: box.height,
      };
    }),
  );
  assert.equal(drawings.length, 2, JSON.stringify(drawings));
  const [light, dark] = drawings;
  assert.deepEqual([light.theme, dark.theme], ["light", "dark"]);
  for (const drawing of drawings) {
    assert.deepEqual(drawing.label, ["Step graph of Failed charge recovery", "4 steps: recover, gate, send, record. It starts at recover."]);
    assert.deepEqual(drawing.steps, ["recover", "gate", "send", "record"]);
    assert.equal(drawing.badge, "CUSTOMERS");
    assert.ok(drawing.width > 250 && drawing.height > 600, `drawn at its size: ${drawing.width}×${drawing.height}`);
  }
  // The playground's colours (style/graph.css), each drawing its own theme.
  assert.equal(light.nodeFill, "rgb(255, 255, 255)");
  assert.equal(dark.nodeFill, "rgb(21, 32, 54)");
  assert.equal(light.badgeFill, "rgb(138, 66, 5)");
  assert.equal(dark.badgeFill, "rgb(252, 211, 77)");
  // The drawings neither set the page's properties nor take its fonts' place.
  const leaked = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--graph-bg"));
  assert.equal(leaked, "", "the graph's custom properties stay on the drawing");
  const bodyFont = await page.evaluate(() => getComputedStyle(document.querySelector(".col-md-9 h1") ?? document.body).fontFamily);
  assert.doesNotMatch(bodyFont, /ui-sans-serif/);
  assert.deepEqual(outside, [], "nothing is fetched from elsewhere");
  assert.deepEqual(problems, []);
  await page.locator(".opb-graph").first().scrollIntoViewIfNeeded();
  await screenshot(page, "docs-mkdocs-1400");
  await page.close();
});

test("on a phone the page still shows the drawing, and hovering a step gives its text", async () => {
  const { page, problems } = await open(375);
  const svg = page.locator(".opb-graph > svg.graph").first();
  await svg.scrollIntoViewIfNeeded();
  const title = await svg.locator('.node[data-step-id="send"] > title').textContent();
  assert.match(title, /^send \(agent step\)\nSend the approved email\./);
  assert.deepEqual(problems, []);
  await screenshot(page, "docs-mkdocs-375");
  await page.close();
});
