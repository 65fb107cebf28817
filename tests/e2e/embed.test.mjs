// Embedding, end to end in Chromium: the docs pages of docs/ on another
// origin (http://docs.example/, see harness.routeSites) show a playbook by
// iframe (embed.html, with the postMessage protocol) and by the <opb-viewer>
// element; the embed page alone, with its themes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { screenshot, routeSites, docsSite, root, dist, session, pako, collectErrors } from "./harness.mjs";

const opb = session();


async function newPage(viewport = { width: 1100, height: 900 }, colorScheme = "light") {
  const context = await opb.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  collectErrors(page);
  return page;
}

const BROKEN = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");

// The embed page's viewer, inside its <opb-viewer>'s shadow root (which
// Playwright's selectors pierce).
const IN_EMBED = "opb-viewer[data-embed]";

test("the embed page shows the viewer alone, on the viewer's build, themed, with a link to the playground", async () => {
  const page = await newPage({ width: 900, height: 760 });
  const scripts = [];
  page.on("request", (request) => ["script", "fetch"].includes(request.resourceType()) && scripts.push(new URL(request.url()).pathname));
  const address = `${opb.server.url}embed.html?theme=light${pako({ code: BROKEN })}`;
  await page.goto(address);
  const viewer = page.locator(IN_EMBED);
  await viewer.locator('svg.graph [data-step-id="decide"]').waitFor();
  assert.equal(await viewer.locator('[data-testid="tab-graph"]').getAttribute("aria-selected"), "true");
  // A step chosen in the graph brings its boundary; the tabs leave the
  // address (and so the document in its fragment) alone.
  await viewer.locator('svg.graph [data-step-id="decide"]').click();
  await viewer.locator('article.opb-step.chosen[data-step="decide"]').waitFor();
  for (const tab of ["tools", "requires", "paths", "diagnostics"]) {
    await viewer.locator(`[data-testid="tab-${tab}"]`).click();
    await viewer.locator(`[data-testid="tab-${tab}"][aria-selected="true"]`).waitFor();
  }
  assert.ok((await viewer.locator("#opb-panel-diagnostics li").count()) > 0, "the diagnostics are listed");
  assert.equal(page.url(), address, "the tabs do not touch the address");
  assert.equal(await page.getAttribute("html", "data-theme"), "light");
  assert.equal(await page.evaluate(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme), "light");
  assert.match(await viewer.locator('[data-testid="trust-banner"]').textContent(), /Moves money/);
  const open = viewer.locator('[data-testid="open-in-playground"][href]');
  await open.waitFor();
  const href = await open.getAttribute("href");
  assert.ok(href.startsWith(opb.server.url + "?edit#pako:"), `the editor, not the reading view: ${href}`);
  // The viewer's own files: none of the playground's wasm, loader or editor.
  assert.ok(scripts.some((s) => /^\/opb-embed-core-[0-9a-f]{16}\.wasm$/.test(s)), `the embed's wasm: ${scripts}`);
  assert.ok(!scripts.some((s) => /^\/(opb-app-|editor-|boot\.js)/.test(s)), `nothing of the playground: ${scripts}`);
  await screenshot(page, "embed-light");

  // The playground's own form of an embed address is sent on to the page,
  // its theme and document with it.
  await page.goto(`${opb.server.url}?embed=1&theme=dark${pako({ code: BROKEN })}`);
  await page.waitForURL(/\/embed\.html\?theme=dark#pako:/);
  await viewer.locator('svg.graph [data-step-id="decide"]').waitFor();
  assert.equal(await page.getAttribute("html", "data-theme"), "dark");
  assert.equal(await page.evaluate(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme), "dark");
  await screenshot(page, "embed-dark");

  // The link opens the same document in the playground.
  const playground = await newPage();
  await playground.goto(href);
  await playground.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.equal(await playground.evaluate(() => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]'))), BROKEN);
  assert.equal(new URL(playground.url()).search, "", "`?edit` is taken out of the address, so a link copied from it is read first");
  assert.deepEqual([...page.errors, ...playground.errors], []);
  await page.context().close();
  await playground.context().close();
});

test("the embed opens on the panel its link names", async () => {
  const page = await newPage();
  const viewer = page.locator(IN_EMBED);
  await page.goto(`${opb.server.url}embed.html${pako({ code: BROKEN, view: "requires" })}`);
  await viewer.locator('[data-testid="tab-requires"][aria-selected="true"]').waitFor();
  // A panel the embed does not have (the playground's rules) opens the graph.
  await page.goto(`${opb.server.url}embed.html${pako({ code: BROKEN, view: "rules/PB213" })}`);
  await page.reload();
  await viewer.locator('[data-testid="tab-graph"][aria-selected="true"]').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an embed without a document, or with a broken one, says why", async () => {
  const page = await newPage();
  await page.goto(`${opb.server.url}embed.html`);
  await page.waitForSelector('[data-testid="embed-problem"]:not([hidden])');
  assert.match(await page.textContent('[data-testid="embed-problem"]'), /carries no document/);
  assert.equal(await page.locator(IN_EMBED).isHidden(), true);
  await page.goto(`${opb.server.url}embed.html#pako:eNrLSM3JyQcABiwCF`);
  await page.reload();
  await page.waitForSelector('[data-testid="embed-problem"]:not([hidden])');
  assert.match(await page.textContent('[data-testid="embed-problem"]'), /cut short|damaged/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a docs page embeds the viewer by iframe and talks to it with postMessage", async () => {
  const page = await newPage();
  const refused = await routeSites(page);
  const scripts = [];
  page.on("request", (request) => request.resourceType() === "script" && scripts.push(new URL(request.url()).pathname));
  await page.goto(docsSite + "embed-example.html");
  await page.waitForFunction(() => /playbook: 0 errors/.test(document.getElementById("result").textContent), null, { timeout: 20_000 });
  const frame = page.frameLocator("#viewer");
  const viewer = frame.locator(IN_EMBED);
  await viewer.locator('[data-testid="trust-banner"]').waitFor();
  assert.ok(scripts.includes("/opb-embed.js") && !scripts.some((s) => /^\/(opb-app-|editor-|boot\.js)/.test(s)), `the embed's script, nothing of the playground: ${scripts}`);
  // height=auto: the frame takes the height of the viewer's content.
  await page.waitForFunction(() => document.getElementById("viewer").style.height !== "");
  const frameHeight = await page.evaluate(() => document.getElementById("viewer").getBoundingClientRect().height);
  assert.ok(frameHeight > 560, `the frame grew past its first 560 px: ${frameHeight}`);
  // opb:set-theme switches the theme, and back.
  await page.selectOption("#theme", "dark");
  await frame.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
  await page.selectOption("#theme", "light");
  await frame.locator('html[data-theme="light"]').waitFor({ state: "attached" });

  await page.click("#send");
  await page.waitForFunction(() => /playbook: [1-9]\d* errors/.test(document.getElementById("result").textContent));
  assert.match(await page.textContent("#result"), /first: [A-Z]+\d{3} at line \d+/);
  await viewer.locator('[data-testid="tab-diagnostics"]').click();
  await viewer.locator('#opb-panel-diagnostics li[data-severity="error"]').first().waitFor();
  assert.match(await viewer.locator("#opb-panel-diagnostics").textContent(), /PB213/);

  // A message of another shape is answered with the reason: a document
  // that is no string, an opb: type the viewer does not take, a plain
  // string. Another script's message ({type: "other"}) is not answered.
  const answer = (message) =>
    page.evaluate(
      (message) =>
        new Promise((resolve) => {
          window.addEventListener("message", (event) => event.data?.type === "opb:error" && resolve(event.data.message), { once: true });
          document.getElementById("viewer").contentWindow.postMessage(message, "*");
        }),
      message,
    );
  assert.match(await answer({ type: "opb:set-document", code: 42 }), /needs the document's text in `code`/);
  assert.match(await answer({ type: "opb:nope" }), /takes `opb:set-document` and `opb:set-theme` messages, not `opb:nope`/);
  assert.match(await answer({ type: "opb:set-theme", theme: "purple" }), /needs `theme`: `light`, `dark` or `auto`, not `purple`/);
  assert.match(await answer("hello"), /is an object.*not a string/);
  await screenshot(page, "embed-iframe-page");
  assert.deepEqual(refused, [], "the pages asked for nothing else");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the <opb-viewer> element renders the viewer on a plain HTML page", async () => {
  const page = await newPage();
  const refused = await routeSites(page);
  await page.goto(docsSite + "web-component-example.html");
  const viewer = page.locator("opb-viewer");
  await viewer.locator('[data-testid="trust-banner"] [data-fact="money"]').waitFor({ timeout: 20_000 });
  const banner = await viewer.locator('[data-testid="trust-banner"]').textContent();
  assert.match(banner, /Moves money/);
  assert.match(banner, /refund.*after gate.*approve/s);
  assert.equal(await viewer.locator('[data-testid="trust-counts"]').textContent(), "0 errors, 0 warnings");
  assert.equal(await page.evaluate(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme), "light");

  // A step chosen in the graph, by pointer or by keyboard, brings its boundary.
  await viewer.locator('svg.graph [data-step-id="refund"]').click();
  const chosen = viewer.locator("article.opb-step.chosen");
  assert.equal(await chosen.getAttribute("data-step"), "refund");
  assert.match(await chosen.textContent(), /after a person approves each call/);
  await viewer.locator('svg.graph [data-step-id="done"]').focus();
  await page.keyboard.press("Enter");
  await viewer.locator('article.opb-step.chosen[data-step="done"]').waitFor();

  // The Risk paths tab, reached by the arrow keys as in any tab list.
  await viewer.locator('[data-testid="tab-graph"]').focus();
  for (const _ of ["tools", "requires", "paths"]) await page.keyboard.press("ArrowRight");
  await viewer.locator('[data-testid="tab-paths"][aria-selected="true"]').waitFor();
  const paths = await viewer.locator("#opb-panel-paths").textContent();
  assert.match(paths, /paths? from approve to an end, riskiest first/);
  assert.match(paths, /approve \(gate\) → refund/);
  assert.equal(await viewer.locator("#opb-panel-graph").isHidden(), true, "one panel at a time");
  assert.equal(await page.evaluate(() => location.hash), "", "the host page's address is unchanged");
  await screenshot(page, "web-component-risk-paths");
  await viewer.locator('[data-testid="tab-graph"]').click();

  // The link opens the same document in the playground.
  const open = viewer.locator('[data-testid="open-in-playground"][href]');
  await open.waitFor();
  const href = await open.getAttribute("href");
  assert.ok(href.startsWith("http://127.0.0.1:8080/?edit#pako:"), href);
  const playground = await page.context().newPage();
  await routeSites(playground);
  await playground.goto(href);
  await playground.waitForFunction(() => /id: refund-with-approval/.test(document.querySelector(".cm-content")?.textContent ?? ""), null, { timeout: 20_000 });
  await playground.close();

  // A changed text is checked again, and the element says so.
  const result = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const element = document.querySelector("opb-viewer");
        element.addEventListener("opb-result", (event) => resolve(event.detail), { once: true });
        element.textContent = 'openplaybook: "1.6"\nid: x\nsteps: []\n';
      }),
  );
  assert.equal(result.type, "opb:result");
  assert.equal(result.kind, "playbook");
  assert.ok(result.counts.error > 0, JSON.stringify(result.counts));
  await screenshot(page, "web-component");

  assert.deepEqual(refused, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("<opb-viewer> elements load their files when near the viewport, share one wasm, follow the page's theme", async () => {
  const page = await newPage({ width: 1100, height: 900 });
  const refused = await routeSites(page);
  const wasm = [];
  page.on("request", (request) => request.url().endsWith(".wasm") && wasm.push(request.url()));
  await page.goto(docsSite + "viewers-from-files-example.html");
  const root = (id) => page.locator(`#${id}`).locator(".opb-root");
  // The element near the top draws its file; a file that is not there is said.
  await root("refund").locator('[data-step-id="refund"]').waitFor({ timeout: 20_000 });
  const problem = root("moved").locator('[role="alert"]');
  await problem.waitFor();
  assert.equal(await problem.textContent(), "opb could not load the document examples/no-such-playbook.yaml: the server answered 404 Not Found.");
  await page.locator("#moved").scrollIntoViewIfNeeded();
  await screenshot(page, "web-component-missing-file");
  // The one 6000 px down has loaded nothing yet, and draws once scrolled to.
  assert.equal(await root("far").locator('[data-testid="trust-banner"]').count(), 0, "not shown below the fold");
  await page.locator("#far").scrollIntoViewIfNeeded();
  await root("far").locator('[data-step-id="refund"]').waitFor({ timeout: 20_000 });
  // An element added after load works, and all of them share one wasm.
  await page.evaluate(() => {
    const element = document.createElement("opb-viewer");
    element.id = "added";
    element.setAttribute("tab", "paths");
    element.setAttribute("height", "420");
    element.setAttribute("code", 'openplaybook: "1.6"\nid: added\nrequires: {connections: []}\nsteps:\n  - {id: only, kind: gate}\nstart: only\n');
    document.querySelector("main").append(element);
    element.scrollIntoView();
  });
  // It opens on the tab it names, at the height it asks, scrolling inside;
  // changing `tab` moves it.
  await root("added").locator('[data-testid="tab-paths"][aria-selected="true"]').waitFor({ timeout: 20_000 });
  const box = await page.locator("#added").evaluate((e) => ({ height: e.clientHeight, overflow: getComputedStyle(e).overflowY, scrolls: e.scrollHeight > e.clientHeight }));
  assert.deepEqual(box, { height: 420, overflow: "auto", scrolls: true });
  await page.evaluate(() => document.querySelector("#added").setAttribute("tab", "graph"));
  await root("added").locator('[data-step-id="only"]').waitFor();
  assert.equal(wasm.length, 1, `one wasm for every element: ${wasm}`);

  // theme="auto" (the default) follows <html data-theme>, a `dark` class,
  // then the page's color-scheme; not the system alone.
  const themes = () => page.$$eval("opb-viewer", (elements) => elements.map((e) => e.shadowRoot.querySelector(".opb-root").dataset.theme));
  assert.deepEqual(await themes(), ["light", "light", "light", "light"]);
  await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
  await page.waitForFunction(() => [...document.querySelectorAll("opb-viewer")].every((e) => e.shadowRoot.querySelector(".opb-root").dataset.theme === "dark"));
  await page.evaluate(() => {
    delete document.documentElement.dataset.theme;
    document.documentElement.classList.add("dark");
  });
  await page.waitForFunction(() => document.querySelector("#refund").shadowRoot.querySelector(".opb-root").dataset.theme === "dark");
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForFunction(() => document.querySelector("#refund").shadowRoot.querySelector(".opb-root").dataset.theme === "light");
  await page.evaluate(() => (document.documentElement.style.colorScheme = "light dark"));
  await page.waitForFunction(() => document.querySelector("#refund").shadowRoot.querySelector(".opb-root").dataset.theme === "dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForFunction(() => document.querySelector("#refund").shadowRoot.querySelector(".opb-root").dataset.theme === "light");
  await page.evaluate(() => document.documentElement.style.removeProperty("color-scheme"));
  // An element's own theme wins over the page's.
  await page.evaluate(() => {
    document.querySelector("#refund").setAttribute("theme", "dark");
    document.documentElement.dataset.theme = "light";
  });
  await page.waitForFunction(() => document.querySelector("#refund").shadowRoot.querySelector(".opb-root").dataset.theme === "dark");
  await page.locator("#refund").scrollIntoViewIfNeeded();
  await screenshot(page, "web-component-files");
  assert.deepEqual(refused, []);
  assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), [], "only the missing file's 404");
  await page.context().close();
});

test("the <opb-viewer> module can be imported where there is no browser, as server-side rendering does", async () => {
  const module = await import(pathToFileURL(join(dist, "opb-viewer.js")).href);
  assert.deepEqual(Object.keys(module), [], "it exports nothing and defines nothing without a window");
});
