// The playground's keyboard conventions and quick fixes, end to end in
// Chromium: the command palette (Ctrl-K, F1) runs an action by keyboard
// alone and gives the focus back; `?` opens the shortcut sheet; Ctrl-S
// keeps the draft and never reaches the browser; F8 and Shift-F8 step
// through the problems; the core's certain fixes apply from the squiggle,
// from the Diagnostics list and all at once, each undone by one Ctrl-Z; a
// squiggle's tooltip links to its rule, whose page leads back.

import { test } from "node:test";
import assert from "node:assert/strict";
import { session, playgroundForEachTest, pasteChecked, afterCheck, editorText, draftSaved, screenshot, violations, openTab } from "./harness.mjs";

const opb = session();
let page;
playgroundForEachTest(opb, (p) => (page = p));

// Two certain fixes: the step id `gaet` (one edit from `gate`) and the
// field `purpos` (one from `purpose`).
const FIXABLE = "openplaybook: '1.6'\nrequires: {connections: []}\nsteps:\n  - {id: triage, kind: gate, next: 'gaet'}\n  - id: gate\n    kind: gate\n    purpos: x\n";
const FIXED = FIXABLE.replace("'gaet'", "'gate'").replace("purpos:", "purpose:");

const activeTestId = () => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
const selection = () => page.evaluate(() => window.opbEditor.selectionOf(document.querySelector('[data-testid="editor"]')));

// Records whether each keydown reached the page's end with its default
// (the browser's own action) prevented.
// Each key pressed with Ctrl or Cmd from now on, and whether the page kept
// the browser from its own action for it.
async function watchDefaults() {
  await page.evaluate(() => {
    window.keyDefaults = [];
    window.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey) window.keyDefaults.push([e.key.toLowerCase(), e.defaultPrevented]);
    });
  });
}

test("Ctrl-K opens the palette; a command typed and run with Enter switches the tab; the focus comes back", async () => {
  await page.focus('[data-testid="format"]');
  await page.keyboard.press("Control+K");
  await page.waitForSelector('[data-testid="palette"]');
  assert.equal(await activeTestId(), "palette-input", "the palette's field has the focus");
  await page.keyboard.type("tab rules");
  const options = await page.locator('.palette-option').allTextContents();
  assert.deepEqual(options, ["Go to tab: Rules"], "the list filters as one types");
  assert.deepEqual(await violations(page), [], "axe finds nothing serious with the palette open");
  await screenshot(page, "keys-palette-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "keys-palette-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-testid="tab-rules"][aria-selected="true"]');
  assert.equal(await page.locator('[data-testid="palette"]').count(), 0, "the palette closes");
  assert.equal(await activeTestId(), "format", "the focus is back where it was");
});

test("F1 opens the palette too, in the editor; Up, Down and Enter run a command; Escape closes it", async () => {
  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("F1");
  await page.waitForSelector('[data-testid="palette"]');
  await page.keyboard.press("Escape");
  await page.waitForSelector('[data-testid="palette"]', { state: "detached" });
  assert.ok(await page.evaluate(() => !!document.activeElement.closest(".cm-editor")), "Escape gives the focus back to the editor");

  const before = await page.getAttribute('[data-testid="theme-toggle"]', "data-theme-choice");
  await page.keyboard.press("F1");
  await page.keyboard.type("theme");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await page.waitForFunction((b) => document.querySelector('[data-testid="theme-toggle"]').dataset.themeChoice !== b, before);
});

test("? outside the editor opens the shortcut sheet; in the editor it is typed", async () => {
  await page.focus('[data-testid="format"]');
  await page.keyboard.press("?");
  await page.waitForSelector('[data-testid="shortcut-sheet"]');
  const sheet = await page.locator('[data-testid="shortcut-sheet"]').textContent();
  for (const what of ["Ctrl/⌘+K, F1", "Ctrl/⌘+S", "F8", "Shift+F8"]) assert.ok(sheet.includes(what), `the sheet lists ${what}`);
  assert.deepEqual(await violations(page), [], "axe finds nothing serious with the sheet open");
  await screenshot(page, "keys-sheet-light");
  await page.keyboard.press("Escape");
  await page.waitForSelector('[data-testid="shortcut-sheet"]', { state: "detached" });
  assert.equal(await activeTestId(), "format");

  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("Control+End");
  await afterCheck(page, () => page.keyboard.type("#?"));
  assert.equal(await page.locator('[data-testid="shortcut-sheet"]').count(), 0);
  assert.match(await editorText(page), /#\?$/);
});

test("Ctrl-S keeps the draft, says so, and the browser's save never runs", async () => {
  let dialogs = 0;
  page.on("dialog", () => dialogs++);
  await watchDefaults();
  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("Control+End");
  await afterCheck(page, () => page.keyboard.type("\n# kept by Ctrl-S"));
  await page.keyboard.press("Control+S");
  await page.waitForSelector('[data-testid="notice"]:has-text("Draft kept")');
  await draftSaved(page, (d) => d.text.endsWith("# kept by Ctrl-S"), 3000);
  assert.deepEqual(await page.evaluate(() => window.keyDefaults.filter(([k]) => k === "s")), [["s", true]], "the browser's own Ctrl-S is prevented");
  assert.equal(dialogs, 0, "no dialog");
});

test("F8 and Shift-F8 step through the problems, from the editor and from outside it", async () => {
  await pasteChecked(page, FIXABLE);
  await page.focus('[data-testid="format"]');
  await page.keyboard.press("F8");
  const first = await selection();
  assert.equal(FIXABLE.slice(...first), "'gaet'", "F8 outside the editor goes to the first problem");
  assert.ok(await page.evaluate(() => !!document.activeElement.closest(".cm-editor")), "and focuses the editor");
  await page.keyboard.press("F8");
  const second = await selection();
  assert.ok(second[0] > first[0], "F8 in the editor goes to the next");
  await page.keyboard.press("Shift+F8");
  assert.deepEqual(await selection(), first, "Shift-F8 goes back");
});

test("a certain fix from the Diagnostics list, undone by Ctrl-Z", async () => {
  await pasteChecked(page, FIXABLE);
  await openTab(page, "diagnostics");
  const fixes = page.locator('[data-testid="fix"]');
  assert.equal(await fixes.count(), 2, "each certain fix has a button");
  assert.match(await fixes.first().textContent(), /Change to 'gate'/);
  await afterCheck(page, () => fixes.first().click());
  assert.equal(await editorText(page), FIXABLE.replace("'gaet'", "'gate'"));
  assert.equal(await fixes.count(), 1, "the fixed problem is gone");
  await page.click('[data-testid="editor"] .cm-content');
  await afterCheck(page, () => page.keyboard.press("Control+Z"));
  assert.equal(await editorText(page), FIXABLE, "one Ctrl-Z undoes the fix");
});

test("a certain fix from the squiggle's tooltip, undone by Ctrl-Z; its rule link leads to the rule and back", async () => {
  await pasteChecked(page, FIXABLE);
  await page.hover('.cm-lintRange >> nth=0');
  const action = await page.waitForSelector(".cm-tooltip-lint .cm-diagnosticAction");
  assert.equal(await action.textContent(), "Change to 'gate'");
  await screenshot(page, "keys-squiggle-fix-light");
  await afterCheck(page, () => action.click());
  assert.equal(await editorText(page), FIXABLE.replace("'gaet'", "'gate'"));
  await page.click('[data-testid="editor"] .cm-content');
  await afterCheck(page, () => page.keyboard.press("Control+Z"));
  assert.equal(await editorText(page), FIXABLE);

  await page.mouse.move(0, 0);
  await page.hover('.cm-lintRange >> nth=0');
  const link = await page.waitForSelector(".cm-tooltip-lint .cm-opb-rule-link");
  assert.match(await link.textContent(), /^PB213 /);
  await link.click();
  await page.waitForSelector('.rule-page[data-rule="PB213"]');
  await page.click('[data-testid="back-to-problem"]');
  await page.waitForSelector('[data-testid="tab-diagnostics"][aria-selected="true"]');
  const [from, to] = await selection();
  assert.equal(FIXABLE.slice(from, to), "'gaet'", "the way back selects the problem");
});

test("Fix all certain applies every fix as one edit that one Ctrl-Z undoes", async () => {
  await pasteChecked(page, FIXABLE);
  await openTab(page, "diagnostics");
  await afterCheck(page, () => page.click('[data-testid="fix-all"]'));
  assert.equal(await editorText(page), FIXED);
  assert.equal(await page.locator('[data-testid="fix-all"]').count(), 0, "nothing is left to fix");
  await page.click('[data-testid="editor"] .cm-content');
  await afterCheck(page, () => page.keyboard.press("Control+Z"));
  assert.equal(await editorText(page), FIXABLE);
});

test("the editor's key hint is in the status bar, not over the text", async () => {
  await page.click('[data-testid="editor"] .cm-content');
  const hint = page.locator(".statusbar .cm-opb-keys");
  assert.equal(await hint.isVisible(), true, "the hint shows in the status bar while the editor has the focus");
  assert.equal(await page.locator('[data-testid="editor"] .cm-opb-keys').count(), 0, "none over the text");
  await page.focus('[data-testid="format"]');
  assert.equal(await hint.isVisible(), false, "and hides when it leaves");
});
