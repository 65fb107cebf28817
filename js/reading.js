// The playground's reading view: what a shared link opens
// first, so its reader learns what the document can do before anything of
// the editor loads. Not a module of its own: js/build-viewer.mjs appends it
// to the element's module (js/opb-viewer.js) built on the reading view's
// wasm (crates/viewer with `link`), as opb-read-<digest>.js, so `start`,
// the element's loader, is in scope here. js/route.js loads it, for a link
// that arrived.
//
// The document is the one the address carries, read by opb-share
// (`unpackLink`, `readShare`) but for the inflating, which the browser's
// own zlib does (`DecompressionStream`), capped at the core's input limit.
// The view is the <opb-viewer> element: the trust banner, the graph, every
// panel and the problems, in the core's words and masking. The banner comes
// first, made by a build of the viewer that makes nothing else
// (opb-glance-core: a playbook's analysis and trust summary, without the
// graph's layout, the panels and the plugin manifests' rules, about two
// thirds of the whole view's bytes), the one the page preloads; the whole view's build is fetched once the banner
// shows, and its view, which begins with the same banner, replaces it. A
// link the reading view cannot read opens the playground, which says why.
//
// Edit (or the E key) adds the playground's files to the page, where the
// view stays until the playground is drawn (crates/app/src/main.rs removes
// it); the playground opens the same link, on the tab and with the step
// this view shows, from the record left in sessionStorage (opb.reading),
// which also makes a reload of this tab open the editor.
// The banner's build (js/build-viewer.mjs names it), fetched as its loader
// is: the page preloads both.
function startGlance() {
  const wasm = fetch(new URL("./__OPB_GLANCE_CORE__.wasm", import.meta.url));
  return import("./__OPB_GLANCE_CORE__.js").then(async (core) => {
    await core.default({ module_or_path: wasm });
    return core;
  });
}

// The view `viewing` makes, a slice at a time with the page answering its
// reader between slices (the element steps its own view so).
async function made(viewing) {
  while (!viewing.step()) await new Promise((resolve) => setTimeout(resolve, 0));
  const viewed = viewing.viewed();
  viewing.free();
  return viewed;
}

function readingView() {
  const playground = document.getElementById("opb-playground");
  if (!playground) return;
  const html = document.documentElement;
  const storedTheme = () => {
    try {
      return localStorage.getItem("opb.theme");
    } catch {
      return null;
    }
  };
  // The playground's theme: the reader's choice, else the system's.
  const theme = storedTheme();
  const system = matchMedia("(prefers-color-scheme: dark)");
  const drawTheme = () => {
    html.dataset.theme = theme === "light" || theme === "dark" ? theme : system.matches ? "dark" : "light";
  };
  drawTheme();
  system.addEventListener("change", drawTheme);

  const view = document.createElement("div");
  view.className = "reading";
  view.dataset.opbReading = "";
  view.innerHTML = `<header class="reading-top">
      <h1 class="reading-title"><svg viewBox="0 0 24 24" aria-hidden="true"><rect x="2" y="2" width="20" height="20" rx="6" /><path d="M7 8.5h4M7 12h10M7 15.5h6" /></svg>opb <span>shared document, read only</span></h1>
      <button type="button" class="reading-edit" data-testid="edit" aria-keyshortcuts="E">Edit <kbd aria-hidden="true">E</kbd></button>
    </header>
    <main class="reading-main" aria-label="What the shared document can do">
      <p class="reading-status" role="status" data-testid="reading-status">Reading the shared document…</p>
      <opb-viewer playground="" hidden></opb-viewer>
    </main>`;
  const viewer = view.querySelector("opb-viewer");
  const status = view.querySelector(".reading-status");
  const button = view.querySelector(".reading-edit");
  document.body.prepend(view);

  let editing = false;
  let asked = null;
  let openedOn = null;
  // The tab is named after the document while it is read (its name, else
  // its id, masked as the core masks), and the playground's again on Edit.
  const pageTitle = document.title;
  const shownTab = () => viewer.shadowRoot?.querySelector('[role="tab"][aria-selected="true"]')?.dataset.tab ?? null;
  const edit = () => {
    if (editing) return;
    editing = true;
    // The tab shown; but a link naming a panel the viewer has not (a
    // rule's page) opens on it in the playground unless the reader moved.
    const tab = shownTab();
    const record = {
      link: location.hash,
      tab: asked && asked !== openedOn && tab === openedOn ? null : tab,
      step: viewer.shadowRoot?.querySelector("article.opb-step.chosen")?.dataset.step ?? null,
    };
    try {
      sessionStorage.setItem("opb.reading", JSON.stringify(record));
    } catch {
      // Without sessionStorage the playground opens the link on its own tab.
    }
    html.dataset.opbPage = "playground";
    document.title = pageTitle;
    button.setAttribute("aria-disabled", "true");
    button.firstChild.textContent = "Opening the editor… ";
    document.head.append(playground.content.cloneNode(true));
  };
  button.addEventListener("click", edit);
  addEventListener("keydown", (event) => {
    if (event.key.toLowerCase() !== "e" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    event.preventDefault();
    edit();
  });

  // The link's data inflated by the browser, at most `most` bytes of it.
  const inflate = async (data, most) => {
    const reader = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
    const chunks = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > most) {
        await reader.cancel();
        throw new Error(`over ${most} bytes`);
      }
      chunks.push(value);
    }
    const json = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      json.set(chunk, at);
      at += chunk.length;
    }
    return json;
  };

  const glance = startGlance();
  const show = async () => {
    if (editing) return;
    const core = await glance;
    let shared;
    try {
      const unpacked = core.unpackLink(location.hash);
      const { deflated, data } = unpacked;
      unpacked.free();
      shared = core.readShare(deflated ? await inflate(data, core.maxBytes()) : data);
    } catch {
      // The playground reads every link, and says what is wrong with this one.
      return edit();
    }
    const { code, kind } = shared;
    asked = shared.tab ?? null;
    shared.free();
    const nameTab = () => {
      const title = viewer.shadowRoot.querySelector('[data-testid="trust-banner"]')?.dataset.title;
      document.title = title ? `${title} - opb` : pageTitle;
    };
    const banner = await made(core.glancing(code, kind ?? null, "document"));
    if (editing) return banner.free();
    // The banner's build makes a playbook's banner; a manifest's comes with
    // the whole view, which says "Reading the shared document…" until then.
    const first = banner.html;
    banner.free();
    viewer.hidden = false;
    viewer.after(status);
    if (first) {
      showFirst(viewer, first);
      status.textContent = "Drawing the graph and the panels…";
      nameTab();
    }
    if (kind) viewer.setAttribute("kind", kind);
    else viewer.removeAttribute("kind");
    if (asked) viewer.setAttribute("tab", asked);
    viewer.setAttribute("code", code);
    viewer.addEventListener("opb-result", () => {
      status.remove();
      openedOn = shownTab();
      nameTab();
    }, { once: true });
    viewer.load();
  };
  show();
  // Another link is read in turn; an address that carries none (a panel's,
  // `#rules`) is the playground's, which `show` opens as it opens a link it
  // cannot read.
  addEventListener("hashchange", show);
}

if (typeof window !== "undefined") readingView();
