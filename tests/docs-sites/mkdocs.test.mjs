// A docs site as its author builds one, with no Rust: opb's wheel (the one
// `cargo xtask package wheel` built into target/wheels) installed by pip,
// offline, into a new virtual environment beside MkDocs and Material for
// MkDocs (tools/mkdocs/requirements.txt, their wheels downloaded by
// scripts/setup.sh test), and the site in mkdocs/, whose mkdocs.yml names
// the wheel's plugin, built with `mkdocs build --strict` and read in
// Chromium, in Material's light and dark palettes. A broken fence is then
// shown in the page, and fails the build under --strict or the plugin's
// `strict: true`, naming the code. Screenshots go to tests/e2e/screenshots/.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, serve, launch, screenshot, contrast } from "../e2e/harness.mjs";
import { builtWheel, run, wheelDir, withoutRust } from "../packaging/wheel.mjs";

const site = join(root, "tests/docs-sites/mkdocs");
const dir = mkdtempSync(join(tmpdir(), "opb-mkdocs-"));
const venv = join(dir, "venv");
const built = join(dir, "site");
let env;
let build;
let server;
let browser;

// `mkdocs build` of the site whose config is `config`, into `into`.
// `said` is everything it wrote.
function mkdocs(config, into, ...flags) {
  const result = run("mkdocs", ["build", ...flags, "-f", config, "-d", into], { env });
  return { status: result.status, said: result.stdout + result.stderr };
}

before(async () => {
  const created = run("python3", ["-m", "venv", venv]);
  assert.equal(created.status, 0, created.stderr);
  env = withoutRust({
    dirs: [join(venv, "bin")],
    home: dir,
    links: [wheelDir, join(root, "tools/mkdocs/wheelhouse")],
    // Material's notice of its end of life, printed at every build.
    NO_MKDOCS_2_WARNING: "1",
  });
  const installed = run("pip", ["install", "--quiet", "-r", join(root, "tools/mkdocs/requirements.txt"), builtWheel()], { env });
  assert.equal(installed.status, 0, installed.stdout + installed.stderr);
  build = mkdocs(join(site, "mkdocs.yml"), built, "--strict");
  assert.equal(build.status, 0, `mkdocs build --strict failed:\n${build.said}`);
  server = await serve(built);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(width) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems = [];
  page.on("console", (message) => ["error", "warning"].includes(message.type()) && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  const outside = [];
  page.on("request", (request) => !request.url().startsWith(server.url) && !request.url().startsWith("data:") && outside.push(request.url()));
  await page.goto(server.url, { waitUntil: "load" });
  return { page, problems, outside };
}

// A screenshot with `element` scrolled into view, once the header's title
// has finished sliding to the page's (Material animates it on scroll).
async function shoot(page, element, name) {
  await element.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector(".md-header__title").classList.contains("md-header__title--active"));
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
  await screenshot(page, name);
}

// Material's own toggle, as a reader clicks it; resolves once the body
// wears the palette.
async function choosePalette(page, scheme) {
  const name = scheme === "slate" ? "Switch to the dark palette" : "Switch to the light palette";
  await page.locator(`form[data-md-component="palette"] label[title="${name}"]`).click();
  await page.waitForFunction((scheme) => document.body.dataset.mdColorScheme === scheme, scheme);
}

// The colours a reader sees in each fragment: its text on what is behind
// it (the first ancestor that paints a background), and a step's title on
// its box.
function colours(page) {
  return page.$$eval(".opb-fragment", (fragments) =>
    fragments.map((fragment) => {
      const behind = (element) => {
        for (let at = element; at; at = at.parentElement) {
          const background = getComputedStyle(at).backgroundColor;
          if (!/^rgba\(.*, 0\)$|^transparent$/.test(background)) return background;
        }
        return "rgb(255, 255, 255)";
      };
      const title = fragment.querySelector(".node .node-title");
      return {
        theme: fragment.dataset.theme,
        view: fragment.dataset.view,
        text: getComputedStyle(fragment).color,
        background: behind(fragment),
        stepTitle: title && getComputedStyle(title).fill,
        stepBox: title && getComputedStyle(title.closest(".node").querySelector(".node-shape")).fill,
      };
    }),
  );
}

test("the site builds with --strict from the wheel's plugin, with no Rust and no warning", () => {
  assert.doesNotMatch(build.said, /WARNING/);
  const html = readFileSync(join(built, "index.html"), "utf8");
  assert.doesNotMatch(html, /<!-- opb render|```openplaybook view=summary/, "every fence and include was rendered");
});

test("the page shows the include's graph, the fences' summary and manifest, and leaves the fences in code as code", async () => {
  const { page, problems, outside } = await open(1400);
  const fragments = await page.$$eval(".md-content .opb-fragment", (all) =>
    all.map((fragment) => ({
      theme: fragment.dataset.theme,
      view: fragment.dataset.view,
      steps: [...fragment.querySelectorAll("svg.graph .node")].map((node) => node.dataset.stepId),
      label: fragment.querySelector("svg.graph title")?.textContent,
      summary: fragment.querySelector(".trust-banner")?.textContent.replace(/\s+/g, " ").trim(),
      problems: fragment.querySelectorAll(".diagnostics li, .diagnostic").length,
    })),
  );
  assert.equal(fragments.length, 3, JSON.stringify(fragments));
  const [include, summary, manifest] = fragments;
  assert.deepEqual([include.theme, include.view], ["auto", "graph"]);
  assert.deepEqual(include.steps, ["recover", "gate", "send", "record"]);
  assert.equal(include.label, "Step graph of Failed charge recovery");
  assert.deepEqual([summary.theme, summary.view, summary.steps], ["auto", "summary", []]);
  assert.match(summary.summary, /Weekly digest|read/i);
  assert.deepEqual([manifest.theme, manifest.view], ["dark", "graph"]);
  assert.ok(manifest.summary, "a plugin manifest, which has no step graph, shows its trust summary");
  for (const fragment of fragments) assert.equal(fragment.problems, 0, "valid documents list no problems");
  const code = await page.$$eval(".md-content pre code", (blocks) => blocks.map((block) => block.textContent));
  assert.equal(code.filter((text) => text.includes("```openplaybook\nsteps: []\n```")).length, 2, code.join("\n---\n"));
  assert.deepEqual(outside, [], "nothing is fetched from elsewhere");
  assert.deepEqual(problems, []);
  await shoot(page, page.locator(".opb-fragment").first(), "docs-mkdocs-1400");
  await page.close();
});

test("Material's palette toggle turns the auto fragments dark and back, their text readable on both", async () => {
  const { page, problems } = await open(1400);
  const light = await colours(page);
  await choosePalette(page, "slate");
  const dark = await colours(page);
  await shoot(page, page.locator(".opb-fragment").first(), "docs-mkdocs-1400-dark");
  await shoot(page, page.locator(".opb-fragment").nth(1), "docs-mkdocs-1400-dark-summary");
  await choosePalette(page, "default");
  assert.deepEqual(await colours(page), light, "back in the light palette, the light colours");
  for (const [palette, fragments] of [["light", light], ["dark", dark]]) {
    for (const fragment of fragments) {
      const where = `${palette} palette, ${fragment.theme} ${fragment.view} fragment`;
      assert.ok(contrast(fragment.text, fragment.background) >= 4.5, `${where}: ${fragment.text} on ${fragment.background}`);
      if (fragment.stepTitle) {
        assert.ok(contrast(fragment.stepTitle, fragment.stepBox) >= 4.5, `${where}: step title ${fragment.stepTitle} on ${fragment.stepBox}`);
      }
    }
  }
  const autos = (fragments) => fragments.filter((fragment) => fragment.theme === "auto");
  assert.equal(autos(light).length, 2);
  for (const [before, after] of autos(light).map((fragment, at) => [fragment, autos(dark)[at]])) {
    assert.notEqual(after.text, before.text, "an auto fragment's text changes with the palette");
    assert.ok(contrast(after.background, "rgb(0, 0, 0)") < contrast(before.background, "rgb(0, 0, 0)"), "and its background darkens");
  }
  const [lightInclude, darkInclude] = [light[0], dark[0]];
  assert.notEqual(darkInclude.stepBox, lightInclude.stepBox, "the graph's boxes follow the palette too");
  const fixed = (fragments) => fragments.find((fragment) => fragment.theme === "dark");
  assert.deepEqual(fixed(dark), fixed(light), "a dark fragment stays dark in either palette");
  assert.deepEqual(problems, []);
  await page.close();
});

test("on a phone the drawings fit the page, in either palette", async () => {
  const { page, problems } = await open(375);
  for (const scheme of ["default", "slate"]) {
    if (scheme === "slate") await choosePalette(page, "slate");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page does not scroll sideways (${overflow} px over) in the ${scheme} palette`);
    await shoot(page, page.locator(".opb-fragment svg.graph").first(), scheme === "slate" ? "docs-mkdocs-375-dark" : "docs-mkdocs-375");
  }
  const title = await page.locator('.opb-fragment .node[data-step-id="send"] > title').textContent();
  assert.match(title, /^send \(agent step\)\nSend the approved email\./);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a broken fence is shown with its problems, and fails the build under --strict or the plugin's strict, naming the code", async () => {
  const broken = join(dir, "broken");
  mkdirSync(join(broken, "docs"), { recursive: true });
  const config = readFileSync(join(site, "mkdocs.yml"), "utf8");
  writeFileSync(join(broken, "mkdocs.yml"), config);
  cpSync(join(root, "examples/refund-triage.broken.yaml"), join(broken, "docs/refund-triage.yaml"));
  const fence = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
  // Its line is counted in the file, front matter and all.
  writeFileSync(join(broken, "docs/index.md"), `---\ntitle: Refunds\n---\n\n# Refunds\n\nOur refund playbook:\n\n\`\`\`openplaybook\n${fence}\`\`\`\n`);

  const shown = mkdocs(join(broken, "mkdocs.yml"), join(broken, "site"));
  assert.equal(shown.status, 0, `without --strict the build passes:\n${shown.said}`);
  assert.match(shown.said, /WARNING\s+-\s+opb: the openplaybook fence at line 9 of index\.md has 8 errors, and strict forbids any:/);
  assert.match(shown.said, /PB213 line 60: `next` of step `decide` names `file`/);
  const page = readFileSync(join(broken, "site/index.html"), "utf8");
  for (const code of ["PB406", "PB405", "PB410", "PB213"]) assert.match(page, new RegExp(`\\b${code}\\b`), `the page lists ${code}`);

  const strict = mkdocs(join(broken, "mkdocs.yml"), join(broken, "site"), "--strict");
  assert.notEqual(strict.status, 0, "--strict fails the build");
  assert.match(strict.said, /opb: the openplaybook fence at line 9 of index\.md has 8 errors/);
  assert.match(strict.said, /PB213 line 60/);
  assert.match(strict.said, /Aborted with 1 warnings in strict mode/);

  writeFileSync(join(broken, "mkdocs.yml"), config.replace(/^  - opb$/m, "  - opb:\n      strict: true"));
  writeFileSync(join(broken, "docs/index.md"), "# Refunds\n\n<!-- opb render refund-triage.yaml view=report -->\n");
  const plugin = mkdocs(join(broken, "mkdocs.yml"), join(broken, "site"));
  assert.notEqual(plugin.status, 0, "the plugin's strict fails the build without --strict");
  assert.match(plugin.said, /opb: the opb render include at line 3 of index\.md: refund-triage\.yaml has 8 errors, and strict forbids any:/);
  assert.match(plugin.said, /PB406 line 6/);
});

test("a fence's option opb does not know fails the build, naming the fence and the choices", () => {
  const odd = join(dir, "odd");
  mkdirSync(join(odd, "docs"), { recursive: true });
  writeFileSync(join(odd, "mkdocs.yml"), readFileSync(join(site, "mkdocs.yml"), "utf8"));
  writeFileSync(join(odd, "docs/index.md"), "# Odd\n\n```oz0-plugin view=graphs\nname: x\n```\n");
  const built = mkdocs(join(odd, "mkdocs.yml"), join(odd, "site"));
  assert.notEqual(built.status, 0);
  assert.match(built.said, /opb: the oz0-plugin fence at line 3 of index\.md: view is one of graph, summary, report, not 'graphs'/);
});

test("a fence never closed runs to the page's end and is still a fragment of its own, its problem listed", () => {
  const open = join(dir, "open");
  mkdirSync(join(open, "docs"), { recursive: true });
  writeFileSync(join(open, "mkdocs.yml"), readFileSync(join(site, "mkdocs.yml"), "utf8"));
  writeFileSync(join(open, "docs/index.md"), '# Open\n\n```openplaybook\n{"openplaybook": "1.6"\n');
  const built = mkdocs(join(open, "mkdocs.yml"), join(open, "site"));
  assert.equal(built.status, 0, built.said);
  assert.match(built.said, /opb: the openplaybook fence at line 3 of index\.md has 1 error, and strict forbids any:\n\s+IN001 line 1/);
  const page = readFileSync(join(open, "site/index.html"), "utf8");
  assert.match(page, /<h1 id="open">Open<\/h1>\n<div class="opb-fragment"/, "the fragment follows the heading as a block, not inside a paragraph");
  assert.match(page, /<code>IN001 parse-error<\/code>/);
});
