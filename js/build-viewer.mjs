// Trunk post-build hook: builds the viewer docs sites embed and writes its
// files into the build, beside the playground's.
// - opb-viewer-core-<digest>.js and .wasm, opb-read-core-<digest>.js and
//   .wasm, opb-embed-core-<digest>.js and .wasm: the viewer's own wasm
//   (crates/viewer), for the element, the playground's reading view and the
//   embed page, and their wasm-bindgen loaders (scripts/build-viewer.sh).
// - opb-viewer.js: js/opb-viewer.js with the loader's name and the
//   playground's address (this build's) filled in, so the element's
//   two-line snippet needs only this file's stable address.
// - embed.html and opb-embed.js: the embed page docs sites frame, on the
//   viewer's second build (opb-embed-core, which also reads share links and
//   host messages): the element and js/embed.js.
// - opb-viewer.css: the viewer's stylesheets (view, trust summary, graph),
//   for the element's shadow root, where `:root` matches nothing: their
//   rules go to the root element the viewer renders in (`.opb-root`).
// - opb-read-<digest>.js and index.html: the reading view a shared link
//   opens (js/reading.js, after the element on the reading view's build),
//   and the playground's page made to choose, for each visit, between it
//   and the playground (js/route.js): what Trunk wrote after the page's
//   `<!-- opb:playground -->` goes into a <template>, beside one of the
//   reading view's files, and the router's digest into the page's
//   Content-Security-Policy.
// - FILE.gz beside each file of a release build: its gzip by zopfli, about
//   4 % smaller than `gzip -9`, for a host to send as it is (nginx's
//   `gzip_static`, Caddy's `precompressed`; docs/embedding.md).
// The scripts and the stylesheet are minified by esbuild (the playground's
// editor bundler): a docs page transfers them with the wasm, in a budget of
// 300 KB (issue 21).
//
// Also run on its own, `node js/build-viewer.mjs DIR PLAYGROUND`, to write
// them into DIR with another playground address ("" for none), as
// scripts/package-viewer.sh does for the npm package; with OPB_VIEWER_BUILT
// naming a build (dist/) the viewer's wasm and loader are taken from there
// rather than built again.
import { transformSync } from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [dirArgument, playgroundArgument] = process.argv.slice(2);
const staging = dirArgument ?? process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("no folder to write to: run as a Trunk post-build hook, or as `node js/build-viewer.mjs DIR [PLAYGROUND]`");
const source = process.env.TRUNK_SOURCE_DIR ?? join(import.meta.dirname, "..");

const BUILDS = ["opb-viewer-core", "opb-read-core", "opb-embed-core"];
const CORE = new RegExp(`^(${BUILDS.join("|")})-[0-9a-f]{16}$`);

// The three builds (the element's, the reading view's, the embed page's)
// taken from an earlier build folder: their names, in that order.
function built(from) {
  const names = readdirSync(from).filter((f) => /\.(js|wasm)$/.test(f) && CORE.test(f.replace(/\.(js|wasm)$/, "")));
  if (names.length !== 2 * BUILDS.length) throw new Error(`expected the viewer's three builds in ${from}, found ${names.join(", ") || "none"}`);
  for (const name of names) copyFileSync(join(from, name), join(staging, name));
  const cores = [...new Set(names.map((f) => f.replace(/\.(js|wasm)$/, "")))];
  return BUILDS.map((build) => cores.find((core) => core.startsWith(`${build}-`)));
}
const cores = process.env.OPB_VIEWER_BUILT
  ? built(process.env.OPB_VIEWER_BUILT)
  : execFileSync("bash", [join(source, "scripts/build-viewer.sh"), staging], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n");
const [viewerCore, readCore, embedCore] = cores;
if (cores.length !== BUILDS.length || !BUILDS.every((build, i) => cores[i]?.startsWith(`${build}-`) && CORE.test(cores[i]))) {
  throw new Error(`scripts/build-viewer.sh named no viewer builds: ${cores.join(", ")}`);
}

const minified = (code) => transformSync(code, { minify: true, format: "esm", target: "es2020" }).code;
// Served with the playground, the element links to it.
const playground = playgroundArgument ?? "./";
const element = (core) => readFileSync(join(source, "js/opb-viewer.js"), "utf8").replaceAll("__OPB_VIEWER_CORE__", core).replaceAll("__OPB_PLAYGROUND__", playground);
writeFileSync(join(staging, "opb-viewer.js"), minified(element(viewerCore)));

// The embed page and the reading view, with the playground only (not in
// the npm package): the element on the embed's build and the page's script
// after it; the element on the reading view's build and its script.
if (playground) {
  writeFileSync(join(staging, "opb-embed.js"), minified(element(embedCore) + "\n" + readFileSync(join(source, "js/embed.js"), "utf8")));
  copyFileSync(join(source, "embed.html"), join(staging, "embed.html"));
  const reading = minified(element(readCore) + "\n" + readFileSync(join(source, "js/reading.js"), "utf8"));
  const readingName = `opb-read-${createHash("sha256").update(reading).digest("hex").slice(0, 16)}.js`;
  for (const name of readdirSync(staging).filter((f) => /^opb-read-[0-9a-f]{16}\.js$/.test(f))) rmSync(join(staging, name));
  writeFileSync(join(staging, readingName), reading);
  choosingPage(readingName);
} else {
  for (const name of readdirSync(staging).filter((f) => f.startsWith(`${embedCore}.`) || f.startsWith(`${readCore}.`))) rmSync(join(staging, name));
}

const css = ["style/viewer.css", "style/trust.css", "style/graph.css"]
  .map((sheet) => readFileSync(join(source, sheet), "utf8").replaceAll(":root", ".opb-root"))
  .join("\n");
writeFileSync(join(staging, "opb-viewer.css"), transformSync(css, { minify: true, loader: "css" }).code);

// index.html as each visit needs it: Trunk's page, with everything after
// the `<!-- opb:playground -->` marker (the fonts, stylesheets, editor and
// wasm the playground loads, Trunk's preloads included) held in a
// <template>, the reading view's files in another, and js/route.js, which
// adds one of the two, as the page's one inline script, allowed by its
// digest.
function choosingPage(readingName) {
  const page = join(staging, "index.html");
  const html = readFileSync(page, "utf8");
  const marker = "<!-- opb:playground -->";
  const from = html.indexOf(marker);
  const to = html.indexOf("</head>");
  if (from < 0 || to < from) throw new Error(`${page} has no ${marker} in its <head>`);
  const base = html.match(/data-js="([^"]*?)opb-app-[^"/]*\.js"/)?.[1];
  if (base === undefined) throw new Error(`${page} has no boot script naming the playground's loader`);
  const style = transformSync(readFileSync(join(source, "style/reading.css"), "utf8"), { minify: true, loader: "css" }).code.trim();
  const reading = [
    `<style data-opb-reading>${style}</style>`,
    `<link rel="preload" href="${base}${readCore}.wasm" as="fetch" type="application/wasm" crossorigin>`,
    `<link rel="modulepreload" href="${base}${readCore}.js">`,
    `<script type="module" src="${base}${readingName}"></script>`,
  ].join("");
  const router = transformSync(readFileSync(join(source, "js/route.js"), "utf8"), { minify: true, target: "es2020" }).code.trim();
  const digest = createHash("sha256").update(router).digest("base64");
  // Without the page's comments (index.html's, for its readers), and the
  // playground's tags without the space between them: every visit
  // downloads them.
  const uncommented = (part) => part.replace(/<!--[\s\S]*?-->\s*/g, "");
  const held = uncommented(html.slice(from + marker.length, to)).replace(/>\s+</g, "><").trim();
  const chosen =
    uncommented(html.slice(0, from)) +
    `<template id="opb-playground">${held}</template>` +
    `<template id="opb-reading">${reading}</template>` +
    `<script data-opb-route>${router}</script>\n  ` +
    uncommented(html.slice(to));
  const policy = chosen.replace("script-src 'self'", `script-src 'self' 'sha256-${digest}'`);
  if (policy === chosen) throw new Error(`${page} has no script-src 'self' in its Content-Security-Policy`);
  writeFileSync(page, policy);
}

// A release build's files, each with its zopfli gzip beside it.
if (playground && process.env.TRUNK_PROFILE === "release") {
  const files = readdirSync(staging, { recursive: true }).filter((f) => /\.(html|js|css|wasm)$/.test(f)).map((f) => join(staging, f));
  try {
    execFileSync("zopfli", files, { stdio: ["ignore", "ignore", "inherit"] });
  } catch (error) {
    throw new Error(`zopfli could not gzip the build (${error.message}): scripts/setup.sh run installs it`);
  }
}
