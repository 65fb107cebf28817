//! The draggable divider between the editor and the panel area.

use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The editor's share of the width, in percent, kept within these bounds.
pub const MIN: f64 = 25.0;
pub const MAX: f64 = 80.0;
pub const DEFAULT: f64 = 56.0;

fn clamp(percent: f64) -> f64 {
    percent.clamp(MIN, MAX)
}

/// A vertical separator that sets `share` (percent of its parent's width) by
/// pointer drag or arrow keys; a double click restores the default.
#[component]
pub fn Splitter(share: RwSignal<f64>) -> impl IntoView {
    let dragging = RwSignal::new(false);
    let element =
        |ev: &PointerEvent| ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let on_down = move |ev: PointerEvent| {
        if let Some(handle) = element(&ev) {
            let _ = handle.set_pointer_capture(ev.pointer_id());
            dragging.set(true);
            ev.prevent_default();
        }
    };
    let on_move = move |ev: PointerEvent| {
        if !dragging.get_untracked() {
            return;
        }
        let Some(parent) = element(&ev).and_then(|h| h.parent_element()) else {
            return;
        };
        let rect = parent.get_bounding_client_rect();
        if rect.width() > 0.0 {
            share.set(clamp((f64::from(ev.client_x()) - rect.left()) / rect.width() * 100.0));
        }
    };
    let on_up = move |ev: PointerEvent| {
        if let Some(handle) = element(&ev) {
            let _ = handle.release_pointer_capture(ev.pointer_id());
        }
        dragging.set(false);
    };
    let on_key = move |ev: KeyboardEvent| {
        let step = if ev.shift_key() { 10.0 } else { 2.0 };
        match ev.key().as_str() {
            "ArrowLeft" => share.update(|s| *s = clamp(*s - step)),
            "ArrowRight" => share.update(|s| *s = clamp(*s + step)),
            "Home" => share.set(MIN),
            "End" => share.set(MAX),
            _ => return,
        }
        ev.prevent_default();
    };
    view! {
        <div
            class="splitter"
            class:dragging=move || dragging.get()
            role="separator"
            tabindex="0"
            aria-orientation="vertical"
            aria-label="Resize the editor and the panels"
            aria-valuemin=MIN
            aria-valuemax=MAX
            aria-valuenow=move || share.get().round()
            on:pointerdown=on_down
            on:pointermove=on_move
            on:pointerup=on_up
            on:pointercancel=on_up
            on:keydown=on_key
            on:dblclick=move |_| share.set(DEFAULT)
        ></div>
    }
}
