// Starts the playground's wasm. Trunk would write an inline script for
// this; an external one lets the page's Content-Security-Policy forbid
// inline scripts. Trunk.toml's `pattern_script` puts this file on the page
// with the wasm-bindgen loader's and the wasm's (hashed) addresses.
const boot = document.querySelector("script[data-opb-boot]");
const bindings = await import(boot.dataset.js);
await bindings.default({ module_or_path: boot.dataset.wasm });
