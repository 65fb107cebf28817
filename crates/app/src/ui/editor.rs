//! The bridge to the CodeMirror editor of `js/editor.js` (bundled into the
//! page as `window.opbEditor`), and the component that hosts it.

use crate::assist::{Offered, Tip};
use crate::checker::{Fix, Located};
use crate::mirror::{Change, Mirror};
use crate::ui::diagnostics::Jump;
use crate::ui::markdown::{assist_element, message_element};
use js_sys::{Array, Object, Reflect};
use leptos::prelude::*;
use opb_core::Syntax;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A CodeMirror view with the playground's setup (`js/editor.js`).
    type CodeMirror;

    #[wasm_bindgen(catch, js_namespace = opbEditor, js_name = create)]
    fn create_code_mirror(
        parent: &web_sys::HtmlElement,
        options: &Object,
    ) -> Result<CodeMirror, JsValue>;

    #[wasm_bindgen(method)]
    fn text(this: &CodeMirror) -> String;

    #[wasm_bindgen(method)]
    fn length(this: &CodeMirror) -> u32;

    #[wasm_bindgen(method, js_name = setText)]
    fn set_text(this: &CodeMirror, text: &str);

    #[wasm_bindgen(method, js_name = setLanguage)]
    fn set_language(this: &CodeMirror, name: &str);

    #[wasm_bindgen(method, js_name = setDiagnostics)]
    fn set_diagnostics(this: &CodeMirror, list: &Array);

    #[wasm_bindgen(method)]
    fn select(this: &CodeMirror, from: u32, to: u32);

    #[wasm_bindgen(method)]
    fn selection(this: &CodeMirror) -> Vec<u32>;

    #[wasm_bindgen(method, js_name = setSelection)]
    fn set_selection(this: &CodeMirror, anchor: u32, head: u32);

    #[wasm_bindgen(method)]
    fn highlight(this: &CodeMirror, from: f64, to: f64, reveal: bool);

    #[wasm_bindgen(method, js_name = applyEdit)]
    fn apply_edit(this: &CodeMirror, from: u32, to: u32, text: &str);

    #[wasm_bindgen(method, js_name = stepProblem)]
    fn step_problem(this: &CodeMirror, forward: bool);

    #[wasm_bindgen(method, js_name = hoverAtCursor)]
    fn hover_at_cursor(this: &CodeMirror);

    #[wasm_bindgen(method)]
    fn focus(this: &CodeMirror);

    #[wasm_bindgen(method)]
    fn destroy(this: &CodeMirror);
}

/// A mounted editor and the callbacks it calls, kept alive together.
struct Mounted {
    view: CodeMirror,
    _on_change: Closure<dyn Fn(u32, Array)>,
    _on_cursor: Closure<dyn Fn(u32, u32)>,
    _on_rule: Closure<dyn Fn(u32, u32)>,
    _assist: Option<[AtOffset; 2]>,
    _render: [Render; 2],
}

/// A callback the editor calls to draw a text of the app's as elements.
type Render = Closure<dyn Fn(String) -> web_sys::Node>;

/// How the editor draws the app's texts: the Markdown of completions and
/// hovers, and diagnostics' messages (`ui/markdown.rs`).
fn renderers() -> [Render; 2] {
    [
        Render::new(|text: String| assist_element(&text, "cm-opb-markdown")),
        Render::new(|message: String| message_element(&message)),
    ]
}

/// A callback the editor calls with a UTF-16 offset.
type AtOffset = Closure<dyn Fn(u32) -> JsValue>;

/// What the editor asks the app as the author types and points, at a
/// UTF-16 offset: the completions there (`src/assist.rs`; the editor asks
/// after a word, a quote or a key's colon is typed, and on Ctrl-Space), and
/// the hover text (also on Ctrl-K Ctrl-I at the cursor).
#[derive(Clone, Copy)]
pub struct Assist {
    pub complete: Callback<u32, Option<Offered>>,
    pub hover: Callback<u32, Option<Tip>>,
}

impl Assist {
    /// The callbacks as the editor calls them: an offset in, a plain
    /// object or null out.
    fn closures(self) -> [AtOffset; 2] {
        let complete =
            AtOffset::new(move |at| self.complete.run(at).map_or(JsValue::NULL, offered_object));
        let hover = AtOffset::new(move |at| {
            self.hover.run(at).map_or(JsValue::NULL, |tip| {
                let object = Object::new();
                set(&object, "from", tip.from.into());
                set(&object, "to", tip.to.into());
                set(&object, "markdown", tip.markdown.into());
                object.into()
            })
        });
        [complete, hover]
    }
}

fn offered_object(offered: Offered) -> JsValue {
    let items = Array::new();
    for item in offered.items {
        let object = Object::new();
        set(&object, "label", item.label.into());
        set(&object, "insert", item.insert.into());
        set(&object, "detail", item.detail.into());
        set(&object, "info", item.info.into());
        set(&object, "isKey", item.is_key.into());
        items.push(&object);
    }
    let object = Object::new();
    set(&object, "from", offered.from.into());
    set(&object, "to", offered.to.into());
    set(&object, "items", items.into());
    object.into()
}

/// A handle on the page's editor, usable before it is mounted (calls do
/// nothing then). Copy, so closures and components can all hold it.
#[derive(Clone, Copy)]
pub struct EditorHandle {
    mounted: StoredValue<Option<Mounted>, LocalStorage>,
    /// The text, following the editor's edits (src/mirror.rs); None until
    /// the first `text()` copies it out of the editor, which holds the
    /// opened text with its line breaks made `\n`, and again after the copy
    /// lost track. Apart from `mounted`, because the editor reports edits
    /// while a call into it (such as `replace_text`) holds `mounted`.
    mirror: StoredValue<Option<Mirror>, LocalStorage>,
}

impl Default for EditorHandle {
    fn default() -> Self {
        EditorHandle { mounted: StoredValue::new_local(None), mirror: StoredValue::new_local(None) }
    }
}

impl EditorHandle {
    /// The current text, when the editor is mounted.
    pub fn text(&self) -> Option<String> {
        self.with_text(str::to_owned)
    }

    /// Reads the current text where it is kept, without a copy, when the
    /// editor is mounted: the copy that followed its edits, or else the
    /// editor's text, copied out of it once. `read` must not call into the
    /// editor.
    pub fn with_text<T>(&self, read: impl FnOnce(&str) -> T) -> Option<T> {
        if self.mirror.with_value(Option::is_none) {
            let text = self.with_view(CodeMirror::text)?;
            self.mirror.set_value(Some(Mirror::new(text)));
        }
        self.mirror.with_value(|m| m.as_ref().map(|m| read(m.text())))
    }

    /// Applies an edit the editor reports to the copy of its text, or drops
    /// the copy when it no longer matches the editor's `length`.
    fn follow(&self, length: u32, changes: &Array) {
        let mut edits = Vec::with_capacity(changes.length() as usize / 3);
        for i in (0..changes.length()).step_by(3) {
            let offset = |at: u32| changes.get(at).as_f64().map(|n| n as usize);
            let (Some(from), Some(to), Some(inserted)) =
                (offset(i), offset(i + 1), changes.get(i + 2).as_string())
            else {
                self.mirror.set_value(None);
                return;
            };
            edits.push(Change { from, to, inserted });
        }
        self.mirror.update_value(|m| {
            if m.as_mut().is_some_and(|m| !m.apply(&edits, length as usize)) {
                *m = None;
            }
        });
    }

    fn with_view<T>(&self, call: impl FnOnce(&CodeMirror) -> T) -> Option<T> {
        self.mounted.with_value(|m| m.as_ref().map(|m| call(&m.view)))
    }

    /// The text's length in UTF-16 units, without copying it: a text of
    /// megabytes costs tens of milliseconds to bring into Rust.
    pub fn length(&self) -> Option<u32> {
        self.with_view(CodeMirror::length)
    }

    /// Replaces the text as one undoable change.
    pub fn replace_text(&self, text: &str) {
        self.with_view(|view| view.set_text(text));
    }

    pub fn set_syntax(&self, syntax: Syntax) {
        let name = match syntax {
            Syntax::Json => "json",
            Syntax::Yaml => "yaml",
        };
        self.with_view(|view| view.set_language(name));
    }

    /// Shows diagnostics as squiggles, gutter markers and hover tooltips;
    /// a diagnostic's related place (where the parser stopped, for a
    /// bracket never closed) is a second, hint-level mark.
    pub fn show(&self, located: &[Located]) {
        let list = Array::new();
        for located in located {
            let d = &located.diagnostic;
            let source = format!("{} {}", d.code, d.name);
            let object = diagnostic_object(
                located.from,
                located.to,
                d.severity.as_str(),
                &d.message,
                &source,
            );
            set(&object, "code", d.code.into());
            if let Some(fix) = &located.fix {
                let edit = Object::new();
                set(&edit, "from", fix.from.into());
                set(&edit, "to", fix.to.into());
                set(&edit, "text", fix.text.as_str().into());
                set(&object, "fix", edit.into());
            }
            list.push(&object);
            for (related, &(from, to)) in d.related.iter().zip(&located.related) {
                list.push(&diagnostic_object(from, to, "hint", &related.message, &source));
            }
        }
        self.with_view(|view| view.set_diagnostics(&list));
    }

    /// Marks the lines of a range (UTF-16 offsets) as the viewer's
    /// selection, or clears the mark; `reveal` scrolls them into view
    /// without moving the cursor or the focus.
    pub fn highlight(&self, range: Option<(u32, u32)>, reveal: bool) {
        let (from, to) = range.map_or((-1.0, -1.0), |(from, to)| (f64::from(from), f64::from(to)));
        self.with_view(|view| view.highlight(from, to, reveal));
    }

    /// Selects a range (UTF-16 offsets), scrolls it into view and focuses.
    pub fn select(&self, from: u32, to: u32) {
        self.with_view(|view| view.select(from, to));
    }

    /// Applies a certain fix (or all of them, as one edit) as one undoable
    /// change: an edit of the author's, checked as typing is.
    pub fn apply(&self, fix: &Fix) {
        self.with_view(|view| view.apply_edit(fix.from, fix.to, &fix.text));
    }

    /// Moves to the next problem (or the previous) and focuses, as F8 and
    /// Shift-F8 do in the editor.
    pub fn step_problem(&self, forward: bool) {
        self.with_view(|view| view.step_problem(forward));
    }

    /// Shows the hover at the cursor (Ctrl-K Ctrl-I).
    pub fn hover_at_cursor(&self) {
        self.with_view(CodeMirror::hover_at_cursor);
    }

    /// Gives the editor the focus.
    pub fn focus(&self) {
        self.with_view(CodeMirror::focus);
    }

    /// The main selection's anchor and head (UTF-16 offsets).
    pub fn selection(&self) -> Option<(u32, u32)> {
        match self.with_view(CodeMirror::selection)?.as_slice() {
            &[anchor, head] => Some((anchor, head)),
            _ => None,
        }
    }

    /// Puts back a selection kept with a draft, in view, without taking
    /// the focus.
    pub fn set_selection(&self, (anchor, head): (u32, u32)) {
        self.with_view(|view| view.set_selection(anchor, head));
    }
}

fn diagnostic_object(from: u32, to: u32, severity: &str, message: &str, source: &str) -> Object {
    let object = Object::new();
    set(&object, "from", from.into());
    set(&object, "to", to.into());
    set(&object, "severity", severity.into());
    set(&object, "message", message.into());
    set(&object, "source", source.into());
    object
}

fn set(object: &Object, key: &str, value: JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(object, &key.into(), &value);
}

/// The editor, mounted into a `data-testid="editor"` container (or
/// `testid`, for a second editor), its text read out as `label`.
/// `on_change` runs after every edit with the text's new length (UTF-16
/// units), `on_cursor` with the cursor's line and column, `on_ready` once
/// the editor holds `initial`; with `assist`, it completes and explains.
/// `on_rule` runs with a diagnostic's range when its tooltip's rule link is
/// followed; the key hint goes into `hint_parent` (the status bar) when set.
#[component]
pub fn Editor(
    handle: EditorHandle,
    #[prop(default = "editor")] testid: &'static str,
    #[prop(default = "Document")] label: &'static str,
    initial: String,
    syntax: Syntax,
    #[prop(into)] on_change: Callback<u32>,
    #[prop(into)] on_cursor: Callback<(u32, u32)>,
    #[prop(into)] on_ready: Callback<()>,
    #[prop(optional)] assist: Option<Assist>,
    #[prop(optional, into)] on_rule: Option<Callback<Jump>>,
    #[prop(optional)] hint_parent: Option<NodeRef<leptos::html::Span>>,
) -> impl IntoView {
    let container = NodeRef::<leptos::html::Div>::new();
    let (failure, set_failure) = signal(None::<String>);
    container.on_load(move |element| {
        let on_change_js = Closure::<dyn Fn(u32, Array)>::new(move |length, changes: Array| {
            handle.follow(length, &changes);
            on_change.run(length);
        });
        let on_cursor_js =
            Closure::<dyn Fn(u32, u32)>::new(move |line, column| on_cursor.run((line, column)));
        let on_rule_js = Closure::<dyn Fn(u32, u32)>::new(move |from, to| {
            if let Some(on_rule) = on_rule {
                on_rule.run(Jump { from, to });
            }
        });
        let options = Object::new();
        set(&options, "doc", initial.as_str().into());
        set(&options, "language", if syntax == Syntax::Json { "json" } else { "yaml" }.into());
        set(&options, "onChange", on_change_js.as_ref().clone());
        set(&options, "onCursor", on_cursor_js.as_ref().clone());
        set(&options, "label", label.into());
        set(&options, "onRule", on_rule_js.as_ref().clone());
        if let Some(parent) = hint_parent.and_then(|p| p.get_untracked()) {
            set(&options, "hintParent", parent.into());
        }
        let render_js = renderers();
        set(&options, "renderMarkdown", render_js[0].as_ref().clone());
        set(&options, "renderMessage", render_js[1].as_ref().clone());
        let assist_js = assist.map(Assist::closures);
        if let Some([complete, hover]) = &assist_js {
            set(&options, "onComplete", complete.as_ref().clone());
            set(&options, "onHover", hover.as_ref().clone());
        }
        match create_code_mirror(&element, &options) {
            Ok(view) => {
                handle.mounted.set_value(Some(Mounted {
                    view,
                    _on_change: on_change_js,
                    _on_cursor: on_cursor_js,
                    _on_rule: on_rule_js,
                    _assist: assist_js,
                    _render: render_js,
                }));
                on_ready.run(());
            }
            Err(error) => set_failure.set(Some(
                error.as_string().unwrap_or_else(|| "the editor script did not load".to_owned()),
            )),
        }
    });
    on_cleanup(move || {
        handle.mirror.try_set_value(None);
        handle.mounted.try_update_value(|m| {
            if let Some(mounted) = m.take() {
                mounted.view.destroy();
            }
        });
    });
    view! {
        <div class="editor" data-testid=testid node_ref=container>
            {move || failure.get().map(|reason| view! {
                <p class="editor-failure" role="alert">"The editor could not start: " {reason}</p>
            })}
        </div>
    }
}
