// Starts the playground's wasm. Trunk would write an inline script for
// this; an external one lets the page's Content-Security-Policy forbid
// inline scripts. Trunk.toml's `pattern_script` puts this file on the page
// with the wasm-bindgen loader's and the wasm's (hashed) addresses.
//
// The editor's bundle (CodeMirror, 130 KB gzipped) is on the page as a
// script the browser neither fetches nor runs (`type="text/plain"`, with
// Trunk's hashed address and integrity): it is loaded here, beside the
// wasm, unless the page is the embed (`?embed=1`), which shows no editor.
// "embed" reads as src/embed.rs's PageOptions reads it.
const boot = document.querySelector("script[data-opb-boot]");
const embed = ["", "1", "true", "yes"].includes(new URLSearchParams(location.search).get("embed"));

function loadEditor() {
  const held = document.querySelector("script[data-opb-editor]");
  const script = document.createElement("script");
  script.src = held.src;
  if (held.integrity) script.integrity = held.integrity;
  const loaded = new Promise((resolve, reject) => {
    script.onload = resolve;
    script.onerror = () => reject(new Error(`the editor's script ${held.src} did not load`));
  });
  document.head.append(script);
  return loaded;
}

const editor = embed ? Promise.resolve() : loadEditor();
const wasm = fetch(boot.dataset.wasm);
const bindings = await import(boot.dataset.js);
await editor;
await bindings.default({ module_or_path: wasm });
