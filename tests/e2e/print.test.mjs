// Printing, end to end in Chromium: the HTML report `opb render` writes in
// its dark theme, and an <opb-viewer> in its dark theme on a dark docs page
// whose element is given a fixed height, printed to PDF. On paper both are
// light, their text is all there (every step, every tab's panel), and the
// drawing fits the page's width unclipped. The PDF's text is read by
// poppler's pdftotext (Debian's poppler-utils, scripts/setup.sh), its first
// page drawn by pdftoppm into tests/e2e/screenshots to look at.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectErrors, docsSite, examplePlayground, luminance, root, routeSites, screenshots, session } from "./harness.mjs";

const opb = session();

// An A4 page with 15 mm margins: 210 mm less 30 mm, in CSS pixels (96 to
// the inch). The page is laid out this wide when printed, and so when the
// print media is emulated for measuring.
const PAGE = { format: "A4", margin: { top: "15mm", right: "15mm", bottom: "15mm", left: "15mm" }, printBackground: true };
const CONTENT_WIDTH = Math.floor((180 / 25.4) * 96);

// The page printed: its text as pdftotext reads it, and its first page as
// a PNG in tests/e2e/screenshots.
async function printed(page, name) {
  mkdirSync(screenshots, { recursive: true });
  const pdf = join(screenshots, `${name}.pdf`);
  writeFileSync(pdf, await page.pdf(PAGE));
  execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", pdf, join(screenshots, name)]);
  return execFileSync("pdftotext", [pdf, "-"], { encoding: "utf8" });
}

// Whether `text` holds `words`, whatever the line breaks between them
// (a long name wraps where the page allows).
function holds(text, words) {
  return text.replace(/\s+/g, "").includes(words.replace(/\s+/g, ""));
}

test("the dark HTML report prints light, every step and tool in it, its drawing within the page", async () => {
  const example = join(root, "examples/failed-charge-recovery.json");
  const html = execFileSync("cargo", ["run", "--quiet", "--bin", "opb", "--", "render", "--format", "html", "--theme", "dark", example], { cwd: root, encoding: "utf8" });
  const playbook = JSON.parse(readFileSync(example, "utf8"));
  const context = await opb.browser.newContext({ viewport: { width: CONTENT_WIDTH, height: 900 }, colorScheme: "dark" });
  const page = collectErrors(await context.newPage());
  await page.setContent(html);
  assert.equal(await page.getAttribute("html", "data-theme"), "dark");
  assert.ok(luminance(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)) < 0.05, "dark on screen");

  await page.emulateMedia({ media: "print" });
  const look = await page.evaluate(() => {
    const colour = (element, property) => getComputedStyle(element)[property];
    const box = document.querySelector(".graph");
    const svg = box.querySelector("svg.graph");
    return {
      paper: colour(document.body, "backgroundColor"),
      ink: colour(document.body, "color"),
      banner: colour(document.querySelector(".trust-banner"), "backgroundColor"),
      drawing: colour(svg.querySelector(".graph-background"), "fill"),
      stepName: colour(svg.querySelector(".node-title"), "fill"),
      width: svg.getBoundingClientRect().width,
      clipped: box.scrollWidth > box.clientWidth,
    };
  });
  assert.ok(luminance(look.paper) > 0.9, `white paper: ${look.paper}`);
  assert.ok(luminance(look.ink) < 0.05, `dark text: ${look.ink}`);
  assert.ok(luminance(look.banner) > 0.8, `the trust banner light: ${look.banner}`);
  assert.ok(luminance(look.drawing) > 0.8, `the drawing's background light: ${look.drawing}`);
  assert.ok(luminance(look.stepName) < 0.05, `the drawing's step names dark: ${look.stepName}`);
  assert.ok(look.width <= CONTENT_WIDTH, `the drawing (${look.width} px) within the page (${CONTENT_WIDTH} px)`);
  assert.equal(look.clipped, false, "the drawing is not clipped");

  const text = await printed(page, "print-report-dark");
  for (const step of playbook.steps) assert.ok(holds(text, step.id), `step ${step.id} printed`);
  for (const tool of playbook.tools) assert.ok(holds(text, tool.name), `tool ${tool.name} printed`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("an <opb-viewer> of a fixed height, dark on a dark page, prints light: every panel under its tab's name, the legend open, the drawing within the page", async () => {
  const yaml = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
  const steps = [...yaml.matchAll(/^ {2}- id: (\S+)/gm)].map(([, id]) => id);
  assert.ok(steps.length >= 3, `the example's steps: ${steps}`);
  const attribute = yaml.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  // A dark site, as it styles the element: its own colours given, and a
  // height that scrolls on screen; its own page prints light.
  const site = `<!doctype html><html lang="en" data-theme="dark"><head><meta charset="utf-8"><title>Print</title>
<style>body { margin: 0; background: #0b1020; color: #e6e9f0; font: 16px system-ui, sans-serif; }
opb-viewer { --opb-bg: #0b1020; --opb-text: #e6e9f0; --opb-surface: #111831; }
@media print { body { background: #ffffff; color: #000000; } }</style>
<script type="module" src="${examplePlayground}opb-viewer.js"></script></head>
<body><h1>Refund triage</h1><opb-viewer kind="playbook" height="320" code="${attribute}"></opb-viewer></body></html>`;
  const context = await opb.browser.newContext({ viewport: { width: CONTENT_WIDTH, height: 900 }, colorScheme: "dark" });
  const page = collectErrors(await context.newPage());
  const refused = await routeSites(page);
  await page.route(`${docsSite}print.html`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: site }));
  await page.goto(`${docsSite}print.html`);
  const viewer = page.locator("opb-viewer");
  await viewer.locator(".opb-graph[data-width] svg.graph").waitFor({ timeout: 20_000 });
  const inShadow = (fn) => page.evaluate(fn);
  assert.equal(await inShadow(() => document.querySelector("opb-viewer").shadowRoot.querySelector(".opb-root").dataset.theme), "dark");
  const tabs = await viewer.locator('[role="tab"]').allTextContents();
  assert.ok(tabs.length >= 4, `the tabs: ${tabs}`);

  await page.emulateMedia({ media: "print" });
  // The graph's box is refitted when its width changes: a frame for that.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const look = await inShadow(() => {
    const element = document.querySelector("opb-viewer");
    const shadow = element.shadowRoot;
    const colour = (node, property) => getComputedStyle(node)[property];
    const rootBox = shadow.querySelector(".opb-root");
    const box = shadow.querySelector(".opb-graph");
    const svg = box.querySelector("svg.graph");
    return {
      paper: colour(rootBox, "backgroundColor"),
      ink: colour(rootBox, "color"),
      drawing: colour(svg.querySelector(".graph-background"), "fill"),
      width: svg.getBoundingClientRect().width,
      boxWidth: box.clientWidth,
      clipped: box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight,
      elementClipped: element.scrollHeight > element.clientHeight,
      hiddenPanels: [...shadow.querySelectorAll(".opb-panel")].filter((panel) => !panel.checkVisibility()).map((panel) => panel.id),
      headings: [...shadow.querySelectorAll(".opb-panel")].map((panel) => getComputedStyle(panel, "::before").content),
      chrome: [".opb-tabs", ".opb-zoom", ".opb-bar"].filter((selector) => shadow.querySelector(selector)?.checkVisibility()),
      legend: shadow.querySelector(".graph-legend ul").checkVisibility(),
    };
  });
  assert.ok(luminance(look.paper) > 0.9, `white paper: ${look.paper}`);
  assert.ok(luminance(look.ink) < 0.05, `dark text: ${look.ink}`);
  assert.ok(luminance(look.drawing) > 0.8, `the drawing's background light: ${look.drawing}`);
  assert.ok(look.width <= CONTENT_WIDTH && look.width <= look.boxWidth, `the drawing (${look.width} px) within its box (${look.boxWidth} px) and the page (${CONTENT_WIDTH} px)`);
  assert.equal(look.clipped, false, "the drawing's box neither clips nor scrolls");
  assert.equal(look.elementClipped, false, "the element's height does not clip it on paper");
  assert.deepEqual(look.hiddenPanels, [], "every panel printed");
  assert.deepEqual(look.headings, tabs.map((tab) => JSON.stringify(tab)), "each panel headed by its tab's name");
  assert.deepEqual(look.chrome, [], "no tab row, zoom buttons or link");
  assert.equal(look.legend, true, "the legend open");

  const text = await printed(page, "print-viewer-dark");
  for (const step of steps) assert.ok(holds(text, step), `step ${step} printed`);
  for (const tab of tabs) assert.ok(holds(text, tab), `the tab ${tab} heads its panel`);
  assert.ok(holds(text, "Refund a charge."), "the Tools panel's tool descriptions");
  assert.ok(holds(text, "PB406"), "the Problems panel's problems");
  assert.ok(holds(text, "Moves money"), "the trust summary");
  assert.deepEqual(refused, []);
  assert.deepEqual(page.errors, []);
  await context.close();
});
