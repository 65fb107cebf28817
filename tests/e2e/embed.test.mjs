// Embedding, end to end in Chromium: the docs pages of docs/ on another
// origin (http://docs.example/, see harness.routeSites) show a playbook by
// iframe (?embed=1, with the postMessage protocol) and by the <opb-viewer>
// element; the embed page alone, with its themes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, routeSites, docsSite, root, session, pako, collectErrors } from "./harness.mjs";

const opb = session();


async function newPage(viewport = { width: 1100, height: 900 }, colorScheme = "light") {
  const context = await opb.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  collectErrors(page);
  return page;
}

const BROKEN = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");

test("the embed page shows the viewer alone, themed, with a link to the playground", async () => {
  const page = await newPage({ width: 900, height: 760 });
  const address = `${opb.server.url}?embed=1&theme=light${pako({ code: BROKEN })}`;
  await page.goto(address);
  // The graph first, then the other views by their tabs, which leave the
  // address (and so the document in its fragment) alone.
  await page.waitForSelector('[data-testid="standalone"] [data-step-id="decide"]');
  assert.equal(await page.getAttribute('[data-testid="tab-graph"]', "aria-selected"), "true");
  await page.click('[data-step-id="decide"]');
  await page.waitForSelector('[data-testid="step-panel"][data-step="decide"]');
  await page.click('[data-testid="step-panel"] a.tool-name');
  await page.waitForSelector('[data-testid="standalone"] tr[data-tool].selected');
  assert.equal(await page.getAttribute('[data-testid="tab-tools"]', "aria-selected"), "true");
  await page.click('[data-testid="tab-requires"]');
  await page.click('[data-testid="tab-diagnostics"]');
  await page.waitForSelector('[data-testid="standalone"] li.diagnostic');
  assert.equal(page.url(), address, "the tabs do not touch the address");
  assert.equal(await page.locator(".cm-editor").count(), 0, "no editor");
  assert.equal(await page.locator('[data-testid="share"]').count(), 0, "no playground controls");
  assert.equal(await page.getAttribute("html", "data-theme"), "light");
  assert.match(await page.textContent('[data-testid="trust-banner"]'), /Reaches money/);
  const href = await page.getAttribute('[data-testid="open-in-playground"]', "href");
  assert.ok(href.startsWith(opb.server.url + "#pako:"), href);
  await screenshot(page, "embed-light");

  await page.goto(`${opb.server.url}?embed=1&theme=dark${pako({ code: BROKEN })}`);
  await page.waitForSelector('[data-testid="standalone"] [data-step-id="decide"]');
  assert.equal(await page.getAttribute("html", "data-theme"), "dark");
  await screenshot(page, "embed-dark");

  // The link opens the same document in the playground.
  const playground = await newPage();
  await playground.goto(href);
  await playground.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  // And keeps it, as it keeps every document it shows.
  await playground.waitForFunction(() => localStorage.getItem("opb.document.text") !== null);
  assert.equal(await playground.evaluate(() => localStorage.getItem("opb.document.text")), BROKEN);
  assert.deepEqual([...page.errors, ...playground.errors], []);
  await page.context().close();
  await playground.context().close();
});

test("the embed opens on the panel its link names", async () => {
  const page = await newPage();
  await page.goto(`${opb.server.url}?embed=1${pako({ code: BROKEN, view: "requires" })}`);
  await page.waitForSelector('[data-testid="tab-requires"][aria-selected="true"]');
  // A panel the embed does not have (the playground's rules) opens the graph.
  await page.goto(`${opb.server.url}?embed=1${pako({ code: BROKEN, view: "rules/PB213" })}`);
  await page.reload();
  await page.waitForSelector('[data-testid="tab-graph"][aria-selected="true"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an embed without a document, or with a broken one, says why", async () => {
  const page = await newPage();
  await page.goto(`${opb.server.url}?embed=1`);
  await page.waitForSelector('[data-testid="embed-problem"]');
  assert.match(await page.textContent('[data-testid="embed-problem"]'), /carries no document/);
  await page.goto(`${opb.server.url}?embed=1#pako:eNrLSM3JyQcABiwCF`);
  await page.waitForSelector('[data-testid="embed-problem"]');
  assert.match(await page.textContent('[data-testid="embed-problem"]'), /cut short|damaged/);
  await page.context().close();
});

test("a docs page embeds the viewer by iframe and talks to it with postMessage", async () => {
  const page = await newPage();
  const refused = await routeSites(page);
  await page.goto(docsSite + "embed-example.html");
  await page.waitForFunction(() => /playbook: 0 errors/.test(document.getElementById("result").textContent), null, { timeout: 20_000 });
  const frame = page.frameLocator("#viewer");
  await frame.locator('[data-testid="trust-banner"]').waitFor();
  assert.equal(await frame.locator(".cm-editor").count(), 0, "the embed has no editor");

  await page.click("#send");
  await page.waitForFunction(() => /playbook: [1-9]\d* errors/.test(document.getElementById("result").textContent));
  assert.match(await page.textContent("#result"), /first: [A-Z]+\d{3} at line \d+/);
  await frame.locator('[data-testid="tab-diagnostics"]').click();
  await frame.locator('li.diagnostic[data-code="PB213"]').waitFor();

  // A message of another shape is answered with the reason: a document
  // that is no string, an opb: type the viewer does not take, a plain
  // string. Another script's message ({type: "other"}) is not answered.
  const answer = (message) =>
    page.evaluate(
      (message) =>
        new Promise((resolve) => {
          window.addEventListener("message", (event) => event.data?.type === "opb:error" && resolve(event.data.message), { once: true });
          document.getElementById("viewer").contentWindow.postMessage(message, "*");
        }),
      message,
    );
  assert.match(await answer({ type: "opb:set-document", code: 42 }), /needs the document's text in `code`/);
  assert.match(await answer({ type: "opb:nope" }), /takes `opb:set-document` messages, not `opb:nope`/);
  assert.match(await answer("hello"), /is an object.*not a string/);
  await screenshot(page, "embed-iframe-page");
  assert.deepEqual(refused, [], "the pages asked for nothing else");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the <opb-viewer> element renders the viewer on a plain HTML page", async () => {
  const page = await newPage();
  const refused = await routeSites(page);
  await page.goto(docsSite + "web-component-example.html");
  const viewer = page.locator("opb-viewer");
  await viewer.locator('[data-testid="trust-banner"] [data-fact="money"]').waitFor({ timeout: 20_000 });
  const banner = await viewer.locator('[data-testid="trust-banner"]').textContent();
  assert.match(banner, /Reaches money/);
  assert.match(banner, /refund.*after gate.*approve/s);
  assert.equal(await viewer.locator('.count[data-severity="error"]').getAttribute("data-count"), "0");
  assert.equal(await page.evaluate(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme), "light");
  const href = await viewer.locator('[data-testid="open-in-playground"]').getAttribute("href");
  assert.ok(href.startsWith("http://127.0.0.1:8080/#pako:"), href);

  // A changed text is checked again, and the element says so.
  const result = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const element = document.querySelector("opb-viewer");
        element.addEventListener("opb-result", (event) => resolve(event.detail), { once: true });
        element.textContent = 'openplaybook: "1.6"\nid: x\nsteps: []\n';
      }),
  );
  assert.equal(result.type, "opb:result");
  assert.equal(result.kind, "playbook");
  assert.ok(result.counts.error > 0, JSON.stringify(result.counts));
  await screenshot(page, "web-component");
  assert.deepEqual(refused, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
