// Rendering safety, end to end in Chromium: a playbook and a manifest whose
// strings are markup (a script, an image with onerror, an SVG with a script
// and onload, a javascript: link) and bidirectional-override characters
// are shown as inert text in every panel, the graph, the trust banner, the
// embed and the <opb-viewer> element (whose markup, written by opb-render,
// is set as its shadow root's HTML). Nothing runs (each payload would set window.__pwned), no
// element is made from document text, and the text reads back literally.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, pako, routeSites, docsSite, collectErrors, closeClean, editFromReading, openTab } from "./harness.mjs";

const opb = session();

const PAYLOADS = {
  script: `<script>window.__pwned = "script"</script>`,
  img: `<img src=x onerror="window.__pwned = 'img'">`,
  svg: `<svg onload="window.__pwned = 'svg'"><script>window.__pwned = "svg script"</script></svg>`,
  link: `javascript:window.__pwned = "link"`,
  // RIGHT-TO-LEFT OVERRIDE ... POP DIRECTIONAL FORMATTING, and an isolate.
  bidi: "admin\u202E txt.exe\u202C \u2067isolated\u2069",
};

// Selectors of anything a payload could have made, and the marks of a run.
const MADE = 'img[src="x"], [onerror], [onload], a[href^="javascript:"], iframe, object, embed, script:not([src]):not([data-opb-route])';

const examples = join(root, "examples");

// The example playbook with a payload in each kind of string the viewer
// shows: a step id (graph node, step panel, tools' "used by"), the agent, a
// purpose, a gate's branch label, a tool's name and description, its
// permissions, a connection's provider, an MCP server and a secret.
function hostilePlaybook() {
  const replace = (text, from, to) => text.replaceAll(JSON.stringify(from), JSON.stringify(to));
  let text = readFileSync(join(examples, "failed-charge-recovery.json"), "utf8");
  text = replace(text, "send", PAYLOADS.img);
  text = replace(text, "lou", PAYLOADS.script);
  text = replace(text, "Send the approved email.", PAYLOADS.svg);
  text = replace(text, "approved", PAYLOADS.bidi);
  text = replace(text, "today.surface", PAYLOADS.link);
  text = replace(text, "Put a card on the team's Today page.", PAYLOADS.svg);
  text = replace(text, "email:send", PAYLOADS.img);
  text = replace(text, "resend", PAYLOADS.script);
  text = replace(text, "acme", PAYLOADS.bidi);
  text = replace(text, "ACME_MCP_TOKEN", PAYLOADS.img);
  return text;
}

function hostileManifest() {
  const text = readFileSync(join(examples, "acme-github.oz0-plugin.yaml"), "utf8");
  return text
    .replace("name: acme-github", `name: ${JSON.stringify(PAYLOADS.img)}`)
    .replace("description: Label and route a new issue.", `description: ${JSON.stringify(PAYLOADS.svg)}`)
    .replace("- id: acme_fetch", `- id: ${JSON.stringify(PAYLOADS.script)}`)
    .replace("url: https://search.example.com/mcp", `url: ${JSON.stringify(PAYLOADS.link)}`)
    .replace("- id: acme_scanner", `- id: ${JSON.stringify(PAYLOADS.bidi)}`);
}

// A page of `viewport` whose errors and dialogs (a payload's alert) are
// kept in `page.errors`; it is navigated to `url`, when given.
async function newPage(url, viewport = { width: 1440, height: 900 }) {
  const context = await opb.browser.newContext({ viewport });
  const page = collectErrors(await context.newPage());
  page.on("dialog", (dialog) => {
    page.errors.push(`a dialog opened: ${dialog.message()}`);
    dialog.dismiss();
  });
  if (url) await page.goto(url);
  return page;
}


// Checks that nothing ran and no element came from the document, and that
// `scope`'s text shows the given payloads literally.
async function assertInert(page, where, scope, shown) {
  assert.equal(await page.evaluate(() => window.__pwned), undefined, `${where}: a payload ran`);
  const made = await page.$$eval(MADE, (elements) => elements.map((e) => e.outerHTML.slice(0, 120)));
  assert.deepEqual(made, [], `${where}: elements made from document text`);
  const text = await page.textContent(scope);
  for (const name of shown) {
    assert.ok(text.includes(PAYLOADS[name]), `${where}: the ${name} payload is not shown as text`);
  }
}

test("a playbook's markup and bidi strings are inert text in the reading view, every panel and the graph", async () => {
  const page = await newPage(opb.server.url + pako({ code: hostilePlaybook() }));
  await page.waitForSelector("[data-opb-reading] opb-viewer svg.graph [data-step-id]");
  await assertInert(page, "reading view's banner", 'opb-viewer [data-testid="trust-banner"]', ["img"]);
  await assertInert(page, "reading view's graph", "opb-viewer #opb-panel-graph", ["img", "bidi"]);
  await assertInert(page, "reading view's requires", "opb-viewer #opb-panel-requires", ["script", "bidi", "img"]);
  await editFromReading(page);
  await page.waitForSelector('[data-testid="trust-banner"]');
  await assertInert(page, "trust banner", '[data-testid="trust-banner"]', ["img"]);
  await page.click('.trust-dismiss');

  await openTab(page, "diagnostics");
  await assertInert(page, "diagnostics", ".side-pane", []);

  await openTab(page, "graph");
  const node = page.locator(`[data-step-id="${PAYLOADS.img.replaceAll('"', '\\"')}"]`);
  await node.waitFor();
  assert.equal(await node.getAttribute("data-step-id"), PAYLOADS.img, "the id is an attribute value, not markup");
  await assertInert(page, "graph", '[data-testid="graph"]', ["img", "bidi"]);
  await node.click();
  await page.waitForSelector('[data-testid="step-panel"]');
  await assertInert(page, "step panel", '[data-testid="step-panel"]', ["img", "script", "svg", "img"]);
  await screenshot(page, "hostile-graph");

  await openTab(page, "tools");
  await assertInert(page, "tools", ".side-pane", ["link", "svg", "img"]);
  await openTab(page, "requires");
  await assertInert(page, "requires", ".side-pane", ["script", "bidi", "img"]);
  await screenshot(page, "hostile-requires");
  await closeClean(page);
});

test("a manifest's markup strings are inert text in the reading view and the manifest view", async () => {
  const page = await newPage(opb.server.url + pako({ code: hostileManifest() }));
  await page.waitForSelector("[data-opb-reading] opb-viewer:not([hidden])");
  await assertInert(page, "reading view", "opb-viewer .opb-view", ["img", "script", "link", "bidi"]);
  await editFromReading(page);
  await page.waitForSelector('[data-testid="trust-banner"]');
  await page.click('.trust-dismiss');
  await openTab(page, "manifest");
  await assertInert(page, "manifest", ".side-pane", ["img", "script", "link", "bidi"]);
  await page.click("tr[data-tool] .tool-name >> nth=1");
  await assertInert(page, "manifest tool", ".side-pane", ["script"]);
  await screenshot(page, "hostile-manifest");
  await closeClean(page);
});

test("the embed page shows the same strings as inert text", async () => {
  const page = await newPage(`${opb.server.url}embed.html${pako({ code: hostilePlaybook() })}`);
  await page.waitForSelector("opb-viewer svg.graph [data-step-id]");
  await assertInert(page, "embed banner", 'opb-viewer [data-testid="trust-banner"]', ["img"]);
  await assertInert(page, "embed graph", "opb-viewer #opb-panel-graph", ["img", "bidi"]);
  for (const tab of ["tools", "requires", "paths", "diagnostics"]) {
    await openTab(page, tab);
    await assertInert(page, `embed ${tab}`, `opb-viewer #opb-panel-${tab}`, []);
  }
  await screenshot(page, "hostile-embed");
  await closeClean(page);
});

test("the <opb-viewer> element shows the same strings as inert text in every tab", async () => {
  const page = await newPage(null, { width: 1200, height: 900 });
  await routeSites(page);
  const code = hostilePlaybook().replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  await page.route(docsSite + "hostile.html", (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hostile</title>
        <script type="module" src="http://127.0.0.1:8080/opb-viewer.js"></script></head>
        <body><opb-viewer code="${code}"></opb-viewer></body></html>`,
    }),
  );
  await page.goto(docsSite + "hostile.html");
  const viewer = page.locator("opb-viewer");
  const node = viewer.locator(`svg.graph [data-step-id="${PAYLOADS.img.replaceAll('"', '\\"')}"]`);
  await node.waitFor({ timeout: 20_000 });
  assert.equal(await node.getAttribute("data-step-id"), PAYLOADS.img, "the id is an attribute value, not markup");
  await assertInert(page, "element banner", 'opb-viewer [data-testid="trust-banner"]', ["img"]);
  await node.click();
  assert.equal(await viewer.locator("article.opb-step.chosen").getAttribute("data-step"), PAYLOADS.img);
  await assertInert(page, "element graph", "opb-viewer #opb-panel-graph", ["img", "script", "svg", "bidi"]);
  for (const tab of ["tools", "requires", "paths", "diagnostics"]) {
    await viewer.locator(`[data-testid="tab-${tab}"]`).click();
    await assertInert(page, `element ${tab}`, `opb-viewer #opb-panel-${tab}`, []);
  }
  await assertInert(page, "element tools", "opb-viewer #opb-panel-tools", ["link", "svg"]);
  await assertInert(page, "element requires", "opb-viewer #opb-panel-requires", ["script", "bidi", "img"]);
  // Each element of the viewer isolates its text, so a bidirectional
  // control cannot reorder the words around it.
  assert.equal(await viewer.locator("#opb-panel-requires dd").first().evaluate((e) => getComputedStyle(e).unicodeBidi), "isolate");
  await screenshot(page, "hostile-element");
  await closeClean(page);
});

