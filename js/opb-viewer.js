// <opb-viewer>: the opb viewer as a custom element, for docs sites that
// prefer no iframe. On a page, two lines:
//
//   <script type="module" src="https://playground.example/opb-viewer.js"></script>
//   <opb-viewer src="refund.yaml"></opb-viewer>
//
// The document is the element's `code` attribute, else the file its `src`
// names (fetched; a failure is said in the element), else its text (its
// markup indentation removed). `kind` (playbook | plugin-manifest) is
// optional; `tab` opens a tab other than the graph (tools, requires, paths,
// manifest, diagnostics); `height` (pixels, or any CSS length) gives the
// element a fixed height, scrolling inside; `theme` is light, dark or auto
// (the default), which follows the host page: a `data-theme` or a `dark`
// class on <html>, then its `color-scheme`, then the operating system. After each check the element
// dispatches an `opb-result` event whose `detail` is the `opb:result`
// message of the embed page. The viewer renders in the element's shadow
// root, styled by opb-viewer.css, so neither page's styles leak into the
// other.
//
// Nothing is loaded until a first element comes near the viewport; then the
// viewer's code is fetched once for every element of the page, those added
// later included. Importing this module touches no browser global, so a
// site's server-side rendering can import it.
//
// js/build-viewer.mjs (a Trunk post-build hook) writes this file into the
// build with the names of the wasm-bindgen loader and the wasm filled in.

const here = new URL(".", import.meta.url);
let started;

function start() {
  started ??= import(new URL("__OPB_APP_JS__", here).href).then(async (app) => {
    await app.default({ module_or_path: new URL("__OPB_APP_WASM__", here) });
    return app;
  });
  return started;
}

// How far outside the viewport an element starts loading.
const NEAR = "600px 0px";

// The host page's theme, for `theme="auto"`.
function hostTheme() {
  const html = document.documentElement;
  const said = html.getAttribute("data-theme");
  if (said === "dark" || said === "light") return said;
  if (html.classList.contains("dark")) return "dark";
  if (html.classList.contains("light")) return "light";
  const scheme = getComputedStyle(html).colorScheme.trim();
  if (scheme === "dark" || scheme === "light") return scheme;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function define() {
  const elements = new Set();
  let watching = false;
  // Every element following the page is told when the page's theme changes.
  const watchTheme = () => {
    if (watching) return;
    watching = true;
    const retheme = () => elements.forEach((element) => element.followPage());
    new MutationObserver(retheme).observe(document.documentElement, { attributes: true, attributeFilter: ["class", "data-theme", "style"] });
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", retheme);
  };
  const near = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        near.unobserve(entry.target);
        entry.target.load();
      }
    },
    { rootMargin: NEAR },
  );

  class OpbViewer extends HTMLElement {
    static observedAttributes = ["code", "src", "kind", "theme", "tab", "height"];

    #root = null;
    #viewer = null;
    #observer = null;
    #loading = null;

    connectedCallback() {
      if (!this.#root) {
        const shadow = this.attachShadow({ mode: "open" });
        const style = document.createElement("link");
        style.rel = "stylesheet";
        style.href = new URL("opb-viewer.css", here).href;
        this.#root = document.createElement("div");
        this.#root.className = "opb-root";
        this.#root.dataset.theme = this.#theme();
        shadow.append(style, this.#root);
      }
      this.#size();
      elements.add(this);
      watchTheme();
      near.observe(this);
    }

    // `height`: a number is pixels; another length is taken as CSS reads it.
    // Set through the style object, which a page's CSP allows.
    #size() {
      const asked = this.getAttribute("height")?.trim();
      const height = asked && /^\d+(\.\d+)?$/.test(asked) ? `${asked}px` : asked;
      if (height && CSS.supports("height", height)) {
        this.style.display = "block";
        this.style.height = height;
        this.style.overflow = "auto";
      } else {
        for (const property of ["display", "height", "overflow"]) this.style.removeProperty(property);
      }
    }

    disconnectedCallback() {
      elements.delete(this);
      near.unobserve(this);
      this.#observer?.disconnect();
      this.#viewer?.unmount();
      this.#viewer = null;
    }

    attributeChangedCallback(name) {
      if (name === "theme") this.followPage();
      else if (name === "height") this.#size();
      else if (name === "tab") this.#viewer?.setTab(this.getAttribute("tab"));
      else if (this.#viewer) this.#update();
      // Changed while loading, or after a document that could not be loaded:
      // once that settles, the new one is read.
      else if (this.#loading) {
        this.#loading.then(() => {
          if (this.#viewer) return this.#update();
          this.#loading = null;
          return this.load();
        });
      }
    }

    // Near the viewport: the viewer's code, the document, then the viewer.
    async load() {
      this.#loading ??= this.#mount();
      return this.#loading;
    }

    followPage() {
      const theme = this.#theme();
      if (this.#root) this.#root.dataset.theme = theme;
      this.#viewer?.setTheme(theme);
    }

    #theme() {
      const asked = this.getAttribute("theme");
      return asked === "light" || asked === "dark" ? asked : hostTheme();
    }

    async #mount() {
      const [app, document_] = await Promise.all([start(), this.#document()]);
      if (!this.isConnected || this.#viewer) return;
      if (document_.problem) {
        this.#say(document_.problem);
        return;
      }
      this.#root.replaceChildren();
      this.#viewer = app.mountViewer(
        this.#root,
        document_.code,
        document_.fromText,
        this.getAttribute("kind"),
        this.#theme(),
        this.getAttribute("tab"),
        here.href,
        (result) => this.dispatchEvent(new CustomEvent("opb-result", { detail: result })),
      );
      this.#observer = new MutationObserver(() => this.#update());
      this.#observer.observe(this, { childList: true, characterData: true, subtree: true });
    }

    #say(problem) {
      const note = document.createElement("p");
      note.className = "share-notice error";
      note.setAttribute("role", "alert");
      note.textContent = problem;
      this.#root.replaceChildren(note);
    }

    // The document: `code`, else the file `src` names, else the text.
    async #document() {
      const code = this.getAttribute("code");
      if (code !== null) return { code, fromText: false };
      const src = this.getAttribute("src");
      if (src === null) return { code: this.textContent ?? "", fromText: true };
      const address = new URL(src, document.baseURI);
      let response;
      try {
        response = await fetch(address, { credentials: "same-origin" });
      } catch {
        const cors = address.origin !== location.origin ? " If it is on another site, that site must allow this page's origin (CORS)." : "";
        return { problem: `opb could not load the document ${src}: the request failed.${cors}` };
      }
      if (!response.ok) {
        return { problem: `opb could not load the document ${src}: the server answered ${response.status}${response.statusText ? " " + response.statusText : ""}.` };
      }
      return { code: await response.text(), fromText: false };
    }

    async #update() {
      if (!this.#viewer) return;
      const document_ = await this.#document();
      if (!this.#viewer) return;
      if (!document_.problem) {
        this.#viewer.setDocument(document_.code, document_.fromText, this.getAttribute("kind"));
        return;
      }
      // The viewer goes, and the next change of the element mounts it anew.
      this.#observer.disconnect();
      this.#viewer.unmount();
      this.#viewer = null;
      this.#loading = null;
      this.#say(document_.problem);
    }
  }

  customElements.define("opb-viewer", OpbViewer);
}

if (typeof window !== "undefined" && window.customElements && !customElements.get("opb-viewer")) define();
