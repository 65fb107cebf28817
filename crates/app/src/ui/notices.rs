//! The notice under the header about the document session: a link that
//! could not be opened, work kept when a link replaced it (with its restore
//! button), a document storage cannot hold (with its download button).

use super::files::download;
use super::session::notice::{notice_text, SessionNotice};
use super::session::Session;
use crate::ui::diagnostics::message;
use leptos::prelude::*;

#[component]
pub fn SessionNotices(
    session: Session,
    #[prop(into)] name: Signal<String>,
    #[prop(into)] text: Callback<(), Option<String>>,
) -> impl IntoView {
    move || {
        session.notice.get().map(|notice| {
            let error = notice.is_error();
            let offers_download = notice.offers_download();
            let restore_label = if matches!(notice, SessionNotice::Restored { .. }) { "Switch back" } else { "Restore previous" };
            view! {
                <div class="share-notice" class:error=error role=if error { "alert" } else { "status" } data-testid="share-notice">
                    <span>{message(&notice_text(&notice))}</span>
                    <div class="share-notice-actions">
                        {session.can_restore().then(|| view! {
                            <button class="button" data-testid="restore-previous" on:click=move |_| session.restore_previous()>{restore_label}</button>
                        })}
                        {offers_download.then(|| view! {
                            <button class="button" data-testid="notice-download" on:click=move |_| {
                                if let Some(text) = text.run(()) {
                                    let _ = download(&name.get_untracked(), "text/plain", &text);
                                }
                            }>"Download"</button>
                        })}
                        <button class="icon-button" aria-label="Dismiss" data-testid="dismiss-notice" on:click=move |_| session.dismiss_notice()>"×"</button>
                    </div>
                </div>
            }
        })
    }
}
