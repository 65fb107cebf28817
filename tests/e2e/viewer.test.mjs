// End-to-end tests of the viewer (crates/app/src/ui/panels) in headless Chromium: the
// step graph, the selected step's boundary, the tools table, the requires
// cross-check, the manifest view, and the links between them, the
// diagnostics and the editor. Screenshots go to tests/e2e/screenshots/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, playgroundForEachTest, afterCheck, violations, contrast, pasteChecked, openTab, loadExample } from "./harness.mjs";

const examplesDir = join(root, "examples");
let page;
const opb = session();
playgroundForEachTest(opb, (p) => (page = p));


const nextCheck = (action) => afterCheck(page, action);

// Selects everything in the editor and pastes `text` over it.
async function stepIds() {
  return page.$$eval("[data-step-id]", (nodes) => nodes.map((n) => n.dataset.stepId));
}

// The lines the editor marks as the viewer's selection.
async function linkedText() {
  return page.$$eval(".cm-line.cm-opb-linked", (lines) => lines.map((l) => l.textContent).join("\n"));
}

// The boxes of the graph's nodes, terminals and labels, in screen pixels.
async function boxes(selector) {
  return page.$$eval(selector, (elements) =>
    elements.map((e) => {
      const r = e.getBoundingClientRect();
      return { id: e.dataset.stepId ?? e.dataset.terminal ?? e.textContent, x: r.x, y: r.y, w: r.width, h: r.height };
    }),
  );
}

function overlapping(list) {
  const found = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = [list[i], list[j]];
      if (a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5) found.push([a.id, b.id]);
    }
  }
  return found;
}

const LOOPING = `openplaybook: "1.6"
id: review-loop
name: Review until approved
requires: {connections: [], mcpServers: [], secrets: []}
tools:
  - {name: notes.write, source: primitive, description: Write a note., permissions: [notes:write], inputSchema: {type: object}, outputSchema: {type: object}, riskClass: internal, sideEffecting: true, requiresApproval: false}
steps:
  - {id: draft, kind: agent, agent: lou, purpose: Draft., allowedTools: [notes.write], next: review}
  - {id: review, kind: gate, purpose: A person reads it., next: {approved: done, changes: draft}}
  - {id: done, kind: agent, agent: lou, purpose: Close., allowedTools: []}
  - {id: stray, kind: agent, agent: lou, purpose: Nothing leads here., allowedTools: [notes.write], next: stray}
start: draft
`;

test("the example's graph: its steps, edges, branch labels, start and end", async () => {
  await openTab(page, "graph");
  await page.waitForSelector("[data-step-id]");
  assert.deepEqual(await stepIds(), ["recover", "gate", "send", "record"]);
  assert.equal(await page.getAttribute('[data-step-id="gate"]', "data-kind"), "gate");
  assert.equal(await page.getAttribute('[data-step-id="recover"]', "data-kind"), "agent");
  const edges = await page.$$eval(".edge[data-from]", (es) => es.map((e) => `${e.dataset.from}→${e.dataset.to}${e.dataset.label ? ` (${e.dataset.label})` : ""}`));
  assert.deepEqual(edges.sort(), ["gate→record (rejected)", "gate→send (approved)", "recover→gate", "send→record"]);
  const labels = await page.$$eval(".edge-label text", (ts) => ts.map((t) => t.textContent).sort());
  assert.deepEqual(labels, ["approved", "rejected"]);
  assert.equal(await page.getAttribute('[data-terminal="start"]', "data-step"), "recover");
  assert.deepEqual(await page.$$eval('[data-terminal="end"]', (ts) => ts.map((t) => t.dataset.step)), ["record"]);
  const badges = await page.$$eval(".node .risk-badge", (bs) => bs.map((b) => `${b.closest(".node").dataset.stepId}:${b.dataset.risk}`));
  assert.deepEqual(badges, ["recover:read", "send:customer_comms", "record:internal"]);
  assert.equal(await page.locator(".node .error-mark").count(), 0, "a clean playbook has no error markers");

  // Top to bottom, nothing overlapping.
  const placed = await boxes("[data-step-id], .terminal, .edge-label");
  assert.deepEqual(overlapping(placed), []);
  const y = Object.fromEntries(placed.map((b) => [b.id, b.y]));
  assert.ok(y.start < y.recover && y.recover < y.gate && y.gate < y.send && y.send < y.record && y.record < y.end, JSON.stringify(y));
  await screenshot(page, "viewer-01-graph");
});

test("loops, unreachable steps and errors are visible", async () => {
  await pasteChecked(page, LOOPING);
  await openTab(page, "graph");
  await page.waitForSelector('[data-step-id="stray"]');
  const back = await page.$$eval('[data-testid="graph"] .edge.back', (es) => es.map((e) => `${e.dataset.from}→${e.dataset.to}`).sort());
  assert.deepEqual(back, ["review→draft", "stray→stray"], "the loop back to draft and the self-loop are back edges");
  assert.equal(await page.getAttribute('.edge[data-from="review"][data-to="draft"]', "data-label"), "changes");
  assert.match(await page.getAttribute('[data-step-id="stray"]', "class"), /unreachable/);
  assert.match(await page.getAttribute('[data-step-id="draft"]', "class"), /cyclic/);
  assert.deepEqual(overlapping(await boxes("[data-step-id], .terminal, .edge-label")), []);
  await screenshot(page, "viewer-02-loops");

  await loadExample(page, "refund-triage.broken.yaml");
  await openTab(page, "graph");
  await page.waitForSelector('[data-step-id="decide"] .error-mark');
  assert.equal(await page.getAttribute('[data-step-id="decide"] .error-mark', "data-errors"), "1");
  assert.match(await page.getAttribute('[data-step-id="orphan"]', "class"), /unreachable/);
  assert.match(await page.getAttribute('[data-step-id="decide"]', "aria-label"), /1 error/);
});

test("a click on a node shows its capability boundary", async () => {
  await openTab(page, "graph");
  await page.click('[data-step-id="send"]');
  const panel = page.locator('[data-testid="step-panel"]');
  await panel.waitFor();
  assert.equal(await panel.getAttribute("data-step"), "send");
  assert.match(await page.getAttribute('[data-step-id="send"]', "class"), /selected/);
  assert.match(await panel.locator(".step-kind").textContent(), /Agent step, run by lou/);
  const row = panel.locator('tr[data-tool="email.send"]');
  assert.equal(await row.getAttribute("data-resolution"), "embedded");
  const rowText = await row.textContent();
  for (const part of [/customers/, /connector · resend/, /changes data/, /a person approves each call/, /email:send/, /writes outbound_email/]) {
    assert.match(rowText, part);
  }
  assert.match(await panel.locator('[data-testid="refusal"]').textContent(), /Any other tool call is refused/);
  assert.match(await panel.locator('[data-testid="step-summary"]').textContent(), /email\.send/);
  assert.match(await panel.textContent(), /Entered from\s*gate/);
  await screenshot(page, "viewer-03-step-boundary");

  await page.click('[data-step-id="recover"]');
  await page.waitForSelector('[data-testid="step-panel"][data-step="recover"]');
  const tools = await page.$$eval('[data-testid="step-panel"] tr[data-tool]', (rows) => rows.map((r) => r.dataset.tool));
  assert.deepEqual(tools, ["customer.get", "charge.history", "mcp.acme.search_orders"]);
  assert.match(await page.textContent('[data-testid="step-panel"] tr[data-tool="mcp.acme.search_orders"]'), /MCP · server acme/);
  assert.match(await page.textContent('[data-testid="step-panel"] tr[data-tool="customer.get"]'), /built-in/);

  // A registry-only tool and a gate.
  await loadExample(page, "refund-triage.broken.yaml");
  await page.click('[data-step-id="look"]');
  await page.waitForSelector('[data-testid="step-panel"][data-step="look"]');
  assert.equal(await page.getAttribute('[data-testid="step-panel"] tr[data-tool="mcp.orders.lookup"]', "data-resolution"), "registry-only");
  assert.match(await page.textContent('[data-testid="step-panel"] tr[data-tool="mcp.orders.lookup"]'), /MCP server orders not declared/);
});

test("keyboard: Tab reaches a step, Enter selects it, Escape clears; zoom, pan and fit", async () => {
  await openTab(page, "graph");
  await page.waitForSelector("[data-step-id]");
  await page.focus('[data-testid="graph"]');
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.stepId), "recover");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.stepId), "gate");
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-testid="step-panel"][data-step="gate"]');
  assert.match(await page.textContent('[data-testid="step-panel"]'), /Gate: a person decides/);
  await page.keyboard.press("Escape");
  await page.waitForSelector('[data-testid="step-panel"]', { state: "detached" });

  const viewBox = () => page.getAttribute('[data-testid="graph"] svg.graph', "viewBox").then((v) => v.split(" ").map(Number));
  const level = () => page.textContent('[data-testid="zoom-level"]').then((t) => parseFloat(t));
  const before = await level();
  await page.click('[data-testid="zoom-in"]');
  assert.ok((await level()) > before, "zoomed in");
  await page.click('[data-testid="zoom-out"]');
  await page.click('[data-testid="zoom-out"]');
  assert.ok((await level()) < before, "zoomed out");
  const canvas = await page.locator('[data-testid="graph"]').boundingBox();
  const [x0, y0] = await viewBox();
  await page.mouse.move(canvas.x + 40, canvas.y + 40);
  await page.mouse.down();
  await page.mouse.move(canvas.x + 140, canvas.y + 100, { steps: 5 });
  await page.mouse.up();
  const [x1, y1] = await viewBox();
  assert.ok(x1 < x0 && y1 < y0, `dragging right and down moves the view: ${[x0, y0]} → ${[x1, y1]}`);
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  const zoomBefore = await level();
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((z) => parseFloat(document.querySelector('[data-testid="zoom-level"]').textContent) > z, zoomBefore);
  await page.click('[data-testid="fit"]');
  // Fitted, every node is inside the canvas.
  const inside = await boxes("[data-step-id], .terminal");
  for (const b of inside) {
    assert.ok(b.x >= canvas.x - 1 && b.y >= canvas.y - 1 && b.x + b.w <= canvas.x + canvas.width + 1 && b.y + b.h <= canvas.y + canvas.height + 1, `${b.id} is in view`);
  }
});

test("the tools table: riskiest first, a legend, links to the steps", async () => {
  await openTab(page, "tools");
  await page.waitForSelector('[data-testid="tools-table"]');
  const rows = await page.$$eval('[data-testid="tools-table"] tbody tr', (rs) => rs.map((r) => [r.dataset.tool, r.dataset.risk]));
  assert.deepEqual(rows, [
    ["email.send", "customer_comms"],
    ["today.surface", "internal"],
    ["customer.get", "read"],
    ["charge.history", "read"],
    ["mcp.acme.search_orders", "read"],
  ]);
  const legend = await page.$$eval('[data-testid="risk-legend"] li', (items) => items.map((i) => [i.dataset.risk, i.textContent]));
  assert.deepEqual(legend.map(([risk]) => risk), ["money", "customer_comms", "internal", "read"]);
  for (const [risk, text] of legend) assert.ok(text.length > 40, `${risk} is explained in a sentence: ${text}`);
  const send = await page.textContent('tr[data-tool="email.send"]');
  for (const part of [/connector/, /resend/, /changes data/, /a person approves each call/, /workspace scope/, /send/]) assert.match(send, part);
  assert.match(await page.textContent('tr[data-tool="mcp.acme.search_orders"]'), /MCP\s*server acme/);
  await screenshot(page, "viewer-04-tools");

  // A row selects its tool's definition in the editor; a step link opens the graph on that step.
  await page.click('tr[data-tool="today.surface"] .tool-name');
  await page.waitForFunction(() => document.querySelector('tr[data-tool="today.surface"]').classList.contains("selected"));
  await page.waitForFunction(() => /"name": "today\.surface"/.test([...document.querySelectorAll(".cm-opb-linked")].map((l) => l.textContent).join("\n")));
  await page.click('tr[data-tool="today.surface"] [data-step-link="record"]');
  await page.waitForSelector('[data-testid="step-panel"][data-step="record"]');
  assert.equal(await page.getAttribute('[data-testid="tab-graph"]', "aria-selected"), "true");
  assert.match(await page.getAttribute('[data-step-id="record"]', "class"), /selected/);
});

test("the requires view: what uses each declaration, and a missing connection flagged", async () => {
  await openTab(page, "requires");
  await page.waitForSelector('[data-testid="requires-panel"]');
  assert.equal(await page.locator('[data-testid="cross-check-ok"]').count(), 1, "the clean example declares what it needs");
  assert.match(await page.textContent('[data-testid="connections"] tr[data-provider="stripe"]'), /oauth[\s\S]*read_only[\s\S]*charge\.history[\s\S]*recover/);
  assert.match(await page.textContent('[data-testid="mcp-servers"] tr[data-server="acme"]'), /mcp\.acme\.search_orders[\s\S]*recover/);
  assert.match(await page.textContent('[data-testid="secrets"] tr[data-secret="ACME_MCP_TOKEN"]'), /auth for MCP server "acme"/);

  // The send step's email tool loses its connection.
  const base = readFileSync(join(examplesDir, "failed-charge-recovery.json"), "utf8");
  await pasteChecked(page, base.replace(/\{ "provider": "resend"[^}]*\}/, "").replace('"charge.history"] },\n', '"charge.history"] }\n'));
  await page.waitForSelector('[data-issue="missing-connection"][data-subject="resend"]');
  const issue = page.locator('[data-issue="missing-connection"][data-subject="resend"]');
  assert.equal(await issue.getAttribute("data-weight"), "missing");
  assert.match(await issue.textContent(), /No connection to resend, which email\.send needs\.\s*allowed by\s*send/);
  assert.match(await page.textContent('[data-testid="tab-requires"]'), /Requires\s*\d+/);
  await screenshot(page, "viewer-05-requires");

  await loadExample(page, "refund-triage.broken.yaml");
  const issues = await page.$$eval("[data-issue]", (is) => is.map((i) => `${i.dataset.issue}:${i.dataset.subject}`));
  for (const expected of ["missing-required-connection:linear", "missing-mcp-server:orders", "connection-not-required:slack", "unused-connection:slack"]) {
    assert.ok(issues.includes(expected), `${expected} in ${issues}`);
  }
  await screenshot(page, "viewer-06-requires-broken");
});

test("a manifest's tools: how each runs, where, approval, limits with defaults marked", async () => {
  await loadExample(page, "acme-github.oz0-plugin.yaml");
  await openTab(page, "manifest");
  await page.waitForSelector('[data-testid="manifest-tools"]');
  const rows = await page.$$eval('[data-testid="manifest-tools"] tbody tr', (rs) => rs.map((r) => r.dataset.tool));
  assert.deepEqual(rows, ["acme_github", "acme_fetch", "acme_search", "acme_scanner", "acme_triage"]);
  const row = (id) => page.textContent(`[data-testid="manifest-tools"] tr[data-tool="${id}"]`);
  assert.match(await row("acme_github"), /its own command[\s\S]*python -m acme_github\.server[\s\S]*always asks:\s*merge[\s\S]*48h[\s\S]*four eyes[\s\S]*timeout 35m/);
  assert.match(await row("acme_fetch"), /pypi package[\s\S]*mcp-server-fetch 2025\.4\.7[\s\S]*pinned/);
  assert.match(await row("acme_search"), /remote server[\s\S]*https:\/\/search\.example\.com\/mcp/);
  assert.match(await row("acme_scanner"), /oci package[\s\S]*isolation gvisor[\s\S]*1024 MiB, 2 cpu, 256 pids/);
  assert.match(await row("acme_triage"), /flow[\s\S]*triage[\s\S]*the plugin's pool/);
  const defaults = async (id) => page.$$eval(`[data-testid="manifest-tools"] tr[data-tool="${id}"] .is-default`, (vs) => vs.map((v) => v.textContent));
  assert.deepEqual(await defaults("acme_fetch"), ["node", "24h", "5m", "1024 MiB", "1 cpu", "256 pids"], "unset values are the seed's defaults, marked");
  assert.deepEqual(await defaults("acme_github"), ["node", "1 cpu"], "set values are not marked");
  assert.match(await page.textContent('[data-testid="manifest-flows"] tr[data-flow="triage"]'), /Label and route a new issue[\s\S]*acme_triage/);
  assert.match(await page.textContent('[data-testid="manifest-secrets"] tr[data-secret="SEARCH_TOKEN"]'), /required[\s\S]*acme_search header Authorization/);
  await screenshot(page, "viewer-07-manifest");

  await page.click('[data-testid="manifest-tools"] tr[data-tool="acme_github"]');
  const detail = page.locator('[data-testid="tool-panel"][data-tool="acme_github"]');
  await detail.waitFor();
  assert.match(await detail.textContent(), /Every call to acme_github\.merge waits for a person/);
  assert.match(await detail.textContent(), /Escalation\s*owner at 0\.5, admins at 90%/);
  await page.waitForFunction(() => /id: acme_github/.test([...document.querySelectorAll(".cm-opb-linked")].map((l) => l.textContent).join("\n")));
  await screenshot(page, "viewer-08-manifest-tool");
});

test("a diagnostic selects its step or tool in the view", async () => {
  await loadExample(page, "refund-triage.broken.yaml");
  await page.locator('li.diagnostic[data-code="PB213"] button.diagnostic-main').click();
  await openTab(page, "graph");
  await page.waitForSelector('[data-testid="step-panel"][data-step="decide"]');
  assert.match(await page.getAttribute('[data-step-id="decide"]', "class"), /selected/);
  assert.ok(await page.locator('[data-testid="step-panel"] .step-diagnostic[data-code="PB213"]').count() === 1, "the step lists its diagnostic");
  assert.match(await linkedText(), /id: decide/);

  await openTab(page, "diagnostics");
  await page.locator('li.diagnostic[data-code="PB306"] button.diagnostic-main').click();
  await openTab(page, "tools");
  await page.waitForFunction(() => document.querySelector('tr[data-tool="notes.read"]')?.classList.contains("selected"));
  await screenshot(page, "viewer-09-diagnostic-to-tool");
});

test("a selected node marks its text in the editor, and stays selected through edits", async () => {
  await openTab(page, "graph");
  await page.click('[data-step-id="send"]');
  await page.waitForFunction(() => document.querySelectorAll(".cm-opb-linked").length > 0);
  const linked = await linkedText();
  assert.match(linked, /"id": "send"/);
  assert.match(linked, /"allowedTools": \["email\.send"\]/);
  assert.doesNotMatch(linked, /"id": "record"/);
  const marked = await page.locator(".cm-opb-linked").first().boundingBox();
  const editor = await page.locator('[data-testid="editor"]').boundingBox();
  assert.ok(marked.y >= editor.y && marked.y < editor.y + editor.height, "scrolled into view");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.stepId), "send", "the focus stays in the graph");
  await screenshot(page, "viewer-10-node-to-editor");

  // An edit above the step: the layout is kept (no new nodes), the
  // selection and the mark follow the step.
  await page.evaluate(() => (document.querySelector('[data-step-id="send"]').__kept = true));
  const scrolled = await page.$eval(".cm-scroller", (s) => s.scrollTop);
  await page.click(".cm-content");
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
  await nextCheck(() => page.keyboard.type("\n  "));
  await nextCheck(() => page.keyboard.type('"x-note": "edited",'));
  assert.equal(await page.evaluate(() => document.querySelector('[data-step-id="send"]').__kept), true, "not redrawn when the graph's shape is unchanged");
  assert.equal(await page.getAttribute('[data-testid="step-panel"]', "data-step"), "send");
  // The editor draws only the lines in view: back to where the step was
  // (one line lower now) to read its mark.
  await page.$eval(".cm-scroller", (s, top) => (s.scrollTop = top + 20), scrolled);
  await page.waitForFunction(() => document.querySelectorAll(".cm-opb-linked").length > 0);
  assert.match(await linkedText(), /"id": "send"/);

  // Renamed away, the step is gone from the panel; renamed back, it returns.
  const source = readFileSync(join(examplesDir, "failed-charge-recovery.json"), "utf8");
  await pasteChecked(page, source.replaceAll('"send"', '"deliver"'));
  await page.waitForSelector('[data-step-id="deliver"]');
  assert.match(await page.textContent(".step-panel"), /The step send is no longer in the document/);
  assert.equal(await page.locator(".cm-opb-linked").count(), 0);
  await pasteChecked(page, source);
  await page.waitForSelector('[data-testid="step-panel"][data-step="send"]');
});

test("a 200-step playbook draws quickly and pans smoothly", async () => {
  await loadExample(page, "large-playbook-200-steps.json");
  const started = Date.now();
  await openTab(page, "graph");
  await page.waitForFunction(() => document.querySelectorAll("[data-step-id]").length === 200);
  const drawn = Date.now() - started;
  const frames = await page.evaluate(async () => {
    const canvas = document.querySelector('[data-testid="graph"]');
    const r = canvas.getBoundingClientRect();
    const times = [];
    let last = performance.now();
    for (let i = 0; i < 30; i++) {
      canvas.dispatchEvent(new WheelEvent("wheel", { deltaY: i % 2 ? 60 : -60, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, cancelable: true }));
      await new Promise((ok) => requestAnimationFrame(ok));
      const now = performance.now();
      times.push(now - last);
      last = now;
    }
    return times.sort((a, b) => a - b);
  });
  const median = frames[Math.floor(frames.length / 2)];
  console.log(`200 steps: graph tab drawn in ${drawn} ms; zoom frames median ${median.toFixed(1)} ms, worst ${frames.at(-1).toFixed(1)} ms`);
  assert.deepEqual(overlapping(await boxes("[data-step-id]")), []);
  await page.click('[data-testid="fit"]');
  await screenshot(page, "viewer-11-large");
});

test("the dark theme keeps the viewer readable", async () => {
  // The toggle goes auto → light → dark.
  while ((await page.getAttribute('[data-testid="theme-toggle"]', "data-theme-choice")) !== "dark") await page.click('[data-testid="theme-toggle"]');
  assert.equal(await page.getAttribute("html", "data-theme"), "dark");
  await openTab(page, "graph");
  await page.click('[data-step-id="send"]');
  await page.waitForSelector('[data-testid="step-panel"]');
  await screenshot(page, "viewer-12-dark-graph");
  assert.deepEqual(await violations(page, ["color-contrast"]), [], "the graph and the step panel, dark");
  const node = await page.$eval('[data-step-id="send"]', (g) => {
    const shape = g.querySelector("rect, path, polygon");
    const label = g.querySelector("text");
    return [getComputedStyle(shape).fill, getComputedStyle(label).fill];
  });
  assert.ok(contrast(...node) >= 4.5, `a node's label on its box: ${node.join(" on ")}`);
  await openTab(page, "tools");
  await screenshot(page, "viewer-13-dark-tools");
  assert.deepEqual(await violations(page, ["color-contrast"]), [], "the tools panel, dark");
});
