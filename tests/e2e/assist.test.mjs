// The editor completes and explains: keys and enumeration
// values from the core's field tables while typing, in YAML and JSON, and
// hover text over a key, a step id and an allowedTools entry that says what
// the panels say. Screenshots of the list and a hover at 1400 px (light)
// and 375 px (dark) go to tests/e2e/screenshots/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, collectErrors, openPlayground, pasteOver, afterCheck, violations, luminance, contrast, editorText } from "./harness.mjs";

const EXAMPLE = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
// The example with its first tool's riskClass taken out, to be typed again.
const WITHOUT_RISK = EXAMPLE.replace("    riskClass: read\n    sideEffecting: false\n", "    sideEffecting: false\n");
const JSON_EXAMPLE = readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8");

const opb = session();


// A fresh playground in its own context (`colorScheme` sets the theme it
// follows), checked; errors in the page are kept in `page.errors`.
async function open({ width = 1400, height = 900, colorScheme = "light" } = {}) {
  const context = await opb.browser.newContext({ viewport: { width, height }, colorScheme });
  const page = collectErrors(await context.newPage());
  await openPlayground(page, opb.server.url);
  return page;
}

async function close(page) {
  assert.equal(await page.locator("#panic-banner").count(), 0, "no panic banner");
  assert.deepEqual(page.errors, [], "no errors in the page");
  await page.context().close();
}

// The labels of the completion list, in its order. The keys that move in
// the list or pick from it work only once it has been open for
// CodeMirror's interactionDelay (75 ms), as a person's would.
async function offered(page) {
  await page.waitForSelector(".cm-tooltip-autocomplete li", { timeout: 10_000 });
  await page.waitForTimeout(150);
  return page.$$eval(".cm-tooltip-autocomplete li .cm-completionLabel", (labels) => labels.map((l) => l.textContent));
}

// The text of the selected item's info panel, once it says `pattern`.
async function info(page, pattern) {
  await page.waitForFunction(
    ([source, flags]) => new RegExp(source, flags).test(document.querySelector(".cm-completionInfo")?.textContent ?? ""),
    [pattern.source, pattern.flags],
    { timeout: 10_000 },
  );
  return page.textContent(".cm-completionInfo");
}

// Puts the cursor at the end of the `nth` editor line holding `text`.
async function toEndOf(page, text, nth = 0) {
  const line = page.locator('[data-testid="editor"] .cm-line', { hasText: text }).nth(nth);
  await line.evaluate((l) => l.scrollIntoView({ block: "center" }));
  await line.click();
  await page.keyboard.press("End");
}

// Rests the pointer on the `nth` occurrence of `word` in the editor line
// holding `text`, and returns the hover tooltip's text once it shows.
async function hoverOver(page, text, word, nth = 0) {
  const line = page.locator('[data-testid="editor"] .cm-line', { hasText: text }).first();
  await line.evaluate((l) => l.scrollIntoView({ block: "center" }));
  const box = await line.evaluate(
    (l, [word, nth]) => {
      const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
      let seen = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        let at = node.data.indexOf(word);
        while (at >= 0) {
          if (seen++ === nth) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + word.length);
            const r = range.getBoundingClientRect();
            return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
          }
          at = node.data.indexOf(word, at + 1);
        }
      }
      return null;
    },
    [word, nth],
  );
  assert.ok(box, `${word} in the line holding ${text}`);
  await page.mouse.move(box.x, box.y);
  const tooltip = page.locator(".cm-opb-hover");
  await tooltip.waitFor({ timeout: 10_000 });
  return tooltip.textContent();
}

// Moves the pointer off the editor, so that its hover tooltip closes.
async function pointerAway(page) {
  await page.mouse.move(2, 2);
  await page.locator(".cm-opb-hover").waitFor({ state: "detached", timeout: 10_000 });
}

test("YAML: a key half typed in a tool is completed, then its value, each with the seed's words", async () => {
  const page = await open();
  await afterCheck(page, () => pasteOver(page, WITHOUT_RISK));
  await toEndOf(page, "sideEffecting: false");
  await page.keyboard.press("Enter");
  await page.keyboard.type("ris");
  const keys = await offered(page);
  assert.ok(keys.includes("riskClass"), JSON.stringify(keys));
  assert.match(await info(page, /riskClass/), /a string.*One of:.*money: Moves money/s);
  await screenshot(page, "assist-01-key-completion-1400-light");
  assert.deepEqual(await violations(page), [], "axe-core with the list open");
  assert.ok(await page.locator(".cm-tooltip-autocomplete").count(), "still open");

  await page.keyboard.press("Enter");
  assert.match(await editorText(page), /\n {4}sideEffecting: false\n {4}riskClass: \n {2}- name: refund\.create\n/);

  // A space after the key's colon, typed, opens the values.
  await page.keyboard.press("Backspace");
  await page.keyboard.type(" ");
  assert.deepEqual(await offered(page), ["read", "internal", "customer_comms", "money"]);
  const meanings = { read: /Only reads data/, internal: /Changes your own systems/, customer_comms: /Speaks to customers/, money: /Moves money/ };
  for (const [value, meaning] of Object.entries(meanings)) {
    assert.match(await info(page, new RegExp(`riskClass: ${value}`)), meaning, value);
    if (value === "internal") await screenshot(page, "assist-02-value-completion-1400-light");
    if (value !== "money") await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await afterCheck(page, () => page.keyboard.press("Enter"));
  assert.match(await editorText(page), /\n {4}sideEffecting: false\n {4}riskClass: read\n {2}- name: refund\.create\n/);
  assert.equal(await page.locator(".cm-tooltip-autocomplete").count(), 0, "the list closed");
  await close(page);
});

test("YAML: Ctrl-Space opens the list unprompted, Escape closes it, and typing after a value does not", async () => {
  const page = await open();
  await afterCheck(page, () => pasteOver(page, EXAMPLE));
  // The slack connection, which has a provider and an authKind only.
  await toEndOf(page, "authKind: oauth", 1);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+Space");
  const keys = await offered(page);
  assert.ok(keys.includes("scopes") && keys.includes("capabilities"), JSON.stringify(keys));
  assert.ok(!keys.includes("provider") && !keys.includes("authKind"), "keys the connection has are not offered");
  await page.keyboard.press("Escape");
  await page.locator(".cm-tooltip-autocomplete").waitFor({ state: "detached" });
  // Free text is not completed.
  await toEndOf(page, "purpose: Read the charge and the notes.");
  await page.keyboard.type(" More");
  await page.waitForTimeout(400);
  assert.equal(await page.locator(".cm-tooltip-autocomplete").count(), 0);
  await close(page);
});

test("hover: an allowedTools entry shows the tool's risk, a step id its boundary sentence, as the panels say", async () => {
  const page = await open();
  await afterCheck(page, () => pasteOver(page, EXAMPLE));

  let text = await hoverOver(page, "allowedTools: [charge.history", "charge.history");
  assert.match(text, /Tool charge\.history, embedded in tools\[0\]/);
  assert.match(text, /Risk class read: Only reads data/);
  assert.match(text, /Not side-effecting\./);
  await screenshot(page, "assist-03-hover-tool-1400-light");
  await pointerAway(page);
  text = await hoverOver(page, "allowedTools: [refund.create", "refund.create");
  assert.match(text, /Risk class money: Moves money/);
  assert.match(text, /Side-effecting\. Each call needs a person's approval\./);
  await pointerAway(page);
  text = await hoverOver(page, "allowedTools: [refund.create", "issue.create");
  assert.match(text, /Tool issue\.create, not embedded: it resolves against the runtime's tool registry only/);
  await pointerAway(page);

  // The step's boundary sentence, as its panel opens with it.
  await page.click('[data-testid="tab-graph"]');
  await page.click('[data-step-id="look"]');
  const summary = await page.locator('[data-testid="step-panel"][data-step="look"] [data-testid="step-summary"]').textContent();
  const risk = await page.locator('[data-testid="step-panel"] tr[data-tool="charge.history"] .risk-badge').textContent();
  assert.match(risk, /read/i);
  text = await hoverOver(page, "- id: look", "look");
  assert.match(text, /^Step look \(agent\)/);
  assert.ok(text.includes(summary.trim()), `the hover holds the panel's sentence: ${summary}\n${text}`);
  assert.match(text, /Purpose: Read the charge and the notes\./);
  await screenshot(page, "assist-04-hover-step-1400-light");
  await pointerAway(page);

  // A key: its type and the seed's sentence; markup in the text stays text.
  text = await hoverOver(page, "allowedTools: [charge.history", "allowedTools");
  assert.match(text, /^allowedTools: an array/);
  assert.match(text, /a call to any name not on the executing step's list is refused/);
  assert.equal(await page.locator(".cm-opb-hover code").count() > 0, true, "code spans are code");
  assert.equal(await page.locator(".cm-opb-hover script, .cm-opb-hover img").count(), 0);
  await close(page);
});

test("hover from the keyboard: Ctrl-K Ctrl-I at the cursor, Escape closes it", async () => {
  const page = await open();
  await afterCheck(page, () => pasteOver(page, EXAMPLE));
  await toEndOf(page, "- id: decide");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Control+K");
  await page.keyboard.press("Control+I");
  const tooltip = page.locator(".cm-opb-hover");
  await tooltip.waitFor({ timeout: 10_000 });
  assert.match(await tooltip.textContent(), /^Step decide \(agent\)/);
  await page.keyboard.press("Escape");
  await tooltip.waitFor({ state: "detached", timeout: 5_000 });
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains("cm-content")), true, "the editor keeps the focus");
  await close(page);
});

test("JSON: a quoted key is completed the same way, quotes and colon included, then its value", async () => {
  const page = await open();
  await afterCheck(page, () => pasteOver(page, JSON_EXAMPLE));
  // A new key after the first tool's last member.
  await toEndOf(page, '"scope": "workspace"');
  await page.keyboard.type(",");
  await page.keyboard.press("Enter");
  await page.keyboard.type('"');
  const keys = await offered(page);
  assert.ok(keys.includes("connectorType") && !keys.includes("name") && !keys.includes("riskClass"), JSON.stringify(keys));
  await page.keyboard.type("conn");
  assert.deepEqual(await offered(page), ["connectorType"]);
  await info(page, /connectorType.*a string.*stripe: Stripe's connector/s);
  await page.keyboard.press("Enter");
  assert.match(await editorText(page), /"scope": "workspace",\n\s*"connectorType": \n/);
  await page.keyboard.type('"');
  assert.ok((await offered(page)).includes("stripe"));
  await page.keyboard.type("str");
  await afterCheck(page, () => page.keyboard.press("Enter"));
  assert.match(await editorText(page), /"scope": "workspace",\n\s*"connectorType": "stripe"\n/);
  await close(page);
});

test("375 px, dark: the list and a hover fit the screen and follow the theme", async () => {
  const page = await open({ width: 375, height: 812, colorScheme: "dark" });
  assert.equal(await page.getAttribute("html", "data-theme"), "dark");
  await afterCheck(page, () => pasteOver(page, WITHOUT_RISK));
  await toEndOf(page, "sideEffecting: false");
  await page.keyboard.press("Enter");
  await page.keyboard.type("ris");
  assert.ok((await offered(page)).includes("riskClass"));
  await info(page, /riskClass/);
  const within = async (selector) => {
    const box = await page.locator(selector).first().boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 375 + 1, `${selector} on the screen: ${JSON.stringify(box)}`);
  };
  await within(".cm-tooltip-autocomplete");
  await within(".cm-completionInfo");
  const colours = await page.$eval(".cm-tooltip-autocomplete", (t) => [getComputedStyle(t).backgroundColor, getComputedStyle(t.querySelector("li")).color]);
  assert.ok(luminance(colours[0]) < 0.05, `a dark list: ${colours[0]}`);
  assert.ok(contrast(...colours) >= 4.5, `its text readable on it: ${colours.join(" on ")}`);
  await screenshot(page, "assist-05-key-completion-375-dark");
  assert.deepEqual(await violations(page), [], "axe-core with the list open, dark");
  await page.keyboard.press("Escape");
  await afterCheck(page, () => pasteOver(page, EXAMPLE));

  const text = await hoverOver(page, "allowedTools: [charge.history", "charge.history");
  assert.match(text, /Risk class read/);
  await within(".cm-opb-hover");
  await screenshot(page, "assist-06-hover-tool-375-dark");
  assert.deepEqual(await violations(page), [], "axe-core with a hover open, dark");
  await close(page);
});
