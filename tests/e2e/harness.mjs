// Shared by the end-to-end tests: serves the release build (dist/), or
// another folder, on a free localhost port with node's http module, and
// starts Debian's Chromium through playwright-core with the flags it needs
// here: headless, no sandbox (the tests run as root), no GPU, and nothing
// fetched or synced in the background.

import { before, after, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { deflateSync, gzipSync } from "node:zlib";
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { readFile, mkdir } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { basename, extname, join, normalize, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// OPB_DIST: another build directory than dist/ (trunk build --dist DIR).
export const dist = process.env.OPB_DIST ? resolve(process.env.OPB_DIST) : join(root, "dist");
export const screenshots = join(root, "tests/e2e/screenshots");

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".woff2": "font/woff2",
  ".svg": "image/svg+xml",
};

// The headers that keep other sites from framing a file: every page of the
// playground refuses it (a <meta> Content-Security-Policy cannot say
// frame-ancestors; X-Frame-Options for browsers without CSP 2), but the
// embed page, which exists to be framed (docs/embedding.md, "Hosting the
// playground").
export function framingHeaders(file) {
  if (basename(file) === "embed.html") return {};
  return { "content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY" };
}

// The embed page's address for a frame that asks for the playground's own
// form of an embed address (`/?embed=1…`, which older embed codes frame):
// the page that would send it on is refused in a frame before its script
// runs, so the server sends it on. A top-level visit is left to js/boot.js.
function framedEmbed(request, url) {
  const framed = request.headers["sec-fetch-dest"] === "iframe";
  if (!framed || !url.searchParams.has("embed") || !["/", "/index.html"].includes(url.pathname)) return null;
  url.searchParams.delete("embed");
  return `embed.html${url.search}`;
}

// Serves `from` (the release build by default) on `port` (any free one
// unless given) with the framing headers above; a folder's index.html
// answers for the folder. With `production`, as a production server would
// for another origin's pages: compressed (the build's precompressed FILE.br
// to clients that accept brotli, else FILE.gz or `gzip -9`), allowed
// to any origin, never cached (cargo xtask bench viewer); with `caching`
// too, cached as a host should (docs/embedding.md): a file whose name holds
// the build's hash for a year and immutable, the others revalidated by
// their ETag at every use (cargo xtask bench link).
export async function serve(from = dist, { production = false, caching = false, port = 0 } = {}) {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, "http://localhost");
    const embed = framedEmbed(request, url);
    if (embed) {
      response.writeHead(302, { location: embed }).end();
      return;
    }
    const path = normalize(decodeURIComponent(url.pathname));
    const file = join(from, path.endsWith("/") ? join(path, "index.html") : path);
    if (!file.startsWith(from)) {
      response.writeHead(403).end();
      return;
    }
    let body;
    try {
      body = await readFile(file);
    } catch {
      response.writeHead(404).end("not found");
      return;
    }
    const headers = { "content-type": types[extname(file)] ?? "application/octet-stream", ...framingHeaders(file) };
    if (production) {
      Object.assign(headers, { "access-control-allow-origin": "*", "cache-control": "no-store" });
      if (caching) {
        const hashed = /-[0-9a-f]{12,16}(_bg)?\.(js|wasm|css)$/.test(file);
        const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"`;
        Object.assign(headers, { "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache", etag });
        if (request.headers["if-none-match"] === etag) {
          response.writeHead(304, headers).end();
          return;
        }
      }
      // The build's own brotli or gzip beside the file when it wrote one (as
      // nginx's brotli_static and gzip_static send them), brotli first, as
      // a host prefers it; else `gzip -9`'s.
      const accepted = request.headers["accept-encoding"] ?? "";
      headers.vary = "accept-encoding";
      const brotli = /\bbr\b/.test(accepted) ? await readFile(`${file}.br`).catch(() => null) : null;
      if (brotli) {
        body = brotli;
        headers["content-encoding"] = "br";
      } else if (/\bgzip\b/.test(accepted)) {
        body = await readFile(`${file}.gz`).catch(() => gzipSync(body, { level: 9 }));
        headers["content-encoding"] = "gzip";
      }
    }
    response.writeHead(200, headers).end(body);
  });
  await new Promise((ok, fail) => server.once("error", fail).listen(port, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

// OPB_CPU_SLOWDOWN=N: every page's CPU slowed N times by DevTools'
// throttling (4 is Lighthouse's phone), so the same tests run as on a slow
// phone or a loaded machine (cargo xtask e2e-under-load). A test that
// bounds how long the page may stop answering scales its bound by it.
export const cpuSlowdown = Number(process.env.OPB_CPU_SLOWDOWN ?? 1);

// playwright-core gives every launch a fresh profile directory of its own
// (a fresh --user-data-dir, so no test sees another's storage).
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  if (cpuSlowdown > 1) throttleEveryPage(browser, cpuSlowdown);
  return browser;
}

// Slows every page of every context `browser` makes (browser.newPage
// makes its context with newContext too): a page is returned by newPage
// once throttled, and a page the site opens is throttled as it appears.
function throttleEveryPage(browser, rate) {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    const throttled = new WeakMap();
    const throttle = (page) => {
      if (!throttled.has(page)) {
        throttled.set(page, context.newCDPSession(page).then((cdp) => cdp.send("Emulation.setCPUThrottlingRate", { rate })));
      }
      return throttled.get(page);
    };
    context.on("page", throttle);
    const newPage = context.newPage.bind(context);
    context.newPage = async () => {
      const page = await newPage();
      await throttle(page);
      return page;
    };
    return context;
  };
}

export async function screenshot(page, name) {
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

// A tab as a phone opens it, for the benchmarks (xtask/browser/bench-*.mjs): a
// fresh context the size of a Moto G Power, its DevTools session with the
// network on, and unless `fast`, Lighthouse's mobile profile, "Slow 4G"
// with the CPU slowed 4×. Lighthouse's figures (150 ms, 1.6 Mbit/s down,
// 750 kbit/s up) are for its simulation, which models connections and round
// trips; DevTools throttling delays each request instead, so Lighthouse
// scales them for it, as done here: the round trip × 3.75 (562.5 ms), each
// throughput × 0.9 (1.44 Mbit/s down, 675 kbit/s up).
export async function phoneTab(browser, { fast = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send("Network.enable");
  if (!fast) {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150 * 3.75, downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8, uploadThroughput: (750 * 1024 * 0.9) / 8 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  }
  return { context, tab, cdp };
}

// A docs site on another origin, for the embedding tests: requests to the
// address the example pages in docs/ name for the playground
// (http://127.0.0.1:8080/, what scripts/run.sh serves) are answered from
// dist/ with CORS headers (the <opb-viewer> module is loaded cross-origin),
// and http://docs.example/ serves docs/. Every other request is refused
// and recorded in the returned list.
export const docsSite = "http://docs.example/";
export const examplePlayground = "http://127.0.0.1:8080/";

export async function routeSites(page) {
  const refused = [];
  await page.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    const site = url.href.startsWith(examplePlayground) ? dist : url.href.startsWith(docsSite) ? join(root, "docs") : null;
    if (site === null) {
      refused.push(url.href);
      return route.abort();
    }
    const file = join(site, url.pathname === "/" ? "index.html" : normalize(decodeURIComponent(url.pathname)));
    if (!file.startsWith(site)) return route.fulfill({ status: 403 });
    try {
      const body = await readFile(file);
      return route.fulfill({
        status: 200,
        body,
        headers: {
          "content-type": types[extname(file)] ?? "application/octet-stream",
          "access-control-allow-origin": "*",
          ...(site === dist ? framingHeaders(file) : {}),
        },
      });
    } catch {
      return route.fulfill({ status: 404, body: "not found" });
    }
  });
  return refused;
}

// The build's server and Chromium, started before a test file's tests and
// closed after them: `opb.server` and `opb.browser` meanwhile.
export function session() {
  const opb = {};
  before(async () => {
    opb.server = await serve();
    opb.browser = await launch();
  });
  after(async () => {
    await opb.browser?.close();
    await opb.server?.close();
  });
  return opb;
}

// Keeps what goes wrong in the page (uncaught errors, console errors) in
// `page.errors`, for the tests to assert there is none.
export function collectErrors(page) {
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") page.errors.push(message.text());
  });
  return page;
}

// Asserts the page (made by `collectErrors`) showed no panic notice and
// reported no error.
export async function assertClean(page) {
  assert.equal(await page.locator("#panic-banner").count(), 0, "no panic banner");
  assert.deepEqual(page.errors, [], "no errors in the page");
}

// As `assertClean`, then closes the page's browser context.
export async function closeClean(page) {
  await assertClean(page);
  await page.context().close();
}

// Runs `action` and waits until the check it causes has finished (the
// status bar counts checks in data-checks).
export async function afterCheck(page, action, timeout = 30_000) {
  const before = await page.evaluate(() => Number(document.querySelector(".statusbar").dataset.checks));
  await action();
  await page.waitForFunction((n) => Number(document.querySelector(".statusbar").dataset.checks) > n, before, { timeout });
}

// Opens the playground at `url` and waits for its first check. A shared
// link opens the reading view first (js/route.js): its reader chooses Edit,
// as a person continuing in the editor would.
export async function openPlayground(page, url) {
  await page.goto(url);
  if ((await page.evaluate(() => document.documentElement.dataset.opbPage)) === "reading") await editFromReading(page);
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  return page;
}

// Chooses Edit in the reading view once it shows its document (a link it
// cannot read opens the playground by itself), first moving to `tab` when
// given (the playground continues on the tab the reading view shows), and
// waits for the playground to have replaced it.
export async function editFromReading(page, { tab } = {}) {
  const state = await page.waitForFunction(() => {
    const reading = document.querySelector("div[data-opb-reading]");
    if (!reading || reading.querySelector('[data-testid="edit"][aria-disabled="true"]')) return "editing";
    return reading.querySelector("opb-viewer:not([hidden])") ? "shown" : false;
  });
  if ((await state.jsonValue()) === "shown") {
    if (tab) await page.click(`[data-opb-reading] opb-viewer [role="tab"][data-tab="${tab}"]`);
    await page.click('[data-testid="edit"]');
  }
  await page.waitForSelector("[data-opb-reading]", { state: "detached" });
}

// For test files whose every test starts on a fresh playground (1440 × 900)
// that has checked its example: `use` receives that page, in a browser
// context of its own (no drafts of an earlier test), before each test;
// after each, there must be no panic banner and no error in the page.
export function playgroundForEachTest(opb, use) {
  let page;
  beforeEach(async () => {
    const context = await opb.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = collectErrors(await context.newPage());
    await openPlayground(page, opb.server.url);
    use(page);
  });
  afterEach(() => closeClean(page));
}

// The `#pako:` share-link fragment of `share` ({code, kind?, view?}), as the
// playground writes it.
export function pako(share) {
  return "#pako:" + deflateSync(Buffer.from(JSON.stringify(share), "utf8"), { level: 9 }).toString("base64url");
}

// Selects everything in one of the playground's editors (by its test id:
// the main "editor" unless told) and pastes `text` over it, as a person
// pressing Ctrl+A then Ctrl+V would (the check follows).
export async function pasteOver(page, text, editor = "editor") {
  const content = `[data-testid="${editor}"] .cm-content`;
  await page.click(content);
  await page.keyboard.press("Control+A");
  await page.evaluate(
    ([content, text]) => {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      document.querySelector(content).dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [content, text],
  );
}

// The whole text of the playground's editor (the page draws only the lines
// in view); with `checked`, once the first check has run.
export async function editorText(page, { checked = false } = {}) {
  if (checked) await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  return page.evaluate(() => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]')));
}

// Pastes `text` over the editor's (pasteOver) and waits for its check.
export async function pasteChecked(page, text) {
  await afterCheck(page, () => pasteOver(page, text));
}

// Chooses an example from the header's list and waits for its check.
export async function loadExample(page, name) {
  await afterCheck(page, () => page.selectOption('[data-testid="examples"]', name));
}

// Opens a panel's tab and waits until it is the selected one.
export async function openTab(page, name) {
  await page.click(`[data-testid="tab-${name}"]`);
  await page.waitForSelector(`[data-testid="tab-${name}"][aria-selected="true"]`);
}

// The drafts the playground keeps in IndexedDB (crates/app/src/ui/storage/drafts.rs),
// each description with its text, newest first; none before the page made
// the database (opening it here would make it without its stores).
export async function storedDrafts(page) {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === "opb")) return [];
    const db = await new Promise((ok, fail) => {
      const open = indexedDB.open("opb");
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    const all = (store) => {
      const tx = db.transaction(store);
      const keys = tx.objectStore(store).getAllKeys();
      const values = tx.objectStore(store).getAll();
      return new Promise((ok) => (tx.oncomplete = () => ok(new Map(keys.result.map((key, i) => [key, values.result[i]])))));
    };
    const [metas, texts] = [await all("drafts"), await all("texts")];
    db.close();
    return [...metas.entries()].map(([id, json]) => ({ ...JSON.parse(json), text: texts.get(id) })).sort((a, b) => b.updated - a.updated);
  });
}

// Waits until the kept drafts pass `test`, and returns what it returned.
export async function waitForDrafts(page, test, timeout = 10_000) {
  const until = Date.now() + timeout;
  for (;;) {
    const drafts = await storedDrafts(page);
    const passed = test(drafts);
    if (passed) return passed;
    if (Date.now() > until) assert.fail(`the drafts never passed the test; kept: ${JSON.stringify(drafts.map((d) => d.name))}`);
    await page.waitForTimeout(50);
  }
}

// Waits until a kept draft holds `text`, or is one `text` accepts when it
// is a function (saves follow a pause in typing), and returns it.
export function draftSaved(page, text, timeout) {
  const wanted = typeof text === "function" ? text : (draft) => draft.text === text;
  return waitForDrafts(page, (drafts) => drafts.find(wanted), timeout);
}
const axeSource = readFileSync(join(root, "node_modules/axe-core/axe.min.js"), "utf8");

// The serious and critical violations axe-core finds in the page (only the
// `rules` named, when given, whatever their impact), one line each.
export async function violations(page, rules) {
  await page.evaluate(axeSource);
  const options = rules ? { runOnly: { type: "rule", values: rules }, resultTypes: ["violations"] } : { resultTypes: ["violations"] };
  const found = await page.evaluate(async (options) => (await window.axe.run(document, options)).violations, options);
  return found
    .filter((v) => rules || v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}${rules ? "" : ` (${v.impact})`}: ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

// WCAG's relative luminance of a computed colour (`rgb(…)` or `rgba(…)`).
export function luminance(colour) {
  const [r, g, b] = colour.match(/[\d.]+/g).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// WCAG's contrast ratio of two computed colours.
export function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}
