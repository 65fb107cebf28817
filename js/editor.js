// The playground's editor: CodeMirror 6, bundled by esbuild into
// js/dist/editor.js (an IIFE that sets `window.opbEditor`), which the Rust app
// drives through wasm-bindgen (crates/app/src/ui/editor.rs). All positions here are UTF-16
// offsets, CodeMirror's unit; the Rust side converts from the core's bytes.

import {
  EditorView, Decoration, keymap, lineNumbers, highlightActiveLineGutter, highlightSpecialChars, drawSelection,
  dropCursor, highlightActiveLine, ViewPlugin, hoverTooltip, activateHover, hasHoverTooltips, closeHoverTooltips,
} from "@codemirror/view";
import { EditorState, Compartment, EditorSelection, StateEffect, StateField } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory } from "@codemirror/commands";
import { HighlightStyle, syntaxHighlighting, foldGutter, foldKeymap, indentOnInput, bracketMatching } from "@codemirror/language";
import { searchKeymap } from "@codemirror/search";
import { json } from "@codemirror/lang-json";
import { yaml } from "@codemirror/lang-yaml";
import { lintGutter, lintKeymap, nextDiagnostic, previousDiagnostic, setDiagnostics } from "@codemirror/lint";
import { autocompletion } from "@codemirror/autocomplete";
import { tags } from "@lezer/highlight";

// CodeMirror's basicSetup without what costs on every key and serves no
// purpose here (a key must be answered within a frame): bracket closing (it reads the language data at
// the cursor on every transaction), matches of the selection, rectangular
// selection and the default highlight style (the one below replaces it).
// Completion is not basicSetup's either: `assist` adds it with the core's
// source alone, where the app asks for it.
const setup = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  history(),
  foldGutter(),
  drawSelection(),
  dropCursor(),
  EditorState.allowMultipleSelections.of(true),
  indentOnInput(),
  bracketMatching(),
  highlightActiveLine(),
  // F8 (lintKeymap's) and Shift-F8 step through the problems.
  keymap.of([...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap, { key: "Shift-F8", run: previousDiagnostic }, indentWithTab]),
];

// What Tab does. A keyboard user moving through the page must pass through
// the editor, not be trapped in it (WCAG 2.1.2), while an author editing
// expects Tab to indent. So focus that arrives by keyboard starts in
// CodeMirror's tab-focus mode (Tab moves on), and the first edit, or a
// click, makes Tab indent; Escape then Tab still leaves (CodeMirror's
// escape hatch), and Ctrl-M switches. A hint says which applies while the
// editor has the focus, in the page's status bar (`hintParent`) where the
// app gives one, so that it covers none of the text, or else in the
// editor's corner; it is the content's description, so screen readers say
// it too.
let keyHints = 0;
const TAB_MOVES = "Tab moves to the next control. Type to edit; Tab then indents.";
const TAB_INDENTS = "Tab indents. Esc then Tab leaves the editor; Ctrl-M makes Tab move on.";

function tabHandling(hintParent) {
  const id = `opb-editor-keys-${++keyHints}`;
  const hint = document.createElement(hintParent ? "span" : "div");
  hint.className = hintParent ? "cm-opb-keys statusbar-keys" : "cm-opb-keys";
  hint.hidden = !!hintParent;
  hint.id = id;
  hint.setAttribute("aria-live", "polite");
  hint.textContent = TAB_INDENTS;
  let moves = false;
  const set = (view, to) => {
    moves = to;
    view.setTabFocusMode(to);
    hint.textContent = to ? TAB_MOVES : TAB_INDENTS;
  };
  return [
    EditorView.contentAttributes.of({ "aria-describedby": id }),
    ViewPlugin.define((view) => {
      (hintParent ?? view.dom).append(hint);
      return { destroy: () => hint.remove() };
    }),
    // Before the default keymap, whose Ctrl-M would switch the mode
    // without the hint knowing.
    keymap.of([{ key: "Ctrl-m", mac: "Shift-Alt-m", run: (view) => (set(view, !moves), true) }]),
    EditorView.domEventHandlers({
      focus(_event, view) {
        if (view.contentDOM.matches(":focus-visible")) set(view, true);
        if (hintParent) hint.hidden = false;
      },
      blur() {
        if (hintParent) hint.hidden = true;
      },
      mousedown(_event, view) {
        if (moves) set(view, false);
      },
    }),
    EditorView.updateListener.of((update) => {
      if (moves && update.transactions.some((t) => t.isUserEvent("input") || t.isUserEvent("delete"))) set(update.view, false);
    }),
  ];
}

// Completion and hover from the app (crates/app/src/ui/editor.rs, which asks
// the core): `onComplete(pos)` gives {from, to, items: [{label, insert,
// detail, info, isKey}]} or null, `onHover(pos)` {from, to, markdown} or
// null, in UTF-16 offsets; `renderMarkdown(text)` draws their Markdown as
// elements (crates/app/src/ui/markdown.rs), so the page reads it in one
// place. The core reads the text, never a check, but it is still not
// asked on every key: only once a word, a quote or a key's colon has been
// typed (then the list filters itself while the word goes on), or on
// Ctrl-Space. Ctrl-K Ctrl-I shows the hover at the cursor, for the keyboard:
// the page sees Ctrl-K first (it opens the command palette) and calls
// `hoverAtCursor` when Ctrl-I follows (crates/app/src/ui/keys.rs).
const TYPED = /(?:[\w$./-]|["']|:\s?)$/;

function assist(options) {
  const { onComplete, onHover, renderMarkdown } = options;
  if (!onComplete || !onHover) return [];
  const complete = (context) => {
    if (!context.explicit && !context.matchBefore(TYPED)) return null;
    const found = onComplete(context.pos);
    if (!found) return null;
    return {
      from: found.from,
      to: Math.max(found.to, context.pos),
      options: found.items.map((item, i) => ({
        label: item.label,
        apply: item.insert,
        detail: item.detail || undefined,
        info: () => renderMarkdown(item.info),
        type: item.isKey ? "property" : "enum",
        // The tables' order where the typed word matches equally well.
        sortText: String(i).padStart(4, "0"),
      })),
      validFor: /^[\w$./-]*$/,
    };
  };
  const hover = hoverTooltip((_view, pos) => {
    const found = onHover(pos);
    if (!found) return null;
    return {
      pos: found.from,
      end: found.to,
      above: true,
      create: () => {
        const dom = renderMarkdown(found.markdown);
        dom.classList?.add("cm-opb-hover");
        dom.setAttribute?.("role", "tooltip");
        return { dom };
      },
    };
  });
  return [
    autocompletion({ override: [complete], icons: false }),
    hover,
    keymap.of([
      {
        key: "Escape",
        run: (view) => {
          if (!hasHoverTooltips(view.state)) return false;
          view.dispatch({ effects: closeHoverTooltips });
          return true;
        },
      },
    ]),
  ];
}

// Colours are custom properties (style/share.css), so the themes set them.
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "var(--syn-property, #4338ca)" },
  { tag: tags.string, color: "var(--syn-string, #047857)" },
  { tag: [tags.number, tags.integer, tags.float], color: "var(--syn-number, #b45309)" },
  { tag: [tags.bool, tags.null, tags.atom, tags.keyword], color: "var(--syn-atom, #7c3aed)" },
  { tag: [tags.comment, tags.lineComment], color: "var(--syn-comment, #64748b)", fontStyle: "italic" },
  { tag: [tags.meta, tags.labelName, tags.typeName], color: "var(--syn-meta, #0e7490)" },
  { tag: [tags.punctuation, tags.separator, tags.bracket, tags.squareBracket, tags.brace], color: "var(--syn-punctuation, #64748b)" },
  { tag: tags.invalid, color: "var(--syn-invalid, #dc2626)" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13.5px", backgroundColor: "var(--editor-bg)" },
  // A focus ring of its own, inside the editor's border, where a keyboard
  // user looks for it.
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "-2px" },
  ".cm-opb-keys": {
    display: "none", position: "absolute", right: "10px", bottom: "8px", zIndex: "5", pointerEvents: "none",
    padding: "3px 8px", borderRadius: "6px", border: "1px solid var(--border)", backgroundColor: "var(--surface)",
    boxShadow: "var(--shadow-lg)", fontFamily: "var(--font-sans)", fontSize: "12px", color: "var(--text-2)",
  },
  "&.cm-focused .cm-opb-keys": { display: "block" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.6" },
  ".cm-content": { padding: "10px 0" },
  ".cm-gutters": { backgroundColor: "var(--editor-gutter-bg)", color: "var(--muted)", border: "none", borderRight: "1px solid var(--border)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--editor-active-gutter)", color: "var(--text)" },
  ".cm-activeLine": { backgroundColor: "var(--editor-active-line)" },
  ".cm-selectionBackground, &.cm-focused .cm-selectionBackground, ::selection": { backgroundColor: "var(--editor-selection) !important" },
  ".cm-tooltip": { border: "1px solid var(--border)", borderRadius: "8px", boxShadow: "var(--shadow-lg)", backgroundColor: "var(--surface)", overflow: "hidden" },
  ".cm-tooltip-lint": { fontFamily: "var(--font-sans)", fontSize: "13px", maxWidth: "520px" },
  ".cm-diagnostic": { padding: "8px 12px", borderLeftWidth: "4px" },
  ".cm-opb-rule-link": { display: "block", width: "fit-content", marginTop: "4px", fontFamily: "var(--font-mono)", fontSize: "12px", color: "var(--accent-text)" },
  ".cm-diagnosticAction": {
    font: "inherit", fontSize: "12px", padding: "2px 10px", marginTop: "6px", marginLeft: "0", marginRight: "8px", borderRadius: "6px",
    border: "1px solid var(--accent)", backgroundColor: "var(--accent-soft)", color: "var(--text)", cursor: "pointer",
  },
  ".cm-diagnosticSource": { fontFamily: "var(--font-mono)", fontSize: "12px", opacity: "1", color: "var(--muted)", marginTop: "4px" },
  ".cm-panels": { fontFamily: "var(--font-sans)" },
  // Completion and hover (`assist`): the page's colours, in both themes.
  "&.cm-editor .cm-tooltip.cm-tooltip-autocomplete": { overflow: "visible" },
  "&.cm-editor .cm-tooltip.cm-tooltip-autocomplete > ul": {
    fontFamily: "var(--font-mono)", fontSize: "13px", maxHeight: "15em", borderRadius: "8px", padding: "4px 0",
  },
  "&.cm-editor .cm-tooltip.cm-tooltip-autocomplete > ul > li": { padding: "3px 12px", color: "var(--text)", lineHeight: "1.5" },
  "&.cm-editor .cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]": {
    backgroundColor: "var(--accent-soft)", color: "var(--text)", boxShadow: "inset 3px 0 0 var(--accent)",
  },
  ".cm-completionMatchedText": { textDecoration: "none", fontWeight: "700", color: "var(--accent-text)" },
  ".cm-completionDetail": { marginLeft: "1.5em", fontStyle: "normal", fontFamily: "var(--font-sans)", fontSize: "12px", color: "var(--muted)" },
  "&.cm-editor .cm-tooltip.cm-completionInfo": { padding: "0", width: "max-content", maxWidth: "min(420px, 80vw)", color: "var(--text)" },
  ".cm-opb-markdown": {
    padding: "8px 12px", fontFamily: "var(--font-sans)", fontSize: "13px", lineHeight: "1.5", color: "var(--text)",
    overflowWrap: "anywhere",
  },
  ".cm-opb-hover": { maxWidth: "min(480px, 85vw)" },
  ".cm-opb-markdown p, .cm-opb-markdown ul": { margin: "0 0 6px" },
  ".cm-opb-markdown > :last-child": { marginBottom: "0" },
  ".cm-opb-markdown ul": { paddingLeft: "18px" },
  ".cm-opb-markdown code": {
    fontFamily: "var(--font-mono)", fontSize: "12px", padding: "0 4px", borderRadius: "4px",
    backgroundColor: "var(--code-bg)", color: "var(--code-text)",
  },
  ".cm-foldGutter span": { color: "var(--muted)" },
});

// The panels' selection (crates/app/src/ui/panels/selection.rs): the lines of
// the selected step or tool carry a background. Edits move the mark with the
// text until the next check sets it again.
const setLinked = StateEffect.define();
const linkedLines = StateField.define({
  create: () => Decoration.none,
  update(lines, transaction) {
    let next = lines.map(transaction.changes);
    for (const effect of transaction.effects) if (effect.is(setLinked)) next = effect.value;
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});
const linkedLine = Decoration.line({ class: "cm-opb-linked" });
// A selected item longer than this many lines is marked on its first ones.
const LINKED_LINES = 2000;

function language(name) {
  return name === "json" ? json() : yaml();
}

class Editor {
  constructor(parent, options) {
    this.shownDiagnostics = 0;
    this.languageSlot = new Compartment();
    // A diagnostic's message as the diagnostics list shows it: `quoted`
    // parts as code (crates/app/src/ui/markdown.rs).
    this.renderMessage = options.renderMessage;
    // Called with a diagnostic's range when its tooltip's rule link is
    // followed, so that the rule's page can lead back to it.
    this.onRule = options.onRule;
    this.language = options.language;
    const onChange = options.onChange;
    const onCursor = options.onCursor;
    this.view = new EditorView({
      parent,
      state: EditorState.create({
        doc: options.doc,
        extensions: [
          setup,
          tabHandling(options.hintParent),
          assist(options),
          this.languageSlot.of(language(options.language)),
          syntaxHighlighting(highlight),
          lintGutter(),
          linkedLines,
          theme,
          // An explicit tabindex tells assistive technology (and axe-core)
          // that the scrolling editor holds a focusable element.
          EditorView.contentAttributes.of({ "aria-label": options.label ?? "Document", tabindex: "0" }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) {
              // The edits, for the copy of the text the app keeps (crates/app/src/mirror.rs).
              const changes = [];
              update.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => changes.push(fromA, toA, inserted.toString()));
              onChange(update.state.doc.length, changes);
            }
            if (update.selectionSet || update.docChanged) {
              const head = update.state.selection.main.head;
              const line = update.state.doc.lineAt(head);
              // Columns count characters, as the core's diagnostics do.
              onCursor(line.number, [...line.text.slice(0, head - line.from)].length + 1);
            }
          }),
        ],
      }),
    });
  }

  text() {
    return this.view.state.doc.toString();
  }

  length() {
    return this.view.state.doc.length;
  }

  // Replaces the whole text as one undoable change of its own: never merged
  // with the edits or replacements just before or after it.
  setText(text) {
    this.view.dispatch({
      changes: { from: 0, to: this.view.state.doc.length, insert: text },
      annotations: isolateHistory.of("full"),
      selection: EditorSelection.cursor(0),
      scrollIntoView: true,
    });
  }

  setLanguage(name) {
    if (name === this.language) return;
    this.language = name;
    this.view.dispatch({ effects: this.languageSlot.reconfigure(language(name)) });
  }

  // `list` is an array of {from, to, severity, message, source, code, fix}
  // in UTF-16 offsets of the text the core checked, which is the current
  // text; `fix` ({from, to, text}) is the core's certain fix, offered as
  // the squiggle's action, and `code` names the rule its tooltip links to.
  setDiagnostics(list) {
    // A check that finds nothing after one that found nothing changes
    // nothing: no transaction (each costs an update of the whole view).
    if (list.length === 0 && this.shownDiagnostics === 0) return;
    this.shownDiagnostics = list.length;
    const length = this.view.state.doc.length;
    const diagnostics = list.map((d) => ({
      from: Math.min(d.from, length),
      to: Math.min(Math.max(d.to, d.from), length),
      severity: d.severity,
      message: d.message,
      renderMessage: () => this.diagnosticMessage(d),
      source: d.code ? undefined : d.source,
      actions: d.fix
        ? [{
            name: `Change to ${d.fix.text}`,
            // `from` and `to` are the diagnostic's range as later edits
            // moved it; the fix's range is the same place.
            apply: (view, from, to) => this.applyEdit(from + d.fix.from - d.from, to + d.fix.to - d.to, d.fix.text, view),
          }]
        : [],
    }));
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
  }

  // A diagnostic's message, then a link to its rule's page.
  diagnosticMessage(d) {
    const box = document.createElement("div");
    box.append(this.renderMessage(d.message));
    if (!d.code) return box;
    const link = document.createElement("a");
    link.className = "cm-opb-rule-link";
    link.href = `#rules/${d.code}`;
    link.title = "Read the rule's documentation";
    link.textContent = d.source;
    link.addEventListener("click", () => this.onRule?.(d.from, d.to));
    box.append(link);
    return box;
  }

  // Replaces [from, to) with `text` as one undoable change of its own (a
  // certain fix, or all of them at once), the cursor mapped through it.
  applyEdit(from, to, text, view = this.view) {
    const length = view.state.doc.length;
    const start = Math.min(from, length);
    view.dispatch({
      changes: { from: start, to: Math.min(Math.max(to, start), length), insert: text },
      annotations: isolateHistory.of("full"),
      userEvent: "input.fix",
    });
  }

  // Moves to the next (or previous) problem and gives the editor the focus,
  // as F8 and Shift-F8 do inside it.
  stepProblem(forward) {
    (forward ? nextDiagnostic : previousDiagnostic)(this.view);
    this.view.focus();
  }

  // Shows the hover at the cursor (Ctrl-K Ctrl-I); Escape closes it.
  hoverAtCursor() {
    const head = this.view.state.selection.main.head;
    this.view.focus();
    activateHover(this.view, head, 1, { until: (tr) => tr.docChanged || tr.selection !== undefined });
  }

  focus() {
    this.view.focus();
  }

  // Moves the cursor to a range, scrolls it to the middle of the view and
  // gives the editor the focus.
  select(from, to) {
    const length = this.view.state.doc.length;
    const anchor = Math.min(from, length);
    const head = Math.min(Math.max(to, from), length);
    // Scrolled to where the range starts: a long range (a credential at
    // the end of a line) scrolled to its end would leave the other lines'
    // text out of view to the left.
    this.view.dispatch({
      selection: EditorSelection.single(anchor, head),
      effects: EditorView.scrollIntoView(anchor, { y: "center" }),
    });
    this.view.focus();
  }

  selection() {
    const { anchor, head } = this.view.state.selection.main;
    return [anchor, head];
  }

  // Puts back a kept selection (clamped to the text), scrolled into view,
  // leaving the focus where it is.
  setSelection(anchor, head) {
    const length = this.view.state.doc.length;
    const [from, to] = [Math.min(anchor, length), Math.min(head, length)];
    this.view.dispatch({ selection: EditorSelection.single(from, to), effects: EditorView.scrollIntoView(to, { y: "center" }) });
  }

  // Marks the lines of [from, to) as the viewer's selection (from < 0
  // clears the mark); with `reveal`, scrolls them into view without moving
  // the cursor or the focus.
  highlight(from, to, reveal) {
    if (from < 0 && this.view.state.field(linkedLines).size === 0) return;
    const doc = this.view.state.doc;
    let lines = Decoration.none;
    if (from >= 0) {
      const first = doc.lineAt(Math.min(from, doc.length)).number;
      const last = Math.min(doc.lineAt(Math.min(Math.max(to, from), doc.length)).number, first + LINKED_LINES - 1);
      const ranges = [];
      for (let n = first; n <= last; n++) ranges.push(linkedLine.range(doc.line(n).from));
      lines = Decoration.set(ranges);
    }
    this.view.dispatch({ effects: setLinked.of(lines) });
    if (reveal && from >= 0) this.revealLine(Math.min(from, doc.length));
  }

  // Scrolls the editor's own scroller so that the line at `pos` is near
  // its top. CodeMirror's scrollIntoView would scroll the page too, where
  // the editor is part of it (a phone), moving what the reader just tapped
  // out from under the finger.
  revealLine(pos) {
    const scroller = this.view.scrollDOM;
    this.view.requestMeasure({
      read: (view) => view.documentTop + view.lineBlockAt(pos).top - scroller.getBoundingClientRect().top,
      write: (offset) => scroller.scrollTo({ top: Math.max(0, scroller.scrollTop + offset - 48) }),
    });
  }

  destroy() {
    this.view.destroy();
  }
}

window.opbEditor = {
  create(parent, options) {
    return new Editor(parent, options);
  },
  // The whole text of the editor inside `element`, which the page draws
  // only in part (the lines in view); null when it holds no editor.
  textOf(element) {
    const dom = element?.querySelector(".cm-editor");
    return (dom && EditorView.findFromDOM(dom)?.state.doc.toString()) ?? null;
  },
  // The main selection's [anchor, head] there, or null.
  selectionOf(element) {
    const dom = element?.querySelector(".cm-editor");
    const selection = dom && EditorView.findFromDOM(dom)?.state.selection.main;
    return selection ? [selection.anchor, selection.head] : null;
  },
};
