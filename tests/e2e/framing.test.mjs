// Framing, end to end in Chromium: another site cannot frame the playground
// (its server says `frame-ancestors 'none'` and `X-Frame-Options: DENY`,
// which a <meta> Content-Security-Policy cannot), so no page can lay it
// under a decoy and have its reader click Copy link or type into it; the
// embed page, made to be framed, frames fine, and so does an embed address
// in the playground's own form, which the server sends on to the embed page.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, session, serve, pako, collectErrors } from "./harness.mjs";

const opb = session();
const PLAYBOOK = readFileSync(join(root, "crates/app/src/examples/minimal-playbook.yaml"), "utf8");

test("the served playground answers with the framing headers, the embed page without them", async () => {
  for (const [page, framable] of [["", false], ["index.html", false], ["embed.html", true]]) {
    const headers = (await fetch(new URL(page, opb.server.url))).headers;
    assert.equal(headers.get("content-security-policy"), framable ? null : "frame-ancestors 'none'", page);
    assert.equal(headers.get("x-frame-options"), framable ? null : "DENY", page);
  }
});

test("another site's frame of the playground is refused, while the embed page frames fine", async (t) => {
  // Another site: a server of its own on localhost, where the playground
  // is on 127.0.0.1 (a page Playwright makes up cannot frame a local
  // server: Chromium refuses a public page's requests to the machine).
  const link = pako({ code: PLAYBOOK });
  const site = mkdtempSync(join(tmpdir(), "opb-framing-"));
  t.after(() => rmSync(site, { recursive: true, force: true }));
  writeFileSync(
    join(site, "index.html"),
    `<!doctype html><title>Another site</title><link rel="icon" href="data:,">
    <iframe id="playground" src="${opb.server.url}" width="900" height="300"></iframe>
    <iframe id="link" src="${opb.server.url}${link}" width="900" height="300"></iframe>
    <iframe id="embed" src="${opb.server.url}embed.html${link}" width="900" height="500"></iframe>
    <iframe id="own-form" src="${opb.server.url}?embed=1&amp;theme=dark${link}" width="900" height="500"></iframe>`,
  );
  const other = await serve(site);
  t.after(() => other.close());
  // Tall enough for every frame: the embed loads its viewer once in view.
  const context = await opb.browser.newContext({ viewport: { width: 1000, height: 1800 } });
  const page = collectErrors(await context.newPage());
  await page.goto(other.url.replace("127.0.0.1", "localhost"));

  for (const id of ["embed", "own-form"]) {
    await page.frameLocator(`#${id}`).locator('opb-viewer[data-embed] svg.graph [data-step-id="look-up"]').waitFor();
  }
  const ownForm = await (await page.$("#own-form")).contentFrame();
  assert.match(ownForm.url(), /\/embed\.html\?theme=dark#pako:/, "the playground's form of an embed address becomes the embed page's");

  const refusal = /^Framing '[^']*' violates the following Content Security Policy directive: "frame-ancestors 'none'"/;
  for (const id of ["playground", "link"]) {
    const frame = await (await page.$(`#${id}`)).contentFrame();
    await frame.waitForLoadState();
    assert.equal(frame.url(), "chrome-error://chromewebdata/", `#${id}: the browser shows its refusal, not the playground`);
  }
  const refusals = () => page.errors.filter((error) => refusal.test(error));
  for (const until = Date.now() + 5_000; refusals().length < 2 && Date.now() < until; ) await page.waitForTimeout(50);
  assert.equal(refusals().length, 2, `the browser says why, once a frame: ${page.errors.join("\n")}`);
  assert.deepEqual(page.errors.filter((error) => !refusal.test(error)), [], "nothing else went wrong");
  await context.close();
});
