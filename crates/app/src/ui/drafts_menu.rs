//! The "Drafts" menu: the work kept in this browser, newest first, the
//! tab's own draft marked; a draft opens in this tab (the tab's document is
//! kept as a draft in turn) or is deleted, after a confirmation.

use super::drafts::Listed;
use super::popover::{Names, Popover};
use super::session::Session;
use crate::format::{human_size, kind_label};
use crate::storage::ago;
use leptos::prelude::*;

/// What the list says of a draft besides its name.
fn detail(listed: &Listed, now: f64) -> String {
    let meta = &listed.meta;
    let mut parts = vec![
        meta.read_as.map_or("Unknown kind", kind_label).to_owned(),
        human_size(meta.bytes),
        format!("edited {}", ago(now, meta.updated)),
    ];
    if listed.current {
        parts.push("this tab".to_owned());
    } else if listed.elsewhere {
        parts.push("open in another tab".to_owned());
    }
    parts.join(" · ")
}

#[component]
pub fn DraftsMenu(session: Session) -> impl IntoView {
    let drafts = session.drafts;
    let open = RwSignal::new(false);
    let confirming = RwSignal::new(None::<String>);
    let on_open = move || {
        drafts.save_pending();
        drafts.refresh();
        confirming.set(None);
    };
    let choose = move |id: String| {
        open.set(false);
        session.open_draft(id);
    };
    let entry = move |listed: Listed| {
        let now = js_sys::Date::now();
        let id = listed.meta.id.clone();
        let name = listed.meta.name.clone();
        let detail = detail(&listed, now);
        let excerpt = (!listed.meta.excerpt.is_empty()).then(|| listed.meta.excerpt.clone());
        let current = listed.current;
        let asking = {
            let id = id.clone();
            move || confirming.get().as_deref() == Some(id.as_str())
        };
        let label = view! {
            <span class="draft-name">{name.clone()}</span>
            <span class="draft-detail">{detail}</span>
            {excerpt.map(|line| view! { <code class="draft-excerpt">{line}</code> })}
        };
        let main = if current {
            view! { <div class="draft-main">{label}</div> }.into_any()
        } else {
            let id = id.clone();
            view! { <button class="draft-main" data-testid="open-draft" on:click=move |_| choose(id.clone())>{label}</button> }.into_any()
        };
        // A draft open in another tab is that tab's to delete: deleted
        // here, it would be gone when that tab closes without an edit.
        let actions = (!current && !listed.elsewhere).then(|| {
            let (ask_id, delete_id) = (id.clone(), id.clone());
            let name = name.clone();
            view! {
                <Show
                    when=asking
                    fallback=move || {
                        let ask_id = ask_id.clone();
                        view! {
                            <button class="icon-button" data-testid="delete-draft" aria-label=format!("Delete the draft {name}") title="Delete" on:click=move |_| confirming.set(Some(ask_id.clone()))>
                                <svg class="button-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M5 7h14M10 11v6M14 11v6M6 7l1 12h10l1-12M9 7V4h6v3" /></svg>
                            </button>
                        }
                    }
                >
                    {
                        let delete_id = delete_id.clone();
                        view! {
                            <span class="draft-confirm" role="group" aria-label="Delete this draft?">
                                <button class="button danger" data-testid="confirm-delete" on:click=move |_| {
                                    confirming.set(None);
                                    drafts.delete(delete_id.clone());
                                }>"Delete"</button>
                                <button class="button" on:click=move |_| confirming.set(None)>"Keep"</button>
                            </span>
                        }
                    }
                </Show>
            }
        });
        view! {
            <li class="draft" class:current=current data-testid="draft" data-draft=id aria-current=current.then_some("true")>
                {main}
                {actions}
            </li>
        }
    };
    let list = move || {
        if !drafts.available() {
            return view! { <p class="share-status error" role="status">"This browser gives the page no storage, so no drafts are kept: download your document to keep it."</p> }.into_any();
        }
        let Some(listed) = drafts.listed.get() else {
            return view! { <p class="share-hint" role="status">"Reading the drafts…"</p> }
                .into_any();
        };
        if listed.is_empty() {
            return view! { <p class="share-hint" data-testid="no-drafts">"No drafts yet: what you edit is kept here as you type."</p> }.into_any();
        }
        view! { <ul class="drafts-list" data-testid="drafts-list">{listed.into_iter().map(entry).collect_view()}</ul> }.into_any()
    };

    let names = Names {
        name: "drafts",
        label: "Drafts",
        purpose: "Drafts",
        icon: "M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6",
    };
    view! {
        <Popover names=names open=open on_open=on_open>
            <p class="share-hint">"Each tab's edits are kept in this browser as a draft of their own; nothing is uploaded. Drafts not edited for 30 days are removed."</p>
            {list}
        </Popover>
    }
}
