// Trunk post-build hook: builds the viewer docs sites embed and writes its
// files into the build, beside the playground's.
// - opb-viewer-core-<digest>.js and .wasm, opb-read-core-<digest>.js and
//   .wasm, opb-embed-core-<digest>.js and .wasm, opb-glance-core-<digest>.js
//   and .wasm: the viewer's own wasm (crates/viewer), for the element, the
//   playground's reading view, the embed page and the reading view's trust
//   banner (shown while the whole view's build downloads), and their
//   wasm-bindgen loaders, each named by a digest of their content, so a docs
//   site can cache them for ever (`buildCore`).
// - opb-viewer.js: js/host-theme.js and js/opb-viewer.js with the loader's name and the
//   playground's address (this build's) filled in, so the element's
//   two-line snippet needs only this file's stable address.
// - embed.html and opb-embed.js: the embed page docs sites frame, on the
//   viewer's build that also reads share links and host messages
//   (opb-embed-core): the element and js/embed.js.
// - opb-fragment-core-<digest>.js and .wasm, fragment.mjs, markdown-it.mjs
//   and remark.mjs, for the npm package only: the Markdown plugins that
//   render a fence at a docs site's build, in Node (`packagePlugins`).
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
// - FILE.gz and FILE.br beside each file of a release build: its gzip by
//   zopfli, about 4 % smaller than `gzip -9`, and its brotli at the highest
//   quality, for a host to send as they are (nginx's `gzip_static` and
//   `brotli_static`, Caddy's `precompressed`; docs/embedding.md).
// The scripts and the stylesheet are minified by esbuild (the playground's
// editor bundler): a docs page transfers them with the wasm, in a budget of
// 300 KB.
//
// Also run on its own, `node js/build-viewer.mjs DIR PLAYGROUND`, to write
// them into DIR with another playground address ("" for none), as
// `cargo xtask package viewer` does for the npm package; with
// OPB_VIEWER_BUILT naming a build (dist/) the viewer's wasm and loader are
// taken from there rather than built again.
//
// The playground's toolchain, no other: cargo, wasm-bindgen-cli at the
// version Cargo.lock pins, and wasm-opt and esbuild from node_modules
// (scripts/setup.sh).
import { buildSync, transformSync } from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { brotliCompressSync, constants as zlib } from "node:zlib";

const [dirArgument, playgroundArgument] = process.argv.slice(2);
const staging = dirArgument ?? process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("no folder to write to: run as a Trunk post-build hook, or as `node js/build-viewer.mjs DIR [PLAYGROUND]`");
const source = process.env.TRUNK_SOURCE_DIR ?? join(import.meta.dirname, "..");

const BUILDS = ["opb-viewer-core", "opb-read-core", "opb-embed-core", "opb-glance-core"];
const CORE = new RegExp(`^(${BUILDS.join("|")})-[0-9a-f]{16}$`);

// The builds (the element's, the reading view's, the embed page's, the
// reading view's banner's) taken from an earlier build folder: their names, in that order.
function built(from) {
  const names = readdirSync(from).filter((f) => /\.(js|wasm)$/.test(f) && CORE.test(f.replace(/\.(js|wasm)$/, "")));
  if (names.length !== 2 * BUILDS.length) throw new Error(`expected the viewer's ${BUILDS.length} builds in ${from}, found ${names.join(", ") || "none"}`);
  for (const name of names) copyFileSync(join(from, name), join(staging, name));
  const cores = [...new Set(names.map((f) => f.replace(/\.(js|wasm)$/, "")))];
  return BUILDS.map((build) => cores.find((core) => core.startsWith(`${build}-`)));
}

// The environment of the viewer's builds: node_modules/.bin on PATH, and
// the paths of the crates' sources, which the wasm keeps in its panic
// messages, without the registry's folder: shorter, and the same bytes
// whatever CARGO_HOME a machine has, so the byte budget (cargo xtask
// check-size) measures the same wasm everywhere.
function buildEnvironment() {
  const registry = join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "registry/src");
  let rustflags = process.env.RUSTFLAGS ?? "";
  if (existsSync(registry)) {
    for (const name of readdirSync(registry).sort()) {
      if (statSync(join(registry, name)).isDirectory()) rustflags += ` --remap-path-prefix=${join(registry, name)}/=`;
    }
  }
  const path = [join(source, "node_modules/.bin"), process.env.PATH].join(delimiter);
  return { ...process.env, RUSTFLAGS: rustflags, PATH: path };
}

// One build of the viewer (with FEATURES, and without its default ones, the
// whole view, when `alone`): compiled, optimised, and written into OUT as
// NAME-<digest>.wasm and .js; returns NAME-<digest>.
function buildCore(out, name, features, env, alone = false) {
  const run = (command, args) => execFileSync(command, args, { cwd: source, env, stdio: ["ignore", "inherit", "inherit"] });
  // Offline, as Trunk builds: setup has fetched every crate of Cargo.lock.
  const featuring = [...(alone ? ["--no-default-features"] : []), ...(features ? ["--features", features] : [])];
  run("cargo", ["build", "--quiet", "--locked", "--offline", "-p", "opb-viewer", "--target", "wasm32-unknown-unknown", "--profile", "viewer-release", ...featuring]);
  const work = mkdtempSync(join(tmpdir(), "opb-viewer-"));
  try {
    run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", work, "--out-name", name, "target/wasm32-unknown-unknown/viewer-release/opb_viewer.wasm"]);
    // The features rustc's wasm32 target emits, as the playground's build
    // passes them (index.html). `-Os --converge --low-memory-unused` came
    // out 2.7 KB smaller gzipped than `-Oz`, and merging similar functions
    // (the generic code's instances that differ in a constant) first 1.2 KB
    // smaller again (docs/performance.md); the low 1 KB of memory is the
    // bottom of rustc's stack (it places the stack first), reached only by
    // an overflow. A function called from one place stays a function of
    // its own, where -Os would inline it into its caller: the wasm is
    // larger but compresses about 5 % smaller, and its functions stay
    // small, so the browser, which compiles each one when it is first
    // called, compiles little that does not run (inlined so, the banner's
    // build makes one function of 86 KB).
    run("wasm-opt", [
      "--merge-similar-functions", "-Os", "--one-caller-inline-max-function-size", "0",
      "--converge", "--low-memory-unused", "--strip-debug", "--strip-producers",
      "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
      "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue",
      join(work, `${name}_bg.wasm`), "-o", join(work, `${name}.wasm`),
    ]);
    for (const old of readdirSync(out).filter((f) => f.startsWith(`${name}-`) && /\.(js|wasm)$/.test(f))) rmSync(join(out, old));
    const wasm = readFileSync(join(work, `${name}.wasm`));
    const loader = readFileSync(join(work, `${name}.js`));
    const core = `${name}-${createHash("sha256").update(wasm).update(loader).digest("hex").slice(0, 16)}`;
    writeFileSync(join(out, `${core}.wasm`), wasm);
    // The loader's own default address of the wasm, which the element
    // passes anyway, names the file as it is called here (a bundler
    // resolves it). Minified, as the element is.
    writeFileSync(join(work, "loader.js"), loader.toString("utf8").replaceAll(`${name}_bg.wasm`, `${core}.wasm`));
    buildSync({ entryPoints: [join(work, "loader.js")], minify: true, format: "esm", target: "es2020", logLevel: "warning", outfile: join(out, `${core}.js`) });
    return core;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// The element's, the reading view's (the same viewer, and opb-share's
// reading of share links but for the inflating, which the browser does:
// crates/viewer's `link`), the embed page's (opb-share's reading of
// links and of host messages: `embed`), then the reading view's banner's
// (the link's reading and the trust banner alone: `glance`, without the
// whole view).
function buildCores(out) {
  mkdirSync(out, { recursive: true });
  const env = buildEnvironment();
  return [
    buildCore(out, "opb-viewer-core", "", env),
    buildCore(out, "opb-read-core", "link", env),
    buildCore(out, "opb-embed-core", "embed", env),
    buildCore(out, "opb-glance-core", "glance,link", env, true),
  ];
}

const cores = process.env.OPB_VIEWER_BUILT ? built(process.env.OPB_VIEWER_BUILT) : buildCores(staging);
const [viewerCore, readCore, embedCore, glanceCore] = cores;

const minified = (code) => transformSync(code, { minify: true, format: "esm", target: "es2020" }).code;
// Served with the playground, the element links to it.
const playground = playgroundArgument ?? "./";
// The host page's theme (js/host-theme.js) goes first: the playground's
// iframe embed code carries the same function for its host page.
const element = (core) => ["js/host-theme.js", "js/opb-viewer.js"].map((file) => readFileSync(join(source, file), "utf8")).join("\n").replaceAll("__OPB_VIEWER_CORE__", core).replaceAll("__OPB_PLAYGROUND__", playground);

// The viewer's own sheet last: its rules for the viewer (a narrow
// element's banner among them) win over the shared sheets'.
const css = ["style/trust.css", "style/graph.css", "style/viewer.css"]
  .map((sheet) => readFileSync(join(source, sheet), "utf8").replaceAll(":root", ".opb-root"))
  .join("\n");
const sheet = transformSync(css + lightOnPaper(css), { minify: true, loader: "css" }).code;
writeFileSync(join(staging, "opb-viewer.css"), sheet);

writeFileSync(join(staging, "opb-viewer.js"), minified(playground ? element(viewerCore) : withSheet(element(viewerCore))));

// The npm package's element, its stylesheet's text in place of the file's
// address (js/opb-viewer.js's styleSheet says why): one sheet, constructed
// once, adopted by every element's shadow root (which a page's CSP does
// not hold to style-src, as it would a <style> or a data: link).
function withSheet(code) {
  const linked = /^function styleSheet\(shadow\) \{\n[^]*?\n\}$/m;
  if (!linked.test(code)) throw new Error("js/opb-viewer.js: no styleSheet(shadow) function to give the sheet's text");
  return code.replace(linked, () => `let sheet;
function styleSheet(shadow) {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(${JSON.stringify(sheet)});
  }
  shadow.adoptedStyleSheets = [sheet];
}`);
}

// The embed page and the reading view, with the playground only (not in
// the npm package): the element on the embed's build and the page's script
// after it; the element on the reading view's build and its script.
if (playground) {
  writeFileSync(join(staging, "opb-embed.js"), minified(element(embedCore) + "\n" + readFileSync(join(source, "js/embed.js"), "utf8")));
  copyFileSync(join(source, "embed.html"), join(staging, "embed.html"));
  const reading = minified(element(readCore) + "\n" + readFileSync(join(source, "js/reading.js"), "utf8").replaceAll("__OPB_GLANCE_CORE__", glanceCore));
  const readingName = `opb-read-${createHash("sha256").update(reading).digest("hex").slice(0, 16)}.js`;
  for (const name of readdirSync(staging).filter((f) => /^opb-read-[0-9a-f]{16}\.js$/.test(f))) rmSync(join(staging, name));
  writeFileSync(join(staging, readingName), reading);
  choosingPage(readingName);
} else {
  for (const name of readdirSync(staging).filter((f) => [embedCore, readCore, glanceCore].some((core) => f.startsWith(`${core}.`)))) rmSync(join(staging, name));
  packagePlugins();
}

// The npm package's Markdown plugins (js/package/*.mjs), which render a
// fence's document in Node at build time: the viewer built with its
// `fragment` feature (opb-fragment-core-<digest>, in the package only, so
// no browser build grows), and the plugins with its name filled in.
function packagePlugins() {
  const core = buildCore(staging, "opb-fragment-core", "fragment", buildEnvironment());
  for (const file of ["fragment.mjs", "markdown-it.mjs", "remark.mjs"]) {
    writeFileSync(join(staging, file), readFileSync(join(source, "js/package", file), "utf8").replaceAll("__OPB_FRAGMENT_CORE__", core));
  }
}


// Paper is light whatever the theme: the light palette (the custom
// properties of each sheet's own `.opb-root` rule) given to every theme in
// print, a host page's --opb-* colours replaced by their light defaults
// (a dark site's would print light text on white). One palette, not a
// second to keep in step.
function lightOnPaper(css) {
  const declarations = [...css.matchAll(/^\.opb-root \{([^}]*)\}/gm)]
    .flatMap(([, block]) => block.replace(/\/\*[^]*?\*\//g, "").split(";"))
    .map((declaration) => declaration.trim())
    .filter((declaration) => /^(--[\w-]+|color-scheme)\s*:/.test(declaration))
    .map((declaration) => declaration.replace(/var\(--opb-[\w-]+,\s*([^()]*)\)/g, "$1"));
  return `\n@media print {\n.opb-root[data-theme] {\n${declarations.join(";\n")};\n}\n}\n`;
}

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
    `<link rel="preload" href="${base}${glanceCore}.wasm" as="fetch" type="application/wasm" crossorigin>`,
    `<link rel="modulepreload" href="${base}${glanceCore}.js">`,
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

// A release build's files, each with its zopfli gzip and its brotli beside
// it.
if (playground && process.env.TRUNK_PROFILE === "release") {
  const files = readdirSync(staging, { recursive: true }).filter((f) => /\.(html|js|css|wasm)$/.test(f)).map((f) => join(staging, f));
  try {
    execFileSync("zopfli", files, { stdio: ["ignore", "ignore", "inherit"] });
  } catch (error) {
    throw new Error(`zopfli could not gzip the build (${error.message}): scripts/setup.sh run installs it`);
  }
  for (const file of files) writeFileSync(`${file}.br`, brotli(readFileSync(file), !file.endsWith(".wasm")));
}

// BYTES at brotli's best: 14 % below zopfli's gzip on the wasm, which every
// browser accepts (`Accept-Encoding: br`) and most hosts can send as it is.
function brotli(bytes, text) {
  return brotliCompressSync(bytes, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_MODE]: text ? zlib.BROTLI_MODE_TEXT : zlib.BROTLI_MODE_GENERIC,
      [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}
