// The docs-site viewer's cold-load benchmark (issue 21), not a test: it
// prints figures and asserts nothing. A docs page at one origin shows one
// <opb-viewer src=…> whose script, wasm and stylesheet come from the
// release build (dist/; build it first with `trunk build --release
// --offline`) at another, both served gzipped as a production server
// would. Each run is a fresh headless Chromium context under Lighthouse's
// mobile profile, "Slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
// up) with the CPU slowed 4×, and measures:
//
// - bytes: what the page transferred in all (compressed, headers included),
//   and the element's files among them;
// - graph: from navigation start to the element's graph being in its
//   shadow root (its SVG, drawn by the viewer's wasm).
//
//   node scripts/bench-viewer.mjs [runs, default 5] [--fast]
//
// `--fast` measures without throttling, for comparison.

import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";
import { launch, dist, root } from "../tests/e2e/harness.mjs";

const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const fast = process.argv.includes("--fast");

const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".yaml": "text/yaml" };

// Serves `from` gzipped (for clients that accept it), allowing any origin.
async function serveGzipped(from, pages = {}) {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://localhost").pathname));
    let body = pages[path];
    if (body === undefined) {
      const file = join(from, path);
      if (!file.startsWith(from)) return response.writeHead(403).end();
      body = await readFile(file).catch(() => null);
    }
    if (body === null) return response.writeHead(404).end("not found");
    const type = path in pages ? "text/html" : types[extname(path)];
    const headers = { "content-type": type ?? "application/octet-stream", "access-control-allow-origin": "*", "cache-control": "no-store" };
    if (/\bgzip\b/.test(request.headers["accept-encoding"] ?? "")) {
      body = gzipSync(body, { level: 9 });
      headers["content-encoding"] = "gzip";
    }
    response.writeHead(200, headers).end(body);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

const viewer = await serveGzipped(dist);
// The docs site: a page of its own, another origin (localhost, not 127.0.0.1).
const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Refund with approval</title>
<script type="module" src="${viewer.url.replace("127.0.0.1", "localhost")}opb-viewer.js"></script></head>
<body><h1>Refund with approval</h1><p>A person approves every refund before it is made.</p>
<opb-viewer src="/refund-with-approval.yaml"></opb-viewer></body></html>`;
const docs = await serveGzipped(join(root, "docs/examples"), { "/": Buffer.from(page) });
const docsUrl = docs.url;

const browser = await launch();
const results = [];
for (let run = 0; run < runs; run++) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (!fast) {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  }
  const transferred = new Map();
  cdp.on("Network.loadingFinished", (event) => transferred.set(event.requestId, event.encodedDataLength));
  const urls = new Map();
  cdp.on("Network.responseReceived", (event) => urls.set(event.requestId, event.response.url));
  await tab.goto(docsUrl);
  await tab.waitForFunction(() => document.querySelector("opb-viewer")?.shadowRoot?.querySelector("svg.graph"), null, { timeout: 120_000, polling: 50 });
  const graph = await tab.evaluate(() => performance.now());
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`${fast ? "unthrottled" : "Slow 4G, 4x CPU slowdown"}, ${runs} cold loads of a docs page with one <opb-viewer src>:`);
console.log(`  transferred: ${median(results.map((r) => r.total))} B in all, ${median(results.map((r) => r.element))} B of them the viewer's files`);
console.log(`  graph drawn: median ${(median(results.map((r) => r.graph)) / 1000).toFixed(2)} s after navigation (${results.map((r) => (r.graph / 1000).toFixed(2)).join(", ")})`);
