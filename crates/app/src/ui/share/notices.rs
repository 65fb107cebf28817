//! The notice under the header about links and storage: a link that could
//! not be opened, work kept when a link replaced it (with its restore
//! button), a document storage cannot hold (with its download button).

use super::files::download;
use super::links::{notice_text, Links, ShareNotice};
use crate::ui::diagnostics::message;
use leptos::prelude::*;

#[component]
pub fn ShareNotices(
    links: Links,
    #[prop(into)] name: Signal<String>,
    #[prop(into)] text: Callback<(), Option<String>>,
) -> impl IntoView {
    move || {
        links.notice.get().map(|notice| {
            let error = matches!(
                notice,
                ShareNotice::BadLink(_) | ShareNotice::StorageFull { .. } | ShareNotice::StorageUnavailable | ShareNotice::NothingToRestore
            );
            let offers_download = matches!(notice, ShareNotice::StorageFull { .. } | ShareNotice::StorageUnavailable);
            let restore_label = if matches!(notice, ShareNotice::Restored { .. }) { "Switch back" } else { "Restore previous" };
            view! {
                <div class="share-notice" class:error=error role=if error { "alert" } else { "status" } data-testid="share-notice">
                    <span>{message(&notice_text(&notice))}</span>
                    <div class="share-notice-actions">
                        {links.can_restore().then(|| view! {
                            <button class="button" data-testid="restore-previous" on:click=move |_| links.restore_previous()>{restore_label}</button>
                        })}
                        {offers_download.then(|| view! {
                            <button class="button" data-testid="notice-download" on:click=move |_| {
                                if let Some(text) = text.run(()) {
                                    let _ = download(&name.get_untracked(), "text/plain", &text);
                                }
                            }>"Download"</button>
                        })}
                        <button class="icon-button" aria-label="Dismiss" data-testid="dismiss-notice" on:click=move |_| links.dismiss_notice()>"×"</button>
                    </div>
                </div>
            }
        })
    }
}
