// The embed page (embed.html), for docs sites' <iframe>s. Not a module of
// its own: js/build-viewer.mjs appends it to the element's module
// (js/opb-viewer.js) built on the embed's wasm, whose `readLink` and
// `hostMessage` read the address and the host's messages with opb-share, as
// the playground reads them (crates/viewer/src/embed.rs). So `start`, the
// element's loader, is in scope here.
//
// The document is the one the address's fragment carries (`#pako:…`, the
// playground's share link; the panel it names opens); `?theme=light|dark`
// sets the theme (light without), `?height=auto` makes the page tell the host its height.
// The protocol (docs/embedding.md): the host may post `{type:
// "opb:set-document", code, kind?}` and `{type: "opb:set-theme", theme}`;
// the page posts `{type: "opb:ready"}` once it listens, `{type:
// "opb:result", kind, counts, diagnostics}` after each check, `{type:
// "opb:error", message}` for a message it cannot take and, with
// `height=auto`, `{type: "opb:resize", height}` when its height changes.
// What it posts is what the host gave and what the core says of it, so any
// origin may read it.
function embedPage() {
  const viewer = document.querySelector("opb-viewer[data-embed]");
  if (!viewer) return;
  const problem = document.querySelector("[data-embed-problem]");
  const html = document.documentElement;
  const framed = window.parent !== window;
  const post = (message) => framed && window.parent.postMessage(message, "*");
  const say = (why) => {
    problem.textContent = why ?? "";
    problem.hidden = !why;
    viewer.hidden = Boolean(why);
  };
  // The element's words: `light` or `dark`; anything else is the page's
  // own rule (js/host-theme.js), light, as the page declares nothing more:
  // the host page's theme comes by `opb:set-theme`, which the iframe embed
  // code sends.
  const theme = (word) => (word === "light" || word === "dark" ? html.setAttribute("data-theme", word) : html.removeAttribute("data-theme"));
  const show = (shown) => {
    say(null);
    if (shown.kind) viewer.setAttribute("kind", shown.kind);
    else viewer.removeAttribute("kind");
    if (shown.tab) viewer.setAttribute("tab", shown.tab);
    viewer.setAttribute("code", shown.code);
    shown.free();
  };

  const query = new URLSearchParams(location.search);
  theme(query.get("theme"));
  // Opened on its own, the page is its own host: it paints the theme's
  // background rather than showing through to a page that is not there.
  if (!framed) html.dataset.alone = "";
  viewer.addEventListener("opb-result", (event) => post(event.detail));
  if (query.get("height") === "auto") {
    let last = 0;
    new ResizeObserver(() => {
      const height = Math.ceil(document.body.getBoundingClientRect().height);
      if (height !== last) post({ type: "opb:resize", height: (last = height) });
    }).observe(document.body);
  }

  start().then((core) => {
    const fromAddress = () => {
      try {
        show(core.readLink(location.hash));
      } catch (why) {
        say(String(why));
      }
    };
    fromAddress();
    // A host may point the frame at another document by its fragment
    // alone, which reloads nothing.
    addEventListener("hashchange", fromAddress);
    addEventListener("message", (event) => {
      if (!framed || event.source !== window.parent) return;
      const asked = core.hostMessage(JSON.stringify(event.data ?? null));
      const { document: sent, theme: chosen, error } = asked;
      asked.free();
      if (sent) show(sent);
      else if (chosen) theme(chosen);
      else if (error) post({ type: "opb:error", message: error });
    });
    post({ type: "opb:ready" });
  });
}

if (typeof window !== "undefined") embedPage();
