// What the VitePress and Astro tests share: the pages a docs author writes
// with opb's fences (the npm package's Markdown plugins render them when the
// site is built), and what a reader's Chromium must find on them: no
// console error and no request outside the site; the static drawing with
// JavaScript off; the interactive fence upgraded to the live <opb-viewer>
// with it on; the drawing's colours following the site's dark toggle, its
// texts at WCAG AA contrast in both; a broken document's problems listed.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { root, screenshot } from "../e2e/harness.mjs";

// The packed package: what cargo xtask package viewer writes, or
// $OPB_VIEWER_TGZ.
export function tarball() {
  const version = readFileSync(join(root, "Cargo.toml"), "utf8").match(/\[workspace\.package\]\s*version = "([^"]+)"/)[1];
  return resolve(root, process.env.OPB_VIEWER_TGZ ?? `target/npm/opb-viewer-${version}.tgz`);
}

// A fresh copy of the test site tests/docs-sites/NAME in `site`, with its
// generator at the versions tools/NAME pins (its lockfile, from npm's
// cache) and the packed package installed, as a docs author installs it.
export function installSite(name, site) {
  cpSync(join(root, "tests/docs-sites", name), site, { recursive: true });
  const tools = join(root, "tools", name);
  const manifest = JSON.parse(readFileSync(join(tools, "package.json"), "utf8"));
  manifest.type = "module";
  manifest.dependencies = { "opb-viewer": `file:${tarball()}` };
  writeFileSync(join(site, "package.json"), JSON.stringify(manifest, null, 2));
  cpSync(join(tools, "package-lock.json"), join(site, "package-lock.json"));
  const done = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: site, encoding: "utf8" });
  assert.equal(done.status, 0, `npm install failed:\n${done.stderr}`);
}

const example = (path) => readFileSync(join(root, path), "utf8");
const REFUND = example("docs/examples/refund-with-approval.yaml");
const UNSUPERVISED = example("crates/core/tests/fixtures/rules/PB220.bad.yaml");
const BROKEN = example("examples/refund-triage.broken.yaml");

// Each page: its name, the fence's info string, the document, and a step
// id its drawing shows.
export const PAGES = [
  { name: "graph", info: "openplaybook", text: REFUND, step: "refund" },
  { name: "summary", info: "openplaybook view=summary", text: UNSUPERVISED, verdict: "unsupervised" },
  { name: "interactive", info: "openplaybook interactive", text: REFUND, step: "refund" },
  { name: "broken", info: "openplaybook", text: BROKEN, step: "decide", problem: "PB213" },
];

// Writes each page into `dir` as NAME.md, after `frontmatter` (a site's
// layout, if it needs one), with a JavaScript fence too, which the plugins
// leave to the site.
export function writePages(dir, frontmatter = "") {
  for (const { name, info, text } of PAGES) {
    const body = `${frontmatter}# The ${name} fence\n\nWhat the playbook can do:\n\n\`\`\`${info}\n${text}\`\`\`\n\nA fence of another language stays code:\n\n\`\`\`js\nconst left = "as it was";\n\`\`\`\n`;
    writeFileSync(join(dir, `${name}.md`), body);
  }
}

// Opens `url` in a new page of `browser` (context options `options`),
// collecting its console errors and every request outside `origin`;
// `prepare(page)` runs before it navigates.
async function open(browser, url, options = {}, prepare = async () => {}) {
  const page = await browser.newPage(options);
  await prepare(page);
  const problems = [];
  page.on("console", (message) => message.type() === "error" && problems.push(`${message.text()} ${message.location().url}`));
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => {
    const address = new URL(request.url());
    if (!["data:", "blob:"].includes(address.protocol) && address.origin !== new URL(url).origin) problems.push(`a request outside the site: ${request.url()}`);
  });
  await page.goto(url, { waitUntil: "load" });
  return { page, problems };
}

// The contrast ratio of two CSS colours (rgb() or rgba() over white), WCAG's.
function contrast(a, b) {
  const luminance = (colour) => {
    const [r, g, b] = colour.match(/[\d.]+/g).slice(0, 3).map((c) => {
      const s = Number(c) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

// The computed colours that matter on the first fragment of `page`: the
// fragment's text on its background, a step's title on its box, a list's
// text on the fragment.
function colours(page) {
  return page.evaluate(() => {
    const fragment = document.querySelector(".opb-fragment");
    const style = (element, property) => (element ? getComputedStyle(element)[property] : null);
    const node = fragment.querySelector("svg.graph .node");
    return {
      text: style(fragment, "color"),
      background: style(fragment, "backgroundColor"),
      nodeTitle: style(node?.querySelector(".node-title"), "fill"),
      nodeFill: style(node?.querySelector(".node-shape"), "fill"),
    };
  });
}

// Every check on the built site served at `base` (its pages at
// `base + NAME + suffix`), in `browser`; `dark(page, on)` switches the
// site's own dark toggle; screenshots are named after `site`.
export async function checkSite({ browser, base, suffix, site, dark }) {
  const url = (name) => new URL(`${name}${suffix}`, base).href;

  // Without JavaScript: the static drawing, its steps named as text.
  for (const { name, step } of PAGES.filter((p) => p.step)) {
    const { page, problems } = await open(browser, url(name), { javaScriptEnabled: false });
    const texts = await page.locator(".opb-fragment svg.graph .node-title").allTextContents();
    assert.ok(texts.includes(step), `${site} ${name}, no script: ${step} in ${texts.join(", ")}`);
    assert.deepEqual(problems, [], `${site} ${name}, no script`);
    await page.close();
  }

  for (const { name, step, verdict, problem } of PAGES) {
    // The viewer's wasm held back until the static drawing has been seen
    // in the element, which shows its children until its view is drawn.
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const holdWasm = (page) => page.route("**/*.wasm", async (route) => (await held, route.continue()));
    const { page, problems } = await open(browser, url(name), { viewport: { width: 1400, height: 900 } }, name === "interactive" ? holdWasm : undefined);
    // Attached, not visible: an interactive fence's drawing is the live
    // element's children, hidden once its view is drawn.
    const fragment = page.locator(".opb-fragment").first();
    await fragment.waitFor({ state: "attached" });
    // Other fences stay code.
    assert.match(await page.locator("pre code").first().textContent(), /const left = "as it was";/);
    if (verdict) assert.equal(await fragment.locator(".trust-verdict").getAttribute("data-verdict"), verdict);
    if (problem) {
      const listed = await fragment.locator("ul.diagnostics").textContent();
      assert.match(listed, new RegExp(`${problem} next-unknown`), `${site}: the problems listed`);
      assert.match(await fragment.textContent(), /8 errors, 2 warnings, 2 infos in the openplaybook fence at line \d+ of /);
    }
    if (name === "interactive") {
      // Defined (its shadow root attached), its wasm not yet fetched: the
      // static drawing still shows.
      await page.waitForFunction(() => customElements.get("opb-viewer") !== undefined && document.querySelector("opb-viewer").shadowRoot);
      assert.ok(await page.locator("opb-viewer .opb-fragment > .graph > svg.graph").isVisible(), `${site}: the static drawing shows until the live view is drawn`);
      release();
      // Upgraded: the live view in the element's shadow root.
      const viewer = page.locator("opb-viewer");
      await viewer.locator(`.opb-root svg.graph [data-step-id="${step}"]`).waitFor({ timeout: 30_000 });
      assert.match(await viewer.locator('[data-testid="trust-banner"]').textContent(), /Moves money/);
    }
    if (step && name !== "interactive") {
      const light = await colours(page);
      await dark(page, true);
      const darkened = await colours(page);
      assert.notEqual(darkened.nodeFill, light.nodeFill, `${site} ${name}: the boxes follow the toggle`);
      assert.notEqual(darkened.text, light.text, `${site} ${name}: the text follows the toggle`);
      for (const [theme, seen] of [["light", light], ["dark", darkened]]) {
        assert.ok(contrast(seen.text, seen.background) >= 4.5, `${site} ${name} ${theme}: text ${seen.text} on ${seen.background}`);
        assert.ok(contrast(seen.nodeTitle, seen.nodeFill) >= 4.5, `${site} ${name} ${theme}: step title ${seen.nodeTitle} on ${seen.nodeFill}`);
      }
      await dark(page, false);
    }
    assert.deepEqual(problems, [], `${site} ${name}`);
    await page.close();
  }

  // Screenshots of the graph page, wide and narrow, light and dark.
  for (const width of [1400, 375]) {
    for (const theme of ["light", "dark"]) {
      const { page, problems } = await open(browser, url("graph"), { viewport: { width, height: 900 }, colorScheme: theme });
      await dark(page, theme === "dark");
      await page.locator(".opb-fragment").first().scrollIntoViewIfNeeded();
      await screenshot(page, `${site}-fence-${width}-${theme}`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
}
