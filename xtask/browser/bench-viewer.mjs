// The docs-site viewer's cold-load benchmark, not a test: it
// prints figures and asserts nothing. A docs page at one origin shows one
// <opb-viewer src=…> whose script, wasm and stylesheet come from the
// release build (dist/; build it first with `trunk build --release
// --offline`) at another, both served compressed (the build's brotli) as a production server
// would. Each run is a fresh headless Chromium context under Lighthouse's
// mobile profile as DevTools applies it (Slow 4G: 562.5 ms round trip,
// 1.44 Mbit/s down, 675 kbit/s up; the CPU slowed 4×; harness.mjs's
// `phoneTab` says why those figures), and measures:
//
// - bytes: what the page transferred in all (compressed, headers included),
//   and the element's files among them;
// - graph: from navigation start to the first frame with the element's
//   graph in its shadow root (its SVG, drawn by the viewer's wasm).
//
//   cargo xtask bench viewer [runs, default 5] [--fast]
//
// `--fast` measures without throttling, for comparison.

import { mkdtempSync, copyFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, serve, dist, root, phoneTab } from "../../tests/e2e/harness.mjs";

const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const fast = process.argv.includes("--fast");

const viewer = await serve(dist, { production: true });
// The docs site: a page of its own and the document, at another origin
// (localhost, not 127.0.0.1).
const site = mkdtempSync(join(tmpdir(), "opb-bench-viewer-"));
writeFileSync(join(site, "index.html"), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Refund with approval</title>
<script type="module" src="${viewer.url.replace("127.0.0.1", "localhost")}opb-viewer.js"></script></head>
<body><h1>Refund with approval</h1><p>A person approves every refund before it is made.</p>
<opb-viewer src="/refund-with-approval.yaml"></opb-viewer></body></html>`);
copyFileSync(join(root, "docs/examples/refund-with-approval.yaml"), join(site, "refund-with-approval.yaml"));
const docs = await serve(site, { production: true });
const docsUrl = docs.url;

const browser = await launch();
const results = [];
for (let run = 0; run < runs; run++) {
  const { context, tab, cdp } = await phoneTab(browser, { fast });
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const transferred = new Map();
  cdp.on("Network.loadingFinished", (event) => transferred.set(event.requestId, event.encodedDataLength));
  const urls = new Map();
  cdp.on("Network.responseReceived", (event) => urls.set(event.requestId, event.response.url));
  await tab.goto(docsUrl);
  // Looked for at every frame, and timed in the page when found, so the
  // figure holds no round trip to the browser.
  const graph = await (
    await tab.waitForFunction(() => document.querySelector("opb-viewer")?.shadowRoot?.querySelector("svg.graph") && performance.now(), null, { timeout: 120_000, polling: "raf" })
  ).jsonValue();
  // The last responses' sizes arrive just after they are used.
  await tab.waitForTimeout(200);
  let total = 0;
  let element = 0;
  for (const [id, bytes] of transferred) {
    total += bytes;
    if (urls.get(id)?.startsWith(viewer.url.replace("127.0.0.1", "localhost"))) element += bytes;
  }
  results.push({ graph, total, element });
  await context.close();
}
await browser.close();
await viewer.close();
await docs.close();
rmSync(site, { recursive: true, force: true });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`${fast ? "unthrottled" : "Slow 4G as DevTools applies it (562.5 ms, 1.44 Mbit/s), 4x CPU slowdown"}, ${runs} cold loads of a docs page with one <opb-viewer src>:`);
console.log(`  transferred: ${median(results.map((r) => r.total))} B in all, ${median(results.map((r) => r.element))} B of them the viewer's files`);
console.log(`  graph drawn: median ${(median(results.map((r) => r.graph)) / 1000).toFixed(2)} s after navigation (${results.map((r) => (r.graph / 1000).toFixed(2)).join(", ")})`);
