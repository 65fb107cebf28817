// The npm package's Markdown plugins on the packed package (the tarball
// cargo xtask package viewer writes, target/npm/, or $OPB_VIEWER_TGZ),
// unpacked and run in Node as a site's build runs them: markdown-it
// (VitePress's own, tools/vitepress) and remark (Astro's unified pipeline,
// tools/astro). A fence becomes the fragment `opb render --format fragment`
// writes for the same document and options (target/debug/opb, or $OPB);
// other fences are left alone; options are read from the plugin and the
// info string, and refused in words; strict throws, naming the fence and
// each error.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { root } from "../e2e/harness.mjs";
import { tarball } from "./fences.mjs";

const unpacked = mkdtempSync(join(tmpdir(), "opb-plugins-"));
// A package of a pinned tool's install (tools/NAME/node_modules), as that
// tool resolves it.
const tool = (name, specifier) => import(pathToFileURL(createRequire(join(root, "tools", name, "package.json")).resolve(specifier)).href);
const REFUND = readFileSync(join(root, "docs/examples/refund-with-approval.yaml"), "utf8");
const BROKEN = readFileSync(join(root, "examples/refund-triage.broken.yaml"), "utf8");
const fence = (info, text) => `# Page\n\n\`\`\`${info}\n${text}\`\`\`\n`;

let MarkdownIt, opbMarkdownIt, remarkOpb, unified, remarkParse;

before(async () => {
  const done = spawnSync("tar", ["-xzf", tarball(), "-C", unpacked], { encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
  const manifest = JSON.parse(readFileSync(join(unpacked, "package/package.json"), "utf8"));
  const entry = (name) => import(pathToFileURL(join(unpacked, "package", manifest.exports[name].default)).href);
  opbMarkdownIt = (await entry("./markdown-it")).default;
  remarkOpb = (await entry("./remark")).default;
  MarkdownIt = (await tool("vitepress", "markdown-it")).default;
  ({ unified } = await tool("astro", "unified"));
  remarkParse = (await tool("astro", "remark-parse")).default;
});

after(() => rmSync(unpacked, { recursive: true, force: true }));

function markdownIt(options) {
  const md = new MarkdownIt();
  md.use(opbMarkdownIt, options);
  return md;
}

// The fragment `opb render --format fragment` writes for `text`, named and
// read as the plugins name and read a fence's document.
function cli(text, name, args) {
  const opb = resolve(root, process.env.OPB ?? "target/debug/opb");
  const done = spawnSync(opb, ["render", "--format", "fragment", "--stdin-name", name, ...args, "-"], { input: text, encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
  return done.stdout;
}

test("a fence is the fragment opb render writes for the same document and options: one renderer", () => {
  const html = markdownIt().render(fence("openplaybook", REFUND), { relativePath: "guide/refund.md" });
  const name = "the openplaybook fence at line 3 of guide/refund.md";
  assert.equal(html, `<h1>Page</h1>\n${cli(REFUND, name, ["--theme", "auto", "--kind", "playbook"])}`);
  assert.match(html, /data-step-id="refund"/);
  const summary = markdownIt({ darkSelector: '[data-theme="dark"]' }).render(fence("oz0-plugin view=summary interactive theme=dark", readFileSync(join(root, "examples/acme-github.oz0-plugin.yaml"), "utf8")), { relativePath: "tools.md" });
  const args = ["--view", "summary", "--theme", "dark", "--interactive", "--kind", "plugin-manifest", "--dark-selector", '[data-theme="dark"]'];
  assert.equal(summary, `<h1>Page</h1>\n${cli(readFileSync(join(root, "examples/acme-github.oz0-plugin.yaml"), "utf8"), "the oz0-plugin fence at line 3 of tools.md", args)}`);
  assert.match(summary, /^<h1>Page<\/h1>\n<opb-viewer code="[^"]*" kind="plugin-manifest" theme="dark" v-pre><div class="opb-fragment" data-theme="dark" data-view="summary" v-pre>/);
});

test("other fences and languages are left to the rule that was there", () => {
  const markdown = "```js\nconst a = 1;\n```\n\n```yaml\nid: x\n```\n\n```\nplain\n```\n";
  assert.equal(markdownIt().render(markdown), new MarkdownIt().render(markdown));
});

test("options come from the plugin, then the info string, and are refused in words", () => {
  const md = markdownIt({ view: "summary", theme: "light" });
  assert.match(md.render(fence("openplaybook", REFUND)), /data-theme="light" data-view="summary"/);
  assert.match(md.render(fence("openplaybook view=report theme=auto", REFUND)), /data-theme="auto" data-view="report"/);
  assert.match(md.render(fence("openplaybook interactive=false", REFUND)), /^<h1>Page<\/h1>\n<div class="opb-fragment"/);
  assert.throws(() => markdownIt({ darkSelector: "html.dark, body" }), /^Error: opb-viewer: the dark selector "html\.dark, body" is refused: ',' could carry it outside the fragment's style/);
  assert.throws(() => markdownIt({ darkSelector: "}</style>" }), /the dark selector .* is refused/);
  assert.throws(() => markdownIt({ colour: "red" }), /the option "colour" is not one opb knows/);
  assert.throws(() => markdownIt({ strict: "yes" }), /the option strict should be true or false/);
  assert.throws(() => markdownIt().render(fence("openplaybook view=everything", REFUND), { relativePath: "a.md" }), /opb-viewer: the openplaybook fence at line 3 of a\.md: the view "everything" is not one opb knows: graph, summary or report/);
  assert.throws(() => markdownIt().render(fence("openplaybook size=big", REFUND)), /the openplaybook fence at line 3 of a page: the option "size" is not one a fence takes/);
});

test("a broken document lists its problems, and strict throws naming the fence, the code and the message", () => {
  const html = markdownIt().render(fence("openplaybook", BROKEN), { relativePath: "broken.md" });
  assert.match(html, /<p>8 errors, 2 warnings, 2 infos in the openplaybook fence at line 3 of broken\.md\.<\/p>/);
  assert.match(html, /<code>PB213 next-unknown<\/code> <span class="position">line 60, column 11<\/span>/);
  const strict = () => markdownIt({ strict: true }).render(fence("openplaybook", BROKEN), { relativePath: "broken.md" });
  assert.throws(strict, (error) => {
    assert.match(error.message, /^opb-viewer: the openplaybook fence at line 3 of broken\.md has 8 errors, and strict forbids any:\n/);
    assert.match(error.message, /\nPB213 line 60: `next` of step `decide` names `file`, which is no step of this playbook\./);
    return true;
  });
  // A fence may ask for it alone; a document with warnings only passes.
  assert.throws(() => markdownIt().render(fence("openplaybook strict", BROKEN)), /has 8 errors/);
  assert.doesNotThrow(() => markdownIt({ strict: true }).render(fence("openplaybook", REFUND)));
});

test("the remark plugin replaces opb's code blocks with html nodes and leaves the others", () => {
  const markdown = `# Page\n\n- a list\n\n  \`\`\`openplaybook view=summary\n  ${REFUND.replaceAll("\n", "\n  ")}\`\`\`\n\n\`\`\`js\nconst a = 1;\n\`\`\`\n`;
  const processor = unified().use(remarkParse).use(remarkOpb, { theme: "light" });
  const file = { path: join(process.cwd(), "docs/page.md"), cwd: process.cwd() };
  const tree = processor.runSync(processor.parse(markdown), file);
  const nodes = [];
  const walk = (node) => (nodes.push(node), (node.children ?? []).forEach(walk));
  walk(tree);
  const html = nodes.filter((n) => n.type === "html");
  assert.equal(html.length, 1, "the fence in a list item too");
  assert.match(html[0].value, /^<div class="opb-fragment" data-theme="light" data-view="summary" v-pre>/);
  assert.match(html[0].value, /data-verdict="supervised"/);
  assert.deepEqual(nodes.filter((n) => n.type === "code").map((n) => n.lang), ["js"]);
  const strict = unified().use(remarkParse).use(remarkOpb, { strict: true });
  assert.throws(() => strict.runSync(strict.parse(fence("openplaybook", BROKEN)), file), /^Error: opb-viewer: the openplaybook fence at line 3 of docs\/page\.md has 8 errors, and strict forbids any:\n/);
});
