// <opb-viewer>: the opb viewer as a custom element, for docs sites. On a
// page, two lines:
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
// (the default), which follows what the host page declares (hostTheme, in
// js/host-theme.js, which the build puts before this file) and is light
// when it declares nothing;
// `playground` is the address an "Open in the playground" link leads to.
// After each check the element dispatches an `opb-result` event whose
// `detail` is `{type: "opb:result", kind, counts, diagnostics}`. The viewer
// renders in the element's shadow root, styled by opb-viewer.css (whose
// colours and fonts a page sets with --opb-* custom properties), so
// neither page's styles leak into the other.
//
// What it shows is written by the viewer's wasm (crates/viewer: opb-core
// and opb-render, without the playground), escaped and free of script; this
// file only switches tabs and links the graph's steps to their boundaries.
//
// Nothing is loaded until a first element comes near the viewport; then the
// viewer's code is fetched once for every element of the page, those added
// later included. Importing this module touches no browser global, so a
// site's server-side rendering can import it.
//
// js/build-viewer.mjs (a Trunk post-build hook) writes this file into the
// build with the name of the viewer's wasm-bindgen loader and the
// playground filled in; cargo xtask package viewer, into the npm package.

// The viewer's stylesheet, in an element's shadow root: the file beside
// this one, named literally so that a bundler copies it. The npm package
// carries the sheet's text in place of this function (js/build-viewer.mjs),
// because a site generator may take a .css file its bundler copied for the
// page's own stylesheet: VitePress links the first one its client build
// emits, in place of its theme's.
function styleSheet(shadow) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./opb-viewer.css", import.meta.url).href;
  shadow.append(link);
}
// The playground the "Open in the playground" link leads to: the element's
// `playground` attribute, else the playground this file is served from
// (none for the npm package, whose links are then left out).
const PLAYGROUND = "__OPB_PLAYGROUND__";
let started;
// Shows markup an element's view begins with (its trust banner) until the
// view itself is ready: for the playground's reading view, whose page
// (js/reading.js, built into this module) makes the banner with a smaller
// build of the viewer than the whole view's. Set when the element is
// defined.
let showFirst = null;

// The wasm is fetched while its loader is: one round trip, not two.
function start() {
  if (!started) {
    const wasm = fetch(new URL("./__OPB_VIEWER_CORE__.wasm", import.meta.url));
    started = import("./__OPB_VIEWER_CORE__.js").then(async (core) => {
      await core.default({ module_or_path: wasm });
      return core;
    });
  }
  return started;
}

// How far outside the viewport an element starts loading.
const NEAR = "600px 0px";

// The graph's zoom. It opens fitted to its box's width, but never larger
// than drawn nor so small that a step's name is under READABLE CSS pixels:
// a wide graph on a phone is then wider than its box, which scrolls, so a
// finger pans it. The buttons zoom by STEP, down to the whole width and up
// to MOST; Fit goes back to the opening view.
const READABLE = 12;
const STEP = 1.25;
const MOST = 3;
// The summary's button in a fixed-height element, which shows the verdict
// alone until it is pressed.
const MORE = '<button type="button" class="opb-more" data-more aria-expanded="false">Show the whole summary</button>';
const ZOOM = '<div class="opb-zoom" role="group" aria-label="Zoom the graph"><button type="button" data-zoom="out" aria-label="Zoom out">−</button><button type="button" data-zoom="in" aria-label="Zoom in">+</button><button type="button" data-zoom="fit">Fit</button></div>';

// The playground's address of a document: its share link (`#pako:`, the
// zlib-deflated JSON of `{code, kind}` in base64url, crates/share). Written
// with the browser's own CompressionStream rather than opb-share's encoder:
// that would bring a deflater and serde_json into the viewer's wasm (about
// 25 KB gzipped). The playground decodes it with opb-share, which treats
// every link as hostile; tests/e2e/embed.test.mjs opens one.
async function playgroundLink(playground, code, kind) {
  const json = new TextEncoder().encode(JSON.stringify(kind ? { code, kind } : { code }));
  const packed = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
  let binary = "";
  for (let i = 0; i < packed.length; i += 0x8000) binary += String.fromCharCode(...packed.subarray(i, i + 0x8000));
  const data = btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  // `?edit`: its reader has read it here, so the editor opens at once
  // rather than the playground's reading view (js/route.js).
  return new URL(`?edit#pako:${data}`, new URL(playground, import.meta.url)).href;
}

// Zooms `graph` (its `.opb-graph` box) in, out, or to fit (READABLE).
function zoomGraph(graph, how) {
  const svg = graph.querySelector("svg.graph");
  const { width, height } = svg.viewBox.baseVal;
  if (!graph.clientWidth || !width) return;
  const name = svg.querySelector(".node-title");
  const readable = name ? READABLE / parseFloat(getComputedStyle(name).fontSize) : 0;
  const whole = graph.clientWidth / width;
  const was = Number(graph.dataset.scale) || 1;
  const scale = how === "fit" ? Math.min(1, Math.max(whole, readable)) : Math.min(MOST, Math.max(Math.min(whole, readable), how === "in" ? was * STEP : was / STEP));
  // The point at the middle of the box stays there.
  const middle = (graph.scrollLeft + graph.clientWidth / 2) / (was * width);
  Object.assign(svg.style, { width: `${width * scale}px`, height: `${height * scale}px`, maxWidth: "none" });
  Object.assign(graph.dataset, { scale, width: graph.clientWidth });
  if (how === "fit") {
    delete graph.dataset.zoomed;
    // Where the graph starts, in the middle of the box when it is wider.
    const start = svg.querySelector('[data-terminal="start"]')?.getBoundingClientRect();
    graph.scrollLeft = start ? start.left + start.width / 2 - svg.getBoundingClientRect().left - graph.clientWidth / 2 : 0;
  } else {
    graph.dataset.zoomed = "";
    graph.scrollLeft = middle * width * scale - graph.clientWidth / 2;
  }
}

function define() {
  const elements = new Set();
  // Fits each graph to its box when the box is first laid out (a hidden
  // tab's when shown) and when its width changes, unless its reader zoomed.
  const resized = new ResizeObserver((entries) => {
    for (const { target } of entries) if (!target.dataset.zoomed && target.clientWidth !== Number(target.dataset.width)) zoomGraph(target, "fit");
  });
  let watching = false;
  // Every element following the page is told when the page's theme changes.
  const watchTheme = () => {
    if (watching) return;
    watching = true;
    const retheme = () => elements.forEach((element) => element.followPage());
    new MutationObserver(retheme).observe(document.documentElement, { attributes: true, attributeFilter: ["class", "data-theme", "style"] });
    if (document.head) new MutationObserver(retheme).observe(document.head, { childList: true, subtree: true, attributes: true, attributeFilter: ["content"] });
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
    static observedAttributes = ["code", "src", "kind", "theme", "tab", "height", "playground"];

    static {
      showFirst = (element, html) => element.#showFirst(html);
    }

    #root = null;
    #observer = null;
    #loading = null;
    #shown = false;
    #generation = 0;

    connectedCallback() {
      if (!this.#root) {
        const shadow = this.attachShadow({ mode: "open" });
        styleSheet(shadow);
        this.#root = document.createElement("div");
        this.#root.className = "opb-root";
        // A document in `code` leaves the element's children to the page: a
        // docs site's static drawing of it (the npm package's Markdown
        // plugins, `interactive`), shown until the live view replaces it.
        if (this.hasAttribute("code")) this.#root.append(document.createElement("slot"));
        this.#root.addEventListener("click", (event) => this.#clicked(event));
        this.#root.addEventListener("keydown", (event) => this.#key(event));
        shadow.append(this.#root);
        this.addEventListener("scroll", () => this.#cue(), { passive: true });
      }
      this.followPage();
      this.#size();
      elements.add(this);
      watchTheme();
      near.observe(this);
    }

    disconnectedCallback() {
      elements.delete(this);
      near.unobserve(this);
    }

    attributeChangedCallback(name) {
      if (name === "theme") this.followPage();
      else if (name === "height") this.#size();
      else if (name === "tab") this.#choose(this.getAttribute("tab"));
      else if (this.#loading) this.#loading.then(() => this.#update());
    }

    // Near the viewport: the viewer's code and the document, then the view;
    // the element's text is watched from then on.
    async load() {
      this.#loading ??= this.#update().then(() => {
        this.#observer = new MutationObserver(() => this.#update());
        this.#observer.observe(this, { childList: true, characterData: true, subtree: true });
      });
      return this.#loading;
    }

    followPage() {
      if (!this.#root) return;
      this.#root.dataset.theme = this.#theme();
      // The page's background behind the element, for what must hide the
      // text scrolling under it (the tabs' row); the element itself is
      // transparent.
      let behind = "";
      for (let at = this.parentElement; at && !behind; at = at.parentElement) {
        const colour = getComputedStyle(at).backgroundColor;
        if (colour && !/^(transparent|rgba\(.*,\s*0\))$/.test(colour)) behind = colour;
      }
      if (behind) this.#root.style.setProperty("--host-bg", behind);
      else this.#root.style.removeProperty("--host-bg");
    }

    #theme() {
      const asked = this.getAttribute("theme");
      return asked === "light" || asked === "dark" ? asked : hostTheme();
    }

    // `height`: a number is pixels; another length is taken as CSS reads it.
    // Set through the style object, which a page's CSP allows. In a fixed
    // height the summary shows its verdict alone (a button opens the rest),
    // so the tabs and the graph are in the box, and a shadow at its foot
    // says there is more below.
    #size() {
      const asked = this.getAttribute("height")?.trim();
      const height = asked && /^\d+(\.\d+)?$/.test(asked) ? `${asked}px` : asked;
      const fixed = Boolean(height && CSS.supports("height", height));
      if (fixed) {
        this.style.display = "block";
        this.style.height = height;
        this.style.overflow = "auto";
      } else {
        for (const property of ["display", "height", "overflow"]) this.style.removeProperty(property);
      }
      this.#root?.toggleAttribute("data-fixed", fixed);
      this.#cue();
    }

    // The scroll cue: shown while a fixed-height element has more below.
    #cue() {
      if (!this.#root) return;
      const more = this.#root.hasAttribute("data-fixed") && this.scrollTop + this.clientHeight < this.scrollHeight - 1;
      this.#root.toggleAttribute("data-below", more);
    }

    // The document: `code`, else the file `src` names, else the text.
    async #document() {
      const code = this.getAttribute("code");
      if (code !== null) return { code, fromText: false, name: "document" };
      const src = this.getAttribute("src");
      if (src === null) return { code: this.textContent ?? "", fromText: true, name: "document" };
      const address = new URL(src, document.baseURI);
      const name = address.pathname.split("/").pop() || "document";
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
      return { code: await response.text(), fromText: false, name };
    }

    // Reads the document and shows it; of overlapping updates, the last wins.
    async #update() {
      const generation = ++this.#generation;
      const [core, document_] = await Promise.all([start(), this.#document()]);
      if (generation !== this.#generation) return;
      if (document_.problem) {
        const note = document.createElement("p");
        note.className = "opb-problem";
        note.setAttribute("role", "alert");
        note.textContent = document_.problem;
        this.#root.replaceChildren(note);
        this.#shown = false;
        return;
      }
      const code = document_.fromText ? core.elementText(document_.code) : document_.code;
      const kind = this.getAttribute("kind");
      // Made in slices of about 30 ms, the page answering its reader
      // between them (a long or dense document takes a while to read and
      // lay out), and set in a task of its own after the last. A newer
      // update stops this one.
      const viewing = core.viewing(code, kind, document_.name);
      for (let ready = false; !ready; ) {
        ready = viewing.step();
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (generation !== this.#generation) {
          viewing.free();
          return;
        }
      }
      const viewed = viewing.viewed();
      viewing.free();
      const chosen = this.#shown ? this.#root.querySelector('[role="tab"][aria-selected="true"]')?.dataset.tab : null;
      // The markup is the viewer's own: every text in it escaped by the
      // renderer (crates/render), no script, no handler, no style attribute.
      const playground = this.getAttribute("playground") ?? PLAYGROUND;
      const bar = playground ? '<p class="opb-bar"><a class="opb-open" data-testid="open-in-playground" target="_blank" rel="noopener">Open in the playground</a></p>' : "";
      for (const graph of this.#root.querySelectorAll(".opb-graph")) resized.unobserve(graph);
      this.#root.innerHTML = bar + viewed.html;
      this.#shown = true;
      // The drawing's steps become buttons (named by their <title>), and so
      // the drawing, no longer a plain image, a group of them.
      for (const svg of this.#root.querySelectorAll(".opb-graph > svg.graph")) svg.setAttribute("role", "group");
      for (const node of this.#root.querySelectorAll("svg.graph g[data-step-id]")) {
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
      }
      for (const graph of this.#root.querySelectorAll(".opb-graph")) {
        if (!graph.querySelector("svg.graph")) continue;
        graph.insertAdjacentHTML("beforebegin", ZOOM);
        resized.observe(graph);
      }
      this.#root.querySelector(".trust-banner")?.insertAdjacentHTML("beforeend", MORE);
      this.#root.insertAdjacentHTML("beforeend", '<div class="opb-cue" aria-hidden="true"></div>');
      this.#choose(chosen ?? this.getAttribute("tab"));
      this.#cue();
      const result = JSON.parse(viewed.result);
      viewed.free();
      this.dispatchEvent(new CustomEvent("opb-result", { detail: result }));
      if (!playground) return;
      const link = await playgroundLink(playground, code, kind);
      if (generation === this.#generation) this.#root.querySelector(".opb-open")?.setAttribute("href", link);
    }

    // The beginning of the view (escaped by the renderer, as the view is),
    // unless the view is shown already.
    #showFirst(html) {
      if (!this.#shown && this.#root) this.#root.innerHTML = html;
    }

    // Shows the tab `id`, when the view has one.
    #choose(id, focus = false) {
      const tabs = [...(this.#root?.querySelectorAll('[role="tab"]') ?? [])];
      const tab = tabs.find((t) => t.dataset.tab === id);
      if (!tab) return;
      for (const other of tabs) {
        const selected = other === tab;
        other.setAttribute("aria-selected", String(selected));
        other.tabIndex = selected ? 0 : -1;
        this.#root.querySelector(`#${other.getAttribute("aria-controls")}`).hidden = !selected;
      }
      // The chosen tab into the row's view, which may scroll sideways.
      const row = tab.parentElement;
      row.scrollLeft = tab.offsetLeft - (row.clientWidth - tab.offsetWidth) / 2;
      if (focus) tab.focus();
      this.#cue();
    }

    #clicked(event) {
      const tab = event.target.closest('[role="tab"]');
      if (tab) return this.#choose(tab.dataset.tab);
      const more = event.target.closest("[data-more]");
      if (more) {
        const open = more.getAttribute("aria-expanded") !== "true";
        more.setAttribute("aria-expanded", String(open));
        more.textContent = open ? "Show the verdict only" : "Show the whole summary";
        more.parentElement.toggleAttribute("data-open", open);
        return this.#cue();
      }
      const zoom = event.target.closest("[data-zoom]");
      if (zoom) return zoomGraph(zoom.parentElement.nextElementSibling, zoom.dataset.zoom);
      const node = event.target.closest("g[data-step-id]");
      if (node) this.#showStep(node.dataset.stepId);
    }

    // The tabs' keys (the ARIA tabs pattern), and Enter or Space on a step.
    #key(event) {
      const tab = event.target.closest('[role="tab"]');
      if (tab) {
        const tabs = [...this.#root.querySelectorAll('[role="tab"]')];
        const at = tabs.indexOf(tab);
        const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
        if (to === undefined) return;
        event.preventDefault();
        this.#choose(tabs[(to + tabs.length) % tabs.length].dataset.tab, true);
        return;
      }
      const node = event.target.closest("g[data-step-id]");
      if (node && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.#showStep(node.dataset.stepId);
      }
    }

    // A step chosen in the graph: its boundary, beneath, is brought into
    // view and marked.
    #showStep(id) {
      const articles = this.#root.querySelectorAll("article.opb-step");
      const article = [...articles].find((a) => a.dataset.step === id);
      if (!article) return;
      for (const other of articles) other.classList.toggle("chosen", other === article);
      article.tabIndex = -1;
      article.scrollIntoView({ block: "nearest" });
      article.focus({ preventScroll: true });
    }
  }

  customElements.define("opb-viewer", OpbViewer);
}

if (typeof window !== "undefined" && window.customElements && !customElements.get("opb-viewer")) define();
