// Types of opb-viewer/markdown-it, a markdown-it plugin that renders each
// ```openplaybook (and ```oz0-plugin) fence at build time as opb's
// fragment. Options are those of ./remark.d.ts.
import type { OpbFenceOptions } from "./remark.js";

export type { OpbFenceOptions };

/** The markdown-it instance the plugin is given (`md.use(opbViewer, options)`). */
interface MarkdownItLike {
  renderer: { rules: { fence?: (...args: any[]) => string } };
}

/** Replaces markdown-it's fence rule for opb's fences; others go to the previous rule. */
export default function opbViewer(md: MarkdownItLike, options?: OpbFenceOptions): void;
