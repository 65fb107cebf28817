// The viewer on a phone, end to end in Chromium: the reading view a shared
// link opens, the embed page and <opb-viewer> on a docs page, each at
// 375 px on a touch screen, light and dark, showing a playbook whose money
// step no person decides (PB220's fixture, its names made long enough that
// they must wrap on a phone). On each: nothing wider than the screen; the
// banner opens with its verdict and cuts no name inside a word; the tabs
// stay on one row, with a cue where more of them are, held at the top as
// the page scrolls; the graph opens, and fits again, with its step names at
// 12 CSS pixels or more, and its zoom buttons work by pointer and by key;
// every tap target is 24 by 24 pixels or more; axe-core finds nothing.
// Then the reading view's tab is named after its document, Edit shows no
// key on a touch screen, and screenshots at 375 and 1400 px, light and
// dark, of an ungated and a fully gated playbook, for a person to look at.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenshot, root, session, pako, collectErrors, closeClean, violations, routeSites, docsSite } from "./harness.mjs";

const opb = session();
const fixture = (name) => readFileSync(join(root, "crates/core/tests/fixtures/rules", name), "utf8");
// Names as long as real ones get, so that a phone's line must break them.
const LONG_NAMES = [
  ["quick_refund", "quick_refund_without_asking_again"],
  ["ACME_MCP_TOKEN", "ACME_ORDERS_MCP_SERVER_ACCESS_TOKEN"],
  ["refund.create", "payments.refund.create_for_failed_charge"],
];
const UNGATED = LONG_NAMES.reduce((text, [from, to]) => text.replaceAll(from, to), fixture("PB220.bad.yaml"));
const GATED = fixture("PB220.good.yaml");

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

async function newPage(options, colorScheme) {
  const context = await opb.browser.newContext({ ...options, colorScheme });
  return collectErrors(await context.newPage());
}

// The three places the viewer is shown, each opened on `code`: the
// selector of its <opb-viewer>, once it shows the document.
const SURFACES = {
  async reading(page, code) {
    await page.goto(opb.server.url + pako({ code }));
    await page.waitForSelector("[data-opb-reading] opb-viewer:not([hidden])");
    return "[data-opb-reading] opb-viewer";
  },
  async embed(page, code) {
    await page.goto(`${opb.server.url}embed.html${pako({ code })}`);
    await page.locator("opb-viewer[data-embed]").locator('[data-testid="trust-banner"]').waitFor();
    return "opb-viewer[data-embed]";
  },
  async element(page, code) {
    await routeSites(page);
    const attribute = code.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A playbook</title>
      <script type="module" src="http://127.0.0.1:8080/opb-viewer.js"></script></head>
      <body style="margin: 0; padding: 0 12px; font: 16px/1.5 system-ui, sans-serif"><main><h1>A playbook</h1><opb-viewer code="${attribute}"></opb-viewer><p>After the viewer.</p></main></body></html>`;
    await page.route(docsSite + "phone.html", (route) => route.fulfill({ status: 200, body: html, headers: { "content-type": "text/html; charset=utf-8" } }));
    await page.goto(docsSite + "phone.html");
    await page.locator("opb-viewer").locator('[data-testid="trust-banner"]').waitFor({ timeout: 20_000 });
    return "opb-viewer";
  },
};

// What the viewer in `selector` shows, measured in the page.
function measure(page, selector) {
  return page.evaluate((selector) => {
    const shadow = document.querySelector(selector).shadowRoot;
    const banner = shadow.querySelector('[data-testid="trust-banner"]');
    const box = (element) => element.getBoundingClientRect();
    // The banner's lines as drawn: its children with text and a size.
    const lines = [...banner.children].filter((child) => child.textContent.trim() && box(child).height > 1 && box(child).width > 1);
    lines.sort((a, b) => box(a).top - box(b).top);

    // Each code span's characters in order: where one starts a new line
    // box, the character before it must end a part of the name.
    const broken = [];
    let wrapped = 0;
    const range = document.createRange();
    for (const code of banner.querySelectorAll("code")) {
      range.selectNodeContents(code);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) wrapped += 1;
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      let top = null;
      let before = "";
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (let i = 0; i < text.length; i++) {
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          if (top !== null && rect.top > top + 2 && !".-_".includes(before)) broken.push(`${code.textContent} broken after "${before}"`);
          top = rect.top;
          before = text.data[i];
        }
      }
    }

    const tablist = shadow.querySelector('[role="tablist"]');
    const tabTops = new Set([...tablist.querySelectorAll('[role="tab"]')].map((tab) => Math.round(box(tab).top)));

    // Every target a finger may tap, of those shown, here and on the page.
    const targets = [...document.querySelectorAll("button, a[href], summary, [role=button]"), ...shadow.querySelectorAll("button, a[href], summary, [role=tab], [role=button]")]
      .filter((target) => target.getClientRects().length > 0 && box(target).width > 0)
      .map((target) => ({ name: target.getAttribute("aria-label") ?? target.textContent.trim().slice(0, 30), width: box(target).width, height: box(target).height }));

    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth,
      firstLine: lines[0]?.dataset.testid ?? lines[0]?.className,
      broken,
      wrapped,
      rows: tabTops.size,
      tabsPosition: getComputedStyle(tablist).position,
      tabsOverflow: tablist.scrollWidth - tablist.clientWidth,
      small: targets.filter((t) => t.width < 24 || t.height < 24),
      targets: targets.length,
    };
  }, selector);
}

// The smallest step name of the graph in CSS pixels, its font size times
// the drawing's scale on screen, and the graph's scale as the viewer set it.
function graphScale(page, selector) {
  return page.evaluate((selector) => {
    const shadow = document.querySelector(selector).shadowRoot;
    const names = [...shadow.querySelectorAll(".opb-graph > svg.graph .node-title")];
    const smallest = Math.min(...names.map((name) => parseFloat(getComputedStyle(name).fontSize) * name.getScreenCTM().a));
    const graph = shadow.querySelector(".opb-graph");
    return { smallest, scale: Number(graph.dataset.scale), pans: graph.scrollWidth > graph.clientWidth };
  }, selector);
}

// The tab row's last pixels at its right edge, below the tabs' text, as
// PNG bytes: what the row shows where more tabs are hidden.
async function rowEdge(page, selector) {
  const row = page.locator(selector).locator('[role="tablist"]');
  await row.scrollIntoViewIfNeeded();
  const { x, y, width, height } = await row.boundingBox();
  return page.screenshot({ clip: { x: x + width - 6, y: y + height - 4, width: 5, height: 2 } });
}

for (const [surface, open] of Object.entries(SURFACES)) {
  for (const scheme of ["light", "dark"]) {
    test(`${surface} at 375 px, ${scheme}: one screen wide, verdict first, whole names, one sticky row of tabs, a readable graph, large targets`, async () => {
      const page = await newPage(PHONE, scheme);
      const selector = await open(page, UNGATED);
      const viewer = page.locator(selector);
      await viewer.locator(".opb-graph > svg.graph .node-title").first().waitFor();
      const shown = await measure(page, selector);

      assert.equal(shown.innerWidth, 375, "the page is not zoomed out to fit something wide");
      assert.ok(shown.scrollWidth <= shown.innerWidth, `${shown.scrollWidth - shown.innerWidth} px wider than the screen`);
      assert.equal(shown.firstLine, "trust-verdict", "the verdict is the banner's first line");
      assert.match(await viewer.locator('[data-testid="trust-verdict"]').innerText(), /no person deciding/);
      assert.deepEqual(shown.broken, [], "names wrap only after . _ or -");
      assert.ok(shown.wrapped > 0, "some name is long enough to wrap");
      assert.equal(shown.rows, 1, "the tabs stand on one row");
      assert.equal(shown.tabsPosition, "sticky");
      assert.ok(shown.tabsOverflow > 0, "at 375 px the row scrolls sideways");
      assert.deepEqual(shown.small, [], `of ${shown.targets} targets, none under 24 by 24 px`);

      // A shadow at the edge beyond which more tabs are: there at the start
      // of the row, gone at its end.
      const tablist = viewer.locator('[role="tablist"]');
      const cue = await rowEdge(page, selector);
      await tablist.evaluate((row) => (row.scrollLeft = row.scrollWidth));
      const end = await rowEdge(page, selector);
      assert.notDeepEqual(cue, end, "the row's right edge shows that more tabs follow");
      await tablist.evaluate((row) => (row.scrollLeft = 0));

      // The graph opens readable, and so does Fit after zooming out.
      const opened = await graphScale(page, selector);
      assert.ok(opened.smallest >= 12 - 0.01, `step names of ${opened.smallest.toFixed(2)} px on opening`);
      assert.ok(opened.pans, "the graph, wider than the screen at a readable size, pans in its box");
      await viewer.getByRole("button", { name: "Zoom out" }).click();
      const out = await graphScale(page, selector);
      assert.ok(out.scale < opened.scale, `zoomed out: ${out.scale} < ${opened.scale}`);
      await viewer.getByRole("button", { name: "Zoom in" }).focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      const zoomedIn = await graphScale(page, selector);
      assert.ok(zoomedIn.scale > opened.scale, `zoomed in by key: ${zoomedIn.scale} > ${opened.scale}`);
      await viewer.getByRole("button", { name: "Fit" }).click();
      const fitted = await graphScale(page, selector);
      assert.equal(fitted.scale, opened.scale, "Fit goes back to the opening view");
      assert.ok(fitted.smallest >= 12 - 0.01, `step names of ${fitted.smallest.toFixed(2)} px after Fit`);

      assert.deepEqual(await violations(page), [], `axe-core on the ${surface}, ${scheme}`);

      // The tabs stay at the top of the screen while their panel scrolls.
      await page.evaluate((selector) => {
        const row = document.querySelector(selector).shadowRoot.querySelector('[role="tablist"]');
        window.scrollBy(0, row.getBoundingClientRect().top + 400);
      }, selector);
      const top = await tablist.evaluate((row) => row.getBoundingClientRect().top);
      assert.ok(Math.abs(top) < 1, `the tabs are at the top of the screen (${top} px)`);
      await screenshot(page, `phone-${surface}-${scheme}`);
      await closeClean(page);
    });
  }
}

test("the reading view's tab is named after its document, and Edit shows its key only where there is a keyboard", async () => {
  const touch = await newPage(PHONE, "light");
  await SURFACES.reading(touch, UNGATED);
  assert.equal(await touch.title(), "Failed charge recovery - opb");
  assert.equal(await touch.locator('[data-testid="edit"] kbd').isVisible(), false, "no key on a touch screen");
  const edit = await touch.locator('[data-testid="edit"]').boundingBox();
  assert.ok(edit.width >= 24 && edit.height >= 24 && edit.x + edit.width <= 375, "Edit is on screen, easy to tap");
  await closeClean(touch);

  const desk = await newPage({ viewport: { width: 1400, height: 900 } }, "light");
  // No name: the id names it, as the trust summary's title does.
  await SURFACES.reading(desk, GATED.replace(/^name: .*\n/m, ""));
  assert.equal(await desk.title(), "failed-charge-recovery - opb");
  assert.equal(await desk.locator('[data-testid="edit"] kbd').isVisible(), true, "the E key with a keyboard and a mouse");
  await closeClean(desk);
});

test("screenshots of the reading view: an ungated and a gated playbook at 375 and 1400 px, light and dark", async () => {
  for (const [which, code] of [["ungated", UNGATED], ["gated", GATED]]) {
    for (const [width, options] of [[375, PHONE], [1400, { viewport: { width: 1400, height: 900 } }]]) {
      for (const scheme of ["light", "dark"]) {
        const page = await newPage(options, scheme);
        await SURFACES.reading(page, code);
        await page.locator("opb-viewer .opb-graph > svg.graph").waitFor();
        await screenshot(page, `phone-reading-${which}-${width}-${scheme}`);
        await closeClean(page);
      }
    }
  }
});
