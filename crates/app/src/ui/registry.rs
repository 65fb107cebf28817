//! A tool registry to compare the document's embedded definitions with (the
//! core's DR rules): pasted or opened in a dialog, read by the core
//! (`Registry::read`), kept in the browser's storage, shown in the header
//! with a way to remove it. Its findings are ordinary diagnostics; the Tools
//! panel sums them up per tool (`ui/panels/drift.rs`).

use crate::files::Opened;
use crate::storage::keys;
use crate::ui::files::OpenFileButton;
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use opb_core::{Limits, Registry, Syntax};
use std::sync::Arc;
use web_sys::Storage;

/// At most this many of a registry's own problems are listed.
const PROBLEMS_SHOWN: usize = 5;

/// A registry the reader loaded.
#[derive(Clone)]
pub struct Loaded {
    pub name: String,
    pub text: String,
    pub registry: Arc<Registry>,
    /// What is wrong with some of its entries (they are left out), in words.
    pub problems: Vec<String>,
}

/// The loaded registry, shared through the context so the Tools panel finds it.
#[derive(Clone, Copy)]
pub struct RegistryState {
    loaded: RwSignal<Option<Loaded>>,
}

fn local() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Each of a registry's own problems as `line 3: …`.
fn problems(registry: &Registry) -> Vec<String> {
    registry
        .diagnostics
        .iter()
        .map(|d| format!("line {}: {}", d.range.start.line, d.message))
        .collect()
}

/// Reads a registry's text; what cannot be compared with is refused with
/// the core's reasons.
fn read(name: &str, text: &str) -> Result<Loaded, Vec<String>> {
    if text.trim().is_empty() {
        return Err(vec![
            "The registry is empty: paste a JSON or YAML list of tool definitions, or open a file."
                .to_owned(),
        ]);
    }
    let registry = Registry::read(text, Syntax::from_path(name), &Limits::default());
    if !registry.is_usable() {
        let mut reasons = problems(&registry);
        if reasons.is_empty() {
            reasons.push("It holds no list of tool definitions: a registry is a list of tools, or an object whose `tools` is that list.".to_owned());
        }
        return Err(reasons);
    }
    Ok(Loaded {
        name: name.to_owned(),
        text: text.to_owned(),
        problems: problems(&registry),
        registry: Arc::new(registry),
    })
}

impl RegistryState {
    /// The registry of the last visit, when one was kept and still reads.
    pub fn restore() -> RegistryState {
        let stored = local().and_then(|storage| {
            let text = storage.get_item(keys::REGISTRY_TEXT).ok().flatten()?;
            let name = storage
                .get_item(keys::REGISTRY_NAME)
                .ok()
                .flatten()
                .unwrap_or_else(|| "registry".to_owned());
            read(&name, &text).ok()
        });
        RegistryState { loaded: RwSignal::new(stored) }
    }

    /// The registry to check with; read without tracking, as the check is.
    pub fn current(&self) -> Option<Arc<Registry>> {
        self.loaded.with_untracked(|l| l.as_ref().map(|l| l.registry.clone()))
    }

    /// The loaded registry's name; tracked, so a change re-renders.
    pub fn name(&self) -> Option<String> {
        self.loaded.with(|l| l.as_ref().map(|l| l.name.clone()))
    }

    /// Tracks the loaded registry, for effects that re-check on a change.
    pub fn track(&self) {
        self.loaded.track();
    }

    fn load(&self, name: &str, text: &str) -> Result<(), Vec<String>> {
        let loaded = read(name, text)?;
        if let Some(storage) = local() {
            // Kept for the next visit when it fits; when it does not, it
            // stays loaded until the page is closed.
            if storage.set_item(keys::REGISTRY_TEXT, text).is_err()
                || storage.set_item(keys::REGISTRY_NAME, name).is_err()
            {
                let _ = storage.remove_item(keys::REGISTRY_TEXT);
            }
        }
        self.loaded.set(Some(loaded));
        Ok(())
    }

    fn remove(&self) {
        if let Some(storage) = local() {
            let _ = storage.remove_item(keys::REGISTRY_TEXT);
            let _ = storage.remove_item(keys::REGISTRY_NAME);
        }
        self.loaded.set(None);
    }
}

/// The header's registry control: a button that opens the dialog, or the
/// loaded registry's name with a button to remove it.
#[component]
pub fn RegistryControl(state: RegistryState) -> impl IntoView {
    let open = RwSignal::new(false);
    let chip = move || {
        state.loaded.with(|l| l.as_ref().map(|l| (l.name.clone(), l.registry.len(), l.problems.len()))).map(|(name, tools, problems)| {
            let title = format!(
                "Embedded tools are compared with the registry {name} ({tools} tool{}{}). Click to replace it.",
                if tools == 1 { "" } else { "s" },
                match problems {
                    0 => String::new(),
                    n => format!("; {n} of its entries have problems"),
                }
            );
            view! {
                <span class="registry-chip" data-testid="registry-chip">
                    <span class="registry-name" title=title role="button" tabindex="0" on:click=move |_| open.set(true)>
                        "Registry: " {name}
                    </span>
                    <button data-testid="registry-remove" title="Stop comparing with this registry" aria-label="Remove the registry" on:click=move |_| state.remove()>
                        "×"
                    </button>
                </span>
            }
        })
    };
    view! {
        <div class="registry-control">
            {move || match chip() {
                Some(chip) => chip.into_any(),
                None => view! {
                    <button class="button" data-testid="registry-button" title="Compare the embedded tool definitions with a runtime's registry" on:click=move |_| open.set(true)>
                        "Compare with a registry…"
                    </button>
                }
                .into_any(),
            }}
            {move || open.get().then(|| view! { <RegistryDialog state=state on_close=move |()| open.set(false) /> })}
        </div>
    }
}

#[component]
fn RegistryDialog(state: RegistryState, #[prop(into)] on_close: Callback<()>) -> impl IntoView {
    let (name, text) = state
        .loaded
        .with_untracked(|l| l.as_ref().map(|l| (l.name.clone(), l.text.clone())))
        .unwrap_or_default();
    let name = RwSignal::new(if name.is_empty() { "pasted registry".to_owned() } else { name });
    let text = RwSignal::new(text);
    let errors = RwSignal::new(Vec::<String>::new());
    let area = NodeRef::<leptos::html::Textarea>::new();
    area.on_load(|area| {
        let _ = area.focus();
    });
    let load = move || match state.load(&name.get_untracked(), &text.get_untracked()) {
        Ok(()) => on_close.run(()),
        Err(reasons) => errors.set(reasons),
    };
    let on_file = move |opened: Result<Opened, String>| match opened {
        Ok(file) => {
            name.set(file.name);
            text.set(file.text);
            load();
        }
        Err(reason) => errors.set(vec![reason]),
    };
    let on_key = move |ev: KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.stop_propagation();
            on_close.run(());
        }
    };
    let error_list = move || {
        errors.with(|errors| {
            (!errors.is_empty()).then(|| {
                let more = errors.len().saturating_sub(PROBLEMS_SHOWN);
                let items = errors
                    .iter()
                    .take(PROBLEMS_SHOWN)
                    .map(|e| view! { <li>{e.clone()}</li> })
                    .collect_view();
                view! {
                    <div role="alert" data-testid="registry-error">
                        <p>"This registry cannot be used:"</p>
                        <ul class="registry-problems">
                            {items}
                            {(more > 0).then(|| view! { <li>{format!("and {more} more")}</li> })}
                        </ul>
                    </div>
                }
            })
        })
    };
    view! {
        <div class="dialog-backdrop registry-backdrop" on:click=move |_| on_close.run(())></div>
        <div class="registry-dialog" role="dialog" aria-modal="true" aria-labelledby="registry-title" data-testid="registry-dialog" on:keydown=on_key>
            <form on:submit=move |ev| {
                ev.prevent_default();
                load();
            }>
                <h2 id="registry-title">"Compare with a tool registry"</h2>
                <p>
                    "A runtime checks a playbook's embedded tool definitions against its own registry. Paste that registry (a JSON or YAML list of tool definitions, or "
                    <code>"{tools: [...]}"</code>
                    ") or open its file: each embedded tool is compared field by field, and what differs shows as diagnostics and in the Tools tab. It stays in this browser."
                </p>
                <label class="visually-hidden" for="registry-text">"Registry"</label>
                <textarea
                    id="registry-text"
                    data-testid="registry-text"
                    spellcheck="false"
                    placeholder="- name: refund.create\n  riskClass: money\n  sideEffecting: true\n  …"
                    node_ref=area
                    prop:value=move || text.get()
                    on:input=move |ev| {
                        text.set(event_target_value(&ev));
                        name.set("pasted registry".to_owned());
                    }
                ></textarea>
                {error_list}
                <div class="registry-actions">
                    <OpenFileButton
                        on_open=on_file
                        label="Open file…"
                        title="Open the registry's JSON or YAML file"
                        testid="registry-open-file"
                        input_testid="registry-file"
                    />
                    <span class="spacer"></span>
                    <button type="button" class="button" on:click=move |_| on_close.run(())>"Cancel"</button>
                    <button type="submit" class="button primary" data-testid="registry-load">"Compare"</button>
                </div>
            </form>
        </div>
    }
}
