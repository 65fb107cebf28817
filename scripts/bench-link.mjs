// A shared link as its reader meets it (issue 24), a benchmark, not a test:
// it prints figures and asserts nothing. The release build (dist/; build it
// first with `trunk build --release --offline`) is served gzipped with the
// headers a host should send: hashed files `Cache-Control: public,
// max-age=31536000, immutable`, the page and its loader `no-cache`. Each run
// is a fresh headless Chromium context under Lighthouse's mobile profile,
// "Slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) with the
// CPU slowed 4×, opening a `#pako:` link of the example
// failed-charge-recovery.json, twice: cold, then again in the same context
// (the second visit, from the cache). For each visit it measures, in the
// page:
//
// - banner: from navigation start to the first frame with the trust banner;
// - bytes: what had been transferred by then (compressed, headers
//   included; a file from the cache counts nothing).
//
//   node scripts/bench-link.mjs [runs, default 5] [--fast]
//
// `--fast` measures without throttling, for comparison.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, serve, dist, root, pako, phoneTab } from "../tests/e2e/harness.mjs";

const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const fast = process.argv.includes("--fast");

const server = await serve(dist, { production: true, caching: true });
const link = server.url + pako({ code: readFileSync(join(root, "examples/failed-charge-recovery.json"), "utf8") });

// Time and bytes at the first frame the banner is on screen.
async function visit(tab) {
  // From a blank page: the same address again would only move to the
  // fragment, in the same document.
  await tab.goto("about:blank");
  await tab.goto(link, { waitUntil: "commit" });
  const handle = await tab.waitForFunction(
    () => {
      if (!document.querySelector('[data-testid="trust-banner"]')) return false;
      const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
      return { banner: performance.now(), bytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0) };
    },
    null,
    { timeout: 120_000, polling: "raf" },
  );
  return handle.jsonValue();
}

const browser = await launch();
const cold = [];
const warm = [];
for (let run = 0; run < runs; run++) {
  const { context, tab } = await phoneTab(browser, { fast });
  cold.push(await visit(tab));
  warm.push(await visit(tab));
  await context.close();
}
await browser.close();
await server.close();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`${fast ? "unthrottled" : "Slow 4G, 4x CPU slowdown"}, ${runs} runs of a #pako: link of failed-charge-recovery.json in the playground:`);
for (const [name, results] of [["first visit (cold cache)", cold], ["second visit (cached)", warm]]) {
  const seconds = results.map((r) => (r.banner / 1000).toFixed(2));
  console.log(`  ${name}: trust banner after a median ${(median(results.map((r) => r.banner)) / 1000).toFixed(2)} s (${seconds.join(", ")}), ${median(results.map((r) => r.bytes))} B transferred by then`);
}
