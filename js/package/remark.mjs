// opb-viewer/remark: a remark plugin (Astro, Docusaurus, MDX) that
// replaces each ```openplaybook code block (and ```oz0-plugin, a plugin
// manifest) with an `html` node holding opb's fragment, rendered at build
// time: the static step graph, the trust summary or the report, and the
// document's problems. Other code blocks are left as they are.
//
//   remarkPlugins: [[remarkOpb, { theme: "auto", darkSelector: '[data-theme="dark"]' }]]
import { relative } from "node:path";
import { fenceName, fenceOptions, kindOf, render, settle } from "./fragment.mjs";

// Every `code` node under `node`, with its parent and index, deepest
// blocks (lists, quotes) included.
function* codeBlocks(node) {
  for (const [index, child] of (node.children ?? []).entries()) {
    if (child.type === "code") yield [child, node, index];
    else yield* codeBlocks(child);
  }
}

export default function remarkOpb(options) {
  const settled = settle(options);
  return (tree, file) => {
    const path = file?.path;
    const page = path ? relative(file.cwd ?? process.cwd(), path) : "a page";
    for (const [node, parent, index] of [...codeBlocks(tree)]) {
      const kind = kindOf(node.lang ?? "");
      if (kind === undefined) continue;
      const where = fenceName(node.lang, node.position?.start.line ?? 0, page);
      const html = render(node.value, kind, where, fenceOptions(node.meta, settled, where));
      parent.children[index] = { type: "html", value: html, position: node.position };
    }
  };
}
