// An Astro site as a docs author sets one up for opb's fences: Markdown
// through the unified (remark) processor, which runs the opb-viewer
// package's remark plugin when the site is built (Astro 7's default
// processor, Sätteri, runs no remark plugin). The site's dark mode is
// Starlight's, `data-theme="dark"` on <html>, so the plugin is told that
// selector. OPB_STRICT=1 builds it strict, which a broken document's fence
// must fail.
import { defineConfig } from "astro/config";
import { unified } from "@astrojs/markdown-remark";
import remarkOpb from "opb-viewer/remark";

export default defineConfig({
  markdown: {
    processor: unified({
      remarkPlugins: [[remarkOpb, { darkSelector: '[data-theme="dark"]', strict: process.env.OPB_STRICT === "1" }]],
    }),
  },
});
