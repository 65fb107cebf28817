// Share links, persistence, files and themes, end to end in Chromium: a link
// made in the page opens the same document on the same panel in a fresh
// page; links built outside the app open; a broken link and a reload never
// lose the editor's text; opening a link keeps the work it replaces.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { join } from "node:path";
import { screenshot, root, session, pako, collectErrors, openPlayground, afterCheck, draftSaved, luminance, contrast, editorText, pasteChecked, openTab } from "./harness.mjs";

const examplesDir = join(root, "examples");
const opb = session();

// A fresh browser context (its own storage), a page in it, and the errors
// the page reports.
async function open(url, { context, viewport = { width: 1440, height: 900 } } = {}) {
  context ??= await opb.browser.newContext({ viewport });
  return openPlayground(collectErrors(await context.newPage()), url ?? opb.server.url);
}

// The document a `#pako:` link holds, if it is one.
function linkedText(link) {
  if (!link.includes("#pako:")) return undefined;
  return JSON.parse(inflateSync(Buffer.from(link.slice(link.indexOf("#pako:") + 6), "base64url")).toString("utf8")).code;
}

// The text of the share link the Share menu offers.
async function sharedText(page) {
  await page.click('[data-testid="share"]');
  return linkedText(await page.inputValue('[data-testid="share-link"]'));
}

// Waits until the address holds a share of the editor's current document.
async function addressFollows(page) {
  await page.waitForFunction(() => location.hash.startsWith("#pako:"), null, { timeout: 5_000 });
}


const PLAYBOOK = readFileSync(join(root, "crates/app/src/examples/minimal-playbook.yaml"), "utf8");

function assertClean(page) {
  assert.deepEqual(page.errors, [], "no errors in the page");
}

test("a share link made in the page opens the same text on the same panel in a fresh page", async () => {
  const page = await open();
  const text = PLAYBOOK.replace("Customer lookup", "Customer lookup — shared 😀");
  await pasteChecked(page, text);
  await page.click('[data-testid="tab-rules"]');
  await page.click('a.rule-row[href="#rules/PB213"]');
  await page.waitForSelector('article.rule-page[data-rule="PB213"]');
  await page.waitForFunction(() => location.hash.startsWith("#pako:"), null, { timeout: 5_000 });

  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#pako:[A-Za-z0-9_-]+$/);
  assert.equal(link, page.url(), "the address follows the document");
  await screenshot(page, "share-01-menu");

  const fresh = await open(link);
  assert.equal(await editorText(fresh, { checked: true }), text);
  assert.equal(await fresh.getAttribute('[data-testid="tab-rules"]', "aria-selected"), "true");
  await fresh.waitForSelector('article.rule-page[data-rule="PB213"]');
  assert.match(await fresh.textContent('[data-testid="trust-banner"]'), /What this document can do/);
  await screenshot(fresh, "share-02-opened-link");
  assertClean(page);
  assertClean(fresh);
  await page.context().close();
  await fresh.context().close();
});

// The app keeps its own copy of the editor's text, following each edit
// (crates/app/src/mirror.rs); the check and the share link read that copy.
test("the text a share link holds follows every kind of edit, non-ASCII text included", async () => {
  const page = await open();
  await pasteChecked(page, PLAYBOOK.replace("Customer lookup", "Customer lookup — 😀 é"));
  const edit = (action) => afterCheck(page, action);
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
  await edit(() => page.keyboard.type(" ü"));
  await edit(() => page.keyboard.press("ArrowLeft").then(() => page.keyboard.press("Backspace")));
  await edit(() => page.keyboard.press("Enter"));
  // Several lines commented out at once: one transaction of several changes.
  await page.keyboard.press("ArrowDown");
  for (let i = 0; i < 3; i++) await page.keyboard.press("Shift+ArrowDown");
  await edit(() => page.keyboard.press("Control+/"));
  await edit(() => page.keyboard.press("Control+z"));
  await edit(() => page.keyboard.press("Control+y"));
  await edit(() => page.keyboard.press("Tab"));
  const text = await editorText(page, { checked: true });
  assert.notEqual(text, PLAYBOOK, "the edits changed the text");
  assert.match(text, /😀 é/);
  assert.equal(await sharedText(page), text);
  assertClean(page);
  await page.context().close();
});

// CodeMirror holds line breaks as "\n"; the text the app checks and shares
// is the editor's, whatever breaks the opened text had.
test("a document opened with Windows line breaks is checked and shared as the editor holds it", async () => {
  const page = await open(opb.server.url + pako({ code: PLAYBOOK.replaceAll("\n", "\r\n") }));
  const text = await editorText(page, { checked: true });
  assert.equal(text, PLAYBOOK, "the editor holds the text with \\n breaks");
  assert.equal(await sharedText(page), text);
  assertClean(page);
  await page.context().close();
});

test("links built outside the app (zlib + base64url, and plain base64url) open their document", async () => {
  const manifest = readFileSync(join(examplesDir, "acme-github.oz0-plugin.yaml"), "utf8");
  const page = await open(opb.server.url + pako({ code: manifest, kind: "plugin-manifest" }));
  assert.equal(await editorText(page, { checked: true }), manifest);
  assert.equal(await page.getAttribute('[data-testid="kind"]', "data-kind"), "plugin-manifest");
  assert.match(await page.textContent('[data-testid="kind"]'), /chosen/);
  assert.match(await page.textContent('[data-testid="trust-banner"]'), /Runs/);
  await page.context().close();

  const plain = "#base64:" + Buffer.from(JSON.stringify({ code: PLAYBOOK }), "utf8").toString("base64url");
  const second = await open(opb.server.url + plain);
  assert.equal(await editorText(second, { checked: true }), PLAYBOOK);
  assertClean(second);
  await second.context().close();
});

test("a corrupt or truncated link says so and keeps the editor's text", async () => {
  const page = await open();
  await pasteChecked(page, PLAYBOOK.replace("lou", "rae"));
  const mine = await editorText(page, { checked: true });
  await addressFollows(page);

  // In the open page: the address is changed to a damaged link.
  const good = pako({ code: "id: other\n" });
  await page.evaluate((hash) => (location.hash = hash), good.slice(0, good.length - 6));
  await page.waitForSelector('[data-testid="share-notice"].error');
  assert.match(await page.textContent(".cm-content"), /agent: rae/, "the editor still shows the text");
  assert.match(await page.textContent('[data-testid="share-notice"]'), /could not be opened.*cut short|could not be opened.*damaged/s);
  assert.equal(await editorText(page, { checked: true }), mine);
  await screenshot(page, "share-03-bad-link");

  // A new visit with a damaged link opens the most recent draft instead,
  // once its save (after a pause in typing) has happened.
  await draftSaved(page, mine);
  const visit = await open(opb.server.url + "#pako:not*base64", { context: page.context() });
  assert.match(await visit.textContent('[data-testid="share-notice"]'), /character 4 of its data is \*/);
  assert.equal(await editorText(visit, { checked: true }), mine);
  assertClean(page);
  assertClean(visit);
  await page.context().close();
});

test("a reload restores the text, with its name and kind", async () => {
  const page = await open();
  await pasteChecked(page, PLAYBOOK + "# my note\n");
  await page.click('[data-testid="kind-switch"] [data-kind="playbook"]');
  await draftSaved(page, (draft) => draft.text.includes("# my note") && draft.kind === "playbook");
  // Reload without the fragment: the text comes back from storage alone.
  await page.goto(opb.server.url);
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.match(await editorText(page, { checked: true }), /# my note/);
  assert.equal(await page.textContent('[data-testid="document-name"]'), "untitled.yaml");
  assert.equal(await page.getAttribute('[data-testid="kind-switch"] [data-kind="playbook"]', "aria-checked"), "true");
  assert.equal(await page.locator('[data-testid="trust-banner"]').count(), 0, "one's own document is not a stranger's");
  assertClean(page);
  await page.context().close();
});

test("going back changes the panel, never the text, though the entry left holds an older version", async () => {
  const page = await open();
  await pasteChecked(page, PLAYBOOK);
  await addressFollows(page);
  const older = await page.evaluate(() => location.hash);
  // A panel link makes a history entry; the address then follows an edit.
  await page.click('[data-testid="tab-rules"]');
  const edited = PLAYBOOK + "# edited after the panel changed\n";
  await pasteChecked(page, edited);
  await page.waitForFunction((older) => location.hash.startsWith("#pako:") && location.hash !== older, older, { timeout: 5_000 });
  // The address the page arrives on is read as it arrives: a moment later
  // it follows the document again.
  await page.evaluate(() => addEventListener("hashchange", () => (window.arrivedOn = location.hash), { once: true }));
  await page.goBack();
  const arrivedOn = await (await page.waitForFunction(() => window.arrivedOn)).jsonValue();
  assert.equal(arrivedOn, older, "back on the entry that holds the older text");
  // That entry named no tab: the one the valid playbook opens on.
  await page.waitForSelector('[data-testid="tab-graph"][aria-selected="true"]');
  assert.equal(await editorText(page, { checked: true }), edited);
  await page.waitForFunction((older) => location.hash !== older, older, { timeout: 5_000 });
  assert.equal(linkedText(await page.evaluate(() => location.hash)), edited, "the address follows the text kept");
  assert.equal(await page.locator('[data-testid="share-notice"]').count(), 0);
  assertClean(page);
  await page.context().close();
});

test("opening a link keeps the work it replaces, to restore it", async () => {
  const page = await open();
  await pasteChecked(page, PLAYBOOK + "# unsaved work\n");
  const mine = await editorText(page, { checked: true });
  await page.evaluate((hash) => (location.hash = hash), pako({ code: "{\"id\": \"theirs\"}" }));
  await page.waitForFunction(() => document.querySelector(".cm-content").textContent.includes("theirs"));
  assert.match(await page.textContent('[data-testid="share-notice"]'), /Opened the shared document\. Your work on \S+ is kept/);
  await page.click('[data-testid="restore-previous"]');
  await page.waitForFunction(() => document.querySelector(".cm-content").textContent.includes("unsaved work"));
  assert.equal(await editorText(page, { checked: true }), mine);
  // The linked document is kept in turn.
  assert.match(await page.textContent('[data-testid="share-notice"]'), /Restored your previous document/);
  assertClean(page);
  await page.context().close();
});

test("a document with a credential asks before its link is copied, and the banner shows 4 characters of it", async () => {
  const context = await opb.browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
  const text = PLAYBOOK.replace("connections: []", `connections: []\n  secrets:\n    - name: ${token}\n      purpose: auth`);
  const page = await open(opb.server.url + pako({ code: text }), { context });
  const banner = await page.textContent('[data-testid="trust-banner"]');
  assert.match(banner, /ghp_…/);
  assert.ok(!banner.includes(token.slice(0, 8)), banner);
  assert.match(banner, /look(s)? like a credential/);

  await page.click('[data-testid="share"]');
  await page.click('[data-testid="copy-link"]');
  await page.waitForSelector('[data-testid="credential-confirm"]');
  assert.match(await page.textContent('[data-testid="credential-confirm"]'), /SEC001/);
  await screenshot(page, "share-04-credential-confirm");
  await page.click('[data-testid="confirm-copy"]');
  await page.waitForSelector('[data-testid="share-status"]');
  assert.match(await page.textContent('[data-testid="share-status"]'), /Copied the link/);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.inputValue('[data-testid="share-link"]'));
  assertClean(page);
  await context.close();
});

// Every address the page's history holds from its first script on: the
// one it opened at and each one written or navigated to since (an entry's
// address cannot be read back once left).
async function recordAddresses(context) {
  await context.addInitScript(() => {
    window.addresses = [location.href];
    for (const name of ["pushState", "replaceState"]) {
      const write = History.prototype[name];
      History.prototype[name] = function (...args) {
        const result = write.apply(this, args);
        window.addresses.push(location.href);
        return result;
      };
    }
    addEventListener("hashchange", () => window.addresses.push(location.href));
  });
}

// One document per credential rule, each finding by that rule alone.
for (const code of ["SEC001", "PB411", "PM312"]) {
  test(`a document with a ${code} finding is copied only once confirmed, and never written into the address`, async () => {
    const text = readFileSync(join(root, `crates/core/tests/fixtures/rules/${code}.bad.yaml`), "utf8");
    const context = await opb.browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await recordAddresses(context);
    const page = await open(undefined, { context });
    // The tab's link is a history entry of its own, before the count.
    await openTab(page, "diagnostics");
    const entries = await page.evaluate(() => history.length);
    await page.evaluate(() => (window.addresses = []));
    await page.evaluate(() => navigator.clipboard.writeText("before"));
    await pasteChecked(page, text);
    await page.waitForSelector(`li.diagnostic[data-code="${code}"]`);
    // The address follows the document within 750 ms of a check: the page
    // has written it once its history state is its own.
    await page.waitForFunction(() => history.state === "opb");
    await page.click('[data-testid="share"]');
    await page.click('[data-testid="copy-link"]');
    await page.waitForSelector('[data-testid="credential-confirm"]');
    assert.match(await page.textContent('[data-testid="credential-confirm"]'), new RegExp(`like (a credential|credentials) \\(${code}\\)`));
    await page.click('[data-testid="cancel-copy"]');
    await page.waitForSelector('[data-testid="credential-confirm"]', { state: "detached" });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "before", "a cancelled copy copies nothing");
    const written = await page.evaluate(() => [...window.addresses, location.href]);
    assert.deepEqual(written.filter((address) => linkedText(address) === text), [], "the address never held the document");
    assert.equal(await page.evaluate(() => history.length), entries, "no history entry was added");

    await page.click('[data-testid="copy-link"]');
    await page.click('[data-testid="confirm-copy"]');
    await page.waitForSelector('[data-testid="share-status"]');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.inputValue('[data-testid="share-link"]'));
    assert.equal(linkedText(copied), text);
    // The address shows the panel alone (written within 750 ms of a check).
    await page.waitForFunction(() => location.hash === "#diagnostics");

    // A reload continues the work from its draft.
    await draftSaved(page, text);
    await page.reload();
    assert.equal(await editorText(page, { checked: true }), text);
    assertClean(page);
    await context.close();
  });
}

test("a document too large for a link says so and offers downloads", async () => {
  const page = await open();
  let seed = 3;
  const words = Array.from({ length: 4000 }, () => (seed = (seed * 48271) % 2147483647).toString(36));
  await pasteChecked(page, JSON.stringify({ openplaybook: "1.6", id: "big", description: words.join(" "), steps: [] }, null, 2));
  await page.click('[data-testid="share"]');
  assert.match(await page.textContent('[data-testid="link-too-large"]'), /too large for a link.*8,000/s);
  assert.equal(await page.locator('[data-testid="share-link"]').count(), 0);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="download-yaml"]')]);
  assert.equal(download.suggestedFilename(), "failed-charge-recovery.yaml", "JSON pasted over the JSON example keeps its name");
  assert.match(readFileSync(await download.path(), "utf8"), /^openplaybook: "?1\.6"?/);
  await screenshot(page, "share-05-too-large");
  assertClean(page);
  await page.context().close();
});

test("files open from the picker and by a drop on the editor", async () => {
  const page = await open();
  const manifest = readFileSync(join(examplesDir, "shady-tools.broken.oz0-plugin.yaml"), "utf8");
  await page.setInputFiles('[data-testid="file-input"]', { name: "shady.oz0-plugin.yaml", mimeType: "text/yaml", buffer: Buffer.from(manifest) });
  await page.waitForFunction(() => document.querySelector('[data-testid="document-name"]').textContent === "shady.oz0-plugin.yaml");
  assert.equal(await editorText(page, { checked: true }), manifest);

  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], "dropped.yaml", { type: "text/yaml" }));
    const target = document.querySelector(".file-drop");
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, PLAYBOOK);
  await page.waitForFunction(() => document.querySelector('[data-testid="document-name"]').textContent === "dropped.yaml");
  assert.equal(await editorText(page, { checked: true }), PLAYBOOK);

  await page.setInputFiles('[data-testid="file-input"]', { name: "binary.json", mimeType: "application/json", buffer: Buffer.from([0x7b, 0xff, 0xfe]) });
  await page.waitForSelector('[data-testid="notice"].error');
  assert.match(await page.textContent('[data-testid="notice"]'), /not UTF-8/);
  assert.equal(await editorText(page, { checked: true }), PLAYBOOK, "a bad file leaves the document");
  assertClean(page);
  await page.context().close();
});

test("light and dark themes follow the system, and the toggle overrides it", async () => {
  const light = await open(undefined, { context: await opb.browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "light" }) });
  const text = readFileSync(join(examplesDir, "refund-triage.broken.yaml"), "utf8");
  await pasteChecked(light, text);
  assert.equal(await light.getAttribute("html", "data-theme"), "light");
  await screenshot(light, "theme-light");
  await light.context().close();

  const dark = await open(undefined, { context: await opb.browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "dark" }) });
  await pasteChecked(dark, text);
  assert.equal(await dark.getAttribute("html", "data-theme"), "dark");
  const [background, ink] = await dark.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
  assert.ok(luminance(background) < 0.05, `the dark theme darkens the page: ${background}`);
  assert.ok(contrast(background, ink) >= 7, `and its text stays readable: ${ink} on ${background}`);
  await screenshot(dark, "theme-dark");
  // auto → light → dark → auto
  await dark.click('[data-testid="theme-toggle"]');
  assert.equal(await dark.getAttribute("html", "data-theme"), "light");
  await dark.click('[data-testid="theme-toggle"]');
  assert.equal(await dark.getAttribute("html", "data-theme"), "dark");
  assert.equal(await dark.getAttribute('[data-testid="theme-toggle"]', "data-theme-choice"), "dark");
  assertClean(dark);
  await dark.context().close();
});
