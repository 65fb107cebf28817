// Trunk post-build hook: builds the viewer docs sites embed and writes its
// files into the build, beside the playground's.
// - opb-viewer-core-<digest>.js and .wasm, opb-embed-core-<digest>.js and
//   .wasm: the viewer's own wasm (crates/viewer), for the element and for
//   the embed page, and their wasm-bindgen loaders (scripts/build-viewer.sh).
// - opb-viewer.js: js/opb-viewer.js with the loader's name and the
//   playground's address (this build's) filled in, so the element's
//   two-line snippet needs only this file's stable address.
// - embed.html and opb-embed.js: the embed page docs sites frame, on the
//   viewer's second build (opb-embed-core, which also reads share links and
//   host messages): the element and js/embed.js.
// - opb-viewer.css: the viewer's stylesheets (view, trust summary, graph),
//   for the element's shadow root, where `:root` matches nothing: their
//   rules go to the root element the viewer renders in (`.opb-root`).
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
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [dirArgument, playgroundArgument] = process.argv.slice(2);
const staging = dirArgument ?? process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("no folder to write to: run as a Trunk post-build hook, or as `node js/build-viewer.mjs DIR [PLAYGROUND]`");
const source = process.env.TRUNK_SOURCE_DIR ?? join(import.meta.dirname, "..");

const CORE = /^(opb-viewer-core|opb-embed-core)-[0-9a-f]{16}$/;

// The two builds (the element's, the embed page's) taken from an earlier
// build folder: their names.
function built(from) {
  const names = readdirSync(from).filter((f) => /\.(js|wasm)$/.test(f) && CORE.test(f.replace(/\.(js|wasm)$/, "")));
  if (names.length !== 4) throw new Error(`expected the viewer's two builds in ${from}, found ${names.join(", ") || "none"}`);
  for (const name of names) copyFileSync(join(from, name), join(staging, name));
  return [...new Set(names.map((f) => f.replace(/\.(js|wasm)$/, "")))].sort().reverse();
}
const cores = process.env.OPB_VIEWER_BUILT
  ? built(process.env.OPB_VIEWER_BUILT)
  : execFileSync("bash", [join(source, "scripts/build-viewer.sh"), staging], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n");
const [viewerCore, embedCore] = cores;
if (!viewerCore?.startsWith("opb-viewer-core-") || !embedCore?.startsWith("opb-embed-core-") || !cores.every((c) => CORE.test(c))) {
  throw new Error(`scripts/build-viewer.sh named no viewer builds: ${cores.join(", ")}`);
}

const minified = (code) => transformSync(code, { minify: true, format: "esm", target: "es2020" }).code;
// Served with the playground, the element links to it.
const playground = playgroundArgument ?? "./";
const element = (core) => readFileSync(join(source, "js/opb-viewer.js"), "utf8").replaceAll("__OPB_VIEWER_CORE__", core).replaceAll("__OPB_PLAYGROUND__", playground);
writeFileSync(join(staging, "opb-viewer.js"), minified(element(viewerCore)));

// The embed page, with the playground only (not in the npm package): the
// element on the embed's build, and the page's script after it.
if (playground) {
  writeFileSync(join(staging, "opb-embed.js"), minified(element(embedCore) + "\n" + readFileSync(join(source, "js/embed.js"), "utf8")));
  copyFileSync(join(source, "embed.html"), join(staging, "embed.html"));
} else {
  for (const name of readdirSync(staging).filter((f) => f.startsWith(`${embedCore}.`))) rmSync(join(staging, name));
}

const css = ["style/view.css", "style/trust.css", "style/graph.css"]
  .map((sheet) => readFileSync(join(source, sheet), "utf8").replaceAll(":root", ".opb-root"))
  .join("\n");
writeFileSync(join(staging, "opb-viewer.css"), transformSync(css, { minify: true, loader: "css" }).code);
