// Trunk post-build hook: writes the <opb-viewer> element's files into the
// build, beside the playground's.
// - opb-viewer.js: js/opb-viewer.js with the hashed names of the
//   wasm-bindgen loader and the wasm filled in, so the element's two-line
//   snippet needs only this file's stable address.
// - opb-viewer.css: the page's stylesheets, in index.html's order, for the
//   element's shadow root, where `:root` matches nothing: its rules go to
//   the root element the viewer mounts in (`.opb-root`) instead.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("TRUNK_STAGING_DIR is not set: this script runs as a Trunk post-build hook");
const source = process.env.TRUNK_SOURCE_DIR ?? process.cwd();

const files = readdirSync(staging);
const one = (pattern) => {
  const found = files.filter((f) => pattern.test(f));
  if (found.length !== 1) throw new Error(`expected one file like ${pattern} in the build, found ${found.length}`);
  return found[0];
};
const loader = one(/^opb-app-[0-9a-f]+\.js$/);
const wasm = one(/^opb-app-[0-9a-f]+_bg\.wasm$/);

const element = readFileSync(join(source, "js/opb-viewer.js"), "utf8")
  .replaceAll("__OPB_APP_JS__", loader)
  .replaceAll("__OPB_APP_WASM__", wasm);
writeFileSync(join(staging, "opb-viewer.js"), element);

const index = readFileSync(join(staging, "index.html"), "utf8");
const sheets = [...index.matchAll(/<link rel="stylesheet" href="\/?([^"]+\.css)"/g)].map((m) => m[1]);
if (sheets.length === 0) throw new Error("index.html links no stylesheet");
const css = sheets
  .map((sheet) => readFileSync(join(staging, sheet), "utf8").replaceAll(":root", ".opb-root"))
  .join("\n");
writeFileSync(join(staging, "opb-viewer.css"), css);
