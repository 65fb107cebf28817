// No network: in every mode the page asks for its own files only, and
// nothing at all once it has loaded them, whatever the reader does.
// Requests are intercepted: one to anywhere else is refused and recorded.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dist, routeSites, docsSite, examplePlayground, root, session, pako, collectErrors, closeClean, editFromReading } from "./harness.mjs";

const BROKEN = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
const opb = session();


// A page whose every request is recorded; those not to `allowed` origins
// are refused.
async function watched(allowed) {
  const context = await opb.browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = collectErrors(await context.newPage());
  const requests = [];
  page.on("request", (request) => requests.push(request));
  await page.route("**/*", (route) => {
    const url = route.request().url();
    return allowed.some((origin) => url.startsWith(origin)) ? route.fallback() : route.abort();
  });
  return { page, requests };
}

// Every request so far is a GET of one of the build's files.
function ownFiles(requests, origin) {
  for (const request of requests) {
    const url = new URL(request.url());
    assert.equal(request.method(), "GET", request.url());
    assert.equal(url.origin + "/", origin, `asked another site: ${request.url()}`);
    const path = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
    assert.ok(existsSync(join(dist, path)), `not one of the build's files: ${request.url()}`);
  }
}

async function settled(page) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState("networkidle");
}

test("the playground asks for its own files, then nothing, whatever the reader does", async () => {
  const { page, requests } = await watched([opb.server.url]);
  await page.goto(opb.server.url + pako({ code: BROKEN }));
  await editFromReading(page, { tab: "diagnostics" });
  await page.waitForSelector("li.diagnostic");
  await settled(page);
  ownFiles(requests, opb.server.url);
  const loaded = requests.length;

  await page.click(".cm-content");
  await page.keyboard.type("# typing\n");
  await page.click('[data-testid="tab-rules"]');
  await page.click('a.rule-row >> nth=3');
  await page.click('[data-testid="tab-diagnostics"]');
  await page.selectOption('[data-testid="examples"]', "acme-github.oz0-plugin.yaml");
  await page.click('[data-testid="convert"]');
  await page.click('[data-testid="theme-toggle"]');
  await page.click('[data-testid="share"]');
  await page.click('[data-testid="copy-link"]');
  await page.click('[data-testid="copy-embed"]');
  await Promise.all([page.waitForEvent("download"), page.click('[data-testid="download-json"]')]);
  await page.click('[data-testid="export-svg"]');
  // The link opens a new history entry; the page writes its own address
  // into it once it follows the document (within the 750 ms throttle).
  await page.evaluate((hash) => (location.hash = hash), pako({ code: "id: other\n" }));
  await page.waitForFunction(() => history.state === "opb", null, { timeout: 5_000 });
  await settled(page);
  await page.reload();
  await page.waitForSelector(".cm-content");
  await settled(page);
  // A reload loads the page's files again; they are its own.
  ownFiles(requests, opb.server.url);
  const reloadedAt = requests.findIndex((r, i) => i >= loaded && r.isNavigationRequest());
  assert.ok(reloadedAt >= loaded, "the reload is the first request after loading");
  assert.deepEqual(
    requests.slice(loaded, reloadedAt).map((r) => r.url()),
    [],
    "no request between loading and the reload",
  );
  await closeClean(page);
});

test("the embed page asks for its own files, then nothing, even when its address names another document", async () => {
  const { page, requests } = await watched([opb.server.url]);
  await page.goto(`${opb.server.url}embed.html${pako({ code: BROKEN })}`);
  await page.click('[data-testid="tab-diagnostics"]');
  await page.waitForSelector('#opb-panel-diagnostics li[data-severity="error"]');
  await settled(page);
  ownFiles(requests, opb.server.url);
  const loaded = requests.length;
  // Another document, by the fragment alone: checked in the page.
  await page.evaluate((hash) => (location.hash = hash), pako({ code: 'openplaybook: "1.6"\nid: x\nsteps: []\n' }));
  await page.waitForFunction(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".trust-title")?.textContent === "“x”");
  await settled(page);
  assert.deepEqual(requests.slice(loaded).map((r) => r.url()), []);
  await closeClean(page);
});

test("the <opb-viewer> element asks for the playground's files only, then nothing", async () => {
  const context = await opb.browser.newContext();
  const page = collectErrors(await context.newPage());
  const requests = [];
  page.on("request", (request) => requests.push(request.url()));
  const refused = await routeSites(page);
  await page.goto(docsSite + "web-component-example.html");
  await page.locator("opb-viewer [data-testid='trust-banner']").waitFor({ timeout: 20_000 });
  await settled(page);
  assert.deepEqual(refused, []);
  for (const url of requests) {
    assert.ok(url.startsWith(docsSite) || url.startsWith(examplePlayground), url);
  }
  const loaded = requests.length;
  // A new document, read in the page: the element shows what it found.
  await page.evaluate(() => (document.querySelector("opb-viewer").textContent = "id: changed\n"));
  await page.waitForFunction(() => !document.querySelector("opb-viewer").shadowRoot.querySelector('[data-testid="trust-banner"] [data-fact="money"]'));
  await settled(page);
  assert.deepEqual(requests.slice(loaded), []);
  await closeClean(page);
});
