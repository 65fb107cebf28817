// One small driver over two browser engines, so that a flow is written once
// and runs in each (tests/engines/flows.test.mjs):
//
//   firefox  Debian's firefox-esr, headless, driven over WebDriver BiDi by
//            puppeteer-core
//   webkit   WebKitGTK's MiniBrowser (Safari's engine), driven by Debian's
//            WebKitWebDriver over WebDriver's HTTP protocol (plain fetch); it
//            needs a display, so it runs in an Xvfb of its own
//
// Chromium is driven by tests/e2e (playwright-core). What a driver offers is
// only what both engines can do the same way: go to an address, run a
// function in the page, wait until one returns something, click an element
// (a selector, or `host >>> inner` inside a shadow root), press keys and type
// into the focused element, take a screenshot; and the page's errors where
// the engine's protocol reports them (Firefox's does, WebKitGTK's does not). Waiting is always on the
// page's own state, polled, never a sleep.

import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import puppeteer from "puppeteer-core";

export const FIREFOX = process.env.FIREFOX ?? "/usr/bin/firefox-esr";
export const MINIBROWSER = process.env.MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";

export const ENGINES = ["firefox", "webkit"];

// Starts `engine` with a viewport of `width` × `height` CSS pixels.
export async function start(engine, { width = 1400, height = 900 } = {}) {
  if (engine === "firefox") return startFirefox(width, height);
  if (engine === "webkit") return startWebKit(width, height);
  throw new Error(`no engine ${engine}`);
}

// Calls `check` until it returns something truthy, and returns that; fails
// after `timeout` ms with `what` and the last value seen.
async function poll(check, what, timeout) {
  const until = Date.now() + timeout;
  let last;
  for (;;) {
    last = await check();
    if (last) return last;
    if (Date.now() > until) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// What every driver shares, over the engine's own `evaluate`.
class Driver {
  // Waits until `fn(...args)` in the page returns something truthy.
  waitFor(what, fn, ...args) {
    return this.waitForWithin(30_000, what, fn, ...args);
  }

  waitForWithin(timeout, what, fn, ...args) {
    return poll(
      () => this.evaluate(fn, ...args).catch(() => null), // a page navigating away answers nothing
      what,
      timeout,
    );
  }

  // The page as drawn once its latest changes are painted: two animation
  // frames later (WebKitGTK's screenshot is the last frame it painted,
  // which lags the page's state on a loaded machine).
  async screenshot(directory, name) {
    await this.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    await mkdir(directory, { recursive: true });
    const path = join(directory, `${name}.png`);
    await writeFile(path, await this.png());
    return path;
  }
}

// ---- Firefox over WebDriver BiDi (puppeteer-core) ----

async function startFirefox(width, height) {
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    defaultViewport: { width, height },
    // Nothing fetched in the background: no updates, no telemetry.
    extraPrefsFirefox: { "app.update.enabled": false, "datareporting.policy.dataSubmissionEnabled": false },
  });
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  // Over BiDi the first tab keeps the window's size: set it.
  await page.setViewport({ width, height });
  return new Firefox(browser, page);
}

class Firefox extends Driver {
  constructor(browser, page) {
    super();
    this.name = "firefox";
    this.browser = browser;
    this.page = page;
    // What goes wrong in the page: uncaught errors and console errors.
    this.pageErrors = [];
    page.on("pageerror", (error) => this.pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") this.pageErrors.push(message.text());
    });
  }

  // The page's errors since the last call.
  errors() {
    return this.pageErrors.splice(0);
  }

  async version() {
    return this.browser.version();
  }

  async goto(url) {
    await this.page.goto(url, { waitUntil: "load" });
  }

  async reload() {
    await this.page.reload({ waitUntil: "load" });
  }

  evaluate(fn, ...args) {
    return this.page.evaluate(fn, ...args);
  }

  async click(selector) {
    await this.page.click(selector);
  }

  // `keys` as Puppeteer names them ("Control+a", "End", "Enter").
  async press(keys) {
    const parts = keys.split("+");
    const key = parts.pop();
    for (const modifier of parts) await this.page.keyboard.down(modifier);
    await this.page.keyboard.press(key);
    for (const modifier of parts.reverse()) await this.page.keyboard.up(modifier);
  }

  async type(text) {
    await this.page.keyboard.type(text);
  }

  png() {
    return this.page.screenshot();
  }

  async close() {
    await this.browser.close();
  }
}

// ---- WebKitGTK over WebDriver (HTTP) ----

// WebDriver's code points for the keys the flows press (W3C WebDriver,
// "Keyboard actions").
const WEBDRIVER_KEYS = { Control: "\uE009", Shift: "\uE008", Enter: "\uE007", End: "\uE010", Home: "\uE011", Backspace: "\uE003", Escape: "\uE00C", Tab: "\uE004" };
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
const SHADOW = "shadow-6066-11e4-a52e-4f735466cecf";

async function freePort() {
  const server = createServer();
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

// Starts Xvfb on a display it chooses itself (-displayfd), so two runs never
// collide; resolves with the process and the display's name.
async function startXvfb() {
  const xvfb = spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "1920x1200x24", "-nolisten", "tcp"], { stdio: ["ignore", "pipe", "ignore"] });
  const display = await new Promise((ok, fail) => {
    let out = "";
    xvfb.stdout.on("data", (data) => {
      out += data;
      if (out.includes("\n")) ok(`:${out.trim()}`);
    });
    xvfb.once("exit", (code) => fail(new Error(`Xvfb exited (${code})`)));
  });
  return { xvfb, display };
}

async function startWebKit(width, height) {
  const { xvfb, display } = await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    driver.kill();
    xvfb.kill();
  };
  try {
    await poll(() => fetch(`${base}/status`).then((r) => r.ok, () => false), "WebKitWebDriver to listen", 15_000);
    const created = await http(base, "POST", "/session", {
      capabilities: { alwaysMatch: { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } } },
    });
    const webkit = new WebKit(`${base}/session/${created.sessionId}`, created.capabilities, stop);
    await webkit.setViewport(width, height);
    return webkit;
  } catch (error) {
    stop();
    throw error;
  }
}

async function http(base, method, path, body) {
  const response = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const { value } = await response.json();
  if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${value?.error}: ${value?.message}`);
  return value;
}

class WebKit extends Driver {
  constructor(session, capabilities, stop) {
    super();
    this.name = "webkit";
    this.session = session;
    this.capabilities = capabilities;
    this.stop = stop;
  }

  // WebKitGTK's WebDriver (classic, HTTP) has no way to the console or to
  // uncaught errors: none are reported, and the app's panic banner stands
  // for them.
  errors() {
    return [];
  }

  send(method, path, body) {
    return http(this.session, method, path, body);
  }

  async version() {
    return `${this.capabilities.browserName} ${this.capabilities.browserVersion}`;
  }

  // The window's size, corrected by what its frame takes, so the page's
  // viewport is `width` × `height`.
  async setViewport(width, height) {
    await this.send("POST", "/window/rect", { width, height });
    const [innerWidth, innerHeight] = await this.evaluate(() => [window.innerWidth, window.innerHeight]);
    if (innerWidth !== width || innerHeight !== height) {
      await this.send("POST", "/window/rect", { width: 2 * width - innerWidth, height: 2 * height - innerHeight });
    }
  }

  async goto(url) {
    await this.send("POST", "/url", { url });
  }

  async reload() {
    await this.send("POST", "/refresh", {});
  }

  // The function runs as an async script; what it throws comes back as an
  // error here.
  async evaluate(fn, ...args) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn}).apply(null, arguments[0]))
        .then((value) => done({ value: value === undefined ? null : value }), (error) => done({ error: String(error && error.stack || error) }));`;
    const result = await this.send("POST", "/execute/async", { script, args: [args] });
    if (result?.error) throw new Error(`in the page: ${result.error}`);
    return result?.value;
  }

  async find(selector) {
    const [host, inner] = selector.split(" >>> ");
    const element = await this.send("POST", "/element", { using: "css selector", value: host });
    if (inner === undefined) return element[ELEMENT];
    const shadow = await this.send("GET", `/element/${element[ELEMENT]}/shadow`);
    const found = await this.send("POST", `/shadow/${shadow[SHADOW]}/element`, { using: "css selector", value: inner });
    return found[ELEMENT];
  }

  // A pointer's click at the element's centre, once it is scrolled into
  // view, at that point of the viewport: WebKitWebDriver finds an SVG group
  // (a graph's step) "not interactable" when asked to click it, or to move
  // the pointer to it.
  async click(selector) {
    const element = { [ELEMENT]: await this.find(selector) };
    const script = `const box = arguments[0]; box.scrollIntoView({ block: "center", inline: "center" });
      const rect = box.getBoundingClientRect();
      return [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)];`;
    const [x, y] = await this.send("POST", "/execute/sync", { script, args: [element] });
    const pointer = { type: "pointer", id: "mouse", parameters: { pointerType: "mouse" } };
    await this.send("POST", "/actions", {
      actions: [{ ...pointer, actions: [{ type: "pointerMove", origin: "viewport", x, y }, { type: "pointerDown", button: 0 }, { type: "pointerUp", button: 0 }] }],
    });
    await this.send("DELETE", "/actions");
  }

  async keys(actions) {
    await this.send("POST", "/actions", { actions: [{ type: "key", id: "keyboard", actions }] });
    await this.send("DELETE", "/actions");
  }

  async press(keys) {
    const parts = keys.split("+").map((key) => WEBDRIVER_KEYS[key] ?? key);
    const key = parts.pop();
    await this.keys([
      ...parts.map((value) => ({ type: "keyDown", value })),
      { type: "keyDown", value: key },
      { type: "keyUp", value: key },
      ...parts.reverse().map((value) => ({ type: "keyUp", value })),
    ]);
  }

  async type(text) {
    await this.keys([...text].flatMap((value) => [{ type: "keyDown", value }, { type: "keyUp", value }]));
  }

  async png() {
    return Buffer.from(await this.send("GET", "/screenshot"), "base64");
  }

  async close() {
    await this.send("DELETE", "").catch(() => {});
    this.stop();
  }
}
