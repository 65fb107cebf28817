// Which page a visit to the playground opens: a shared link
// opens the reading view, everything else the playground with its editor.
// js/build-viewer.mjs writes this script into index.html itself, with its
// SHA-256 in the page's Content-Security-Policy, so the choice costs no
// request: the page holds both sets of files in <template>s, which the
// browser neither fetches nor runs, and this adds the chosen set to <head>.
//
// The reading view is for a link that arrived: an address whose fragment
// is a share (a `scheme:` before any `/`, as opb-share's `is_share` reads
// it), unless the page itself wrote it (its history state is "opb": the
// playground's address follows its document), the reader chose Edit on
// this link in this tab (the reading view's record in sessionStorage), or
// the address asks for the editor (`?edit`: the "Open in the playground"
// link of <opb-viewer> and the embed, whose reader has read it already;
// the word is taken out of the address, so a link copied from it opens the
// reading view again). The embed's own addresses (`?embed=1`) go to the
// playground's boot script, which sends them on to the embed page.
{
  const RECORD = "opb.reading";
  const shared = location.hash.slice(1).split("/")[0].includes(":");
  const query = new URLSearchParams(location.search);
  let editing = false;
  try {
    if (query.has("edit")) {
      query.delete("edit");
      history.replaceState(history.state, "", location.pathname + (query.size ? `?${query}` : "") + location.hash);
      sessionStorage.setItem(RECORD, JSON.stringify({ link: location.hash }));
    }
    editing = JSON.parse(sessionStorage.getItem(RECORD) ?? "null")?.link === location.hash;
  } catch {
    // No sessionStorage: the link is read first.
  }
  const reading = shared && !query.has("embed") && !editing && history.state !== "opb";
  document.documentElement.dataset.opbPage = reading ? "reading" : "playground";
  document.head.append(document.getElementById(reading ? "opb-reading" : "opb-playground").content.cloneNode(true));
}
