// Features a reader relies on that no other file tests, each by what it
// produces: the graph's exports (an SVG holding every step, a PNG that is
// one), the graph's zoom keys, the theme chosen and the trust banner
// dismissed surviving what follows, the embed's `opb:ready` and its deafness
// to messages not from its parent, and the <opb-viewer> element's `code`
// and `theme` attributes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, session, collectErrors, openPlayground, pako, routeSites, docsSite, examplePlayground, closeClean, afterCheck } from "./harness.mjs";

const opb = session();
const EXAMPLE = readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8");
const STEPS = JSON.parse(EXAMPLE).steps.map((step) => step.id);
const MINIMAL = readFileSync(join(root, "crates/app/src/examples/minimal-playbook.yaml"), "utf8");

async function playground(url = opb.server.url) {
  const context = await opb.browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  return openPlayground(collectErrors(await context.newPage()), url);
}

// The bytes of the file a click downloads.
async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return [download.suggestedFilename(), readFileSync(await download.path())];
}

test("the graph exports as an SVG holding every step and as a PNG of the drawing", async () => {
  const page = await playground();
  await page.click('[data-testid="tab-graph"]');
  await page.waitForSelector("svg.graph [data-step-id]");
  await page.click('[data-testid="share"]');
  const [svgName, svg] = await downloaded(page, '[data-testid="export-svg"]');
  assert.equal(svgName, "failed-charge-recovery.graph.svg");
  const text = svg.toString("utf8");
  assert.match(text, /<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  for (const id of STEPS) assert.ok(text.includes(`data-step-id="${id}"`), `step ${id} is in the SVG`);
  assert.match(await page.textContent('[data-testid="share-status"]'), /Exported failed-charge-recovery\.graph\.svg/);

  const [pngName, png] = await downloaded(page, '[data-testid="export-png"]');
  assert.equal(pngName, "failed-charge-recovery.graph.png");
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG's signature");
  assert.equal(png.subarray(12, 16).toString("latin1"), "IHDR");
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.ok(width >= 200 && height >= 100, `drawn at a size one can read: ${width} × ${height}`);
  assert.ok(png.length > 5_000, `with the drawing in it: ${png.length} bytes`);
  await closeClean(page);
});

test("the graph zooms with + and −, and 0 fits it again", async () => {
  const page = await playground();
  await page.click('[data-testid="tab-graph"]');
  await page.waitForSelector("svg.graph [data-step-id]");
  const level = async () => Number((await page.textContent('[data-testid="zoom-level"]')).replace("%", ""));
  const fitted = await level();
  await page.focus('[data-testid="graph"]');
  await page.keyboard.press("+");
  assert.ok((await level()) > fitted, "+ zooms in");
  await page.keyboard.press("-");
  await page.keyboard.press("-");
  assert.ok((await level()) < fitted, "− zooms out");
  await page.keyboard.press("0");
  await page.waitForFunction((fitted) => document.querySelector('[data-testid="zoom-level"]').textContent === `${fitted}%`, fitted);
  await closeClean(page);
});

test("the theme chosen and the trust banner dismissed stay so after an edit and a reload", async () => {
  const page = await playground(opb.server.url + pako({ code: EXAMPLE }));
  while ((await page.getAttribute('[data-testid="theme-toggle"]', "data-theme-choice")) !== "dark") await page.click('[data-testid="theme-toggle"]');
  await page.click('[data-testid="trust-banner"] .trust-dismiss');
  assert.equal(await page.locator('[data-testid="trust-banner"]').count(), 0);
  await afterCheck(page, async () => {
    await page.click('[data-testid="editor"] .cm-content');
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" ");
  });
  assert.equal(await page.locator('[data-testid="trust-banner"]').count(), 0, "an edit does not bring the banner back");
  // The address follows the document: a reload is of one's own work.
  await page.waitForFunction(() => history.state === "opb", null, { timeout: 5_000 });
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.equal(await page.getAttribute("html", "data-theme"), "dark", "the theme chosen survives a reload");
  assert.equal(await page.getAttribute('[data-testid="theme-toggle"]', "data-theme-choice"), "dark");
  assert.equal(await page.locator('[data-testid="trust-banner"]').count(), 0, "nor does a reload");
  await closeClean(page);
});

// A docs page of its own at `path` on the docs site, for the tests below.
async function docsPage(path, html) {
  const context = await opb.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = collectErrors(await context.newPage());
  const refused = await routeSites(page);
  // Routes run newest first: this page is answered before the docs site.
  await page.route(docsSite + path, (route) => route.fulfill({ status: 200, contentType: "text/html", body: html }));
  return { page, refused };
}

test("the embed says opb:ready to its parent, and hears messages from its parent only", async () => {
  const src = `${examplePlayground}embed.html${pako({ code: MINIMAL })}`;
  const { page, refused } = await docsPage(
    "host.html",
    `<!doctype html><html lang="en"><head><title>host</title></head><body>
<script>
  window.heard = [];
  addEventListener("message", (event) => window.heard.push(event.data));
</script>
<iframe id="viewer" title="opb" src="${src}" style="width: 900px; height: 600px"></iframe></body></html>`,
  );
  await page.goto(docsSite + "host.html");
  await page.waitForFunction(() => window.heard.some((m) => m?.type === "opb:ready"), null, { timeout: 20_000 });
  await page.waitForFunction(() => window.heard.some((m) => m?.type === "opb:result"));
  const frame = page.frames().find((f) => f.url().startsWith(`${examplePlayground}embed.html`));
  // The frame posts to itself: not its parent, so not heard. Then the
  // parent sends a document, which is: messages arrive in order, so the
  // first result after them is of the parent's document.
  await frame.evaluate(() => window.postMessage({ type: "opb:set-document", code: "not: [from the parent" }, "*"));
  await frame.evaluate(() => window.postMessage("not even an object", "*"));
  const results = await page.evaluate(() => window.heard.filter((m) => m?.type === "opb:result").length);
  await page.evaluate(() => document.getElementById("viewer").contentWindow.postMessage({ type: "opb:set-document", code: 'openplaybook: "1.6"\nid: from-parent\nsteps: []\n' }, "*"));
  await page.waitForFunction((n) => window.heard.filter((m) => m?.type === "opb:result").length > n, results);
  const heard = await page.evaluate(() => window.heard);
  assert.equal(heard.filter((m) => m?.type === "opb:error").length, 0, "the frame's own messages got no answer");
  const after = heard.filter((m) => m?.type === "opb:result").slice(results);
  assert.equal(after.length, 1, "one check: of the parent's document");
  assert.equal(after[0].kind, "playbook");
  assert.deepEqual(refused, []);
  await closeClean(page);
});

test("<opb-viewer> reads its code attribute, again when it changes, and takes the theme it is given", async () => {
  const { page, refused } = await docsPage(
    "element.html",
    `<!doctype html><html lang="en"><head><title>element</title>
<script type="module" src="${examplePlayground}opb-viewer.js"></script></head><body>
<opb-viewer id="viewer" theme="dark"></opb-viewer></body></html>`,
  );
  await page.goto(docsSite + "element.html");
  await page.evaluate((code) => document.getElementById("viewer").setAttribute("code", code), MINIMAL);
  const root = (selector) => page.locator(`opb-viewer .opb-root${selector}`);
  await root(' [data-step-id="look-up"]').waitFor({ state: "attached", timeout: 20_000 });
  assert.equal(await root("").getAttribute("data-theme"), "dark", "theme=dark is drawn dark");
  await page.evaluate(() => document.getElementById("viewer").setAttribute("theme", "light"));
  await page.waitForFunction(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme === "light");
  // Another document in the attribute: the graph shows its steps instead.
  await page.evaluate((code) => document.getElementById("viewer").setAttribute("code", code), EXAMPLE);
  await root(` [data-step-id="${STEPS[0]}"]`).waitFor({ state: "attached" });
  assert.equal(await root(' [data-step-id="look-up"]').count(), 0);
  assert.deepEqual(refused, []);
  await closeClean(page);
});
