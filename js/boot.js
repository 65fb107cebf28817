// Starts the playground's wasm. Trunk would write an inline script for
// this; an external one lets the page's Content-Security-Policy forbid
// inline scripts. Trunk.toml's `pattern_script` puts this file on the page
// with the wasm-bindgen loader's and the wasm's (hashed) addresses.
//
// The editor's bundle (CodeMirror, 130 KB gzipped) is on the page as a
// script the browser neither fetches nor runs (`type="text/plain"`, with
// Trunk's hashed address and integrity): it is loaded here, beside the
// wasm.
//
// An embed's address in the playground's own form (`?embed=1`, with its
// theme, height and document) is sent on to the embed page, which loads the
// viewer's build (embed.html), before anything of the playground loads.
const boot = document.querySelector("script[data-opb-boot]");
const query = new URLSearchParams(location.search);
const embed = ["", "1", "true", "yes"].includes(query.get("embed"));

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

if (embed) {
  query.delete("embed");
  const search = query.size ? `?${query}` : "";
  location.replace(new URL(`embed.html${search}${location.hash}`, location.href));
} else {
  const editor = loadEditor();
  const wasm = fetch(boot.dataset.wasm);
  const bindings = await import(boot.dataset.js);
  await editor;
  await bindings.default({ module_or_path: wasm });
}
