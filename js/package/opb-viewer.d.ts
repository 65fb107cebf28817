// Types of the <opb-viewer> element (the npm package `opb-viewer`).
// Importing the package defines the element in a browser and does nothing
// elsewhere (server-side rendering imports it safely); it exports nothing.

/** A diagnostic of the `opb-result` event: positions are 1-based. */
export interface OpbDiagnostic {
  code: string;
  name: string;
  severity: "error" | "warning" | "info";
  /** The message, credentials in it cut to their first characters. */
  message: string;
  /** The JSON pointer of what it is about. */
  pointer: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

/** The `detail` of the `opb-result` event, dispatched after each check. */
export interface OpbResult {
  type: "opb:result";
  kind: "playbook" | "plugin-manifest" | null;
  counts: { error: number; warning: number; info: number };
  diagnostics: OpbDiagnostic[];
}

/** The element's attributes. */
export interface OpbViewerAttributes {
  /** The document's text; else `src`; else the element's own text. */
  code?: string;
  /** The document's address, fetched (CORS applies on another origin). */
  src?: string;
  /** Read the document as this kind rather than detect it. */
  kind?: "playbook" | "plugin-manifest";
  /** The tab shown first. */
  tab?: "graph" | "tools" | "requires" | "paths" | "manifest" | "diagnostics";
  /** A fixed height, scrolling inside: pixels, or any CSS length. */
  height?: string | number;
  /** `auto` (the default) follows the host page, then the system. */
  theme?: "light" | "dark" | "auto";
  /** The playground an "Open in the playground" link leads to. */
  playground?: string;
}

export interface OpbViewerElement extends HTMLElement {
  addEventListener(type: "opb-result", listener: (event: CustomEvent<OpbResult>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "opb-viewer": OpbViewerElement;
  }
  interface HTMLElementEventMap {
    "opb-result": CustomEvent<OpbResult>;
  }
}
