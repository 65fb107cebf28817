// Where the playground's time goes while someone types: not a
// test. Opens a document as the browser benchmark does
// (bench-documents.mjs), records Chromium's CPU profile (the DevTools
// Protocol's sampling profiler) over a run of keys, and prints the functions
// with the most time, on their own ("self") and with what they call
// ("total"), as shares of the recorded time.
//
//   cargo xtask bench profile [example|200|1000|5mb|5mb-yaml] [keys, default 20] [rows, default 40]
//
// Serves dist/ (OPB_DIST for another build directory). A release build has
// no function names in its wasm; for named wasm frames, build with names
// kept: `trunk build --release --offline --dist /tmp/opb-profile
// profile.html` where profile.html is index.html with `-g` added to
// data-wasm-opt-params (wasm-opt then keeps the name section), and run with
// OPB_DIST=/tmp/opb-profile.

import { afterCheck, serve, launch } from "../../tests/e2e/harness.mjs";
import { openForTyping, playbook, playbookYaml } from "./bench-documents.mjs";

const documents = { example: null, 200: playbook(20), 1000: playbook(100), "5mb": playbook(200, 40), "5mb-yaml": playbookYaml(200, 40) };
const which = process.argv[2] ?? "example";
const keys = Number(process.argv[3] ?? 20);
const rows = Number(process.argv[4] ?? 40);
if (!(which in documents)) {
  console.error(`usage: profile-browser.mjs [${Object.keys(documents).join("|")}] [keys] [rows]`);
  process.exit(2);
}

// Self and total sampled time per function (name and file), in ms.
function summarize(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node) => {
    const { functionName, url } = node.callFrame;
    const file = url ? url.slice(url.lastIndexOf("/") + 1).replace(/-[0-9a-f]{16}/, "") : "";
    return `${functionName || "(anonymous)"}${file ? `  [${file}]` : ""}`;
  };
  const self = new Map();
  const total = new Map();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    all += ms;
    const node = nodes.get(id);
    self.set(label(node), (self.get(label(node)) ?? 0) + ms);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = label(nodes.get(at));
      if (!seen.has(name)) {
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + ms);
      }
    }
  });
  return { self, total, all };
}

function print(title, times, all) {
  console.log(`\n${title}`);
  const top = [...times].sort((a, b) => b[1] - a[1]).slice(0, rows);
  for (const [name, ms] of top) console.log(`${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / all).toFixed(1).padStart(5)} %  ${name}`);
}

const server = await serve();
const browser = await launch();
try {
  const errors = [];
  const page = await openForTyping(browser, server.url, documents[which], () => {}, errors);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  for (let i = 0; i < keys; i++) {
    await afterCheck(page, () => page.keyboard.press("abcdefghijklmnopqrstuvwxyz"[i % 26]), 120_000);
  }
  const { profile } = await cdp.send("Profiler.stop");
  const { self, total, all } = summarize(profile);
  const idle = (self.get("(idle)") ?? 0) + (self.get("(program)") ?? 0);
  console.log(`${which}: ${keys} keys, ${all.toFixed(0)} ms recorded, of which idle or unattributed ${idle.toFixed(0)} ms`);
  print("self time", self, all);
  print("total time (with callees)", total, all);
  for (const error of errors) console.log(`page error: ${error}`);
} finally {
  await browser.close();
  await server.close();
}
