use opb_app::ui::share::{self, Page};

fn main() {
    opb_app::ui::panic::install();
    // The playground page, its embed mode, or (loaded by `<opb-viewer>` on
    // another site) nothing: the elements mount their own viewers.
    match share::page() {
        Page::Playground(_) => leptos::mount::mount_to_body(opb_app::ui::app::App),
        Page::Embed(options) => leptos::mount::mount_to_body(move || {
            leptos::view! { <share::embedded::Embed options=options /> }
        }),
        Page::Host => {}
    }
}
