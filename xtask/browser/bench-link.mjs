// A shared link as its reader meets it, a benchmark, not a test:
// it prints figures and asserts nothing. The release build (dist/; build it
// first with `trunk build --release --offline`) is served with the headers
// a host should send: each file's brotli (the build's FILE.br), hashed files
// `Cache-Control: public, max-age=31536000, immutable`, the page and the
// unhashed files `no-cache` with an ETag. Each run is a fresh headless
// Chromium context under Lighthouse's mobile profile as DevTools applies it
// (Slow 4G: 562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up; the CPU
// slowed 4×; harness.mjs's `phoneTab` says why those figures),
// opening a `#pako:` link of the example failed-charge-recovery.json twice,
// cold, then again in the same context (the second visit, from the cache),
// then choosing Edit; and, in a context of its own, the playground's own
// first visit (no link), cold. It measures, in the page, from navigation
// start:
//
// - banner: to the first frame with the trust banner (the reading view's,
//   for a link), and what had been transferred by then (compressed,
//   headers included; a file from the cache counts nothing);
// - graph: to the first frame with the reading view's graph, which the
//   whole view's build draws after the banner's;
// - edit: from choosing Edit to the editor's first check;
// - the plain visit: to the editor's first check, and what had been
//   transferred by then.
//
//   cargo xtask bench link [runs, default 5] [--fast]
//
// `--fast` measures without throttling, for comparison. The throttled CPU
// is the machine's slowed, so a busy machine measures slower: the figures
// are printed with the load average before and after the runs.

import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { launch, serve, dist, root, pako, phoneTab } from "../../tests/e2e/harness.mjs";

const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const fast = process.argv.includes("--fast");

const server = await serve(dist, { production: true, caching: true });
const link = server.url + pako({ code: readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8") });

// In the page: the time since navigation start and the bytes transferred,
// at the first frame showing `ready`: the trust banner (the reading view's,
// in its viewer's shadow root, or the playground's), the reading view's
// graph, or the editor's first check.
function when(tab, ready) {
  return tab
    .waitForFunction(
      (ready) => {
        const reading = document.querySelector("[data-opb-reading] opb-viewer:not([hidden])")?.shadowRoot;
        const shown =
          ready === "banner"
            ? (reading ?? document).querySelector('[data-testid="trust-banner"]')
            : ready === "graph"
              ? reading?.querySelector("svg.graph")
              : Number(document.querySelector(".statusbar")?.dataset.checks) > 0;
        if (!shown) return false;
        const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
        return { at: performance.now(), bytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0) };
      },
      ready,
      { timeout: 120_000, polling: "raf" },
    )
    .then((handle) => handle.jsonValue());
}

// From a blank page: the same address again would only move to the
// fragment, in the same document.
async function visit(tab, address, ready) {
  await tab.goto("about:blank");
  await tab.goto(address, { waitUntil: "commit" });
  return when(tab, ready);
}

const loadBefore = loadavg()[0];
const browser = await launch();
const cold = [];
const drawn = [];
const warm = [];
const edit = [];
const plain = [];
for (let run = 0; run < runs; run++) {
  const { context, tab } = await phoneTab(browser, { fast });
  cold.push(await visit(tab, link, "banner"));
  drawn.push(await when(tab, "graph"));
  warm.push(await visit(tab, link, "banner"));
  await when(tab, "graph");
  const chosen = await tab.evaluate(() => performance.now());
  await tab.click('[data-testid="edit"]');
  const edited = await when(tab, "checked");
  edit.push({ at: edited.at - chosen, bytes: edited.bytes });
  await context.close();
  const fresh = await phoneTab(browser, { fast });
  plain.push(await visit(fresh.tab, server.url, "checked"));
  await fresh.context.close();
}
await browser.close();
await server.close();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`${fast ? "unthrottled" : "Slow 4G as DevTools applies it (562.5 ms, 1.44 Mbit/s), 4x CPU slowdown"}, ${runs} runs, medians (each run's in brackets):`);
console.log(`  the machine's load average (1 min): ${loadBefore.toFixed(2)} before the runs, ${loadavg()[0].toFixed(2)} after`);
for (const [name, what, results] of [
  ["a #pako: link of failed-charge-recovery.json, first visit (cold cache)", "trust banner", cold],
  ["the same visit", "graph", drawn],
  ["the same link, second visit (cached)", "trust banner", warm],
  ["Edit on the second visit", "the editor's first check", edit],
  ["the playground without a link, first visit (cold cache)", "the editor's first check", plain],
]) {
  const seconds = results.map((r) => (r.at / 1000).toFixed(2));
  console.log(`  ${name}: ${what} after ${(median(results.map((r) => r.at)) / 1000).toFixed(2)} s (${seconds.join(", ")}), ${median(results.map((r) => r.bytes))} B transferred by then`);
}
