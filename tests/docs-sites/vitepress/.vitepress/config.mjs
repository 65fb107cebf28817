// A VitePress site as a docs author sets one up for <opb-viewer>: Vue is told
// the element is not one of its components.
export default {
  title: "opb-viewer in VitePress",
  // No favicon: Chromium's request for one would be the page's only 404.
  head: [["link", { rel: "icon", href: "data:," }]],
  vue: {
    template: {
      compilerOptions: { isCustomElement: (tag) => tag === "opb-viewer" },
    },
  },
};
