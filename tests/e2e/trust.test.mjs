// What a reader who received a playbook can trust, end to end in Chromium:
// a credential written into the document is shown whole nowhere outside the
// editor (panels, graph hover text, risk paths, problems, the Drafts menu;
// in the playground, the reading view, the embed and the <opb-viewer>
// element), since the core masks by what its credential rules found every
// text they are all drawn from: the value where it was found, and wherever
// else it occurs, as a key or in another rule's words.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, routeSites, docsSite, root, session, pako, collectErrors, openPlayground, draftSaved, editFromReading, afterCheck, pasteOver, editorText } from "./harness.mjs";

const opb = session();

const KEY = "sk_live_51HqzR7Kx9PmW2vT8nLcB4yQd";
const LEAKY = readFileSync(join(root, "crates/app/src/examples/minimal-playbook.yaml"), "utf8").replace(
  "purpose: Look the customer up and summarise their account.",
  `purpose: Look the customer up, then charge with ${KEY} if asked.`,
);

// Every run of eight characters after the credential's first four: none
// may be shown.
const hidden = [...KEY.slice(4)].map((_, i, rest) => rest.slice(i, i + 8).join("")).filter((part) => part.length === 8);

// Everything the page shows or tells outside the editor: text (SVG <title>
// hover text included), and every attribute (title, aria-label, data-…),
// through shadow roots.
async function shownOutsideTheEditor(page) {
  return page.evaluate(() => {
    const out = [];
    const visit = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        out.push(node.data);
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
      if (node.classList?.contains("cm-editor")) return;
      for (const attribute of node.attributes ?? []) out.push(attribute.value);
      if (node.shadowRoot) visit(node.shadowRoot);
      for (const child of node.childNodes) visit(child);
    };
    visit(document.documentElement);
    return out.join("\n");
  });
}

function assertMasked(shown, where) {
  assert.match(shown, /charge with sk_l…/, `${where}: the purpose is shown, its credential cut to four characters`);
  for (const part of hidden) assert.ok(!shown.includes(part), `${where} shows "${part}" of the credential`);
}

async function newPage(viewport = { width: 1400, height: 900 }) {
  const context = await opb.browser.newContext({ viewport });
  return collectErrors(await context.newPage());
}

test("a shared link's credential is shown whole nowhere but the editor: step panel, graph hover text, risk paths", async () => {
  const page = await openPlayground(await newPage(), opb.server.url + pako({ code: LEAKY }));
  assert.ok(
    (await page.evaluate(() => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]')))).includes(KEY),
    "the editor keeps the source as typed",
  );
  await page.click('[data-testid="tab-graph"]');
  await page.click('[data-step-id="look-up"]');
  await page.waitForSelector('[data-testid="step-panel"][data-step="look-up"]');
  assert.match(await page.textContent('[data-testid="step-panel"]'), /charge with sk_l…/);
  assertMasked(await shownOutsideTheEditor(page), "the playground's graph and step panel");
  await screenshot(page, "trust-credential-masked");

  await page.click('[data-testid="tab-paths"]');
  await page.waitForSelector('[data-testid="risk-path"]');
  assertMasked(await shownOutsideTheEditor(page), "the risk paths tab");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a shared link's reading view masks the credential as the playground does, under the same trust banner", async () => {
  const page = await newPage();
  await page.goto(opb.server.url + pako({ code: LEAKY }));
  await page.click('[data-opb-reading] opb-viewer svg.graph [data-step-id="look-up"]');
  await page.waitForSelector('opb-viewer article.opb-step.chosen[data-step="look-up"]');
  // As on the embed page, the element holds the link's text as its `code`
  // attribute, which nothing shows.
  assertMasked((await shownOutsideTheEditor(page)).replace(LEAKY, ""), "the reading view");
  // The banner's words (opb_render::glance in both views; the playground's
  // adds an icon and a close button around them).
  const facts = (banner) =>
    banner.evaluate((section) =>
      [".trust-heading", ".trust-facts"].map((part) => section.querySelector(part).textContent.replace(/\s+/g, " ").trim()).join(" | "),
    );
  const read = await facts(page.locator('opb-viewer [data-testid="trust-banner"]'));
  assert.match(read, /^Playbook .* \| .*Risk classes/, `the banner's facts: ${read}`);
  await editFromReading(page);
  await page.waitForSelector('[data-testid="step-panel"][data-step="look-up"]');
  assert.equal(await facts(page.locator('[data-testid="trust-banner"]')), read, "the same banner in both views");
  assert.match(await page.textContent('[data-testid="step-panel"]'), /charge with sk_l…/);
  assertMasked(await shownOutsideTheEditor(page), "the playground after Edit");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the embed page and the <opb-viewer> element mask the credential too", async () => {
  const embed = await newPage({ width: 900, height: 760 });
  await embed.goto(`${opb.server.url}embed.html${pako({ code: LEAKY })}`);
  await embed.click('opb-viewer svg.graph [data-step-id="look-up"]');
  await embed.waitForSelector('opb-viewer article.opb-step.chosen[data-step="look-up"]');
  // The page hands the document to its element as the `code` attribute:
  // the link's text, not what the viewer shows.
  assertMasked((await shownOutsideTheEditor(embed)).replace(LEAKY, ""), "the embed page");
  assert.deepEqual(embed.errors, []);
  await embed.context().close();

  const page = await newPage();
  const refused = await routeSites(page);
  // Routes added later take precedence: this page, on the docs site, holds
  // the leaky playbook in an <opb-viewer> element.
  const code = LEAKY.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  await page.route(docsSite + "leaky.html", (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>leaky</title>
        <script type="module" src="http://127.0.0.1:8080/opb-viewer.js"></script></head>
        <body><opb-viewer kind="playbook" code="${code}"></opb-viewer></body></html>`,
    }),
  );
  await page.goto(docsSite + "leaky.html");
  const viewer = page.locator("opb-viewer");
  await viewer.locator('[data-step-id="look-up"]').click({ timeout: 20_000 });
  await viewer.locator('article.opb-step.chosen[data-step="look-up"]').waitFor();
  // The page's own markup holds the document in the element's attribute:
  // that is the host's text, not what the viewer shows.
  const shown = (await shownOutsideTheEditor(page)).replace(LEAKY, "");
  assertMasked(shown, "the <opb-viewer> element");
  assert.deepEqual(refused, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The masking tests' fixtures (crates/core/tests/fixtures/masking): a token
// SEC001 finds in the description, used again as a top-level key and as a
// branch label (a key of `next`), and an MCP server name PB411 flags, used
// again in a tool name other rules quote; a manifest whose header,
// environment variable and function are named by the token, and whose
// header credential PM312 finds has no credential's shape.
const TOKEN = "ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8";
const SERVER = "admin:hunter2@acme";
const HEADER = "hunter2hunter2";
const fixture = (name) => readFileSync(join(root, "crates/core/tests/fixtures/masking", name), "utf8");
const KEYED = fixture("keyed.yaml");
const KEYED_MANIFEST = fixture("keyed.oz0-plugin.yaml");

// Every run of eight characters of `credential` after its first four.
const partsOf = (credential) =>
  [...credential.slice(4)].map((_, i, rest) => rest.slice(i, i + 8).join("")).filter((part) => part.length === 8);

function assertNoneWhole(shown, where, credentials = [TOKEN, SERVER, HEADER]) {
  for (const credential of credentials) {
    for (const part of partsOf(credential)) assert.ok(!shown.includes(part), `${where} shows "${part}" of ${credential}:\n${shown}`);
  }
}

test("a credential used as a key or quoted by another rule is shown whole nowhere: reading view, panels, graph, risk paths, problems", async () => {
  const page = await newPage();
  await page.goto(opb.server.url + pako({ code: KEYED }));
  await page.waitForSelector('[data-opb-reading] opb-viewer svg.graph [data-step-id="look-up"]');
  const reading = (await shownOutsideTheEditor(page)).replace(KEYED, "");
  assert.match(reading, /ghp_…/, "the branch label is there, cut");
  assertNoneWhole(reading, "the reading view");
  await editFromReading(page);
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  await page.click('[data-testid="tab-graph"]');
  await page.click('[data-step-id="look-up"]');
  await page.waitForSelector('[data-testid="step-panel"][data-step="look-up"]');
  assert.match(await page.textContent('[data-testid="step-panel"]'), /mcp\.admi…\.search/);
  assert.ok(await page.locator('[data-label="ghp_…"]').count(), "the branch's edge is labelled by the cut token");
  assertNoneWhole(await shownOutsideTheEditor(page), "the graph and the step panel");
  for (const tab of ["tab-tools", "tab-requires", "tab-paths", "tab-diagnostics"]) {
    await page.click(`[data-testid="${tab}"]`);
    await page.waitForSelector(`[data-testid="${tab}"][aria-selected="true"]`);
    assertNoneWhole(await shownOutsideTheEditor(page), tab);
  }
  const problems = await page.textContent(".tab-panel");
  assert.match(problems, /\/steps\/0\/next\/ghp_…/, "a pointer through the key, cut");
  assert.match(problems, /mcp\.admi…\.search/, "another rule's words, cut");
  await screenshot(page, "trust-keys-masked");
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const embed = await newPage({ width: 900, height: 760 });
  await embed.goto(`${opb.server.url}embed.html${pako({ code: KEYED })}`);
  await embed.click('opb-viewer svg.graph [data-step-id="look-up"]');
  await embed.waitForSelector('opb-viewer article.opb-step.chosen[data-step="look-up"]');
  assertNoneWhole((await shownOutsideTheEditor(embed)).replace(KEYED, ""), "the embed page");
  assert.deepEqual(embed.errors, []);
  await embed.context().close();
});

test("a manifest's header, environment and function names, and a header's credential, are shown whole nowhere", async () => {
  const page = await openPlayground(await newPage(), opb.server.url + pako({ code: KEYED_MANIFEST, kind: "plugin-manifest" }));
  for (const tab of ["tab-manifest", "tab-diagnostics"]) {
    await page.click(`[data-testid="${tab}"]`);
    await page.waitForSelector(`[data-testid="${tab}"][aria-selected="true"]`);
    assertNoneWhole(await shownOutsideTheEditor(page), tab);
  }
  assert.match(await page.textContent(".tab-panel"), /\/tools\/1\/env\/ghp_…/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the Drafts menu's excerpt of a draft masks what the rules found on its line", async () => {
  const page = await openPlayground(await newPage(), opb.server.url);
  // The cursor ends on the last line: the header's credential, which has no
  // credential's shape, then the token in a description.
  for (const [text, line] of [
    [KEYED_MANIFEST, /X-Api-Key: "hunt\*+"/],
    [`${KEYED}description: token ${TOKEN}\n`, /description: token ghp_\*+/],
  ]) {
    await afterCheck(page, () => pasteOver(page, text));
    await draftSaved(page, text);
    await page.click('[data-testid="drafts"]');
    await page.waitForSelector('[data-testid="drafts-list"]');
    const excerpt = await page.textContent('[data-testid="draft"][aria-current="true"] .draft-excerpt');
    assert.match(excerpt, line);
    assertNoneWhole(await shownOutsideTheEditor(page), "the Drafts menu");
    await page.focus('[data-testid="drafts"]');
    await page.keyboard.press("Escape");
    await page.waitForSelector('[data-testid="drafts-panel"]', { state: "detached" });
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The element that has the focus, described for an assertion message.
const focused = (page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return { inEditor: !!element?.closest(".cm-editor"), what: `${element?.tagName} ${element?.getAttribute("data-testid") ?? element?.className ?? ""}` };
  });


test("Tab passes through the editor from the keyboard, says what it does, and indents once the author edits", async () => {
  const page = await openPlayground(await newPage(), opb.server.url);
  const before = await editorText(page);
  let presses = 0;
  while (!(await focused(page)).inEditor) {
    await page.keyboard.press("Tab");
    assert.ok(++presses < 60, "Tab reaches the editor");
  }
  const hint = page.locator(".statusbar .cm-opb-keys");
  assert.match(await hint.textContent(), /Tab moves to the next control/);
  // CodeMirror marks itself focused when its focus observer runs, a moment
  // after the focus event on a busy machine: the ring follows that mark.
  const editor = await page.waitForSelector('[data-testid="editor"] .cm-editor.cm-focused', { timeout: 5000 });
  const ring = await editor.evaluate((e) => getComputedStyle(e).outlineStyle);
  assert.equal(ring, "solid", "the focused editor shows a focus ring");
  const describedBy = await page.getAttribute('[data-testid="editor"] .cm-content', "aria-describedby");
  assert.ok((await page.getAttribute(`#${describedBy}`, "class")).split(" ").includes("cm-opb-keys"), "the hint describes the editor's content");
  await screenshot(page, "trust-editor-keyboard-focus");

  await page.keyboard.press("Tab");
  assert.equal((await focused(page)).inEditor, false, `the next Tab leaves the editor (focus on ${(await focused(page)).what})`);
  assert.equal(await editorText(page), before, "tabbing through inserted nothing");
  assert.equal(await page.locator(".edited").count(), 0, "the document is not marked edited");

  // Back in, an author types: Tab then indents, and the hint says how to leave.
  await page.keyboard.press("Shift+Tab");
  assert.ok((await focused(page)).inEditor, "Shift+Tab comes back into the editor");
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n#");
  await page.keyboard.press("Home");
  await page.keyboard.press("Tab");
  assert.ok((await focused(page)).inEditor, "after an edit, Tab stays in the editor");
  assert.match(await editorText(page), /\n\s+#$/, "and indents");
  assert.match(await hint.textContent(), /Tab indents\. Esc then Tab leaves the editor/);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  assert.equal((await focused(page)).inEditor, false, "Escape then Tab leaves, as the hint says");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Types a line at the end of the editor's text: the reader's own work.
async function edit(page, line) {
  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("Control+End");
  await page.keyboard.type(`\n${line}`);
  await page.waitForSelector(".edited");
  return editorText(page);
}

async function restores(page, mine, opened) {
  const notice = await page.textContent('[data-testid="share-notice"]');
  assert.match(notice, opened);
  // Quoted names show as code: the text has no backticks.
  assert.match(notice, /Your work on failed-charge-recovery\.json is kept/);
  await page.click('[data-testid="restore-previous"]');
  await page.waitForFunction((mine) => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]')) === mine, mine);
}

test("an example picked or a file dropped over edited work keeps the work, one click away", async () => {
  const page = await openPlayground(await newPage(), opb.server.url);
  const mine = await edit(page, "# my own notes");
  await page.selectOption('[data-testid="examples"]', "minimal-playbook.yaml");
  await page.waitForFunction(() => document.querySelector('[data-testid="document-name"]').textContent === "minimal-playbook.yaml");
  await screenshot(page, "trust-example-over-edits");
  await restores(page, mine, /Opened the example minimal-playbook\.yaml\./);

  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['{"openplaybook": "1.6", "steps": []}'], "dropped.json", { type: "application/json" }));
    const target = document.querySelector(".file-drop");
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => document.querySelector('[data-testid="document-name"]').textContent === "dropped.json");
  await restores(page, mine, /Opened dropped\.json\./);
  // The work survives a reload, as the tab's draft: saved after a pause,
  // however long the check takes on a busy machine.
  await draftSaved(page, mine);
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.equal(await editorText(page), mine);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the smaller faults: words, colours and room a reader sees", async () => {
  const broken = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
  const page = await openPlayground(await newPage(), opb.server.url + pako({ code: broken }));

  // At 1400 × 900 the banner leaves the viewer most of the height, and
  // every tab can be reached: the last one is inside the tab bar.
  const banner = await page.locator('[data-testid="trust-banner"]').boundingBox();
  assert.ok(banner.height < 300, `the banner takes ${banner.height} px`);
  const bar = await page.locator('[role="tablist"]').first().evaluate((tabs) => {
    const last = tabs.lastElementChild;
    last.scrollIntoView({ inline: "nearest", behavior: "instant" });
    return { tabs: tabs.getBoundingClientRect().right, last: last.getBoundingClientRect().right };
  });
  assert.ok(bar.last <= bar.tabs + 1, `the last tab is not cut off: ${JSON.stringify(bar)}`);

  // Money is one colour: the banner's chip and the graph legend's swatch.
  const chip = await page.$eval('.risk-chip[data-risk="money"]', (e) => getComputedStyle(e).color);
  // The swatch is read as a reader sees it, in the opened legend. Chromium
  // can give an empty computed style for an element in a closed <details>
  // just drawn, so its fill is awaited rather than read once.
  await page.click('[data-testid="tab-graph"]');
  await page.click('[data-testid="graph-legend"] summary');
  const swatch = await (
    await page.waitForFunction(() => {
      const bar = document.querySelector('.graph-legend[open] .risk-bar[data-risk="money"]');
      const fill = bar && getComputedStyle(bar).fill;
      return /\d/.test(fill) && fill;
    })
  ).jsonValue();
  const hue = (rgb) => {
    const [r, g, b] = rgb.match(/\d+/g).map(Number);
    return r > g && r > b && g < 0.6 * r;
  };
  assert.ok(hue(chip) && hue(swatch), `both red: chip ${chip}, swatch ${swatch}`);

  // An ungated path is said as a path, not as if its step were a gate.
  const banner_text = await page.textContent('[data-testid="trust-banner"]');
  assert.ok(!/no gate first/.test(banner_text), banner_text);

  // A node's name says each of its texts once.
  const label = await page.getAttribute('[data-step-id="decide"]', "aria-label");
  assert.equal(label.split("decide").length - 1, 1, `the id once: ${label}`);
  assert.equal(label.split("agent").length - 1, 1, `its kind once: ${label}`);
  assert.match(label, /^decide, agent rae, MONEY/);

  // The rule page says its example is what the rule reports.
  await page.click('[data-testid="tab-rules"]');
  await page.click('a.rule-row[href="#rules/PB213"]');
  assert.match(await page.textContent('article.rule-page[data-rule="PB213"]'), /Example of what it reports/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a diagnostic clicked keeps the editor's lines in view, and its tooltip shows code as code", async () => {
  const page = await openPlayground(await newPage(), opb.server.url + pako({ code: LEAKY }));
  await page.click('[data-testid="tab-diagnostics"]');
  await page.click('li.diagnostic[data-code="SEC001"] .diagnostic-main');
  await page.waitForFunction(() => document.activeElement?.classList.contains("cm-content"));
  await page.waitForTimeout(300);
  const scrolled = await page.$eval('[data-testid="editor"] .cm-scroller', (s) => s.scrollLeft);
  assert.equal(scrolled, 0, "the finding starts in view: the editor is not scrolled sideways to its end");
  // (Hovering scrolls the long squiggle into view: Playwright's doing.)
  await page.hover('[data-testid="editor"] .cm-lintRange-error');
  const tooltip = page.locator(".cm-tooltip-lint .cm-diagnostic").first();
  await tooltip.waitFor();
  assert.ok((await tooltip.locator("code").count()) > 0, "quoted parts are code");
  assert.ok(!(await tooltip.textContent()).includes("`"), "no raw backticks");
  await screenshot(page, "trust-tooltip");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
