// scripts/run.sh --check: waits until the server at URL (process SERVER_PID)
// serves the built playground, checks that it answers with the framing
// headers docs/embedding.md asks a host for (the playground refuses to be
// framed, the embed page does not), opens it in headless Chromium as a
// person would, and exits 0 once the example (failed-charge-recovery.json)
// is checked with no problem (the Diagnostics tab counts 0) and opens on
// its graph, with nothing at all said in the
// console: no error, no warning, no refused request, no
// Content-Security-Policy violation. Exits 1, saying what it saw, otherwise.
//
//   node xtask/browser/check-served.mjs URL SERVER_PID
import { launch, screenshot } from "../../tests/e2e/harness.mjs";

const [url, serverPid] = process.argv.slice(2);
if (!url || !serverPid) {
  console.error("usage: node xtask/browser/check-served.mjs URL SERVER_PID");
  process.exit(2);
}

const fail = (message) => {
  console.error(`run.sh --check: FAILED: ${message}`);
  process.exit(1);
};

const alive = (pid) => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
};

// run.sh starts the server once the build is done: it listens within
// seconds.
const deadline = Date.now() + 60_000;
const served = async () => {
  try {
    const response = await fetch(url);
    // The built page is the one that names the wasm's loader.
    return response.ok && (await response.text()).includes("data-opb-boot");
  } catch {
    return false;
  }
};
while (!(await served())) {
  if (!alive(serverPid)) fail(`the server stopped before serving ${url} (its output is above)`);
  if (Date.now() > deadline) fail(`${url} served no built page within a minute`);
  await new Promise((ok) => setTimeout(ok, 1000));
}

const said = [];
for (const [page, framable] of [["", false], ["embed.html", true]]) {
  const headers = (await fetch(new URL(page, url))).headers;
  const refuses = headers.get("content-security-policy") === "frame-ancestors 'none'" && headers.get("x-frame-options") === "DENY";
  const saysNothing = !headers.has("content-security-policy") && !headers.has("x-frame-options");
  if (framable ? !saysNothing : !refuses) {
    said.push(`${page || "the playground"} ${framable ? "must not refuse" : "must refuse"} to be framed: Content-Security-Policy ${headers.get("content-security-policy")}, X-Frame-Options ${headers.get("x-frame-options")}`);
  }
}
let seen;
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on("console", (message) => said.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => said.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => said.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on("response", (response) => {
    if (response.status() >= 400) said.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  // A CSP violation reaches the console too, but say it by name.
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "an inline script"}`),
    ),
  );

  const started = performance.now();
  await page.goto(url);
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0, null, {
    timeout: 60_000,
  });
  const checked = performance.now() - started;
  const status = await page.textContent('[data-testid="elapsed"]');
  const problems = await page.textContent('[data-testid="tab-diagnostics"] .tab-count');
  // A document with no error opens on its graph.
  const graph = await page.waitForSelector('[data-testid="tab-graph"][aria-selected="true"]', { timeout: 5_000 }).then(() => page.locator('[data-testid="graph"] g.node[data-step-id]').count(), () => 0);
  const name = await page.textContent('[data-testid="document-name"]');
  // Whatever the page logs a moment after its first check counts too.
  await page.waitForTimeout(500);
  await screenshot(page, "run-check");

  if (problems !== "0") said.push(`the example shows ${problems} problems, not 0 (status: ${status})`);
  if (graph === 0) said.push("the example does not open on its graph");
  if (name !== "failed-charge-recovery.json") said.push(`the page opened ${name}, not the example`);
  seen = `checked ${name} ${checked.toFixed(0)} ms after navigation (${status})`;
} finally {
  await browser.close();
}
if (said.length > 0) fail(`\n  ${said.join("\n  ")}`);
console.error(`run.sh --check: ${url} ${seen}, console empty; screenshot tests/e2e/screenshots/run-check.png`);
