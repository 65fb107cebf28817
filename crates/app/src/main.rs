use leptos::prelude::*;
use opb_app::ui::{app::App, panic, session::start};

fn main() {
    panic::install();
    // The drafts are read from IndexedDB before the page is drawn, so the
    // editor opens with the document it keeps (a few milliseconds). Not
    // Leptos's spawn_local: its executor is set up by mounting.
    wasm_bindgen_futures::spawn_local(async {
        let start = start::start().await;
        leptos::mount::mount_to_body(move || view! { <App start=start /> });
        // The reading view a shared link opened, and its stylesheet, stay
        // until the playground that continues it is drawn (js/reading.js):
        // removed in this task, so no frame shows both.
        while let Some(reading) = document().query_selector("[data-opb-reading]").ok().flatten() {
            reading.remove();
        }
    });
}
