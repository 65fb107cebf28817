// opb-viewer/markdown-it: a markdown-it plugin (VitePress, Eleventy) that
// renders each ```openplaybook fence (and ```oz0-plugin, a plugin
// manifest) at build time as opb's fragment: the static step graph, the
// trust summary or the report, and the document's problems; other fences
// go to the rule that was there before.
//
//   md.use(opbViewer, { theme: "auto", darkSelector: "html.dark" })
import { relative } from "node:path";
import { fenceName, fenceOptions, kindOf, render, settle } from "./fragment.mjs";

// The page a markdown-it environment is rendering, as its site names it:
// VitePress's relativePath, Eleventy's inputPath, else a path, else none.
function pageOf(env) {
  const path = env?.relativePath ?? env?.page?.inputPath ?? env?.path;
  if (typeof path !== "string" || !path) return "a page";
  return path.startsWith("/") ? relative(process.cwd(), path) : path;
}

export default function opbViewer(md, options) {
  const settled = settle(options);
  const fallback = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, index, mdOptions, env, self) => {
    const token = tokens[index];
    const [language = "", ...meta] = token.info.trim().split(/\s+/);
    const kind = kindOf(language);
    if (kind === undefined) {
      return fallback ? fallback(tokens, index, mdOptions, env, self) : self.renderToken(tokens, index, mdOptions);
    }
    const where = fenceName(language, (token.map?.[0] ?? 0) + 1, pageOf(env));
    return render(token.content, kind, where, fenceOptions(meta.join(" "), settled, where));
  };
}
