//! The part of the drawing the graph shows, and how it moves. The view is
//! the SVG's viewBox. During a gesture (a drag, a run of wheel steps) the
//! SVG's composited layer is moved by a CSS transform instead, which costs
//! no repaint of its hundreds of text runs; the viewBox takes the new view
//! when the gesture ends, in one repaint.
//!
//! The SVG is sized in pixels, from the canvas's size as a ResizeObserver
//! reports it, not by `width: 100%; height: 100%`: Chromium lays out every
//! text of an SVG sized by percentages each time anything else on the page
//! is laid out (a status-bar figure, the document's title in the step panel),
//! which cost 70 ms a key on 200 steps and 300 to 500 ms on 1,000, far past
//! the time a keystroke has to be answered in.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use opb_core::explain::layout::{NodeBox, Point};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{ResizeObserver, ResizeObserverEntry};

/// How long after the last wheel step the view is committed.
const SETTLE_MS: u32 = 160;

/// A rectangle of the drawing, as the SVG's viewBox says it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewBox {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl ViewBox {
    pub fn attribute(&self) -> String {
        format!("{:.2} {:.2} {:.2} {:.2}", self.x, self.y, self.w, self.h)
    }

    pub fn contains(&self, b: &NodeBox) -> bool {
        b.x >= self.x
            && b.y >= self.y
            && b.x + b.width <= self.x + self.w
            && b.y + b.height <= self.y + self.h
    }

    /// Screen pixels per drawing unit in a canvas of `w`×`h`, and where the
    /// view's corner lands, as `xMidYMid meet` places it.
    fn fit_in(&self, w: f64, h: f64) -> (f64, f64, f64) {
        let s = (w / self.w).min(h / self.h);
        (s, (w - self.w * s) / 2.0, (h - self.h * s) / 2.0)
    }
}

#[derive(Clone, Copy)]
pub struct Camera {
    /// The view the SVG's viewBox shows.
    pub view: RwSignal<ViewBox>,
    /// The view during a gesture, shown by a transform until committed.
    live: StoredValue<Option<ViewBox>>,
    pub canvas: NodeRef<leptos::html::Div>,
    pub svg: NodeRef<leptos::svg::Svg>,
    /// The canvas's size in CSS pixels, once measured: the SVG's size.
    pub size: RwSignal<Option<(u32, u32)>>,
    settle: StoredValue<Option<Timeout>, LocalStorage>,
}

/// Watches the canvas's size for as long as the graph is mounted.
struct Watch {
    observer: ResizeObserver,
    _callback: Closure<dyn Fn(js_sys::Array)>,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            view: RwSignal::new(ViewBox { x: 0.0, y: 0.0, w: 100.0, h: 100.0 }),
            live: StoredValue::new(None),
            canvas: NodeRef::new(),
            svg: NodeRef::new(),
            size: RwSignal::new(None),
            settle: StoredValue::new_local(None),
        }
    }
}

impl Camera {
    /// Keeps [`Camera::size`] at the canvas's size from when it is mounted
    /// until the graph is removed.
    pub fn watch_size(&self) {
        let size = self.size;
        let watch = StoredValue::new_local(None::<Watch>);
        self.canvas.on_load(move |canvas| {
            let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
                for entry in entries.iter().filter_map(|e| e.dyn_into::<ResizeObserverEntry>().ok())
                {
                    let rect = entry.content_rect();
                    let measured = (rect.width().round() as u32, rect.height().round() as u32);
                    if size.get_untracked() != Some(measured) {
                        size.try_set(Some(measured));
                    }
                }
            });
            if let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
                observer.observe(&canvas);
                watch.set_value(Some(Watch { observer, _callback: callback }));
            }
        });
        on_cleanup(move || {
            watch.try_update_value(|w| {
                if let Some(Watch { observer, .. }) = w.take() {
                    observer.disconnect();
                }
            });
        });
    }

    /// The canvas's place and size on the screen.
    pub fn rect(&self) -> Option<(f64, f64, f64, f64)> {
        let rect = self.canvas.get_untracked()?.get_bounding_client_rect();
        (rect.width() > 0.0 && rect.height() > 0.0)
            .then(|| (rect.left(), rect.top(), rect.width(), rect.height()))
    }

    /// The view shown now, mid-gesture included.
    pub fn current(&self) -> ViewBox {
        self.live.get_value().unwrap_or_else(|| self.view.get_untracked())
    }

    /// Screen pixels per drawing unit of the committed view (tracked).
    pub fn scale(&self) -> f64 {
        let view = self.view.get();
        self.rect().map_or(1.0, |(_, _, w, h)| view.fit_in(w, h).0)
    }

    /// Shows `view` at once.
    pub fn set(&self, view: ViewBox) {
        self.settle.set_value(None);
        self.live.set_value(None);
        self.view.set(view);
        self.transform(None);
    }

    /// Shows `view` during a gesture; with `settle`, commits it once no
    /// further step has come for a moment.
    pub fn glide(&self, view: ViewBox, settle: bool) {
        self.live.set_value(Some(view));
        let committed = self.view.get_untracked();
        let transform = self.rect().map(|(_, _, w, h)| {
            let (sc, ocx, ocy) = committed.fit_in(w, h);
            let (sl, olx, oly) = view.fit_in(w, h);
            let k = sl / sc;
            let tx = -k * ocx + (committed.x - view.x) * sl + olx;
            let ty = -k * ocy + (committed.y - view.y) * sl + oly;
            format!("transform: translate({tx:.2}px, {ty:.2}px) scale({k:.5})")
        });
        self.transform(transform.as_deref());
        if settle {
            let camera = *self;
            self.settle.set_value(Some(Timeout::new(SETTLE_MS, move || camera.commit())));
        }
    }

    /// Ends a gesture: the viewBox takes the view it reached.
    pub fn commit(&self) {
        self.settle.set_value(None);
        if let Some(view) = self.live.get_value() {
            self.live.set_value(None);
            self.view.set(view);
            self.transform(None);
        }
    }

    fn transform(&self, style: Option<&str>) {
        if let Some(svg) = self.svg.get_untracked() {
            let _ = match style {
                Some(style) => svg.set_attribute("style", style),
                None => svg.remove_attribute("style"),
            };
        }
    }

    /// The drawing's point under a screen point.
    pub fn to_drawing(self, client_x: f64, client_y: f64) -> Option<Point> {
        let (left, top, w, h) = self.rect()?;
        let view = self.current();
        let (s, ox, oy) = view.fit_in(w, h);
        Some(Point {
            x: view.x + (client_x - left - ox) / s,
            y: view.y + (client_y - top - oy) / s,
        })
    }
}
