// The panel area's tabs and the header around them: a document opens on the
// tab that matters for it (its graph, or its problems when it has an
// error) until the author chooses one; every tab can be reached and the
// selected one is in sight at a laptop's widths; the header keeps to one
// row; the problems are listed errors first; and the tabs' counts are
// cleared while the text cannot be read.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, session, collectErrors, closeClean, openPlayground, openTab, loadExample, pasteChecked, screenshot } from "./harness.mjs";

const BROKEN = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
const VALID = readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8");
const opb = session();

async function fresh({ width = 1440, height = 900, colorScheme = "light", hash = "" } = {}) {
  const context = await opb.browser.newContext({ viewport: { width, height }, colorScheme });
  const page = collectErrors(await context.newPage());
  await openPlayground(page, opb.server.url + hash);
  return page;
}

// The selected tab's test id, once the page has settled on one after its
// latest check.
async function selectedTab(page) {
  await page.waitForSelector('.tabs [role="tab"][aria-selected="true"]');
  return page.getAttribute('.tabs [role="tab"][aria-selected="true"]', "data-testid");
}

async function reload(page) {
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
}

test("a valid playbook opens on its graph, a broken document on its problems", async () => {
  const page = await fresh();
  assert.equal(await selectedTab(page), "tab-graph", "the default example has no error");
  await page.waitForSelector('[data-testid="tab-graph"][aria-selected="true"]');
  assert.equal(await page.locator(".graph-tab").count(), 1, "the graph is shown");

  // Another document opens on what matters for it, too.
  await loadExample(page, "refund-triage.broken.yaml");
  assert.equal(await selectedTab(page), "tab-diagnostics");
  await page.waitForSelector("li.diagnostic");

  // Nothing was chosen, so nothing is kept: a reload of a fixed document
  // opens on its graph.
  await pasteChecked(page, VALID);
  assert.equal(await selectedTab(page), "tab-diagnostics", "an edit does not move the tab");
  await reload(page);
  assert.equal(await selectedTab(page), "tab-graph");
  await closeClean(page);
});

test("a tab the author chose stays chosen through edits, documents and a reload", async () => {
  const page = await fresh();
  await openTab(page, "tools");
  await pasteChecked(page, BROKEN);
  assert.equal(await selectedTab(page), "tab-tools", "through an edit that breaks the text");
  await loadExample(page, "failed-charge-recovery.json");
  assert.equal(await selectedTab(page), "tab-tools", "through another document");
  await openTab(page, "diagnostics");
  await reload(page);
  assert.equal(await selectedTab(page), "tab-diagnostics", "the Diagnostics tab, chosen over a valid document, after a reload");
  await closeClean(page);
});

test("an address naming a tab wins over the first view", async () => {
  const page = await fresh({ hash: "#requires" });
  assert.equal(await selectedTab(page), "tab-requires");
  await closeClean(page);
});

// Whether each tab of the strip is in sight, or an arrow shows on its side,
// once the page's fonts are in and the strip has measured their widths (a
// resize is observed before the next frame is drawn).
async function strip(page) {
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))));
  return page.evaluate(() => {
    const arrow = (id) => !document.querySelector(`[data-testid="${id}"]`).hidden;
    // The arrows lie over the strip's ends: what they cover is out of sight.
    const box = document.querySelector(".tabs").getBoundingClientRect();
    const covered = (id) => (arrow(id) ? document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect().width : 0);
    const nav = { left: box.left + covered("tabs-before"), right: box.right - covered("tabs-after") };
    return {
      before: arrow("tabs-before"),
      after: arrow("tabs-after"),
      tabs: [...document.querySelectorAll('.tabs [role="tab"]')].map((tab) => {
        const box = tab.getBoundingClientRect();
        return {
          id: tab.dataset.testid,
          selected: tab.getAttribute("aria-selected") === "true",
          shown: box.left >= nav.left - 1 && box.right <= nav.right + 1,
          side: box.right <= nav.left + 1 ? "before" : box.left >= nav.right - 1 ? "after" : box.left < nav.left ? "before" : box.right > nav.right ? "after" : null,
        };
      }),
    };
  });
}

// Every tab in sight or behind an arrow on its side, the selected one in
// sight.
async function assertReachable(page, width) {
  const { before, after, tabs } = await strip(page);
  assert.equal(tabs.length, 7, `every tab of a playbook at ${width} px`);
  for (const tab of tabs) {
    if (!tab.shown) assert.ok(tab.side === "before" ? before : after, `${tab.id} is out of sight at ${width} px with an arrow on its side`);
  }
  const selected = tabs.find((t) => t.selected);
  assert.ok(selected?.shown, `the selected tab ${selected?.id} is in sight at ${width} px`);
  return { before, after, tabs };
}

for (const width of [1024, 1400]) {
  test(`at ${width} px every tab is reachable and the selected one in sight, a rule's tab included`, async () => {
    const page = await fresh({ width, height: 800 });
    await page.waitForSelector('[data-testid="tab-paths"]');
    const first = await assertReachable(page, width);
    if (first.after) {
      // The arrow brings the last tab into sight.
      const last = first.tabs.at(-1).id;
      for (let i = 0; i < 5 && !(await strip(page)).tabs.at(-1).shown; i++) {
        const ended = page.evaluate(() => new Promise((done) => document.querySelector(".tabs").addEventListener("scrollend", done, { once: true })));
        await page.click('[data-testid="tabs-after"]');
        await ended;
      }
      assert.ok((await strip(page)).tabs.at(-1).shown, `${last} in sight after the arrow`);
      assert.equal((await strip(page)).before, true, "and the arrow back shows");
    }
    // A diagnostic's rule link opens the Rules tab, in sight and selected.
    await loadExample(page, "refund-triage.broken.yaml");
    await page.click('[data-testid="tab-diagnostics"]');
    await page.locator("li.diagnostic a.rule-link").first().click();
    await page.waitForSelector("article.rule-page");
    await page.waitForFunction(() => {
      const nav = document.querySelector(".tabs").getBoundingClientRect();
      const after = document.querySelector('[data-testid="tabs-after"]');
      const right = nav.right - (after.hidden ? 0 : after.getBoundingClientRect().width);
      const box = document.querySelector('[data-testid="tab-rules"]').getBoundingClientRect();
      return box.left >= nav.left - 1 && box.right <= right + 1;
    });
    const { tabs } = await assertReachable(page, width);
    assert.equal(tabs.find((t) => t.selected).id, "tab-rules");
    await closeClean(page);
  });
}

for (const width of [1024, 1400]) {
  for (const colorScheme of ["light", "dark"]) {
    test(`the header is one row at ${width} px (${colorScheme})`, async () => {
      const page = await fresh({ width, height: 768, colorScheme });
      const row = await page.evaluate(() => {
        const top = document.querySelector(".app-top > .topbar").getBoundingClientRect();
        const actions = document.querySelector(".document-actions").getBoundingClientRect();
        const items = [...document.querySelectorAll(".topbar > *, .document-actions > *")]
          .map((e) => e.getBoundingClientRect())
          .filter((r) => r.height > 1 && r.width > 1);
        return { height: top.height, actionsHeight: actions.height, tops: items.map((r) => r.top), bottoms: items.map((r) => r.bottom) };
      });
      assert.ok(row.height <= 60, `the header is ${row.height} px high`);
      assert.ok(row.actionsHeight <= 60, `the document actions are ${row.actionsHeight} px high`);
      assert.ok(Math.max(...row.tops) < Math.min(...row.bottoms), "every item of the header shares one row");
      assert.equal(await page.isVisible("text=Read as"), true, "the kind switch is labelled");
      assert.equal((await page.textContent('[data-testid="registry-button"]')).trim(), "Compare with a registry…");
      assert.equal(await page.locator(".topbar .count").count(), 0, "the problems are counted on the Diagnostics tab, not in the header");
      await screenshot(page, `tabs-header-${width}-${colorScheme}`);
      await loadExample(page, "refund-triage.broken.yaml");
      await screenshot(page, `tabs-broken-${width}-${colorScheme}`);
      await closeClean(page);
    });
  }
}

test("the problems are listed errors first, in the text's order with Line order", async () => {
  const page = await fresh();
  await loadExample(page, "refund-triage.broken.yaml");
  const listed = () =>
    page.$$eval("li.diagnostic", (items) =>
      items.map((li) => {
        const [line, column] = li.querySelector(".diagnostic-position").textContent.split(":").map(Number);
        return { severity: ["error", "warning", "info"].indexOf(li.dataset.severity), line, column };
      }),
    );
  const before = (a, b) => a.line - b.line || a.column - b.column;
  const bySeverity = await listed();
  // The counts are said in a live region as well as shown on the tab.
  const said = await page.textContent('[role="status"][data-testid="counts-said"]');
  assert.match(said, /^\d+ errors?, \d+ warnings?, \d+ info$/);
  assert.equal(said, await page.getAttribute('[data-testid="tab-diagnostics"] .tab-count', "title"));
  assert.ok(new Set(bySeverity.map((d) => d.severity)).size > 1, "more than one severity");
  for (let i = 1; i < bySeverity.length; i++) {
    const [a, b] = [bySeverity[i - 1], bySeverity[i]];
    assert.ok(a.severity < b.severity || (a.severity === b.severity && before(a, b) <= 0), `entry ${i} in order`);
  }
  assert.equal(await page.getAttribute('[data-testid="line-order"]', "aria-pressed"), "false");
  await page.click('[data-testid="line-order"]');
  await page.waitForSelector('[data-testid="line-order"][aria-pressed="true"]');
  const inLines = await listed();
  for (let i = 1; i < inLines.length; i++) assert.ok(before(inLines[i - 1], inLines[i]) <= 0, `entry ${i} in the text's order`);
  assert.notDeepEqual(inLines, bySeverity, "the two orders differ");
  assert.deepEqual([...inLines].sort(before), [...bySeverity].sort(before), "the same entries");
  await closeClean(page);
});

test("the tabs' counts are cleared while the text cannot be read", async () => {
  const page = await fresh();
  const count = (tab) => page.locator(`[data-testid="tab-${tab}"] .tab-count`).count();
  // The paths are walked in a task after the check.
  await page.waitForSelector('[data-testid="tab-paths"] .tab-count');
  assert.equal(await count("tools"), 1, "Tools counts the playbook's tools");
  assert.equal(await count("paths"), 1, "Risk paths counts its paths");
  await pasteChecked(page, "");
  assert.equal(await count("tools"), 0, "no count over an empty editor");
  await page.waitForFunction(() => !document.querySelector('[data-testid="tab-paths"] .tab-count'));
  await openTab(page, "tools");
  await page.waitForSelector(".stale-note");
  await openTab(page, "paths");
  await page.waitForSelector(".stale-note");
  await pasteChecked(page, '{"openplaybook": "1.6", "steps": [');
  assert.equal(await count("tools"), 0, "nor over a text that cannot be read");
  await pasteChecked(page, VALID);
  assert.equal(await count("tools"), 1, "the count is back with a readable text");
  assert.equal(await page.locator(".stale-note").count(), 0);
  await closeClean(page);
});
