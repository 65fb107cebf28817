//! A panic in the wasm is a bug. When one slips through, the console gets the
//! message and stack (console_error_panic_hook), and the page says so instead
//! of silently freezing.

/// Installs the panic hook. Call once, before mounting.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_banner();
    }));
}

/// Adds the banner with plain DOM calls: after a panic the reactive system
/// may be in any state.
fn show_banner() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id("panic-banner").is_some() {
        return;
    }
    let (Ok(banner), Some(body)) = (document.create_element("div"), document.body()) else {
        return;
    };
    banner.set_id("panic-banner");
    banner.set_class_name("panic-banner");
    let _ = banner.set_attribute("role", "alert");
    banner.set_text_content(Some(
        "The playground hit an internal error and stopped. Reload the page to continue; the browser console has the details.",
    ));
    let _ = body.append_child(&banner);
}
