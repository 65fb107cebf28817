// Dense playbooks, end to end in Chromium: gates whose twenty branches
// each lead anywhere in the playbook, which an exact graph layout would cut
// into hundreds of thousands of pieces. Opened from a share link, in the
// reading view and the embed page, the page keeps answering its reader
// (the view is made in slices, the layout within its budget) and shows the
// drawing under the notice that it was simplified, or the notice and the
// list of steps when the graph is too dense to draw; the playground's
// graph view says the same.

import { test } from "node:test";
import assert from "node:assert/strict";
import { screenshot, session, pako, collectErrors, closeClean, openPlayground, cpuSlowdown } from "./harness.mjs";

const opb = session();

// A YAML playbook of `steps` gates with `branches` branches each, as
// crates/core/benches/dense.rs writes it (the same generator, so the same
// document).
function dense(steps, branches) {
  let state = 7n;
  const target = () => {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number((state >> 33n) % BigInt(steps));
  };
  let out = `openplaybook: "1.6"\nid: dense\nname: Dense ${steps} by ${branches}\nstart: s0\nsteps:\n`;
  for (let s = 0; s < steps; s++) {
    const next = Array.from({ length: branches }, (_, b) => `b${b}: s${target()}`);
    out += `  - id: s${s}\n    kind: gate\n    next: {${next.join(", ")}}\n`;
  }
  return out;
}

const SIMPLIFIED = /^Simplified drawing: too many edges cross several ranks/;
const LISTED = "Too many crossing edges to draw: here are the steps and their edges as a list.";

// How long the page may keep its reader waiting, and how soon the graph
// (or its notice) must be on screen once the link is opened. The bounds
// tell a page made in slices from one held until its view is done; the
// times themselves are measured in docs/performance.md (the longest wait
// there is 380 ms). A CPU the harness slows takes that many times longer
// for the same work.
const ANSWER_MS = 1_000 * cpuSlowdown;
const SHOWN_MS = 8_000 * cpuSlowdown;

// Beats every 20 ms from before the page's own scripts run, each noting
// the time since the last: the longest gap is the longest the page could
// not have answered a key.
function beat() {
  window.opbGaps = [];
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    window.opbGaps.push(now - last);
    last = now;
  }, 20);
}

async function newPage(viewport = { width: 1400, height: 900 }, colorScheme = "light") {
  const context = await opb.browser.newContext({ viewport, colorScheme });
  const page = collectErrors(await context.newPage());
  await page.addInitScript(beat);
  return page;
}

// Opens `address` and waits for `notice` (within the element `scope`):
// the time it took, and the longest gap between two beats until a second
// after, by which the drawing has been set in the page.
async function open(page, address, scope) {
  const started = Date.now();
  await page.goto(address, { waitUntil: "commit" });
  const notice = page.locator(`${scope} [data-testid="graph-notice"]`);
  await notice.waitFor({ timeout: SHOWN_MS });
  const shown = Date.now() - started;
  await page.waitForTimeout(1_000);
  const gaps = await page.evaluate(() => window.opbGaps);
  assert.ok(gaps.length > 20, `the page beat ${gaps.length} times`);
  return { shown, longest: Math.max(...gaps), notice: await notice.innerText() };
}

test("a dense share link opens in the reading view without holding the page, its steps listed under the notice", async (t) => {
  const page = await newPage();
  const link = pako({ code: dense(200, 20) });
  assert.ok(link.length > 12_000 && link.length < 16_000, `a link of ${link.length} characters`);
  const { shown, longest, notice } = await open(page, opb.server.url + link, "[data-opb-reading] opb-viewer");
  t.diagnostic(`reading view, 200 × 20: shown after ${shown} ms, longest gap ${Math.round(longest)} ms`);
  assert.equal(notice, LISTED);
  assert.ok(shown < SHOWN_MS, `shown after ${shown} ms`);
  assert.ok(longest < ANSWER_MS, `the page did not answer for ${Math.round(longest)} ms`);
  const listed = page.locator('[data-opb-reading] opb-viewer [data-testid="graph-list"] li');
  assert.equal(await listed.count(), 200, "every step listed");
  assert.match(await listed.first().innerText(), /^s0 \(start\) → s\d+ \(b0\), /);
  assert.equal(await page.locator("[data-opb-reading] opb-viewer svg.graph").count(), 0, "nothing drawn");
  await screenshot(page, "dense-reading-1400-light");
  await closeClean(page);
});

test("the embed page answers while a dense link opens: a simplified drawing under its notice, or the list", async (t) => {
  for (const [steps, branches, colorScheme] of [
    [150, 8, "light"],
    [200, 20, "dark"],
  ]) {
    const page = await newPage({ width: 900, height: 760 }, colorScheme);
    const address = `${opb.server.url}embed.html${pako({ code: dense(steps, branches) })}`;
    const { shown, longest, notice } = await open(page, address, "opb-viewer[data-embed]");
    t.diagnostic(`embed page, ${steps} × ${branches}: shown after ${shown} ms, longest gap ${Math.round(longest)} ms`);
    const drawn = page.locator("opb-viewer[data-embed] svg.graph g[data-step-id]");
    const listed = page.locator('opb-viewer[data-embed] [data-testid="graph-list"] li');
    if (branches === 8) {
      assert.match(notice, SIMPLIFIED);
      assert.equal(await drawn.count(), steps, "every step drawn");
    } else {
      assert.equal(notice, LISTED);
      assert.equal(await listed.count(), steps, "every step listed");
      assert.equal(await drawn.count(), 0, "nothing drawn");
    }
    assert.ok(shown < SHOWN_MS, `${steps} steps shown after ${shown} ms`);
    assert.ok(longest < ANSWER_MS, `${steps} steps: the page did not answer for ${Math.round(longest)} ms`);
    await screenshot(page, `dense-embed-${steps}-${colorScheme}`);
    await closeClean(page);
  }
});

test("the playground's graph view says the same of the same documents", async () => {
  for (const [steps, branches] of [
    [150, 8],
    [200, 20],
  ]) {
    const context = await opb.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = collectErrors(await context.newPage());
    await openPlayground(page, `${opb.server.url}?edit${pako({ code: dense(steps, branches), view: "graph" })}`);
    const notice = await page.locator('.graph-view [data-testid="graph-notice"]').innerText();
    if (branches === 8) {
      assert.match(notice, SIMPLIFIED);
      assert.equal(await page.locator(".graph-canvas g.node[data-step-id]").count(), steps, "every step drawn");
    } else {
      assert.equal(notice, LISTED);
      assert.equal(await page.locator('.graph-view [data-testid="graph-list"] li').count(), steps);
      assert.ok(await page.locator(".graph-canvas").isHidden(), "no drawing");
    }
    await screenshot(page, `dense-playground-${steps}x${branches}`);
    await closeClean(page);
  }
});
