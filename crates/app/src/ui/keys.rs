//! The playground's keyboard conventions: the command palette (Ctrl/Cmd-K,
//! F1), the shortcut sheet (`?` outside the editor), Ctrl/Cmd-S (keep the
//! draft, never the browser's "Save page as"), F8 and Shift-F8 outside the
//! editor (the editor's own keymap has them inside), and Ctrl-K Ctrl-I
//! (the hover at the editor's cursor). [`SHORTCUTS`] lists them once: the
//! sheet shows it, the palette's entries show their keys from it.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Every shortcut, as the sheet lists it: keys, then what they do.
pub const SHORTCUTS: &[(&str, &str)] = &[
    (PALETTE_KEYS, "Command palette: every action, filtered as you type"),
    (SHEET_KEYS, "This list of shortcuts (outside the editor)"),
    (KEEP_KEYS, "Keep the draft now (drafts are also kept as you type)"),
    (NEXT_KEYS, "Next problem"),
    (PREVIOUS_KEYS, "Previous problem"),
    ("Ctrl/⌘+Z, Ctrl/⌘+Shift+Z", "Undo, redo (a fix or \"Fix all certain\" is one step)"),
    ("Ctrl+Space", "Completions at the cursor"),
    ("Ctrl/⌘+K Ctrl/⌘+I", "The explanation at the cursor"),
    ("Ctrl/⌘+F", "Find in the document"),
    ("Ctrl+M", "Switch between Tab indenting and Tab moving to the next control"),
    ("Esc", "Close a menu, the palette or this list"),
];

pub const PALETTE_KEYS: &str = "Ctrl/⌘+K, F1";
pub const SHEET_KEYS: &str = "?";
pub const KEEP_KEYS: &str = "Ctrl/⌘+S";
pub const NEXT_KEYS: &str = "F8";
pub const PREVIOUS_KEYS: &str = "Shift+F8";

/// One entry of the palette.
#[derive(Clone)]
pub struct Command {
    pub label: String,
    /// Its shortcut, when it has one.
    pub keys: Option<&'static str>,
    pub run: Callback<()>,
}

impl Command {
    pub fn new(label: impl Into<String>, run: impl Fn() + Send + Sync + 'static) -> Command {
        Command { label: label.into(), keys: None, run: Callback::new(move |()| run()) }
    }

    pub fn keys(mut self, keys: &'static str) -> Command {
        self.keys = Some(keys);
        self
    }
}

/// What the page's keys reach: the palette and the sheet, and the actions
/// the keys run. Copy, for closures.
#[derive(Clone, Copy)]
pub struct Keys {
    pub palette: RwSignal<bool>,
    pub sheet: RwSignal<bool>,
    /// The element that had the focus when the palette or the sheet opened.
    returns: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>,
    /// Set by Ctrl-K in the editor: a Ctrl-I next shows the hover there.
    chord: StoredValue<bool>,
}

/// What the keys do that the app provides.
#[derive(Clone, Copy)]
pub struct KeyActions {
    pub keep: Callback<()>,
    pub step_problem: Callback<bool>,
    pub hover: Callback<()>,
}

impl Keys {
    /// Listens to the page's keys (in the capture phase, before the
    /// editor's keymap, which would otherwise take Ctrl-K as a chord's
    /// start and Ctrl-I as its own).
    pub fn listen(actions: KeyActions) -> Keys {
        let keys = Keys {
            palette: RwSignal::new(false),
            sheet: RwSignal::new(false),
            returns: StoredValue::new_local(None),
            chord: StoredValue::new(false),
        };
        let handler = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |ev| {
            keys.on_key(&ev, actions);
        });
        let _ = window().add_event_listener_with_callback_and_bool(
            "keydown",
            handler.as_ref().unchecked_ref(),
            true,
        );
        // The page's keys are the page's for as long as it is open.
        handler.forget();
        keys
    }

    fn on_key(&self, ev: &web_sys::KeyboardEvent, actions: KeyActions) {
        let command = ev.ctrl_key() || ev.meta_key();
        let key = ev.key();
        let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let in_editor =
            target.as_ref().is_some_and(|t| t.closest(".cm-editor").ok().flatten().is_some());
        // A modifier pressed alone is part of the next key, not a key.
        if matches!(key.as_str(), "Control" | "Meta" | "Shift" | "Alt") {
            return;
        }
        let chord = self.chord.get_value();
        self.chord.set_value(false);
        if command && !ev.alt_key() && key.eq_ignore_ascii_case("i") && chord {
            ev.prevent_default();
            ev.stop_propagation();
            self.palette.set(false);
            self.returns.set_value(None);
            actions.hover.run(());
            return;
        }
        if (command && !ev.alt_key() && !ev.shift_key() && key.eq_ignore_ascii_case("k"))
            || key == "F1"
        {
            ev.prevent_default();
            self.chord.set_value(in_editor && key != "F1");
            self.open(self.palette);
        } else if command && !ev.alt_key() && key.eq_ignore_ascii_case("s") {
            ev.prevent_default();
            actions.keep.run(());
        } else if key == "F8" && !in_editor && !command {
            ev.prevent_default();
            actions.step_problem.run(!ev.shift_key());
        } else if key == "?" && !command && !target.as_ref().is_some_and(editable) {
            ev.prevent_default();
            self.open(self.sheet);
        }
    }

    /// Opens the palette or the sheet (closing the other), remembering
    /// where the focus was.
    pub fn open(&self, which: RwSignal<bool>) {
        if !self.palette.get_untracked() && !self.sheet.get_untracked() {
            let active = document().active_element().and_then(|e| e.dyn_into().ok());
            self.returns.set_value(active);
        }
        self.palette.set(which == self.palette);
        self.sheet.set(which == self.sheet);
    }

    /// Closes both and gives the focus back to where it was.
    pub fn close(&self) {
        self.palette.set(false);
        self.sheet.set(false);
        if let Some(element) = self.returns.try_update_value(Option::take).flatten() {
            let _ = element.focus();
        }
    }
}

/// Whether typing `?` there types it: a field, a list, the editor.
fn editable(element: &web_sys::Element) -> bool {
    matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || element
            .closest("[contenteditable=''], [contenteditable='true'], .cm-editor")
            .ok()
            .flatten()
            .is_some()
}

/// Whether `label` matches every word of `query`, in any case.
pub fn matches(label: &str, query: &str) -> bool {
    let label = label.to_lowercase();
    query.to_lowercase().split_whitespace().all(|word| label.contains(word))
}

/// The command palette: a field that filters `commands` (built as it
/// opens, so steps and tools are the document's now), Up and Down to
/// choose, Enter to run, Escape to close; the focus goes back to where it
/// was before an action runs.
#[component]
pub fn Palette(keys: Keys, #[prop(into)] commands: Callback<(), Vec<Command>>) -> impl IntoView {
    move || {
        keys.palette.get().then(|| {
            let all = commands.run(());
            let query = RwSignal::new(String::new());
            let active = RwSignal::new(0usize);
            let shown = Signal::derive(move || {
                query.with(|q| {
                    all.iter().filter(|c| matches(&c.label, q)).cloned().enumerate().collect::<Vec<_>>()
                })
            });
            let count = move || shown.with(Vec::len);
            let run = move |index: usize| {
                let command = shown.with_untracked(|s| s.get(index).map(|(_, c)| c.run));
                if let Some(run) = command {
                    keys.close();
                    run.run(());
                }
            };
            let on_key = move |ev: KeyboardEvent| match ev.key().as_str() {
                "ArrowDown" => {
                    ev.prevent_default();
                    active.update(|a| *a = (*a + 1) % count().max(1));
                }
                "ArrowUp" => {
                    ev.prevent_default();
                    active.update(|a| *a = (*a + count().max(1) - 1) % count().max(1));
                }
                "Enter" => {
                    ev.prevent_default();
                    run(active.get_untracked());
                }
                "Escape" => {
                    ev.prevent_default();
                    keys.close();
                }
                _ => {}
            };
            let input = NodeRef::<leptos::html::Input>::new();
            input.on_load(|input| {
                let _ = input.focus();
            });
            let option_id = |i: usize| format!("palette-option-{i}");
            view! {
                <div class="registry-backdrop" on:click=move |_| keys.close()></div>
                <div class="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="palette" on:keydown=on_key>
                    <input
                        class="palette-input"
                        data-testid="palette-input"
                        node_ref=input
                        type="text"
                        role="combobox"
                        aria-label="Type a command"
                        aria-expanded="true"
                        aria-controls="palette-list"
                        aria-autocomplete="list"
                        autocomplete="off"
                        spellcheck="false"
                        placeholder="Type a command, a step, a rule…"
                        aria-activedescendant=move || (count() > 0).then(|| option_id(active.get()))
                        on:input=move |ev| {
                            query.set(event_target_value(&ev));
                            active.set(0);
                        }
                    />
                    <ul class="palette-list" id="palette-list" role="listbox" aria-label="Commands">
                        <For each=move || shown.get() key=|(i, c)| (*i, c.label.clone()) let:((i, command))>
                            <li
                                id=option_id(i)
                                class="palette-option"
                                role="option"
                                aria-selected=move || (active.get() == i).to_string()
                                on:mousedown=|ev| ev.prevent_default()
                                on:click=move |_| run(i)
                            >
                                <span class="palette-label">{command.label.clone()}</span>
                                {command.keys.map(|k| view! { <kbd class="palette-keys">{k}</kbd> })}
                            </li>
                        </For>
                    </ul>
                    {move || (count() == 0).then(|| view! { <p class="palette-empty" role="status">"No command matches."</p> })}
                </div>
            }
        })
    }
}

/// The list of shortcuts that `?` opens.
#[component]
pub fn ShortcutSheet(keys: Keys) -> impl IntoView {
    move || {
        keys.sheet.get().then(|| {
            let close = NodeRef::<leptos::html::Button>::new();
            close.on_load(|button| {
                let _ = button.focus();
            });
            let on_key = move |ev: KeyboardEvent| {
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    keys.close();
                }
            };
            let rows = SHORTCUTS
                .iter()
                .map(|(k, what)| view! { <tr><th scope="row"><kbd>{*k}</kbd></th><td>{*what}</td></tr> })
                .collect_view();
            view! {
                <div class="registry-backdrop" on:click=move |_| keys.close()></div>
                <div class="shortcut-sheet" role="dialog" aria-modal="true" aria-labelledby="shortcut-title" data-testid="shortcut-sheet" on:keydown=on_key>
                    <div class="share-panel-top">
                        <h2 id="shortcut-title">"Keyboard shortcuts"</h2>
                        <button class="icon-button" aria-label="Close" node_ref=close on:click=move |_| keys.close()>"×"</button>
                    </div>
                    <table class="shortcut-table">
                        <caption class="visually-hidden">"Keys and what they do"</caption>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_matches_every_word_in_any_case_and_order() {
        assert!(matches("Go to step: triage", "STEP tri"));
        assert!(matches("Go to step: triage", ""));
        assert!(!matches("Go to step: triage", "tool"));
    }
}
