// <opb-viewer>: the opb viewer as a custom element, for docs sites that
// prefer no iframe. On a page, two lines:
//
//   <script type="module" src="https://playground.example/opb-viewer.js"></script>
//   <opb-viewer kind="playbook">…the playbook, as JSON or YAML…</opb-viewer>
//
// The document is the element's text (its markup indentation removed) or
// its `code` attribute; `kind` (playbook | plugin-manifest) and
// `theme` (light | dark | auto) are optional. After each check the element
// dispatches an `opb-result` event whose `detail` is the `opb:result`
// message of the embed page. The viewer renders in the element's shadow
// root, styled by opb-viewer.css, so neither page's styles leak into the
// other.
//
// js/build-viewer.mjs (a Trunk post-build hook) writes this file into the
// build with the names of the wasm-bindgen loader and the wasm filled in.
import init, { mountViewer } from "./__OPB_APP_JS__";

const here = new URL(".", import.meta.url);
let started;

function start() {
  started ??= init({ module_or_path: new URL("__OPB_APP_WASM__", here) });
  return started;
}

class OpbViewer extends HTMLElement {
  static observedAttributes = ["code", "kind", "theme"];

  #root = null;
  #viewer = null;
  #observer = null;

  async connectedCallback() {
    if (!this.#root) {
      const shadow = this.attachShadow({ mode: "open" });
      const style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = new URL("opb-viewer.css", here).href;
      this.#root = document.createElement("div");
      this.#root.className = "opb-root";
      shadow.append(style, this.#root);
    }
    await start();
    if (!this.isConnected || this.#viewer) return;
    const [code, fromText] = this.#document();
    this.#viewer = mountViewer(
      this.#root,
      code,
      fromText,
      this.getAttribute("kind"),
      this.getAttribute("theme"),
      here.href,
      (result) => this.dispatchEvent(new CustomEvent("opb-result", { detail: result })),
    );
    this.#observer = new MutationObserver(() => this.#update());
    this.#observer.observe(this, { childList: true, characterData: true, subtree: true });
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#viewer?.unmount();
    this.#viewer = null;
  }

  attributeChangedCallback(name) {
    if (!this.#viewer) return;
    if (name === "theme") this.#viewer.setTheme(this.getAttribute("theme"));
    else this.#update();
  }

  #document() {
    const code = this.getAttribute("code");
    return code !== null ? [code, false] : [this.textContent ?? "", true];
  }

  #update() {
    const [code, fromText] = this.#document();
    this.#viewer.setDocument(code, fromText, this.getAttribute("kind"));
  }
}

customElements.define("opb-viewer", OpbViewer);
