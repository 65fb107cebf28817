//! How the viewer's links move between its tabs. In the playground each tab
//! has an address (`#graph`, `#tools`…) and a link simply goes there. Where
//! the address is not the viewer's (the embed keeps its document in the
//! fragment, and `<opb-viewer>` sits on someone else's page), the tabs are a
//! signal of their own, provided as [`LocalTabs`], and links set it instead.

use crate::route::Route;
use leptos::ev::MouseEvent;
use leptos::prelude::*;

/// The viewer's tabs when they have no address.
#[derive(Clone, Copy)]
pub struct LocalTabs(pub RwSignal<Route>);

/// The click handler of a link to the tab `to`: nothing to do in the
/// playground (the link's address is the route), the local tab elsewhere.
/// Call it while the view is built, where the context is found.
pub fn link(to: Route) -> impl Fn(MouseEvent) + Clone + 'static {
    let local = use_context::<LocalTabs>();
    move |ev: MouseEvent| {
        if let Some(LocalTabs(route)) = local {
            ev.prevent_default();
            route.set(to.clone());
        }
    }
}
