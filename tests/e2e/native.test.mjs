// The viewer on a docs page at another origin looks like the page: its
// font and text colour, a transparent background, the theme the page
// declares (light when it declares none, whatever the system prefers);
// in a fixed height its tabs in view with a scroll cue; its tools riskiest
// first; and the embed codes the playground's Share menu copies, pasted
// into a fresh page, work as they are.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, routeSites, docsSite, examplePlayground, root, session, pako, collectErrors, openPlayground, violations } from "./harness.mjs";

const opb = session();
const REFUND = readFileSync(join(root, "docs/examples/refund-with-approval.yaml"), "utf8");
const TOOLS = readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8");

// A docs page at docs.example holding `body`, with `head` in its <head>:
// declares nothing unless `head` does.
async function hostPage({ head = "", body, colorScheme = "light", viewport = { width: 1100, height: 900 } }) {
  const context = await opb.browser.newContext({ viewport, colorScheme });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = collectErrors(await context.newPage());
  const refused = await routeSites(page);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>${head}<style>body { margin: 24px; font-family: Georgia, serif; color: rgb(40, 30, 90); }</style></head><body><main><h1>Refunds</h1>${body}</main></body></html>`;
  await page.route(docsSite + "host.html", (route) => route.fulfill({ status: 200, contentType: "text/html", body: html }));
  await page.goto(docsSite + "host.html");
  return { page, refused };
}

const script = `<script type="module" src="${examplePlayground}opb-viewer.js"></script>`;
const theme = (page, selector = "opb-viewer") => page.$eval(selector, (e) => e.shadowRoot.querySelector(".opb-root").dataset.theme);

test("<opb-viewer> takes the host page's font, text colour and declared theme, never the system's alone", async () => {
  const { page, refused } = await hostPage({ colorScheme: "dark", body: `${script}<opb-viewer code="${REFUND.replaceAll('"', "&quot;")}"></opb-viewer>` });
  const viewer = page.locator("opb-viewer");
  await viewer.locator('svg.graph [data-step-id="refund"]').waitFor({ timeout: 20_000 });
  // The system prefers dark; the page declares nothing, so it is light.
  assert.equal(await theme(page), "light");
  const look = () =>
    page.$eval("opb-viewer", (e) => {
      const viewer = getComputedStyle(e.shadowRoot.querySelector(".opb-root"));
      const host = getComputedStyle(document.body);
      return { background: viewer.backgroundColor, colour: viewer.color, hostColour: host.color, font: viewer.fontFamily, hostFont: host.fontFamily };
    });
  const light = await look();
  assert.equal(light.background, "rgba(0, 0, 0, 0)", "transparent: the page shows through");
  assert.equal(light.colour, light.hostColour);
  assert.equal(light.font, light.hostFont);
  assert.deepEqual(await violations(page), []);

  // A page that says it is dark, by attribute or by its color-scheme, makes it dark, live.
  await page.evaluate(() => {
    document.documentElement.dataset.theme = "dark";
    document.body.style.cssText = "background: rgb(15, 18, 30); color: rgb(230, 230, 240)";
  });
  await page.waitForFunction(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme === "dark");
  const dark = await look();
  assert.equal(dark.colour, "rgb(230, 230, 240)", "the page's own text colour");
  assert.deepEqual(await violations(page), []);
  await page.evaluate(() => delete document.documentElement.dataset.theme);
  await page.waitForFunction(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme === "light");
  await page.evaluate(() => (document.documentElement.style.colorScheme = "dark"));
  await page.waitForFunction(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme === "dark");
  // Both schemes declared: the page follows the system, and so does the viewer.
  await page.evaluate(() => (document.documentElement.style.colorScheme = "light dark"));
  assert.equal(await theme(page), "dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForFunction(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme === "light");
  assert.deepEqual(refused, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("in a fixed height the tabs and the graph are in view, the summary opens on demand, and a cue says there is more", async () => {
  const { page } = await hostPage({ body: `${script}<opb-viewer height="400" code="${REFUND.replaceAll('"', "&quot;")}"></opb-viewer><p>After.</p>` });
  const viewer = page.locator("opb-viewer");
  await viewer.locator('svg.graph [data-step-id="refund"]').waitFor({ timeout: 20_000 });
  // How many pixels of a part the box shows.
  const shown = (selector) =>
    page.$eval(
      "opb-viewer",
      (e, selector) => {
        const box = e.getBoundingClientRect();
        const part = e.shadowRoot.querySelector(selector).getBoundingClientRect();
        return Math.max(0, Math.min(part.bottom, box.bottom) - Math.max(part.top, box.top));
      },
      selector,
    );
  const tabs = await page.$eval("opb-viewer", (e) => e.shadowRoot.querySelector(".opb-tabs").getBoundingClientRect().height);
  assert.equal(await shown(".opb-tabs"), tabs, "the tabs are in the box");
  assert.ok((await shown(".opb-graph")) >= 120, "and a good part of the graph");
  assert.equal(await viewer.locator(".trust-verdict").isVisible(), true);
  assert.equal(await viewer.locator('[data-fact="requires"]').isVisible(), false, "the rest of the summary waits");
  const cue = viewer.locator(".opb-cue");
  assert.equal(await cue.isVisible(), true, "a cue says there is more below");
  await viewer.locator("[data-more]").click();
  assert.equal(await viewer.locator('[data-fact="requires"]').isVisible(), true);
  assert.equal(await viewer.locator("[data-more]").getAttribute("aria-expanded"), "true");
  await page.$eval("opb-viewer", (e) => e.scrollTo(0, e.scrollHeight));
  await cue.waitFor({ state: "hidden" });
  await page.$eval("opb-viewer", (e) => e.scrollTo(0, 0));
  await screenshot(page, "native-fixed-height");
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the viewer's Tools tab lists the riskiest tools first", async () => {
  const { page } = await hostPage({ body: `${script}<opb-viewer tab="tools" code="${TOOLS.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></opb-viewer>` });
  const panel = page.locator("opb-viewer #opb-panel-tools");
  await panel.waitFor({ timeout: 20_000 });
  const text = await panel.textContent();
  const order = ["email.send", "today.surface", "customer.get", "charge.history", "mcp.acme.search_orders"].map((name) => text.indexOf(name));
  assert.ok(order.every((at) => at >= 0), `${order}`);
  assert.deepEqual([...order].sort((a, b) => a - b), order, "customer_comms, internal, then the reads in the document's order");
  await page.context().close();
});

test("the embed codes Share copies work pasted into a page at another origin, in the page's theme", async () => {
  // The playground served where a docs page loads the viewer from.
  const context = await opb.browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const playground = collectErrors(await context.newPage());
  await routeSites(playground);
  await openPlayground(playground, `${examplePlayground}?edit${pako({ code: REFUND })}`);
  await playground.click('[data-testid="share"]');
  await playground.click('[data-testid="copy-embed"]');
  await playground.waitForSelector('[data-testid="share-status"]:has-text("Copied the embed code.")');
  const element = await playground.evaluate(() => navigator.clipboard.readText());
  await playground.click('[data-testid="copy-iframe"]');
  await playground.waitForSelector('[data-testid="share-status"]:has-text("Copied the iframe code.")');
  const iframe = await playground.evaluate(() => navigator.clipboard.readText());
  assert.deepEqual(playground.errors, []);
  await context.close();
  assert.match(element, /^<script type="module" src="http:\/\/127\.0\.0\.1:8080\/opb-viewer\.js"><\/script>\n<opb-viewer code="/);
  assert.doesNotMatch(iframe, /#[0-9a-f]{3,6}\b|border: 1px/i, "no colour of its own");

  // The element, on a dark page whose system prefers light.
  const pasted = await hostPage({ head: '<meta name="color-scheme" content="dark">', body: element });
  await pasted.page.locator('opb-viewer svg.graph [data-step-id="refund"]').waitFor({ timeout: 20_000 });
  assert.equal(await theme(pasted.page), "dark");
  assert.deepEqual(pasted.refused, []);
  assert.deepEqual(pasted.page.errors, []);
  await pasted.page.context().close();

  // The iframe, on a page that says it is dark by a class, then turns light.
  const framed = await hostPage({ body: iframe, colorScheme: "light", viewport: { width: 375, height: 800 } });
  await framed.page.evaluate(() => document.documentElement.classList.add("dark"));
  const frame = framed.page.frameLocator("iframe");
  await frame.locator('opb-viewer svg.graph [data-step-id="refund"]').waitFor({ timeout: 20_000 });
  await frame.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
  // height=auto: the frame is as tall as what it shows, nothing scrolls inside.
  await framed.page.waitForFunction(() => document.querySelector("iframe").style.height !== "");
  const inner = framed.page.frames().find((f) => f.url().includes("embed.html"));
  await inner.waitForFunction(() => document.documentElement.scrollHeight <= innerHeight + 1 && innerHeight > 300);
  const scrolls = await inner.evaluate(() => document.documentElement.scrollHeight > innerHeight + 1);
  assert.equal(scrolls, false, "no scroll inside the frame");
  await screenshot(framed.page, "native-iframe-375-dark");
  await framed.page.evaluate(() => document.documentElement.classList.remove("dark"));
  await frame.locator('html[data-theme="light"]').waitFor({ state: "attached" });
  assert.deepEqual(framed.refused, []);
  assert.deepEqual(framed.page.errors, []);
  await framed.page.context().close();
});

test("a host page, light and dark, on a phone and a desktop", async () => {
  for (const [width, dark] of [[375, false], [375, true], [1400, false], [1400, true]]) {
    const head = dark ? '<style>html { color-scheme: dark; } body { background: #14161c; color: #e8e6e3 !important; }</style>' : "";
    const { page } = await hostPage({ head, viewport: { width, height: 900 }, body: `<p>A refund needs a person's approval.</p>${script}<opb-viewer code="${REFUND.replaceAll('"', "&quot;")}"></opb-viewer>` });
    await page.locator('opb-viewer svg.graph [data-step-id="refund"]').waitFor({ timeout: 20_000 });
    assert.equal(await theme(page), dark ? "dark" : "light");
    assert.deepEqual(await violations(page), []);
    await screenshot(page, `native-host-${width}-${dark ? "dark" : "light"}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
