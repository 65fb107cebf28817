// The renderer both Markdown plugins share (opb-viewer/markdown-it,
// opb-viewer/remark): a fence of language `openplaybook` (or `oz0-plugin`,
// read as a plugin manifest) becomes, in Node at build time, the fragment
// `opb render --format fragment` writes for the same document and options
// (crates/render's fragment module, through the viewer's `fragment` build
// in wasm). Loaded once, synchronously, at the first import: markdown-it's
// rules are synchronous.
import { readFileSync } from "node:fs";
import { initSync, fragment, refusal } from "./__OPB_FRAGMENT_CORE__.js";

initSync({ module: readFileSync(new URL("./__OPB_FRAGMENT_CORE__.wasm", import.meta.url)) });

// A fence's language, and the kind its document is read as.
const LANGUAGES = { openplaybook: "playbook", "oz0-plugin": "plugin-manifest" };

const DEFAULTS = { view: "graph", theme: "auto", darkSelector: "html.dark", interactive: false, strict: false };
const BOOLEANS = ["interactive", "strict"];

// The kind a fence's language asks for, or undefined when it is no
// fence of ours.
export function kindOf(language) {
  return Object.hasOwn(LANGUAGES, language) ? LANGUAGES[language] : undefined;
}

// The plugin's options over the defaults, refused with the reason when
// one could not be used (the renderer's words).
export function settle(options = {}) {
  const settled = { ...DEFAULTS };
  for (const [key, value] of Object.entries(options ?? {})) {
    if (!Object.hasOwn(DEFAULTS, key)) throw new Error(`opb-viewer: the option ${JSON.stringify(key)} is not one opb knows: ${Object.keys(DEFAULTS).join(", ")}`);
    if (BOOLEANS.includes(key) ? typeof value !== "boolean" : typeof value !== "string") {
      throw new Error(`opb-viewer: the option ${key} should be ${BOOLEANS.includes(key) ? "true or false" : "a string"}, not ${JSON.stringify(value)}`);
    }
    settled[key] = value;
  }
  const refused = refusal(settled.view, settled.theme, settled.darkSelector);
  if (refused) throw new Error(`opb-viewer: ${refused}`);
  return settled;
}

// A fence's info string after its language (`view=summary theme=auto
// interactive strict`) over `settled`: `key=value`, or a flag's name alone
// for true. `where` names the fence in an error.
export function fenceOptions(meta, settled, where) {
  const options = { ...settled };
  for (const word of (meta ?? "").split(/\s+/).filter(Boolean)) {
    const [key, ...rest] = word.split("=");
    const value = rest.join("=");
    if (!Object.hasOwn(DEFAULTS, key) || key === "darkSelector") {
      throw new Error(`opb-viewer: ${where}: the option ${JSON.stringify(key)} is not one a fence takes: view, theme, interactive, strict`);
    }
    if (BOOLEANS.includes(key)) {
      if (!["", "true", "false"].includes(value)) throw new Error(`opb-viewer: ${where}: ${key} is true or false, not ${JSON.stringify(value)}`);
      options[key] = value !== "false";
    } else {
      options[key] = value;
    }
  }
  return options;
}

// The fragment of a fence's `text` in `options`, named by `where` (the
// page and the fence's line) in what it says; with `strict`, a document
// with an error is thrown, each error with its code, line and message.
export function render(text, kind, where, options) {
  let rendered;
  try {
    rendered = fragment(text, kind, where, options.view, options.theme, options.darkSelector, options.interactive);
  } catch (error) {
    throw new Error(`opb-viewer: ${where}: ${error.message}`);
  }
  const { html, failure } = rendered;
  rendered.free();
  if (options.strict && failure) throw new Error(`opb-viewer: ${failure}`);
  return html;
}

// How a fence is named in what the fragment says and in an error.
export function fenceName(language, line, page) {
  return `the ${language} fence at line ${line} of ${page}`;
}
