// The host page's theme, for `theme="auto"`: what the page declares, a
// `data-theme` or a `dark`/`light` class on <html>, then the color-scheme
// of <html> (its CSS, else a <meta name="color-scheme">). A page that
// declares both schemes shows the reader's system choice, and so does the
// viewer; a page that declares nothing is light, whatever the system: its
// own background is the browser's light canvas.
// js/build-viewer.mjs puts it before the element (js/opb-viewer.js); the
// playground's iframe embed code carries it for the host page
// (crates/app/src/embed_code.rs), which sends the frame its answer.
function hostTheme() {
  const html = document.documentElement;
  const said = html.getAttribute("data-theme");
  if (said === "dark" || said === "light") return said;
  if (html.classList.contains("dark")) return "dark";
  if (html.classList.contains("light")) return "light";
  let scheme = getComputedStyle(html).colorScheme;
  if (scheme === "normal") scheme = document.querySelector('meta[name="color-scheme"]')?.content ?? "";
  const schemes = scheme.split(/\s+/);
  const dark = schemes.includes("dark");
  if (dark && schemes.includes("light")) return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  return dark ? "dark" : "light";
}
