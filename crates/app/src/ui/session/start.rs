//! How a visit starts: which document the page opens (a link, the tab's
//! draft, the most recent draft, or the default example) and on which
//! panel.

use super::address::{location_hash, written_by_page};
use super::incoming::Incoming;
use super::notice::{Opened, SessionNotice};
use crate::examples;
use crate::link::{self, Fragment};
use crate::route::Route;
use crate::storage::Saved;
use crate::ui::drafts::opening::Opening;
use crate::ui::storage::web_storage;

/// The work a document replaced in this tab: its draft, and its text in
/// case storage could not keep it.
#[derive(Debug, Clone)]
pub(super) struct Previous {
    pub(super) id: String,
    pub(super) saved: Saved,
}

/// How a visit starts.
pub struct Start {
    pub incoming: Incoming,
    /// The tab the address, the link or the draft names; none: the one that
    /// matters for the document ([`Route::first_view`]).
    pub route: Option<Route>,
    /// Whether the document arrived by a link (the trust banner shows).
    pub arrived: bool,
    pub notice: Option<SessionNotice>,
    /// The step to select: the one the reading view showed, when the reader
    /// chose Edit there.
    pub step: Option<String>,
    pub(super) opening: Opening,
    pub(super) previous: Option<Previous>,
}

/// The default example, for a first visit.
fn example() -> Incoming {
    let first = examples::named(examples::DEFAULT)
        .or_else(|| examples::all().into_iter().next())
        .unwrap_or(examples::Example { name: "untitled.yaml", text: String::new() });
    Incoming::opened(first.text, first.name.to_owned())
}

/// Decides what the page opens with, from its address and the drafts. A
/// link's document is a new draft beside the tab's (which is kept to be
/// restored); a visit without one continues the tab's draft (a reload) or
/// the most recent one, on the panel it was left on unless the address
/// names one; a broken link leaves that document in place.
pub async fn start() -> Start {
    let mut opening = Opening::open().await;
    let hash = location_hash();
    let (route, notice) = match Fragment::read(&hash) {
        Fragment::Share(share) => return start_with_link(opening, share).await,
        Fragment::Route(route) => (Some(route), None),
        Fragment::Broken(error) => (None, Some(SessionNotice::BadLink(error.to_string()))),
    };
    let continued = match opening.own().or_else(|| opening.newest()) {
        Some(draft) => opening.resume(&draft).await,
        None => None,
    };
    let names_no_panel = hash.trim_start_matches('#').is_empty();
    let route = match continued.as_ref().and_then(|c| c.meta.view.as_deref()) {
        Some(view) if names_no_panel => Some(Route::from_hash(view)),
        _ if names_no_panel => None,
        _ => route,
    };
    let incoming = continued.map_or_else(example, Incoming::draft);
    Start { incoming, route, arrived: false, notice, step: None, opening, previous: None }
}

async fn start_with_link(mut opening: Opening, share: opb_share::Share) -> Start {
    // Edit in the reading view: its tab and step, on this link.
    let reading = web_storage::reading().filter(|record| record.link == location_hash());
    let route = match reading.as_ref().and_then(|record| record.tab.as_deref()) {
        Some(tab) => Some(Route::from_hash(tab)),
        None => link::route_of(&share),
    };
    let step = reading.and_then(|record| record.step);
    let own = match opening.own() {
        Some(draft) => opening.resume(&draft).await,
        None => None,
    };
    // A reload of the reader's own document, whose address follows it: the
    // address lags the document by up to the throttle, so the draft, saved
    // as the page was left, is read.
    let by_page = written_by_page();
    if let Some(own) = own.as_ref().filter(|own| by_page || own.text == share.code) {
        let incoming = Incoming { kind: share.kind, ..Incoming::draft(own.clone()) };
        return Start {
            incoming,
            route,
            arrived: false,
            notice: None,
            step,
            opening,
            previous: None,
        };
    }
    let arrived = !by_page;
    let previous = own
        .filter(|own| !own.text.trim().is_empty())
        .map(|own| Previous { saved: own.saved(), id: own.meta.id });
    if previous.is_some() {
        opening.begin_new().await;
    }
    let notice = previous
        .as_ref()
        .map(|p| SessionNotice::PreviousKept { name: p.saved.name.clone(), opened: Opened::Link });
    Start { incoming: Incoming::shared(share), route, arrived, notice, step, opening, previous }
}
