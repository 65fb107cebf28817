// The playground's core flows in Firefox ESR and WebKitGTK (Safari's
// engine), against the release build in dist/; Chromium runs them, and
// much more, in tests/e2e. Each flow is written once, over the driver of
// ./driver.mjs, and runs in each engine in turn, in one browser session per
// engine (the flows follow each other as one person's visit would):
//
//   1. the playground opens and checks its example: no error, its graph
//   2. typing a document updates the diagnostics and the graph
//   3. the typed draft survives a reload
//   4. a shared link opens the reading view, and Edit continues in the editor
//   5. <opb-viewer> draws a playbook on a docs page of another origin
//
// The flows use the page's stable hooks (data-testid, roles, the status
// bar's count of checks), not its layout: a tab is chosen by its hook
// wherever it is drawn. Screenshots at 1400 px go to
// tests/e2e/screenshots/engine-<engine>-<flow>.png.
//
// What the drivers cannot do alike is left out: DevTools' CPU throttling
// and request interception are Chromium's. WebKitGTK's WebDriver gives no
// console: there, a page's failure is caught by the app's own panic banner,
// which each flow checks (in Firefox, the page's errors are checked too). The first flow names each browser API the app
// uses (WebAssembly, IndexedDB, Web Locks, compression streams, custom
// elements, shadow roots, the Clipboard API) that an engine lacks: both
// have them all, so neither shows a degraded message.

import { describe, before, after, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ENGINES, start } from "./driver.mjs";
import { serve, dist, root, screenshots, pako, storedDrafts } from "../e2e/harness.mjs";

const EXAMPLE = readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8");
// A playbook typed key by key on one line (the editor indents new lines by
// itself, so a typed line break would not be the text typed): one step,
// whose next step does not exist (PB213).
const TYPED =
  '{"openplaybook": "1.6", "id": "typed", "name": "Typed", "requires": {"connections": []}, ' +
  '"steps": [{"id": "first", "kind": "agent", "agent": "lou", "purpose": "Typed in.", "allowedTools": [], "next": "missing"}], "start": "first"}';

// docs/web-component-example.html, served on an origin of its own with the
// playground's address it names (scripts/run.sh's) replaced by this run's.
async function docsSite(playground) {
  const page = readFileSync(join(root, "docs/web-component-example.html"), "utf8").replaceAll("http://127.0.0.1:8080/", playground);
  const server = createServer((request, response) => {
    if (request.url === "/web-component-example.html") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    else response.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

// In the page: the number of checks the playground has finished.
const checks = () => Number(document.querySelector(".statusbar")?.dataset.checks ?? 0);
// In the page: the editor's whole text (it draws only the lines in view).
const editorText = () => window.opbEditor?.textOf(document.querySelector('[data-testid="editor"]')) ?? null;

for (const engine of ENGINES) {
  describe(engine, () => {
    let browser, server, docs;
    const started = Date.now();

    before(async () => {
      // Served as a host would: another origin's docs page loads the
      // <opb-viewer> module, which needs CORS.
      server = await serve(dist, { production: true });
      docs = await docsSite(server.url);
      browser = await start(engine, { width: 1400, height: 900 });
      console.log(`${engine}: ${await browser.version()}`);
    });

    after(async () => {
      await browser?.close();
      await server?.close();
      await docs?.close();
      console.log(`${engine}: the flows took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });

    const shot = (name) => browser.screenshot(screenshots, `engine-${engine}-${name}`);
    // Chooses a panel's tab by its hook and waits until it is selected.
    const openTab = async (name) => {
      await browser.evaluate((name) => document.querySelector(`[data-testid="tab-${name}"]`).click(), name);
      await browser.waitFor(`the ${name} tab to be selected`, (name) => document.querySelector(`[data-testid="tab-${name}"]`)?.getAttribute("aria-selected") === "true", name);
    };
    // No panic banner, and no error in the page where the engine reports
    // them (not WebKitGTK's WebDriver: the banner stands for them there).
    const noPanic = async () => {
      assert.equal(await browser.evaluate(() => document.getElementById("panic-banner")?.textContent ?? null), null, "no panic banner");
      assert.deepEqual(browser.errors(), [], "no error in the page");
    };
    const listed = () => browser.evaluate(() => [...document.querySelectorAll("li.diagnostic")].map((li) => ({ code: li.dataset.code, severity: li.dataset.severity })));
    const steps = () => browser.evaluate(() => [...document.querySelectorAll('[data-testid="graph"] g.node[data-step-id]')].map((g) => g.dataset.stepId).sort());

    test("the playground opens and checks its example: no error, and its graph", async () => {
      await browser.goto(server.url);
      await browser.waitFor("the first check", checks);
      assert.equal(await browser.evaluate(() => document.querySelector('[data-testid="document-name"]').textContent), "failed-charge-recovery.json");
      assert.equal(await browser.evaluate(editorText), EXAMPLE);
      // The browser APIs the playground and the viewer use, each named, so
      // an engine without one says which here.
      const missing = await browser.evaluate(() =>
        Object.entries({
          WebAssembly: typeof WebAssembly?.instantiateStreaming === "function",
          "IndexedDB (with indexedDB.databases)": typeof indexedDB?.databases === "function",
          "Web Locks (navigator.locks)": typeof navigator.locks?.request === "function",
          CompressionStream: typeof CompressionStream === "function",
          DecompressionStream: typeof DecompressionStream === "function",
          "custom elements": typeof customElements?.define === "function",
          "shadow roots": typeof Element.prototype.attachShadow === "function",
          "the Clipboard API (navigator.clipboard.writeText)": typeof navigator.clipboard?.writeText === "function",
        })
          .filter(([, there]) => !there)
          .map(([api]) => api),
      );
      assert.deepEqual(missing, [], `${engine} lacks: ${missing.join(", ")}`);
      await openTab("diagnostics");
      assert.deepEqual((await listed()).filter((d) => d.severity === "error"), [], "no error");
      await openTab("graph");
      await browser.waitFor("the graph's steps", () => document.querySelectorAll('[data-testid="graph"] g.node[data-step-id]').length > 0);
      assert.ok((await steps()).includes("send"), `the example's steps: ${await steps()}`);
      await noPanic();
      await shot("playground");
    });

    test("typing a document updates the diagnostics and the graph", async () => {
      await browser.click('[data-testid="editor"] .cm-content');
      await browser.press("Control+a");
      const before = await browser.evaluate(checks);
      await browser.type(TYPED);
      await browser.press("Escape"); // closes a completion list, if one is open
      await browser.waitFor("the typed text", (text) => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]')) === text, TYPED);
      await browser.waitFor("a check of the typed text", (n) => Number(document.querySelector(".statusbar").dataset.checks) > n, before);
      await browser.waitFor("the graph of the typed text", () => !!document.querySelector('[data-testid="graph"] g.node[data-step-id="first"]'));
      assert.deepEqual(await steps(), ["first"], "the graph is the typed document's");
      await shot("typed-graph");
      await openTab("diagnostics");
      await browser.waitFor("PB213 listed", () => !!document.querySelector('li.diagnostic[data-code="PB213"][data-severity="error"]'));
      await noPanic();
      await shot("typed-diagnostics");
    });

    test("the typed draft survives a reload", async () => {
      const kept = await pollDrafts(browser, TYPED);
      assert.equal(kept.text, TYPED);
      await browser.reload();
      await browser.waitFor("the first check after the reload", checks);
      assert.equal(await browser.evaluate(editorText), TYPED, "the reload continues the draft");
      await noPanic();
    });

    test("a shared link opens the reading view, and Edit continues in the editor", async () => {
      await browser.goto("about:blank");
      await browser.goto(server.url + pako({ code: EXAMPLE }));
      await browser.waitFor("the reading view's graph", () =>
        !!document.querySelector("[data-opb-reading] opb-viewer:not([hidden])")?.shadowRoot?.querySelector('svg.graph g[data-step-id="send"]'),
      );
      assert.equal(await browser.evaluate(() => document.documentElement.dataset.opbPage), "reading");
      assert.equal(await browser.evaluate(() => typeof window.opbEditor), "undefined", "no editor loaded");
      const banner = await browser.evaluate(() => document.querySelector("[data-opb-reading] opb-viewer").shadowRoot.querySelector('[data-testid="trust-banner"]').textContent);
      assert.match(banner, /What this document can do/);
      await browser.waitFor("the reading status gone", () => !document.querySelector('[data-testid="reading-status"]'));
      await shot("reading");
      await browser.click('[data-testid="edit"]');
      await browser.waitFor("the playground instead of the reading view", () => !document.querySelector("[data-opb-reading]") && Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
      assert.equal(await browser.evaluate(editorText), EXAMPLE, "the link's text in the editor");
      await noPanic();
      await shot("edit");
    });

    test("<opb-viewer> draws a playbook on a docs page of another origin", async () => {
      await browser.goto(docs.url + "web-component-example.html");
      await browser.waitFor("the element's trust banner", () => !!document.querySelector("opb-viewer")?.shadowRoot?.querySelector('[data-testid="trust-banner"] [data-fact="money"]'));
      const read = (selector) => browser.evaluate((selector) => document.querySelector("opb-viewer").shadowRoot.querySelector(selector)?.textContent, selector);
      assert.match(await read('[data-testid="trust-banner"]'), /Moves money/);
      assert.equal(await read('[data-testid="trust-counts"]'), "0 errors, 0 warnings");
      await browser.click('opb-viewer >>> svg.graph [data-step-id="refund"]');
      await browser.waitFor("the refund step's boundary", () => !!document.querySelector("opb-viewer").shadowRoot.querySelector('article.opb-step.chosen[data-step="refund"]'));
      assert.match(await read("article.opb-step.chosen"), /after a person approves each call/);
      assert.deepEqual(browser.errors(), [], "no error in the page");
      await shot("viewer");
    });
  });
}

// Waits until the playground's drafts (IndexedDB) hold `text`, and returns
// that draft.
async function pollDrafts(browser, text, timeout = 10_000) {
  const until = Date.now() + timeout;
  for (;;) {
    const draft = (await storedDrafts(browser)).find((d) => d.text === text);
    if (draft) return draft;
    if (Date.now() > until) assert.fail("the typed text was never kept as a draft");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
