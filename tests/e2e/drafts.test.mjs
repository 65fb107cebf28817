// Drafts, end to end in Chromium: each tab's edits are a draft of its own
// in IndexedDB, so two tabs never overwrite each other's work; a fresh tab
// continues the most recent draft; the Drafts menu lists, opens and
// deletes them; a storage that is full or refused says so; pruning keeps
// the tab's own draft; a reload keeps the selection and the panel, and a
// reload at once after a keystroke keeps it and opens the playground.
//
// Timing matters here, so these tests must also pass as a slow phone or a
// loaded machine runs them: cargo xtask e2e-under-load runs this file and
// the reading view's ten times with every page's CPU slowed 4 times and
// both cores kept busy.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, session, collectErrors, openPlayground, pako, screenshot, storedDrafts, draftSaved, waitForDrafts, assertClean, editorText, pasteChecked } from "./harness.mjs";

const opb = session();
const PLAYBOOK = readFileSync(join(root, "crates/app/src/examples/minimal-playbook.yaml"), "utf8");
const DAY = 24 * 60 * 60 * 1000;

async function newTab(context, url = opb.server.url) {
  return openPlayground(collectErrors(await context.newPage()), url);
}

// The Drafts menu's entries, as a reader sees them.
async function listed(page) {
  if ((await page.locator('[data-testid="drafts-panel"]').count()) === 0) await page.click('[data-testid="drafts"]');
  await page.waitForSelector('[data-testid="drafts-list"], [data-testid="no-drafts"]');
  return page.$$eval('[data-testid="draft"]', (items) =>
    items.map((item) => ({
      id: item.dataset.draft,
      name: item.querySelector(".draft-name").textContent,
      detail: item.querySelector(".draft-detail").textContent,
      current: item.getAttribute("aria-current") === "true",
    })),
  );
}

test("two tabs keep two drafts: closing one and reloading the other loses neither, and both open from the menu", async () => {
  const context = await opb.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const a = await newTab(context);
  const mineA = PLAYBOOK + "# tab A's work\n";
  await pasteChecked(a, mineA);
  await draftSaved(a, mineA);

  // A fresh tab continues the most recent draft, A's, as a copy: A has it open.
  const c = await newTab(context);
  assert.equal(await editorText(c), mineA);
  const mineC = PLAYBOOK + "# tab C's work\n";
  await pasteChecked(c, mineC);
  await draftSaved(c, mineC);
  assert.equal((await draftSaved(a, mineA)).text, mineA, "C's edits did not overwrite A's draft");
  await c.close();

  await a.reload();
  await a.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.equal(await editorText(a), mineA, "a reload continues the tab's own draft");

  // A fresh tab continues the most recent draft: C's, edited last.
  const fresh = await newTab(context);
  assert.equal(await editorText(fresh), mineC);
  const entries = await listed(fresh);
  assert.equal(entries.length, 2);
  assert.deepEqual(entries.map((e) => e.current), [true, false], "newest first, this tab's marked");
  assert.equal(await fresh.locator('[data-testid="delete-draft"]').count(), 0, "neither this tab's draft nor one open in another tab can be deleted here");
  assert.match(entries[0].detail, /^Playbook · [\d.]+ (B|KB) · edited just now · this tab$/);
  assert.match(entries[1].detail, /open in another tab/);
  await screenshot(fresh, "drafts-menu");

  await fresh.click('[data-testid="draft"]:not([aria-current]) [data-testid="open-draft"]');
  await fresh.waitForFunction((text) => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]')) === text, mineA);
  assert.match(await fresh.textContent('[data-testid="share-notice"]'), /Opened the draft untitled\.yaml\. Your work on untitled\.yaml is kept in Drafts/);
  // A had A's draft open: the fresh tab works on a copy of it.
  await pasteChecked(fresh, mineA + "# continued in a third tab\n");
  await draftSaved(fresh, mineA + "# continued in a third tab\n");
  const kept = (await storedDrafts(fresh)).map((d) => d.text);
  assert.ok(kept.includes(mineA) && kept.includes(mineC), "A's and C's drafts are both still kept");
  assert.equal(kept.length, 3);

  await fresh.click('[data-testid="restore-previous"]');
  await fresh.waitForFunction((text) => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]')) === text, mineC);
  await assertClean(a);
  await assertClean(fresh);
  await context.close();
});

test("typing that never pauses is saved within a second, and a closed tab's work opens in the next", async () => {
  const context = await opb.browser.newContext();
  const page = await newTab(context);
  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("Control+End");
  const started = Date.now();
  // Keys every 60 ms for 1.6 s: typing never pauses for 400 ms.
  await page.keyboard.type("\n# " + "x".repeat(26), { delay: 60 });
  const typedFor = Date.now() - started;
  const kept = await storedDrafts(page);
  assert.equal(kept.length, 1, `a draft was written while typing (${typedFor} ms)`);
  assert.match(kept[0].text, /# x{5,}/, "what was on screen for a second is kept");
  const onScreen = await editorText(page);
  await page.close({ runBeforeUnload: true });

  const next = await newTab(context);
  const reopened = await editorText(next);
  assert.ok(onScreen.startsWith(reopened.slice(0, -5)) && reopened.length >= onScreen.length - 17, "the closed tab's draft continues");
  await assertClean(next);
  await context.close();
});

test("a reload at once after a keystroke keeps it: the tab's draft is written as the page is left", async () => {
  const context = await opb.browser.newContext();
  const page = await newTab(context);
  await pasteChecked(page, PLAYBOOK);
  await draftSaved(page, PLAYBOOK);
  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("Control+End");
  await page.keyboard.type("# last");
  const onScreen = await editorText(page);
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.equal(await editorText(page), onScreen);
  await assertClean(page);
  await context.close();
});

test("a reload as the address is about to follow a keystroke reopens the playground with it, not its link's reading view", async () => {
  const context = await opb.browser.newContext();
  const page = await newTab(context);
  await pasteChecked(page, PLAYBOOK);
  // The address follows the paste at once, then at most every 750 ms:
  // once the draft is saved (400 ms on), the keystroke's address is due
  // about as the reload below begins.
  await page.waitForFunction(() => history.state === "opb");
  await draftSaved(page, PLAYBOOK);
  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("Control+End");
  await page.keyboard.type("#");
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0, null, { timeout: 60_000 });
  assert.equal(await editorText(page), PLAYBOOK + "#");
  await assertClean(page);
  await context.close();
});

test("a link opened over work keeps that work as a draft, listed in the menu and one click away", async () => {
  const context = await opb.browser.newContext();
  const page = await newTab(context);
  const mine = PLAYBOOK + "# unsaved work\n";
  await pasteChecked(page, mine);
  await page.evaluate((hash) => (location.hash = hash), pako({ code: '{"id": "theirs"}' }));
  await page.waitForFunction(() => document.querySelector(".cm-content").textContent.includes("theirs"));
  assert.match(await page.textContent('[data-testid="share-notice"]'), /Opened the shared document\. Your work on untitled\.yaml is kept in Drafts/);
  await draftSaved(page, mine);
  const entries = await listed(page);
  assert.deepEqual(entries.map((e) => [e.name, e.current]), [["untitled.yaml", false]], "the link's document is not work until edited");
  await page.click('[data-testid="open-draft"]');
  await page.waitForFunction((text) => window.opbEditor.textOf(document.querySelector('[data-testid="editor"]')) === text, mine);
  assert.match(await page.textContent('[data-testid="share-notice"]'), /Your work on shared\.json is kept in Drafts/);
  // The linked document is a draft in turn, as the notice says: the newest,
  // as it was written last.
  assert.deepEqual((await listed(page)).map((e) => [e.name, e.current]), [["shared.json", false], ["untitled.yaml", true]]);
  await assertClean(page);
  await context.close();
});

test("a draft is deleted after a confirmation, and never the tab's own", async () => {
  const context = await opb.browser.newContext();
  const first = await newTab(context);
  await pasteChecked(first, PLAYBOOK + "# first\n");
  await draftSaved(first, PLAYBOOK + "# first\n");
  await first.close();
  const page = await newTab(context);
  await page.selectOption('[data-testid="examples"]', "minimal-playbook.yaml");
  await pasteChecked(page, PLAYBOOK + "# second\n");
  await draftSaved(page, PLAYBOOK + "# second\n");
  const entries = await listed(page);
  assert.equal(entries.length, 2);
  assert.equal(await page.locator('[data-testid="draft"][aria-current="true"] [data-testid="delete-draft"]').count(), 0, "the tab's own draft has no delete button");
  await page.click('[data-testid="delete-draft"]');
  await page.click('[data-testid="confirm-delete"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="draft"]').length === 1);
  assert.deepEqual((await storedDrafts(page)).map((d) => d.text), [PLAYBOOK + "# second\n"]);
  // Keyboard only: Escape closes the menu.
  await page.focus('[data-testid="drafts"]');
  await page.keyboard.press("Escape");
  assert.equal(await page.locator('[data-testid="drafts-panel"]').count(), 0);
  await assertClean(page);
  await context.close();
});

test("a full storage says the text is not saved, and the notice goes when saving works again", async () => {
  const context = await opb.browser.newContext();
  const page = await newTab(context);
  const cdp = await context.newCDPSession(page);
  const origin = new URL(opb.server.url).origin;
  await cdp.send("Storage.overrideQuotaForOrigin", { origin, quotaSize: 1 });
  await pasteChecked(page, PLAYBOOK + "# does not fit\n");
  await page.waitForSelector('[data-testid="share-notice"].error');
  assert.match(await page.textContent('[data-testid="share-notice"]'), /storage has no room for this document \([\d.]+ (B|KB)\), so it is not saved/);
  assert.equal(await page.locator('[data-testid="notice-download"]').count(), 1, "the notice offers a download");
  await screenshot(page, "drafts-storage-full");

  await cdp.send("Storage.overrideQuotaForOrigin", { origin });
  await pasteChecked(page, PLAYBOOK + "# fits again\n");
  await draftSaved(page, PLAYBOOK + "# fits again\n");
  await page.waitForFunction(() => !document.querySelector('[data-testid="share-notice"]'));
  await assertClean(page);
  await context.close();
});

test("a browser that refuses IndexedDB says the text is not saved, and the page still works", async () => {
  const context = await opb.browser.newContext();
  await context.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException("The user denied permission to access the database.", "SecurityError");
    };
  });
  const page = await newTab(context);
  await pasteChecked(page, PLAYBOOK + "# nowhere to go\n");
  await page.waitForSelector('[data-testid="share-notice"].error');
  assert.match(await page.textContent('[data-testid="share-notice"]'), /gives the page no storage, so your document is not saved/);
  await page.click('[data-testid="drafts"]');
  assert.match(await page.textContent('[data-testid="drafts-panel"]'), /no drafts are kept/);
  await assertClean(page);
  await context.close();
});

test("pruning removes drafts older than 30 days and past 50 MB, oldest first, never the tab's own", async () => {
  const context = await opb.browser.newContext();
  const page = await newTab(context);
  const own = PLAYBOOK + "# my old draft\n";
  await pasteChecked(page, own);
  const mine = await draftSaved(page, own);
  // Drafts as a long-used browser holds them: the tab's own not edited for
  // 40 days, another for 31, and three whose recorded sizes pass 50 MB.
  const now = Date.now();
  const MB = 1024 * 1024;
  const seeded = [
    { ...mine, updated: now - 40 * DAY },
    { id: "d-old", name: "old.yaml", bytes: 10, updated: now - 31 * DAY },
    { id: "d-new", name: "new.yaml", bytes: 30 * MB, updated: now - 1 * DAY },
    { id: "d-mid", name: "mid.yaml", bytes: 15 * MB, updated: now - 2 * DAY },
    { id: "d-big", name: "big.yaml", bytes: 20 * MB, updated: now - 3 * DAY },
  ];
  await page.evaluate(
    (seeded) =>
      new Promise((ok) => {
        const open = indexedDB.open("opb");
        open.onsuccess = () => {
          const tx = open.result.transaction(["drafts", "texts"], "readwrite");
          for (const { text, ...meta } of seeded) {
            tx.objectStore("drafts").put(JSON.stringify(meta), meta.id);
            tx.objectStore("texts").put(text ?? `# ${meta.name}\n`, meta.id);
          }
          tx.oncomplete = () => (open.result.close(), ok());
        };
      }),
    seeded,
  );
  // A reload continues the tab's draft and prunes the others.
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.equal(await editorText(page), own);
  const ids = (await waitForDrafts(page, (drafts) => drafts.length === 3 && drafts)).map((d) => d.id).sort();
  // 30 + 15 MB are kept; the 20 MB draft, older, takes the total past 50.
  assert.deepEqual(ids, [mine.id, "d-mid", "d-new"].sort());
  await assertClean(page);
  await context.close();
});

test("a reload keeps the selection and the panel", async () => {
  const context = await opb.browser.newContext();
  const page = await newTab(context);
  await pasteChecked(page, PLAYBOOK + "# selected words\n");
  // A tab other than the one the playbook opens on (its graph).
  await page.click('[data-testid="tab-tools"]');
  // Selects "selected" on the last line from the keyboard.
  await page.click('[data-testid="editor"] .cm-content');
  await page.keyboard.press("Control+End");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("End");
  for (let i = 0; i < " words".length; i++) await page.keyboard.press("ArrowLeft");
  for (let i = 0; i < "selected".length; i++) await page.keyboard.press("Shift+ArrowLeft");
  const selection = await page.evaluate(() => window.opbEditor.selectionOf(document.querySelector('[data-testid="editor"]')));
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector(".statusbar")?.dataset.checks) > 0);
  assert.deepEqual(await page.evaluate(() => window.opbEditor.selectionOf(document.querySelector('[data-testid="editor"]'))), selection);
  assert.equal(await page.getAttribute('[data-testid="tab-tools"]', "aria-selected"), "true");
  await assertClean(page);
  await context.close();
});

test("the one document earlier versions kept in localStorage becomes a draft", async () => {
  const context = await opb.browser.newContext();
  const legacy = PLAYBOOK + "# kept by an earlier version\n";
  await context.addInitScript((legacy) => {
    if (!sessionStorage.getItem("seeded")) {
      sessionStorage.setItem("seeded", "1");
      localStorage.setItem("opb.document.text", legacy);
      localStorage.setItem("opb.document.meta", JSON.stringify({ name: "mine.yaml", kind: "playbook", edited: true }));
    }
  }, legacy);
  const page = await newTab(context);
  assert.equal(await editorText(page), legacy);
  assert.equal(await page.textContent('[data-testid="document-name"]'), "mine.yaml");
  const [draft] = await storedDrafts(page);
  assert.equal(draft.text, legacy);
  assert.equal(await page.evaluate(() => localStorage.getItem("opb.document.text")), null, "read once, then removed");
  await assertClean(page);
  await context.close();
});
