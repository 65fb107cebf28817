// The playground's browser benchmark, not a test: it prints
// figures and asserts nothing. Serves the release build (dist/, build it
// first with `trunk build --release --offline`) and drives it in headless
// Chromium with the end-to-end tests' harness:
//
// - load: from navigation start to the first check of the example shown
//   (the status bar's data-checks counter passing 0), over fresh pages;
// - typing: for each document (the example; generated playbooks of 200 and
//   1,000 steps; one of about 5 MB, in JSON and in YAML), with the Graph
//   tab open, types characters into the document's name and prints the
//   time from each keydown to the end of the browser task that applied its
//   check (diagnostics, graph and panels are updated in that task: the
//   app's reactive effects run in microtasks), median and p95; the median time
//   from the keydown to the moment the check's results were in the page
//   ("applied": the status bar's counter changing, seen by a
//   MutationObserver), which leaves out the wait for the next task when the
//   browser renders a frame first; and the longest main-thread block seen
//   while typing (PerformanceObserver, `longtask`).
//
//   cargo xtask bench browser [keys per document, default 30] [example|200|1000|5mb|5mb-yaml ...]
//
// Documents named after the keys count are the only ones typed into (all
// five by default); the load is measured either way.

import { serve, launch } from "../../tests/e2e/harness.mjs";
import { openForTyping, playbook, playbookYaml } from "./bench-documents.mjs";

const keys = Number(process.argv[2] ?? 30);
const chosen = process.argv.slice(3);
const loads = 7;

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

const ms = (value) => `${value.toFixed(1)} ms`;

// Records, in the page, keydown times, the end of each check's task and
// long tasks.
function instrument() {
  window.__bench = { input: 0, longTasks: [] };
  document.addEventListener("keydown", () => (window.__bench.input = performance.now()), true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
}

// Runs `action` and returns the times from the last keydown to the moment
// the next check's results were applied and to the end of that task.
async function nextUpdate(page, action) {
  const before = await page.evaluate(() => {
    const statusbar = document.querySelector(".statusbar");
    window.__bench.done = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        window.__bench.applied = performance.now();
        // A message arrives in a task of its own, after every microtask of
        // the task that applied the check.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      });
      observer.observe(statusbar, { attributes: true, attributeFilter: ["data-checks"] });
    });
    return Number(statusbar.dataset.checks);
  });
  await action();
  await page.waitForFunction((n) => Number(document.querySelector(".statusbar").dataset.checks) > n, before, { timeout: 120_000 });
  return page.evaluate(async () => {
    const done = await window.__bench.done;
    return { done: done - window.__bench.input, applied: window.__bench.applied - window.__bench.input };
  });
}

async function measureLoad(browser, url) {
  const times = [];
  for (let i = 0; i < loads; i++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0, null, { timeout: 60_000 });
    // performance.now() counts from navigation start.
    times.push(await page.evaluate(() => performance.now()));
    await page.close();
  }
  return times;
}

async function measureTyping(browser, url, name, text) {
  const errors = [];
  const page = await openForTyping(browser, url, text, instrument, errors);
  const since = await page.evaluate(() => performance.now());
  const times = [];
  const applied = [];
  for (let i = 0; i < keys; i++) {
    const key = "abcdefghijklmnopqrstuvwxyz"[i % 26];
    const update = await nextUpdate(page, () => page.keyboard.press(key));
    times.push(update.done);
    applied.push(update.applied);
  }
  const longest = await page.evaluate(
    (since) => Math.max(0, ...window.__bench.longTasks.filter((t) => t.start >= since).map((t) => t.duration)),
    since,
  );
  const status = await page.evaluate(() => ({
    checks: document.querySelector(".statusbar").dataset.checks,
    elapsed: document.querySelector('[data-testid="elapsed"]')?.textContent ?? "",
    nodes: document.querySelectorAll('[data-testid="graph"] .node').length,
  }));
  await page.close();
  return { name, times, applied, longest, status, errors };
}

const server = await serve();
const browser = await launch();
try {
  const load = stats(await measureLoad(browser, server.url));
  console.log(`load → first render of the example (${loads} fresh pages): median ${ms(load.median)}, max ${ms(load.max)}`);
  const documents = [
    ["example", "example (failed-charge-recovery.json)", null],
    ["200", "200 steps", playbook(20)],
    ["1000", "1,000 steps", playbook(100)],
    ["5mb", "~5 MB", playbook(200, 40)],
    ["5mb-yaml", "~5 MB, YAML", playbookYaml(200, 40)],
  ].filter(([key]) => chosen.length === 0 || chosen.includes(key));
  console.log(`\nkeydown → updated diagnostics and graph, ${keys} keys each (Graph tab open)`);
  console.log("document                               bytes     median      p95      max    applied   longest block   graph nodes");
  for (const [, name, text] of documents) {
    const bytes = text === null ? "" : String(Buffer.byteLength(text));
    const result = await measureTyping(browser, server.url, name, text);
    const s = stats(result.times);
    console.log(
      `${name.padEnd(36)} ${bytes.padStart(8)} ${ms(s.median).padStart(10)} ${ms(s.p95).padStart(8)} ${ms(s.max).padStart(8)} ${ms(stats(result.applied).median).padStart(10)} ${ms(result.longest).padStart(15)} ${String(result.status.nodes).padStart(13)}   (${result.status.elapsed})`,
    );
    for (const error of result.errors) console.log(`  page error: ${error}`);
  }
} finally {
  await browser.close();
  await server.close();
}
