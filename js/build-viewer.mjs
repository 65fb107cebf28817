// Trunk post-build hook: builds the viewer docs sites embed and writes its
// files into the build, beside the playground's.
// - opb-viewer-core-<digest>.js and .wasm: the viewer's own wasm
//   (crates/viewer) and its wasm-bindgen loader (scripts/build-viewer.sh).
// - opb-viewer.js: js/opb-viewer.js with the loader's name filled in, so the
//   element's two-line snippet needs only this file's stable address.
// - opb-viewer.css: the viewer's stylesheets (view, trust summary, graph),
//   for the element's shadow root, where `:root` matches nothing: their
//   rules go to the root element the viewer renders in (`.opb-root`).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("TRUNK_STAGING_DIR is not set: this script runs as a Trunk post-build hook");
const source = process.env.TRUNK_SOURCE_DIR ?? process.cwd();

const core = execFileSync("bash", [join(source, "scripts/build-viewer.sh"), staging], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
if (!/^opb-viewer-core-[0-9a-f]{16}$/.test(core)) throw new Error(`scripts/build-viewer.sh named no viewer build: ${core}`);

const element = readFileSync(join(source, "js/opb-viewer.js"), "utf8").replaceAll("__OPB_VIEWER_CORE__", core);
writeFileSync(join(staging, "opb-viewer.js"), element);

const css = ["style/view.css", "style/trust.css", "style/graph.css"]
  .map((sheet) => readFileSync(join(source, sheet), "utf8").replaceAll(":root", ".opb-root"))
  .join("\n");
writeFileSync(join(staging, "opb-viewer.css"), css);
