// End-to-end tests of the release build in headless Chromium: the page is
// used as a person would (select all and paste, type, click), and the tests
// assert on what the page shows. Screenshots go to tests/e2e/screenshots/.

import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, playgroundForEachTest, pasteOver, openTab } from "./harness.mjs";

const examplesDir = join(root, "examples");
let page;
const opb = session();
playgroundForEachTest(opb, (p) => (page = p));
// These tests read the problems of the texts they paste: the Diagnostics
// tab, chosen, stays through their edits (tabs.test.mjs tests the tab a
// document opens on).
beforeEach(() => openTab(page, "diagnostics"));


async function waitForText(selector, pattern, timeout = 15_000) {
  await page.waitForFunction(
    ([selector, source, flags]) => new RegExp(source, flags).test(document.querySelector(selector)?.textContent ?? ""),
    [selector, pattern.source, pattern.flags],
    { timeout },
  );
}

// Runs `action` and waits for the check it causes to finish (the status bar
// counts checks in data-checks). Returns the time from the last key press or
// paste to the end of that check, in milliseconds.
async function nextCheck(action, timeout = 30_000) {
  const before = await page.evaluate(() => {
    window.__lastInput = performance.now();
    if (!window.__inputsWatched) {
      window.__inputsWatched = true;
      for (const type of ["keydown", "paste"]) {
        document.addEventListener(type, () => (window.__lastInput = performance.now()), true);
      }
    }
    const statusbar = document.querySelector(".statusbar");
    window.__checked = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(statusbar, { attributes: true, attributeFilter: ["data-checks"] });
    });
    return Number(statusbar.dataset.checks);
  });
  await action();
  await page.waitForFunction((before) => Number(document.querySelector(".statusbar").dataset.checks) > before, before, {
    timeout,
  });
  return page.evaluate(async () => (await window.__checked) - window.__lastInput);
}

// Selects everything in the editor and pastes `text` over it, as a person
// pressing Ctrl+A then Ctrl+V would.
async function pasteDocument(text) {
  return nextCheck(() => pasteOver(page, text));
}

async function loadExample(name) {
  await nextCheck(() => page.selectOption('[data-testid="examples"]', name));
  assert.equal(await page.textContent('[data-testid="document-name"]'), name);
}

// Each severity's count, as the Diagnostics panel's filters say it.
async function filterCounts() {
  const counts = {};
  for (const severity of ["error", "warning", "info"]) {
    counts[severity] = Number((await page.textContent(`button.filter[data-severity="${severity}"]`)).match(/\d+/)[0]);
  }
  return counts;
}

async function listed() {
  return page.$$eval("li.diagnostic", (items) =>
    items.map((li) => ({ code: li.dataset.code, severity: li.dataset.severity, text: li.textContent })),
  );
}

test("opens with failed-charge-recovery.json, a clean playbook", async () => {
  assert.equal(await page.textContent('[data-testid="document-name"]'), "failed-charge-recovery.json");
  assert.equal(await page.getAttribute('[data-testid="kind"]', "data-kind"), "playbook");
  assert.match(await page.textContent('[data-testid="kind"]'), /detected/);
  assert.equal(await page.textContent('[data-testid="tab-diagnostics"] .tab-count'), "0");
  const counts = await filterCounts();
  assert.equal(counts.error, 0);
  assert.equal(counts.warning, 0);
  assert.match(await page.textContent(".cm-content"), /"id": "failed-charge-recovery"/);
  assert.equal(await page.getAttribute('[data-testid="editor"] .cm-editor', "class") !== null, true);
  await screenshot(page, "01-initial");
});

test("a pasted broken document shows its diagnostics, counted alike everywhere", async () => {
  const text = readFileSync(join(examplesDir, "refund-triage.broken.yaml"), "utf8");
  await pasteDocument(text);
  assert.equal(await page.textContent('[data-testid="document-name"]'), "untitled.yaml", "a YAML text pasted over the JSON example is a new document");
  assert.equal(await page.inputValue('[data-testid="examples"]'), "", "no example is selected");
  const entries = await listed();
  assert.ok(entries.length >= 5, `diagnostics listed: ${entries.length}`);
  for (const code of ["PB406", "PB405", "PB410", "PB306"]) {
    assert.ok(entries.some((e) => e.code === code), `${code} is listed`);
  }
  const counts = await filterCounts();
  for (const severity of ["error", "warning", "info"]) {
    assert.equal(entries.filter((e) => e.severity === severity).length, counts[severity], severity);
  }
  assert.equal(await page.textContent('[data-testid="tab-diagnostics"] .tab-count'), String(entries.length));
  assert.equal(await page.getAttribute('[data-testid="tab-diagnostics"] .tab-count', "data-severity"), "error", "in the colour of the errors");
  assert.equal(await page.locator(".cm-lintRange-error").count() > 0, true, "squiggles under the ranges");
  assert.equal(await page.locator(".cm-lint-marker-error").count() > 0, true, "gutter markers");
  await screenshot(page, "02-broken-document");

  // Hovering a squiggle shows the message and the rule.
  await page.hover(".cm-lintRange-error >> nth=0");
  await page.waitForSelector(".cm-tooltip-lint", { timeout: 5_000 });
  assert.match(await page.textContent(".cm-tooltip-lint"), /[A-Z]{2}\d{3} [a-z-]+/);
  await screenshot(page, "03-hover-tooltip");
});

test("a click on a diagnostic selects its range, right after non-ASCII text", async () => {
  const text = [
    'openplaybook: "1.6"',
    "id: relance",
    "name: Relance des paiements échoués 😀",
    "requires:",
    "  connections: []",
    "steps:",
    "  - id: début",
    "    kind: agent",
    "    agent: lou",
    "    purpose: Écrire au client — «vérifier le montant» 😀",
    "    allowedTools: []",
    "    next: étape-😀-inconnue",
    "",
  ].join("\n");
  await pasteDocument(text);
  const entry = page.locator('li[data-code="PB213"]');
  assert.equal(await entry.count(), 1);
  const line = 12;
  const column = [..."    next: "].length + 1;
  assert.equal(await entry.locator(".diagnostic-position").textContent(), `${line}:${column}`);
  const squiggled = await page.$$eval(".cm-lintRange-error", (spans) => spans.map((s) => s.textContent).join(""));
  assert.match(squiggled, /étape-😀-inconnue/);

  // Move the cursor away first, so the jump is what puts it there.
  await page.click(".cm-content");
  await page.keyboard.press("Control+Home");
  await waitForText('[data-testid="cursor"]', /^Ln 1, Col 1$/);
  await entry.locator("button.diagnostic-main").click();
  const end = column + [..."étape-😀-inconnue"].length;
  await waitForText('[data-testid="cursor"]', new RegExp(`^Ln ${line}, Col ${end}$`));
  assert.equal(await page.evaluate(() => document.getSelection().toString()), "étape-😀-inconnue");
  assert.match(await page.textContent(".cm-activeLine"), /next: étape-😀-inconnue/);
  await screenshot(page, "04-jump-to-range");
});

test("an unclosed bracket is marked where it opened, and where reading stopped as a hint", async () => {
  const text = readFileSync(join(root, "crates/core/tests/fixtures/input/unclosed-flow.oz0-plugin.yaml"), "utf8");
  await pasteDocument(text);
  const entries = await listed();
  assert.deepEqual(entries.map((e) => e.code), ["IN001"], JSON.stringify(entries));
  assert.equal(await page.locator('li[data-code="IN001"] .diagnostic-position').textContent(), "23:14");
  assert.match(entries[0].text, /this `?\[`? is never closed \(line 23, column 14\); reading stopped at line 25, column 5/);
  assert.equal(await page.textContent(".cm-lintRange-error"), "[", "the error marks the opening");
  const hint = page.locator(".cm-lintRange-hint");
  assert.equal(await hint.count(), 1, "one second mark");
  assert.equal(await hint.textContent(), "r", "at the first character of line 25, `requires_approval`");
  assert.match(await page.evaluate(() => document.querySelector(".cm-lintRange-hint").closest(".cm-line").textContent), /^\s+requires_approval:/);
  await hint.hover();
  await page.waitForSelector(".cm-tooltip-lint", { timeout: 5_000 });
  assert.match(await page.textContent(".cm-tooltip-lint"), /Reading stopped here: invalid indentation in flow construct\./);
  await screenshot(page, "04b-unclosed-bracket");
});

test("a click scrolls a far diagnostic into view", async () => {
  const base = readFileSync(join(examplesDir, "failed-charge-recovery.json"), "utf8");
  const broken = base.replace('"allowedTools": ["today.surface"]', '"allowedTools": ["today.surface"], "next": "nowhere"');
  await pasteDocument(broken);
  await page.click(".cm-content");
  await page.keyboard.press("Control+Home");
  await page.locator('li[data-code="PB213"] button.diagnostic-main').click();
  const selected = page.locator(".cm-activeLine");
  await selected.waitFor();
  assert.match(await selected.textContent(), /"next": "nowhere"/);
  assert.ok(await selected.isVisible());
  const box = await selected.boundingBox();
  const editor = await page.locator('[data-testid="editor"]').boundingBox();
  assert.ok(box.y >= editor.y && box.y + box.height <= editor.y + editor.height, "the line is inside the editor's view");
});

test("the kind switch reads the text as the chosen kind", async () => {
  await loadExample("minimal-manifest.oz0-plugin.yaml");
  assert.equal(await page.getAttribute('[data-testid="kind"]', "data-kind"), "plugin-manifest");
  assert.match(await page.textContent('[data-testid="kind"]'), /Plugin manifest\s*detected/);
  assert.equal(await page.locator('li[data-code="PB104"]').count(), 0);

  await nextCheck(() => page.click('[data-testid="kind-switch"] [data-kind="playbook"]'));
  assert.equal(await page.getAttribute('[data-testid="kind"]', "data-kind"), "playbook");
  assert.match(await page.textContent('[data-testid="kind"]'), /Playbook\s*chosen/);
  assert.equal(await page.getAttribute('[data-testid="kind-switch"] [data-kind="playbook"]', "aria-checked"), "true");
  assert.equal(await page.locator('li[data-code="PB104"]').count(), 1, "read as a playbook, it has no steps");
  await screenshot(page, "05-kind-switch");

  await nextCheck(() => page.click('[data-testid="kind-switch"] [data-kind="auto"]'));
  assert.equal(await page.getAttribute('[data-testid="kind"]', "data-kind"), "plugin-manifest");
  assert.equal(await page.locator('li[data-code="PB104"]').count(), 0);
});

test("severity filters hide and show entries", async () => {
  await loadExample("refund-triage.broken.yaml");
  const before = await listed();
  const errors = before.filter((e) => e.severity === "error").length;
  assert.ok(errors > 0);
  await page.click('button.filter[data-severity="error"]');
  assert.equal(await page.getAttribute('button.filter[data-severity="error"]', "aria-pressed"), "false");
  const after = await listed();
  assert.equal(after.length, before.length - errors);
  assert.ok(after.every((e) => e.severity !== "error"));
  await page.click('button.filter[data-severity="error"]');
  assert.equal((await listed()).length, before.length);
});

test("each diagnostic links to its rule's documentation in the app", async () => {
  await loadExample("shady-tools.broken.oz0-plugin.yaml");
  const first = page.locator("li.diagnostic").first();
  const code = await first.getAttribute("data-code");
  await first.locator("a.rule-link").click();
  await page.waitForSelector(`article.rule-page[data-rule="${code}"]`);
  assert.equal(await page.getAttribute('[data-testid="tab-rules"]', "aria-selected"), "true");
  assert.match(await page.textContent("article.rule-page"), /Enforces:/);
  await screenshot(page, "06-rule-documentation");
  // The link changes the address's fragment; the page follows in a task of
  // its own (hashchange), after the click has returned.
  await page.click('.back-link[href="#rules"]');
  await page.waitForSelector("a.rule-row");
  assert.ok((await page.locator("a.rule-row").count()) > 10, "the index lists the rules");
  await screenshot(page, "07-rule-index");
  // Each step back is awaited in the page before the next: Playwright's
  // goBack returns at the page's next address change, which can be the
  // page's own rewrite of its address (replaceState) rather than the step
  // back, and a second goBack taken before the first lands steps back from
  // the same entry again.
  await page.goBack();
  await page.waitForSelector(`article.rule-page[data-rule="${code}"]`);
  await page.goBack();
  await page.waitForSelector("li.diagnostic");
  assert.equal(await page.getAttribute('[data-testid="tab-diagnostics"]', "aria-selected"), "true");
});

test("convert to JSON and back keeps the findings; undo restores the text", async () => {
  await loadExample("refund-triage.broken.yaml");
  const before = (await listed()).map((e) => e.code).sort();
  await nextCheck(() => page.click('[data-testid="convert"]'));
  assert.equal(await page.textContent('[data-testid="syntax"]'), "JSON");
  assert.equal(await page.textContent('[data-testid="document-name"]'), "refund-triage.broken.json");
  assert.match(await page.textContent('[data-testid="notice"]'), /Converted to JSON\. Its \d+ comments were not kept/);
  assert.match(await page.textContent(".cm-line >> nth=0"), /^\{$/);
  assert.deepEqual((await listed()).map((e) => e.code).sort(), before);
  await screenshot(page, "08-converted-to-json");

  await nextCheck(() => page.click('[data-testid="convert"]'));
  assert.equal(await page.textContent('[data-testid="syntax"]'), "YAML");
  assert.deepEqual((await listed()).map((e) => e.code).sort(), before);

  await page.click(".cm-content");
  await nextCheck(() => page.keyboard.press("Control+z"));
  assert.equal(await page.textContent('[data-testid="syntax"]'), "JSON");
});

test("format pretty-prints; a conversion that would lose data is refused", async () => {
  await pasteDocument('{"openplaybook":"1.6","id":"x","steps":[{"id":"a","kind":"gate"}]}');
  await nextCheck(() => page.click('[data-testid="format"]'));
  const lines = await page.$$eval(".cm-line", (lines) => lines.map((l) => l.textContent));
  assert.deepEqual(lines.slice(0, 3), ["{", '  "openplaybook": "1.6",', '  "id": "x",']);
  assert.match(await page.textContent('[data-testid="notice"]'), /Formatted/);

  await pasteDocument('{"openplaybook": "1.6", "id": "a", "id": "b", "steps": []}');
  await page.click('[data-testid="convert"]');
  await page.waitForSelector('[data-testid="notice"].error');
  assert.match(await page.textContent('[data-testid="notice"]'), /The key id appears twice in the top-level object/);
  assert.equal(await page.textContent('[data-testid="syntax"]'), "JSON", "the text is left as it was");
  await screenshot(page, "09-conversion-refused");
});

test("the examples menu offers every example, each loading as expected", async () => {
  const files = readdirSync(examplesDir).filter((f) => /\.(json|ya?ml)$/.test(f));
  const offered = await page.$$eval('[data-testid="examples"] option:not([disabled])', (options) => options.map((o) => o.value));
  for (const file of files) assert.ok(offered.includes(file), `${file} is offered`);
  for (const own of ["minimal-playbook.yaml", "minimal-manifest.oz0-plugin.yaml", "large-playbook-200-steps.json"]) {
    assert.ok(offered.includes(own), `${own} is offered`);
  }
  for (const name of offered) {
    if (name !== (await page.textContent('[data-testid="document-name"]'))) await loadExample(name);
    const counts = await filterCounts();
    const expectedKind = name.includes("oz0-plugin") ? "plugin-manifest" : "playbook";
    assert.equal(await page.getAttribute('[data-testid="kind"]', "data-kind"), expectedKind, name);
    if (name.includes(".broken.")) {
      assert.ok(counts.error + counts.warning > 0, `${name} keeps its findings`);
    } else {
      assert.equal(counts.error + counts.warning, 0, `${name} is clean`);
    }
  }
});

test("a large playbook: every key typed is checked, and the diagnostics follow the last", async () => {
  // How fast is measured by cargo xtask bench browser, not asserted here.
  await loadExample("large-playbook-200-steps.json");
  await screenshot(page, "10-large-playbook");
  // Edit a purpose in the middle of the document, key by key: each key's
  // check runs, and the last leaves a JSON error where it was typed.
  await page.click(".cm-content");
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < 60; i++) await page.keyboard.press("PageDown");
  await page.keyboard.press("End");
  const { line } = await page.evaluate(() => {
    const [, head] = window.opbEditor.selectionOf(document.querySelector('[data-testid="editor"]'));
    const text = window.opbEditor.textOf(document.querySelector('[data-testid="editor"]'));
    return { line: text.slice(0, head).split("\n").length };
  });
  for (const key of ["x", "y", "z", "w", "v"]) await nextCheck(() => page.keyboard.type(key));
  assert.match(await page.textContent('[data-testid="cursor"]'), new RegExp(`^Ln ${line}, Col `));
  const entries = await listed();
  assert.ok(entries.some((e) => e.code === "IN001"), `the keys after the line's end break the JSON: ${JSON.stringify(entries)}`);
  assert.match(await page.textContent('[data-testid="elapsed"]'), /^Checked in ([\d.]+|under 1) ms$/);
});

test("bad input: empty text says so", async () => {
  await nextCheck(async () => {
    await page.click(".cm-content");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Backspace");
  });
  const entries = await listed();
  assert.equal(entries.length, 1);
  assert.equal(entries[0].code, "IN001");
  assert.match(entries[0].text, /empty/);
  await screenshot(page, "11-empty");
});

test("bad input: deep nesting is refused with a clear message", async () => {
  await pasteDocument("[".repeat(100_000));
  const entries = await listed();
  assert.ok(entries.some((e) => e.code === "IN006" && /nests more than \d+ levels/.test(e.text)), JSON.stringify(entries));
  await screenshot(page, "12-deep-nesting");
});

test("bad input: binary garbage gets a parse error, not a frozen page", async () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const garbage = Array.from({ length: 64 * 1024 }, () => String.fromCharCode(Math.floor(random() * 256))).join("");
  await pasteDocument(garbage);
  const entries = await listed();
  assert.ok(entries.length >= 1);
  assert.ok(entries.every((e) => e.severity === "error"));
  // The page still answers input: a key typed is checked.
  await nextCheck(async () => {
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("!");
  });
  assert.ok((await listed()).length >= 1);
  await screenshot(page, "13-binary-garbage");
});

test("bad input: 5 MB documents are checked and the page stays responsive", async () => {
  // One 5 MB line: over the line-length limit, said at once.
  const oneLine = JSON.stringify({ openplaybook: "1.6", steps: [], description: "x".repeat(5 * 1024 * 1024) });
  let took = await pasteDocument(oneLine);
  let entries = await listed();
  assert.ok(entries.some((e) => e.code === "IN006" && /A line is \d+ bytes long/.test(e.text)), JSON.stringify(entries));
  console.log(`5 MB on one line: diagnostics after ${took.toFixed(0)} ms`);

  // 5 MB over many lines, within the step limit (10,000): read in full.
  const steps = Array.from({ length: 9_000 }, (_, i) => ({
    id: `s${i}`,
    kind: "agent",
    agent: "lou",
    purpose: `Step ${i} of a very long playbook, padded to make the document large: ${"·".repeat(400)}`,
    allowedTools: [],
    ...(i + 1 < 9_000 ? { next: `s${i + 1}` } : {}),
  }));
  const large = JSON.stringify({ openplaybook: "1.6", id: "huge", requires: { connections: [] }, steps }, null, 1);
  assert.ok(large.length > 5_000_000, `size ${large.length}`);
  took = await pasteDocument(large);
  console.log(`${(large.length / 1e6).toFixed(1)} MB over ${large.split("\n").length} lines: diagnostics after ${took.toFixed(0)} ms (${await page.textContent('[data-testid="elapsed"]')})`);
  assert.match(await page.textContent(".all-clear"), /No problems found/);
  assert.match(await page.textContent(".statusbar"), /MB/);
  // The page still answers and still edits; the status bar says a check of
  // the large text is coming.
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await nextCheck(async () => {
    await page.keyboard.type(" ");
    await page.waitForSelector('[data-testid="checking"]');
  });
  assert.equal(await page.locator('[data-testid="checking"]').count(), 0);
  await screenshot(page, "14-five-megabytes");
});

test("a 5 MB YAML text is checked in slices, and an edit during its check replaces it", async () => {
  const lines = ['openplaybook: "1.6"', "id: huge-yaml", "requires:", "  connections: []", "steps:"];
  for (let i = 0; i < 9_000; i++) {
    lines.push(`  - id: s${i}`, "    kind: agent", "    agent: lou");
    lines.push(`    purpose: Step ${i} of a very long playbook, padded to make the document large ${"·".repeat(400)}`);
    lines.push("    allowedTools: []");
    if (i + 1 < 9_000) lines.push(`    next: s${i + 1}`);
  }
  const large = lines.join("\n") + "\n";
  assert.ok(large.length > 4_000_000, `size ${large.length}`);
  await pasteDocument(large);
  assert.match(await page.textContent(".all-clear"), /No problems found/);
  const slices = Number(await page.getAttribute('[data-testid="elapsed"]', "data-slices"));
  console.log(`${(large.length / 1e6).toFixed(1)} M UTF-16 units of YAML: ${await page.textContent('[data-testid="elapsed"]')} in ${slices} slices`);
  assert.ok(slices > 1, `checked in ${slices} slice(s)`);
  assert.match(await page.getAttribute('[data-testid="elapsed"]', "title"), /slices.*answering keys between them/);

  // A key during the check of the key before: the page takes it between
  // two slices, and the check it stops never shows its findings. (The
  // page tells when slicing starts through a promise made before the key:
  // while a check runs in slices, Chromium hands the page keys and frames
  // between them, but Playwright's own polling of the page waits.)
  const before = Number(await page.getAttribute(".statusbar", "data-checks"));
  await page.click(".cm-content");
  await page.keyboard.press("Control+Home");
  const slicing = page.evaluate(() => {
    const bar = document.querySelector(".statusbar");
    return new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (bar.hasAttribute("data-slicing")) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(bar, { attributes: true, attributeFilter: ["data-slicing"] });
    });
  });
  await page.keyboard.type("x");
  await slicing;
  await page.keyboard.press("Backspace");
  await page.waitForFunction(() => !document.querySelector(".statusbar[data-slicing], [data-testid='checking']"), null, {
    timeout: 30_000,
  });
  assert.match(await page.textContent(".all-clear"), /No problems found/);
  assert.equal(Number(await page.getAttribute(".statusbar", "data-checks")), before + 1, "one check shown: the stopped one never was");

  // What a check in slices finds is shown as any check's findings are.
  await nextCheck(() => page.keyboard.type("x"));
  const found = await listed();
  assert.ok(found.some((e) => e.code === "IN007" && /xopenplaybook/.test(e.text)), JSON.stringify(found));
});

test("the layout stacks on a narrow screen", async () => {
  await page.setViewportSize({ width: 760, height: 1000 });
  await loadExample("shady-tools.broken.oz0-plugin.yaml");
  const editor = await page.locator('[data-testid="editor"]').boundingBox();
  const panel = await page.locator(".side-pane").boundingBox();
  assert.ok(panel.y >= editor.y + editor.height - 1, "the panels sit below the editor");
  await screenshot(page, "15-narrow");
});

test("the splitter resizes the panes", async () => {
  const before = await page.locator(".editor-pane").boundingBox();
  const handle = await page.locator(".splitter").boundingBox();
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x - 300, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  const after = await page.locator(".editor-pane").boundingBox();
  assert.ok(after.width < before.width - 200, `${before.width} → ${after.width}`);
  await page.focus(".splitter");
  await page.keyboard.press("End");
  const widest = await page.locator(".editor-pane").boundingBox();
  assert.ok(widest.width > before.width);
});
