// Trunk post-build hook: builds the viewer docs sites embed and writes its
// files into the build, beside the playground's.
// - opb-viewer-core-<digest>.js and .wasm: the viewer's own wasm
//   (crates/viewer) and its wasm-bindgen loader (scripts/build-viewer.sh).
// - opb-viewer.js: js/opb-viewer.js with the loader's name and the
//   playground's address (this build's) filled in, so the element's
//   two-line snippet needs only this file's stable address.
// - opb-viewer.css: the viewer's stylesheets (view, trust summary, graph),
//   for the element's shadow root, where `:root` matches nothing: their
//   rules go to the root element the viewer renders in (`.opb-root`).
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

//
// Also run on its own, `node js/build-viewer.mjs DIR PLAYGROUND`, to write
// them into DIR with another playground address ("" for none), as
// scripts/package-viewer.sh does for the npm package; with OPB_VIEWER_BUILT
// naming a build (dist/) the viewer's wasm and loader are taken from there
// rather than built again.
const [dirArgument, playgroundArgument] = process.argv.slice(2);
const staging = dirArgument ?? process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("no folder to write to: run as a Trunk post-build hook, or as `node js/build-viewer.mjs DIR [PLAYGROUND]`");
const source = process.env.TRUNK_SOURCE_DIR ?? join(import.meta.dirname, "..");

function built(from) {
  const names = readdirSync(from).filter((f) => /^opb-viewer-core-[0-9a-f]{16}\.(js|wasm)$/.test(f));
  if (names.length !== 2) throw new Error(`expected one viewer build in ${from}, found ${names.join(", ") || "none"}`);
  for (const name of names) copyFileSync(join(from, name), join(staging, name));
  return names[0].replace(/\.(js|wasm)$/, "");
}
const core = process.env.OPB_VIEWER_BUILT
  ? built(process.env.OPB_VIEWER_BUILT)
  : execFileSync("bash", [join(source, "scripts/build-viewer.sh"), staging], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
if (!/^opb-viewer-core-[0-9a-f]{16}$/.test(core)) throw new Error(`scripts/build-viewer.sh named no viewer build: ${core}`);

// Served with the playground, the element links to it.
const playground = playgroundArgument ?? "./";
const element = readFileSync(join(source, "js/opb-viewer.js"), "utf8").replaceAll("__OPB_VIEWER_CORE__", core).replaceAll("__OPB_PLAYGROUND__", playground);
writeFileSync(join(staging, "opb-viewer.js"), element);

const css = ["style/view.css", "style/trust.css", "style/graph.css"]
  .map((sheet) => readFileSync(join(source, sheet), "utf8").replaceAll(":root", ".opb-root"))
  .join("\n");
writeFileSync(join(staging, "opb-viewer.css"), css);
