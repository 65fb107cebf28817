// Accessibility in Chromium: axe-core finds no serious or critical
// violation in the playground (light and dark, Share menu open), the embed
// page and a 375-px-wide phone screen; the diagnostics are reachable by
// Tab, and Escape closes the Share menu.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, pako, routeSites, docsSite, violations, collectErrors, closeClean, editFromReading } from "./harness.mjs";

const BROKEN = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
const opb = session();


// A shared link's reading view is left by Edit, unless `reading` asks to
// stay in it.
async function open(url, { viewport = { width: 1440, height: 900 }, colorScheme = "light", ready = '.statusbar:not([data-checks="0"])', reading = false } = {}) {
  const context = await opb.browser.newContext({ viewport, colorScheme });
  const page = collectErrors(await context.newPage());
  await page.goto(url);
  if (reading) {
    await page.waitForSelector("[data-opb-reading] opb-viewer:not([hidden])");
    return page;
  }
  // On its problems, the tab a broken document opens on.
  if ((await page.evaluate(() => document.documentElement.dataset.opbPage)) === "reading") await editFromReading(page, { tab: "diagnostics" });
  await page.waitForSelector(ready);
  return page;
}


// Rules that a page of its own must pass whatever their impact: one h1,
// one main landmark, lists of items only.
const STRUCTURE = ["page-has-heading-one", "landmark-one-main", "landmark-no-duplicate-main", "list", "listitem"];

function structure(page, rules = STRUCTURE) {
  return violations(page, rules);
}

const LEAKY = BROKEN.replace(/purpose: [^\n]*/, "purpose: charge with sk_live_51HqzR7Kx9PmW2vT8nLcB4yQd");

test("axe-core: a shared link holding a credential, its reading view, the playground and the embed, with one h1 and one main", async () => {
  const reading = await open(opb.server.url + pako({ code: LEAKY }), { reading: true });
  await reading.waitForSelector('opb-viewer [data-fact="credentials"]');
  assert.deepEqual(await violations(reading), []);
  assert.deepEqual(await structure(reading), []);
  await closeClean(reading);

  const page = await open(opb.server.url + pako({ code: LEAKY }));
  await page.waitForSelector('[data-fact="credentials"]');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await structure(page), []);
  await closeClean(page);

  const embed = await open(`${opb.server.url}embed.html${pako({ code: LEAKY })}`, { viewport: { width: 900, height: 700 }, ready: '[data-fact="credentials"]' });
  assert.deepEqual(await violations(embed), []);
  assert.deepEqual(await structure(embed), []);
  await closeClean(embed);
});

test("axe-core: a docs page with an <opb-viewer>, whose landmarks and heading stay the page's own", async () => {
  const context = await opb.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = collectErrors(await context.newPage());
  await routeSites(page);
  await page.goto(docsSite + "web-component-example.html");
  await page.locator("opb-viewer").locator('[data-testid="trust-banner"] [data-fact="money"]').waitFor({ timeout: 20_000 });
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await structure(page), [], "the host page's h1 and no main of the element's");
  await closeClean(page);
});

test("keyboard: the kind switch is one radio group, one Tab stop, chosen with the arrow keys", async () => {
  const page = await open(opb.server.url);
  await page.focus('[data-testid="kind-switch"] [aria-checked="true"]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kind), "auto");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kind), "playbook", "the arrow moves the focus");
  assert.equal(await page.getAttribute('[data-testid="kind-switch"] [data-kind="playbook"]', "aria-checked"), "true", "and chooses");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kind), "plugin-manifest", "wrapping round");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => !!document.activeElement.closest('[data-testid="kind-switch"]')), false, "one Tab leaves the group");
  await closeClean(page);
});

test("axe-core: the playground, light and dark, with the Share and Drafts menus open", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const page = await open(opb.server.url + pako({ code: BROKEN }), { colorScheme });
    assert.deepEqual(await violations(page), [], `${colorScheme}, trust banner shown`);
    await page.click('[data-testid="share"]');
    await page.waitForSelector('[data-testid="share-panel"]');
    assert.deepEqual(await violations(page), [], `${colorScheme}, Share menu open`);
    await page.keyboard.press("Escape");
    // Two drafts: an edit, then an example over it (the edit is kept).
    await page.click('[data-testid="editor"] .cm-content');
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n# mine");
    await page.selectOption('[data-testid="examples"]', "minimal-playbook.yaml");
    await page.click('[data-testid="editor"] .cm-content');
    await page.keyboard.type("# also mine\n");
    await page.click('[data-testid="drafts"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="draft"]').length === 2);
    await page.click('[data-testid="delete-draft"]');
    await page.waitForSelector('[data-testid="confirm-delete"]');
    await screenshot(page, `drafts-menu-${colorScheme}`);
    assert.deepEqual(await violations(page), [], `${colorScheme}, Drafts menu open, asking to delete`);
    await closeClean(page);
  }
});

test("axe-core: the command palette and the shortcut sheet, light and dark, each reached by keyboard", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const page = await open(opb.server.url, { colorScheme });
    await page.focus('[data-testid="format"]');
    await page.keyboard.press("Control+K");
    await page.waitForSelector('[data-testid="palette"]');
    await page.keyboard.type("go to");
    await screenshot(page, `palette-${colorScheme}`);
    assert.deepEqual(await violations(page), [], `${colorScheme}, palette open`);
    await page.keyboard.press("Escape");
    await page.keyboard.press("?");
    await page.waitForSelector('[data-testid="shortcut-sheet"]');
    await screenshot(page, `shortcut-sheet-${colorScheme}`);
    assert.deepEqual(await violations(page), [], `${colorScheme}, shortcut sheet open`);
    await closeClean(page);
  }
});

test("axe-core: the embed page", async () => {
  for (const theme of ["light", "dark"]) {
    const page = await open(`${opb.server.url}embed.html?theme=${theme}${pako({ code: BROKEN })}`, { viewport: { width: 900, height: 700 }, ready: "[data-step-id]" });
    assert.deepEqual(await violations(page), [], `${theme}, graph`);
    for (const tab of ["tools", "requires", "paths", "diagnostics"]) {
      await page.click(`[data-testid="tab-${tab}"]`);
      await page.waitForSelector(`[data-testid="tab-${tab}"][aria-selected="true"]`);
      assert.deepEqual(await violations(page), [], `${theme}, ${tab}`);
    }
    await closeClean(page);
  }
});

test("a 375-px-wide screen: no sideways scrolling, every control reachable, axe-core clean", async () => {
  const page = await open(opb.server.url + pako({ code: BROKEN }), { viewport: { width: 375, height: 812 } });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), "nothing wider than the screen");
  for (const id of ["share", "drafts", "open-file", "theme-toggle", "kind-switch", "examples"]) {
    const box = await page.locator(`[data-testid="${id}"]`).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `${id} is on the screen: ${JSON.stringify(box)}`);
  }
  await screenshot(page, "phone-375");
  assert.deepEqual(await violations(page), []);
  await page.click('[data-testid="share"]');
  const panel = await page.locator('[data-testid="share-panel"]').boundingBox();
  assert.ok(panel.x >= 0 && panel.x + panel.width <= 375, JSON.stringify(panel));
  await screenshot(page, "phone-375-share");
  await page.keyboard.press("Escape");
  await page.click('[data-testid="drafts"]');
  const drafts = await page.locator('[data-testid="drafts-panel"]').boundingBox();
  assert.ok(drafts.x >= 0 && drafts.x + drafts.width <= 375, JSON.stringify(drafts));
  await screenshot(page, "phone-375-drafts");
  assert.deepEqual(await violations(page), [], "Drafts menu open");
  await closeClean(page);
});

test("a 375-px-wide screen: the trust banner shows every fact, and a tapped node stays under the finger", async () => {
  const page = await open(opb.server.url + pako({ code: LEAKY }), { viewport: { width: 375, height: 812 } });
  const banner = await page.$eval('[data-testid="trust-banner"]', (b) => ({ scroll: b.scrollHeight, client: b.clientHeight }));
  assert.ok(banner.scroll <= banner.client + 1, `the banner does not scroll inside itself: ${JSON.stringify(banner)}`);
  for (const fact of ["requires", "credentials"]) assert.ok(await page.isVisible(`[data-fact="${fact}"]`), fact);
  await page.click('[data-testid="tab-graph"]');
  const node = page.locator('[data-step-id="decide"]');
  await node.evaluate((n) => n.scrollIntoView({ block: "center" }));
  const graph = () => page.locator('[data-testid="graph"]').boundingBox();
  const [graphBefore, nodeBefore] = [await graph(), await node.boundingBox()];
  await node.click();
  await page.waitForSelector('[data-testid="step-panel"][data-step="decide"]');
  const [graphAfter, nodeAfter] = [await graph(), await node.boundingBox()];
  assert.equal(Math.round(graphAfter.height), Math.round(graphBefore.height), "the graph keeps its height");
  assert.ok(Math.abs(nodeAfter.y - nodeBefore.y) < 2 && Math.abs(nodeAfter.x - nodeBefore.x) < 2, `the node stays where it was tapped: ${JSON.stringify([nodeBefore, nodeAfter, graphBefore, graphAfter])}`);
  await screenshot(page, "phone-375-node-tapped");
  await closeClean(page);
});

test("keyboard: Tab reaches the diagnostics; Escape closes the Share menu", async () => {
  const page = await open(opb.server.url);
  await page.click('[data-testid="examples"]');
  await page.keyboard.press("Escape");
  await page.selectOption('[data-testid="examples"]', "refund-triage.broken.yaml");
  await page.waitForSelector("li.diagnostic");
  await page.focus('[data-testid="tab-diagnostics"]');
  let reached = false;
  for (let i = 0; i < 30 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.classList.contains("diagnostic-main"));
  }
  assert.ok(reached, "a diagnostic is focused by Tab");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement?.classList.contains("cm-content"));

  await page.click('[data-testid="share"]');
  await page.waitForSelector('[data-testid="share-panel"]');
  assert.equal(await page.getAttribute('[data-testid="share"]', "aria-expanded"), "true");
  await page.keyboard.press("Escape");
  await page.waitForSelector('[data-testid="share-panel"]', { state: "detached" });
  assert.equal(await page.getAttribute('[data-testid="share"]', "aria-expanded"), "false");
  await closeClean(page);
});
