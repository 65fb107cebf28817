// The reading view a shared link opens, end to end in Chromium:
// the link's reader sees what the document can do from the viewer's own
// build, with nothing of the editor loaded (checked by the requests made);
// Edit, or the E key, continues in the playground with the same text, tab
// and step; a plain visit, a reload after Edit and the page's own address
// open the editor; a link the reading view cannot read opens the
// playground, which says why; the keyboard reaches everything, and axe-core
// finds nothing at 1400 and 375 px, light and dark. Like the drafts', these
// tests must pass as a slow phone runs them too (cargo xtask e2e-under-load).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { screenshot, root, session, pako, collectErrors, closeClean, editFromReading, violations, editorText } from "./harness.mjs";

const opb = session();
const CODE = readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8");

// A page in a browser context of its own, recording the paths it asks for.
async function newPage(viewport = { width: 1400, height: 900 }, colorScheme = "light") {
  const context = await opb.browser.newContext({ viewport, colorScheme });
  const page = collectErrors(await context.newPage());
  page.paths = [];
  page.on("request", (request) => page.paths.push(new URL(request.url()).pathname));
  return page;
}

// Opens `fragment` and waits for the reading view to show its document
// whole (its banner shows first, alone). From a blank page: on the
// playground, a new fragment alone would only move within the page.
async function read(page, fragment) {
  await page.goto("about:blank");
  await page.goto(opb.server.url + fragment);
  await page.waitForSelector('[data-opb-reading] opb-viewer:not([hidden]) [role="tab"]');
  await page.waitForSelector('[data-testid="reading-status"]', { state: "detached" });
  return page;
}

const pageKind = (page) => page.evaluate(() => document.documentElement.dataset.opbPage);

// What the playground loads and the reading view must not: its wasm and
// loader, the editor's bundle, its stylesheets and fonts.
const PLAYGROUND = /^\/(opb-app-|editor-|boot\.js|snippets\/|(main|share|trust|viewer|graph|risk)-[0-9a-f]+\.css|.*\.woff2)/;

test("a shared link opens the reading view, and nothing of the editor loads", async () => {
  const page = await read(await newPage(), pako({ code: CODE }));
  await page.waitForLoadState("networkidle");
  assert.equal(await pageKind(page), "reading");
  const banner = page.locator('opb-viewer [data-testid="trust-banner"]');
  assert.match(await banner.innerText(), /What this document can do[\s\S]*Writes to customers[\s\S]*ACME_MCP_TOKEN/);
  const tabs = await page.locator('opb-viewer [role="tab"]').allInnerTexts();
  assert.deepEqual(tabs.map((t) => t.replace(/\s*\(\d+\)$/, "")), ["Graph", "Tools", "Requires", "Risk paths", "Problems"]);
  assert.equal(await page.locator('opb-viewer svg.graph g[data-step-id="send"]').count(), 1, "the graph is drawn");
  const loaded = page.paths.filter((path) => PLAYGROUND.test(path));
  assert.deepEqual(loaded, [], "none of the playground's files");
  assert.ok(page.paths.some((path) => /^\/opb-read-core-[0-9a-f]{16}\.wasm$/.test(path)), `the reading view's wasm: ${page.paths}`);
  assert.equal(await page.evaluate(() => typeof window.opbEditor), "undefined", "no editor");
  await screenshot(page, "reading-1400-light");
  await closeClean(page);
});

test("the banner shows first, from a build that makes nothing else, and the whole view keeps it as it was", async () => {
  const page = await newPage();
  // The whole view's build held back until the banner has been seen.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route(/\/opb-read-core-[0-9a-f]{16}\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(opb.server.url + pako({ code: CODE }));
  const viewer = page.locator("opb-viewer");
  const banner = viewer.locator('[data-testid="trust-banner"]');
  await banner.waitFor();
  const first = await banner.evaluate((element) => element.outerHTML);
  assert.match(first, /data-testid="trust-verdict"[\s\S]*Writes to customers/);
  assert.equal(await viewer.locator('[role="tab"]').count(), 0, "no tabs before the whole view");
  assert.equal(await page.locator('[data-testid="reading-status"]').innerText(), "Drawing the graph and the panels…");
  assert.match(await page.title(), / - opb$/, "the tab is named after the document already");
  assert.ok(page.paths.some((path) => /^\/opb-glance-core-[0-9a-f]{16}\.wasm$/.test(path)), `the banner's wasm: ${page.paths}`);
  release();
  await viewer.locator('svg.graph g[data-step-id="send"]').waitFor();
  await page.waitForSelector('[data-testid="reading-status"]', { state: "detached" });
  // But for the summary's button the element adds to the whole view (shown
  // in a fixed height only).
  const whole = await banner.evaluate((element) => {
    const copy = element.cloneNode(true);
    copy.querySelector(".opb-more")?.remove();
    return copy.outerHTML;
  });
  assert.equal(whole, first, "the same banner");
  await closeClean(page);
});

test("a plugin manifest's banner comes with the whole view: the banner's own build checks playbooks only", async () => {
  const page = await newPage();
  const manifest = readFileSync(join(root, "examples/shady-tools.broken.oz0-plugin.yaml"), "utf8");
  // The whole view's build held back: asked for once the banner's build
  // has read the document and made nothing of it.
  let release, asked;
  const held = new Promise((resolve) => (release = resolve));
  const requested = new Promise((resolve) => (asked = resolve));
  await page.route(/\/opb-read-core-[0-9a-f]{16}\.wasm$/, async (route) => {
    asked();
    await held;
    await route.continue();
  });
  await page.goto(opb.server.url + pako({ code: manifest }));
  await requested;
  const viewer = page.locator("opb-viewer");
  assert.ok(page.paths.some((path) => /^\/opb-glance-core-[0-9a-f]{16}\.wasm$/.test(path)), `the banner's build ran first: ${page.paths}`);
  assert.equal(await viewer.locator('[data-testid="trust-banner"]').count(), 0, "no banner from a build that does not check manifests");
  assert.equal(await page.locator('[data-testid="reading-status"]').innerText(), "Reading the shared document…");
  release();
  const banner = viewer.locator('[data-testid="trust-banner"]');
  await banner.waitFor();
  assert.match(await banner.innerText(), /Plugin manifest[\s\S]*\d+ errors?/);
  await page.waitForSelector('[data-testid="reading-status"]', { state: "detached" });
  assert.match(await page.title(), / - opb$/, "the tab is named after the document");
  await closeClean(page);
});

test("Edit continues in the playground with the same text, tab and chosen step", async () => {
  const page = await read(await newPage(), pako({ code: CODE, view: "requires" }));
  const selected = () => page.locator('opb-viewer [role="tab"][aria-selected="true"]').getAttribute("data-tab");
  assert.equal(await selected(), "requires", "the link's panel opens");
  const bannerTop = (await page.locator('opb-viewer [data-testid="trust-banner"]').boundingBox()).y;
  await page.click('opb-viewer [role="tab"][data-tab="graph"]');
  await page.click('opb-viewer svg.graph g[data-step-id="send"]');
  assert.equal(await page.locator('opb-viewer article.opb-step.chosen').getAttribute("data-step"), "send");

  assert.equal(await page.title(), "Failed charge recovery - opb", "the tab is named after the document");
  await page.keyboard.press("e");
  await page.waitForSelector("[data-opb-reading]", { state: "detached" });
  assert.equal(await page.title(), "opb playground", "the playground's name again");
  assert.equal(await editorText(page, { checked: true }), CODE, "the same text");
  assert.equal(await page.getAttribute('[data-testid="tab-graph"]', "aria-selected"), "true", "the same tab");
  await page.waitForSelector('g.node[data-step-id="send"][aria-pressed="true"]');
  assert.equal(await page.getAttribute('[data-testid="step-panel"]', "data-step"), "send", "the step's boundary");
  const banner = page.locator('[data-testid="trust-banner"]');
  assert.match(await banner.innerText(), /What this document can do/, "the trust banner stays");
  const moved = Math.abs((await banner.boundingBox()).y - bannerTop);
  assert.ok(moved < 40, `the banner stays where it was (moved ${moved} px)`);
  await closeClean(page);
});

test("a plain visit, a reload after Edit and the page's own address open the editor", async () => {
  const page = await newPage();
  await page.goto(opb.server.url);
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  assert.equal(await pageKind(page), "playground");
  assert.ok(!page.paths.some((path) => path.startsWith("/opb-read")), "nothing of the reading view");

  const link = pako({ code: CODE });
  await read(page, link);
  await page.click('[data-testid="edit"]');
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  await page.reload();
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  assert.equal(await pageKind(page), "playground", "a reload after Edit");
  assert.equal(await editorText(page, { checked: true }), CODE);

  // The playground's address follows its document, marked as its own.
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n");
  await page.waitForFunction(() => history.state === "opb" && location.hash.startsWith("#pako:"), null, { timeout: 5_000 });
  await page.reload();
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  assert.equal(await pageKind(page), "playground", "the page's own address");
  await closeClean(page);
});

test("a link the reading view cannot read opens the playground, which says why", async () => {
  const page = await newPage();
  await page.goto(opb.server.url + "#pako:eNrLSM3JyQcABiwCF");
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  assert.ok(page.paths.some((path) => path.startsWith("/opb-glance-core-")), "the reading view read it first");
  assert.ok(!page.paths.some((path) => path.startsWith("/opb-read-core-")), "with the banner's build alone");
  await page.waitForSelector("[data-opb-reading]", { state: "detached" });
  assert.match(await page.locator('[data-testid="share-notice"]').innerText(), /link/i);
  await closeClean(page);
});

test("another link in the same tab is read in turn, and an address with no document opens the playground", async () => {
  const page = await read(await newPage(), pako({ code: CODE }));
  const other = readFileSync(join(root, "examples/acme-github.oz0-plugin.yaml"), "utf8");
  await page.evaluate((hash) => (location.hash = hash), pako({ code: other }));
  await page.waitForFunction(() => /Plugin manifest/.test(document.querySelector("opb-viewer").shadowRoot.querySelector('[data-testid="trust-banner"]')?.textContent ?? ""));
  await page.evaluate(() => (location.hash = "#rules"));
  await page.waitForSelector("div[data-opb-reading]", { state: "detached" });
  assert.equal(await page.getAttribute('[data-testid="tab-rules"]', "aria-selected"), "true");
  await closeClean(page);
});

test("a link that unpacks past the input limit stops at it in the reading view, and the playground says so", async () => {
  const page = await newPage();
  // 24 MiB of zeros, deflated to about 24 KB: past the core's 16 MiB.
  const bomb = "#pako:" + deflateSync(Buffer.alloc(24 * 1024 * 1024)).toString("base64url");
  await page.goto(opb.server.url + bomb);
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  assert.ok(page.paths.some((path) => path.startsWith("/opb-glance-core-")), "the reading view read it first");
  assert.ok(!page.paths.some((path) => path.startsWith("/opb-read-core-")), "with the banner's build alone");
  assert.match(await page.locator('[data-testid="share-notice"]').innerText(), /more than 16 MiB/);
  await closeClean(page);
});

test("the reading view by keyboard alone: tabs, a step, then Edit", async () => {
  const page = await read(await newPage(), pako({ code: CODE }));
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "edit", "Edit comes first");
  const focused = () => page.evaluate(() => document.querySelector("opb-viewer").shadowRoot.activeElement?.dataset.tab ?? null);
  // The tabs are one stop (the ARIA tabs pattern), arrows move between them.
  let at = null;
  for (let i = 0; i < 8 && at !== "graph"; i++) {
    await page.keyboard.press("Tab");
    at = await focused();
  }
  assert.equal(at, "graph", "the tab list is reached");
  await page.keyboard.press("ArrowRight");
  assert.equal(await focused(), "tools");
  assert.equal(await page.locator('opb-viewer [role="tab"][aria-selected="true"]').getAttribute("data-tab"), "tools");
  await page.keyboard.press("ArrowLeft");
  // From the graph's tab, past its zoom buttons, to its first step, which
  // Enter chooses.
  let step = null;
  for (let i = 0; i < 6 && !step; i++) {
    await page.keyboard.press("Tab");
    step = await page.evaluate(() => document.querySelector("opb-viewer").shadowRoot.activeElement?.dataset.stepId ?? null);
  }
  assert.ok(step, "a step of the graph takes the focus");
  await page.keyboard.press("Enter");
  assert.equal(await page.locator('opb-viewer article.opb-step.chosen').getAttribute("data-step"), step);
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("e");
  await page.waitForSelector("[data-opb-reading]", { state: "detached" });
  await page.waitForSelector(`g.node[data-step-id="${step}"][aria-pressed="true"]`);
  await closeClean(page);
});

test("the reading view at 375 px and 1400 px, light and dark: nothing for axe-core, nothing wider than the screen", async () => {
  for (const [width, height] of [[375, 740], [1400, 900]]) {
    for (const scheme of ["light", "dark"]) {
      const page = await read(await newPage({ width, height }, scheme), pako({ code: CODE }));
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme, "the system's theme");
      assert.deepEqual(await violations(page), [], `axe-core at ${width} px, ${scheme}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${overflow} px wider than the screen at ${width} px, ${scheme}`);
      const edit = await page.locator('[data-testid="edit"]').boundingBox();
      assert.ok(edit.x + edit.width <= width && edit.height >= 24, `Edit is on screen and large enough at ${width} px`);
      await screenshot(page, `reading-${width}-${scheme}`);
      await closeClean(page);
    }
  }
});

test("the reading view follows the playground's chosen theme", async () => {
  const page = await newPage(undefined, "light");
  await page.goto(opb.server.url);
  await page.evaluate(() => localStorage.setItem("opb.theme", "dark"));
  await read(page, pako({ code: CODE }));
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  assert.equal(await page.evaluate(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme), "dark");
  await closeClean(page);
});
