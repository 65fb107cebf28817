// Types of opb-viewer/remark, a remark plugin that replaces each
// ```openplaybook (and ```oz0-plugin) code block with an `html` node
// holding opb's fragment, rendered at build time.

/** The plugins' options: each fence's info string may set all but `darkSelector`. */
export interface OpbFenceOptions {
  /** What the fragment shows: the step graph (default), the trust summary, or the report. */
  view?: "graph" | "summary" | "report";
  /** `auto` (default) follows the site's dark selector, light otherwise. */
  theme?: "light" | "dark" | "auto";
  /**
   * The CSS selector the site sets while dark (default `html.dark`, VitePress's;
   * `[data-theme="dark"]` for Astro Starlight, `[data-md-color-scheme="slate"]`
   * for Material for MkDocs). One selector: `{`, `}`, `<`, `;` and `,` are refused.
   */
  darkSelector?: string;
  /** Put the live <opb-viewer> over the static fragment (the page imports `opb-viewer`). */
  interactive?: boolean;
  /** Fail the build, naming the page, the fence, each error's code and message, when a document has an error. */
  strict?: boolean;
}

/** The remark attacher: `remarkPlugins: [[remarkOpb, options]]`. */
export default function remarkOpb(options?: OpbFenceOptions): (tree: unknown, file?: { path?: string; cwd?: string }) => void;
