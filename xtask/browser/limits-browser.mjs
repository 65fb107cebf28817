// How fast the playground refuses a document past each input limit
// (docs/limits.md), in the page: not a test. Serves dist/ (OPB_DIST for
// another build), pastes each document three times into the editor of
// headless Chromium and prints the status bar's "Checked in" (the core's
// analysis in the wasm) and whether IN006 was reported.
//
//   cargo xtask bench limits

import { afterCheck, openPlayground, serve, launch, pasteOver } from "../../tests/e2e/harness.mjs";
const steps = (n) => 'openplaybook: "1.6"\nsteps:\n' + Array.from({ length: n }, (_, i) => `  - {id: s${i}, kind: agent, allowedTools: []}\n`).join("");
const tools = (head, tool, n) => head + "tools:\n" + Array.from({ length: n }, (_, i) => tool.replaceAll("{i}", i)).join("");
const laughs = () => { let t = 'a0: &a0 "lol"\n'; for (let l = 1; l <= 9; l++) t += `a${l}: &a${l} [${Array(10).fill(`*a${l-1}`).join(", ")}]\n`; return t + "steps: *a9\n"; };
const docs = [
  ["10,001 steps (YAML)", steps(10001)],
  ["5,001 tools (playbook)", tools('openplaybook: "1.6"\nsteps: []\n', "  - {name: t{i}, source: primitive, riskClass: read}\n", 5001)],
  ["5,001 tools (manifest)", tools("name: many\n", "  - {id: t{i}, command: [run]}\n", 5001)],
  ["200,001 values (JSON)", `{"steps": [], "numbers": [${"0,".repeat(199997)}0]}`],
  ["billion laughs", laughs()],
  ["nested 129 (JSON)", `{"steps": ${"[".repeat(128)}${"]".repeat(128)}}`],
  ["one line over 4 MiB", JSON.stringify({ openplaybook: "1.6", steps: [], description: "x".repeat(4 * 1024 * 1024 + 10) })],
];
const server = await serve(); const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await openPlayground(page, server.url);
  for (const [name, text] of docs) {
    for (let run = 0; run < 3; run++) {
      await afterCheck(page, () => pasteOver(page, text), 60_000);
      const elapsed = await page.textContent('[data-testid="elapsed"]');
      const refused = await page.evaluate(() => document.querySelector(".side-pane").textContent.includes("IN006"));
      console.log(`${name.padEnd(26)} ${String(text.length).padStart(9)}  ${elapsed}  ${refused ? "IN006" : "no IN006"}`);
      await afterCheck(page, () => pasteOver(page, "steps: []\n"));
    }
  }
} finally { await browser.close(); await server.close(); }
