// Accessibility in Chromium: axe-core finds no serious or critical
// violation in the playground (light and dark, Share menu open), the embed
// page and a 375-px-wide phone screen; the diagnostics are reachable by
// Tab, and Escape closes the Share menu.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, pako } from "./harness.mjs";

const axeSource = readFileSync(join(root, "node_modules/axe-core/axe.min.js"), "utf8");
const BROKEN = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
const opb = session();


async function open(url, { viewport = { width: 1440, height: 900 }, colorScheme = "light", ready = "li.diagnostic, .all-clear" } = {}) {
  const context = await opb.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector(ready);
  return page;
}

// The serious and critical violations axe-core finds, one line each.
async function violations(page) {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations);
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

test("axe-core: the playground, light and dark, with the Share menu open", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const page = await open(opb.server.url + pako({ code: BROKEN }), { colorScheme });
    assert.deepEqual(await violations(page), [], `${colorScheme}, trust banner shown`);
    await page.click('[data-testid="share"]');
    await page.waitForSelector('[data-testid="share-panel"]');
    assert.deepEqual(await violations(page), [], `${colorScheme}, Share menu open`);
    await page.context().close();
  }
});

test("axe-core: the embed page", async () => {
  for (const theme of ["light", "dark"]) {
    const page = await open(`${opb.server.url}?embed=1&theme=${theme}${pako({ code: BROKEN })}`, { viewport: { width: 900, height: 700 }, ready: "[data-step-id]" });
    assert.deepEqual(await violations(page), [], `${theme}, graph`);
    for (const tab of ["tools", "requires", "diagnostics"]) {
      await page.click(`[data-testid="tab-${tab}"]`);
      await page.waitForSelector(`[data-testid="tab-${tab}"][aria-selected="true"]`);
      assert.deepEqual(await violations(page), [], `${theme}, ${tab}`);
    }
    await page.context().close();
  }
});

test("a 375-px-wide screen: no sideways scrolling, every control reachable, axe-core clean", async () => {
  const page = await open(opb.server.url + pako({ code: BROKEN }), { viewport: { width: 375, height: 812 } });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), "nothing wider than the screen");
  for (const id of ["share", "open-file", "theme-toggle", "kind-switch", "examples"]) {
    const box = await page.locator(`[data-testid="${id}"]`).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `${id} is on the screen: ${JSON.stringify(box)}`);
  }
  await screenshot(page, "phone-375");
  assert.deepEqual(await violations(page), []);
  await page.click('[data-testid="share"]');
  const panel = await page.locator('[data-testid="share-panel"]').boundingBox();
  assert.ok(panel.x >= 0 && panel.x + panel.width <= 375, JSON.stringify(panel));
  await screenshot(page, "phone-375-share");
  await page.context().close();
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
  await page.context().close();
});
