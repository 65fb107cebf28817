fn main() {
    opb_app::ui::panic::install();
    leptos::mount::mount_to_body(opb_app::ui::app::App);
}
