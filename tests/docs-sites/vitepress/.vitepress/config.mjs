// A VitePress site as a docs author sets one up for <opb-viewer>: Vue is told
// the element is not one of its components, and opb's fences are drawn when
// the site is built by the package's markdown-it plugin. OPB_STRICT=1 builds
// it strict, which a broken document's fence must fail.
import opbFences from "opb-viewer/markdown-it";

export default {
  title: "opb-viewer in VitePress",
  // No favicon: Chromium's request for one would be the page's only 404.
  head: [["link", { rel: "icon", href: "data:," }]],
  vue: {
    template: {
      compilerOptions: { isCustomElement: (tag) => tag === "opb-viewer" },
    },
  },
  markdown: {
    config(md) {
      md.use(opbFences, { strict: process.env.OPB_STRICT === "1" });
    },
  },
};
