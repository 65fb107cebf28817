// End-to-end tests of the risk paths panel in the playground, drift
// against a loaded registry, and compare mode, with the core's fixtures
// (crates/core/tests/fixtures/{paths,registry,diff}). Screenshots go to
// tests/e2e/screenshots/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, playgroundForEachTest, pasteOver, afterCheck, pasteChecked, openTab, violations, contrast } from "./harness.mjs";

const fixtures = join(root, "crates/core/tests/fixtures");
const fixture = (path) => readFileSync(join(fixtures, path), "utf8");
const example = (name) => readFileSync(join(root, "examples", name), "utf8");

let page;
const opb = session();
playgroundForEachTest(opb, (p) => (page = p));


const nextCheck = (action) => afterCheck(page, action);

async function classesOf(selector) {
  return page.$eval(selector, (element) => [...element.classList]);
}

async function dark() {
  await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
}

test("risk paths: the only path to a money tool that skips the gate is flagged, and choosing it picks it out in the graph", async () => {
  await pasteChecked(page, fixture("paths/money-skips-gate.yaml"));
  assert.equal((await page.textContent('[data-testid="tab-paths"] .tab-count')).trim(), "1", "the tab counts one flagged path");
  await openTab(page, "paths");
  await page.waitForSelector('[data-testid="risk-path"]');

  const paths = await page.$$eval('[data-testid="risk-path"]', (cards) =>
    cards.map((c) => ({ steps: c.dataset.steps, flagged: c.dataset.flagged, gated: c.dataset.gated, risk: c.dataset.risk, text: c.textContent })),
  );
  assert.equal(paths.length, 2);
  assert.deepEqual(
    paths.map((p) => [p.steps, p.flagged, p.gated, p.risk]),
    [
      ["triage refund done", "true", "false", "money"],
      ["triage review tell done", "false", "true", "customer_comms"],
    ],
  );
  assert.match(paths[0].text, /No person decides/);
  assert.match(paths[0].text, /No person decides before refund, which may move money with refund\.create\./);
  assert.match(paths[0].text, /No gate before refund, which may act with refund\.create \(moves money, changes data\)/);
  assert.match(paths[1].text, /review \(gate\)/);
  assert.match(await page.textContent('[data-testid="paths-summary"]'), /2 paths from triage to an end, riskiest first\. 1 is flagged/);
  // Flagged paths come first, under their own heading.
  assert.match(await page.textContent(".paths-section h3"), /No person decides/);

  // Nothing is dimmed until a path is chosen.
  assert.equal(await page.locator("svg.graph .off-path").count(), 0);
  await page.click('[data-testid="risk-path"][data-steps="triage refund done"]');
  assert.equal(await page.getAttribute('[data-testid="risk-path"][data-steps="triage refund done"]', "aria-pressed"), "true");
  for (const step of ["triage", "refund", "done"]) {
    assert.ok((await classesOf(`svg.graph [data-step-id="${step}"]`)).includes("on-path"), `${step} is on the path`);
  }
  for (const step of ["review", "tell"]) {
    assert.ok((await classesOf(`svg.graph [data-step-id="${step}"]`)).includes("off-path"), `${step} is dimmed`);
  }
  assert.ok((await classesOf('svg.graph .edge[data-from="triage"][data-to="refund"]')).includes("on-path"));
  assert.ok((await classesOf('svg.graph .edge[data-from="refund"][data-to="done"]')).includes("on-path"));
  assert.ok((await classesOf('svg.graph .edge[data-from="triage"][data-to="review"]')).includes("off-path"));
  assert.ok((await classesOf('svg.graph .terminal[data-terminal="start"]')).includes("on-path"));
  await screenshot(page, "risk-paths-flagged");
  await dark();
  await screenshot(page, "risk-paths-flagged-dark");

  // The choice survives an edit that keeps the path, and "Show all" clears it.
  await nextCheck(async () => {
    await page.click('[data-testid="editor"] .cm-content');
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n# a comment\n");
  });
  assert.ok((await classesOf('svg.graph [data-step-id="refund"]')).includes("on-path"), "still chosen after an edit");
  await page.click('[data-testid="paths-clear"]');
  assert.equal(await page.locator("svg.graph .on-path, svg.graph .off-path").count(), 0);
});

test("no person decides: the graph marks the step, the legend says what the mark means, the step panel says why, and Risk paths name the class and the step", async () => {
  await pasteChecked(page, fixture("rules/PB220.bad.yaml"));
  await openTab(page, "graph");
  // The mark is on the step PB220 reports, and on no other, the gated
  // `send` included.
  const marked = await page.$$eval('svg.graph [data-testid="unsupervised-mark"]', (marks) => marks.map((m) => m.closest("[data-step-id]").dataset.stepId));
  assert.deepEqual(marked, ["quick_refund"]);
  const mark = page.locator('[data-step-id="quick_refund"] [data-testid="unsupervised-mark"]');
  assert.equal(await mark.locator("text").textContent(), "!", "a sign in a shape, not colour alone");
  assert.equal(await mark.locator("title").textContent(), "No person decides before this step can move money");
  const label = await page.getAttribute('[data-step-id="quick_refund"]', "aria-label");
  assert.match(label, /^quick_refund, agent lou, MONEY\. No person decides before this step can move money$/);
  // The mark's "!" reads on its triangle in both themes.
  const colours = () => mark.evaluate((g) => [getComputedStyle(g.querySelector("text")).fill, getComputedStyle(g.querySelector("path")).fill]);
  assert.ok(contrast(...(await colours())) >= 4.5, `light: ${await colours()}`);

  // The legend, closed at first, explains every mark in words.
  const legend = page.locator('[data-testid="graph-legend"]');
  assert.equal(await legend.getAttribute("open"), null);
  await legend.locator("summary").click();
  const entries = await legend.locator("li").evaluateAll((items) => items.map((i) => [i.dataset.mark, i.querySelector("span").textContent]));
  assert.deepEqual(entries.map(([mark]) => mark), ["risk", "risk", "risk", "risk", "risk", "unsupervised", "partly-unknown", "error", "loops-back"]);
  assert.deepEqual(entries.slice(0, 4).map(([, text]) => text), ["Moves money", "Writes to customers", "Changes internal systems", "Reads only"]);
  assert.ok(entries.some(([mark, text]) => mark === "unsupervised" && text === "No person decides before this step can move money or write to customers"));
  assert.ok(!entries.some(([, text]) => /customer_comms|customer comms/i.test(text)), "no enum value in prose");
  assert.equal(await legend.locator('li[data-mark="unsupervised"] .unsupervised-mark text').textContent(), "!", "drawn as the graph draws it");
  assert.deepEqual(await violations(page), []);
  await screenshot(page, "unsupervised-legend");
  await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
  assert.ok(contrast(...(await colours())) >= 4.5, `dark: ${await colours()}`);
  assert.deepEqual(await violations(page), []);
  await screenshot(page, "unsupervised-legend-dark");
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
  // The list opens over the graph; closed again, the step can be chosen.
  await legend.locator("summary").click();

  // The step panel says why, in the core's words.
  await page.click('[data-step-id="quick_refund"]');
  const why = page.locator('[data-testid="step-unsupervised"]');
  assert.equal(
    (await why.locator("span").textContent()).trim(),
    "No person decides before this step can move money: it may call refund.create, which asks for no approval, and the start reaches it with no gate on the way.",
  );
  assert.equal(await why.locator("code").textContent(), "refund.create");
  await screenshot(page, "unsupervised-step");
  await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
  assert.deepEqual(await violations(page), []);
  await screenshot(page, "unsupervised-step-dark");
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
  await page.click('[data-step-id="send"]');
  assert.equal(await page.locator('[data-testid="step-unsupervised"]').count(), 0, "a gated step says nothing of the kind");

  // Risk paths: what the terms mean, once, then the flagged path naming
  // the class and the step.
  await openTab(page, "paths");
  await page.waitForSelector('[data-testid="risk-path"]');
  assert.match(await page.textContent('[data-testid="paths-terms"]'), /^No person decides: a step on the path may move money or write to customers, and no gate comes before it/);
  const flagged = page.locator('[data-testid="risk-path"][data-flagged="true"]');
  assert.equal(await flagged.count(), 1);
  assert.equal(await flagged.getAttribute("data-steps"), "recover quick_refund record");
  const named = flagged.locator(".path-unsupervised");
  assert.deepEqual([await named.getAttribute("data-risk"), await named.getAttribute("data-step")], ["money", "quick_refund"]);
  assert.equal((await named.textContent()).trim(), "No person decides before quick_refund, which may move money with refund.create.");
  assert.equal((await flagged.locator(".path-status").textContent()).trim(), "No person decides");
  const panel = await page.textContent('[data-testid="risk-paths"]');
  assert.ok(!/customer_comms|customer comms|FLAGGED/.test(panel), "the core's words, not the enum's");
  assert.deepEqual(await violations(page), []);
  await screenshot(page, "unsupervised-paths");
});

test("risk paths: a loop is walked once, and a plugin manifest has no paths tab", async () => {
  await pasteChecked(page, fixture("paths/retry-loop.json"));
  await openTab(page, "paths");
  await page.waitForSelector('[data-testid="risk-path"]');
  const loops = await page.$$eval('[data-testid="risk-path"]', (cards) => cards.map((c) => /goes round a loop/.test(c.textContent)));
  assert.ok(loops.includes(true) && loops.includes(false), "a path that goes round the loop beside one that does not");
  await screenshot(page, "risk-paths-loop");

  await pasteChecked(page, example("acme-github.oz0-plugin.yaml"));
  assert.equal(await page.locator('[data-testid="tab-paths"]').count(), 0);
});

test("registry: one widened permission and one lowered risk class show as a warning and an info, per tool, until removed", async () => {
  await pasteChecked(page, example("failed-charge-recovery.json"));
  await openTab(page, "diagnostics");
  const codes = () => page.$$eval(".diagnostic", (items) => items.map((i) => i.dataset.code));
  assert.ok(!(await codes()).some((c) => c.startsWith("DR")), "no drift before a registry is loaded");

  // Bad registry text is refused with the core's reason, and nothing is loaded.
  await page.click('[data-testid="registry-button"]');
  await page.fill('[data-testid="registry-text"]', '{"tools": "not a list"}');
  await page.click('[data-testid="registry-load"]');
  await page.waitForSelector('[data-testid="registry-error"]');
  assert.match(await page.textContent('[data-testid="registry-error"]'), /cannot be used/);
  await screenshot(page, "registry-refused");

  await page.fill('[data-testid="registry-text"]', fixture("registry/runtime.registry.yaml"));
  await nextCheck(() => page.click('[data-testid="registry-load"]'));
  assert.equal(await page.locator('[data-testid="registry-dialog"]').count(), 0, "the dialog closes");
  assert.match(await page.textContent('[data-testid="registry-chip"]'), /Registry: pasted registry/);

  const found = await page.$$eval(".diagnostic", (items) => items.map((i) => [i.dataset.code, i.dataset.severity, i.textContent]));
  const widened = found.find(([code]) => code === "DR004");
  assert.ok(widened, "DR004 permissions-widened");
  assert.equal(widened[1], "warning");
  assert.match(widened[2], /charge\.history/);
  assert.match(widened[2], /charges:write/);
  const lowered = found.find(([code, , text]) => code === "DR003" && /email\.send/.test(text));
  assert.ok(lowered, "DR003 for email.send's lowered risk class");
  assert.equal(lowered[1], "info");
  // A squiggle in the editor for each.
  assert.ok((await page.locator('[data-testid="editor"] .cm-lintRange-warning').count()) >= 1);

  await openTab(page, "tools");
  assert.match(await page.textContent('[data-testid="registry-note"]'), /Compared with the registry pasted registry: \d+ warnings?, \d+ infos?/);
  const drift = async (tool) =>
    page.$$eval(`tr[data-tool="${tool}"] .drift-badge`, (badges) => badges.map((b) => [b.dataset.code ?? "", b.dataset.severity ?? "", b.textContent]));
  assert.deepEqual(await drift("charge.history"), [["DR004", "warning", "permissions widened"]]);
  assert.ok((await drift("email.send")).some(([code, severity, text]) => code === "DR003" && severity === "info" && text === "risk changed"));
  assert.deepEqual(await drift("customer.get"), [["", "", "matches the registry"]], "a tool that agrees says so");
  assert.ok((await drift("mcp.acme.search_orders")).some(([code, , text]) => code === "DR001" && text === "missing from the registry"));
  await screenshot(page, "registry-tools");
  await dark();
  await screenshot(page, "registry-tools-dark");

  // Kept for the next visit.
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  await page.waitForSelector('[data-testid="registry-chip"]');
  await openTab(page, "diagnostics");
  assert.ok((await codes()).includes("DR004"), "the registry is still loaded after a reload");

  // Removed: the findings and the chip go.
  await nextCheck(() => page.click('[data-testid="registry-remove"]'));
  assert.ok(!(await codes()).some((c) => c.startsWith("DR")));
  assert.equal(await page.locator('[data-testid="registry-chip"]').count(), 0);
  await page.waitForSelector('[data-testid="registry-button"]');
});

test("registry: opened from a file, named by it; a file that is not text is refused", async () => {
  await pasteChecked(page, example("failed-charge-recovery.json"));
  await openTab(page, "diagnostics");
  await page.click('[data-testid="registry-button"]');
  await page.setInputFiles('[data-testid="registry-file"]', { name: "bad.yaml", mimeType: "application/yaml", buffer: Buffer.from([0x2d, 0x20, 0xff, 0xfe]) });
  await page.waitForSelector('[data-testid="registry-error"]');
  assert.match(await page.textContent('[data-testid="registry-error"]'), /bad\.yaml is not UTF-8 text/);

  await nextCheck(() => page.setInputFiles('[data-testid="registry-file"]', join(fixtures, "registry/runtime.registry.yaml")));
  assert.match(await page.textContent('[data-testid="registry-chip"]'), /Registry: runtime\.registry\.yaml/);
  assert.ok((await page.$$eval(".diagnostic", (items) => items.map((i) => i.dataset.code))).includes("DR004"));
});

test("compare: a version where one step gains a customer_comms tool shows that change first", async () => {
  await pasteChecked(page, fixture("diff/comms.old.json"));
  await openTab(page, "compare");
  await page.waitForSelector('[data-testid="compare-editor"] .cm-content');
  // The old version starts as a copy of the current text.
  assert.match(await page.textContent('[data-testid="compare-summary"]'), /No change/);
  assert.equal(await page.getAttribute('[data-testid="compare-editor"] .cm-content', "aria-label"), "Old version");

  await pasteChecked(page, fixture("diff/comms.new.json"));
  await page.waitForSelector('[data-testid="change"]');
  const changes = await page.$$eval('[data-testid="change"]', (items) => items.map((i) => [i.dataset.impact, i.textContent]));
  assert.match(await page.textContent('[data-testid="compare-summary"]'), /2 changes: 2 widen what it may do/);
  assert.deepEqual(changes.map(([impact]) => impact), ["widens", "widens"]);
  assert.match(changes[0][1], /Step record.*may now call email\.send \(customer_comms\)/);
  assert.match(changes[1][1], /highest risk raised: internal → customer_comms/);
  await screenshot(page, "compare-widened");
  await dark();
  await screenshot(page, "compare-widened-dark");

  // The old side is editable too: the same text there leaves nothing to list.
  await pasteOver(page, fixture("diff/comms.new.json"), "compare-editor");
  await page.waitForFunction(() => /No change/.test(document.querySelector('[data-testid="compare-summary"]')?.textContent ?? ""));

  // A version that cannot be read says why instead of listing changes.
  await pasteOver(page, "{ not json", "compare-editor");
  await page.waitForSelector('[data-testid="compare-error"]');
  assert.match(await page.textContent('[data-testid="compare-error"]'), /the old version cannot be read/);

  // "Copy the current text" starts again from the editor's text, and the old version survives leaving the tab.
  await page.click('[data-testid="compare-copy"]');
  await page.waitForFunction(() => /No change/.test(document.querySelector('[data-testid="compare-summary"]')?.textContent ?? ""));
  await openTab(page, "diagnostics");
  await openTab(page, "compare");
  await page.waitForSelector('[data-testid="compare-summary"]');
  assert.match(await page.textContent('[data-testid="compare-summary"]'), /No change/);
});
