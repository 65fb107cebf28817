//! The viewer docs sites embed (`<opb-viewer>` and the embed page): a
//! document in, the viewer's markup ([`opb_render::markup`]) and the
//! result a host page is told (`opb-result`, `opb:result`) out. The core
//! and the renderer do the rest; the script of the page only shows it.
//!
//! Built on its own (js/build-viewer.mjs), without the playground's
//! editor, compare mode, registry or rule documentation, so a docs page
//! downloads a fraction of the playground.

#[cfg(feature = "embed")]
mod embed;
#[cfg(feature = "fragment")]
mod fragment;
#[cfg(feature = "link")]
mod link;

use opb_core::pause::{Slices, Turn};
use opb_core::{Kind, Options, Syntax};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;

/// What the viewer shows of a document, and what it tells the host page.
#[wasm_bindgen]
pub struct Viewed {
    html: String,
    tabs: String,
    result: String,
}

#[wasm_bindgen]
impl Viewed {
    /// The viewer's markup, escaped and free of script.
    #[wasm_bindgen(getter)]
    pub fn html(&self) -> String {
        self.html.clone()
    }

    /// The tabs' ids, in order, separated by spaces.
    #[wasm_bindgen(getter)]
    pub fn tabs(&self) -> String {
        self.tabs.clone()
    }

    /// The `opb:result` message as JSON: the kind, the counts and every
    /// diagnostic (messages masked by the core); empty for the banner alone,
    /// whose page waits for the whole view's.
    #[wasm_bindgen(getter)]
    pub fn result(&self) -> String {
        self.result.clone()
    }
}

/// A view being made in slices, so the page answers its reader while a
/// large or dense document is read and its graph laid out: each [`step`]
/// works for about [`SLICE_MS`](opb_core::pause::SLICE_MS) and returns, and
/// the page's script lets the browser run before the next.
///
/// [`step`]: Viewing::step
#[wasm_bindgen]
pub struct Viewing {
    work: Option<Pin<Box<dyn Future<Output = Viewed>>>>,
    viewed: Option<Viewed>,
}

#[wasm_bindgen]
impl Viewing {
    /// Works on the view for a slice; whether it is ready.
    pub fn step(&mut self) -> bool {
        if let Some(work) = &mut self.work {
            if let Poll::Ready(viewed) = work.as_mut().poll(&mut Context::from_waker(Waker::noop()))
            {
                self.viewed = Some(viewed);
                self.work = None;
            }
        }
        self.work.is_none()
    }

    /// The view, once [`Viewing::step`] said it is ready (once).
    pub fn viewed(&mut self) -> Option<Viewed> {
        self.viewed.take()
    }
}

#[wasm_bindgen]
extern "C" {
    /// The page's clock, in milliseconds.
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    fn date_now() -> f64;
}

/// Starts checking and explaining `text`, read as `kind` (`playbook` or
/// `plugin-manifest`; detected when absent or unknown) from a file called
/// `name`, whose extension, when it has one, says the syntax; the page
/// calls [`Viewing::step`] until the view is ready.
#[cfg(feature = "view")]
#[wasm_bindgen]
pub fn viewing(text: String, kind: Option<String>, name: String) -> Viewing {
    Viewing::new(text, kind, name, date_now, Made::View)
}

/// Starts the trust banner of `text` alone, read as `viewing` reads it:
/// the view's `html` is the banner as the whole view begins, its `tabs`
/// and `result` empty. A shared link's reading view shows it while the whole view's
/// build downloads. The `html` is empty for a plugin manifest when this
/// build does not check manifests (`glance` alone does not).
#[cfg(feature = "glance")]
#[wasm_bindgen]
pub fn glancing(text: String, kind: Option<String>, name: String) -> Viewing {
    Viewing::new(text, kind, name, date_now, Made::Banner)
}

/// What a [`Viewing`] makes.
#[derive(Clone, Copy)]
enum Made {
    #[cfg(feature = "view")]
    View,
    #[cfg(feature = "glance")]
    Banner,
}

impl Viewing {
    /// A view of `text` made in slices timed by `clock`.
    fn new(
        text: String,
        kind: Option<String>,
        name: String,
        clock: fn() -> f64,
        made: Made,
    ) -> Viewing {
        let work = async move {
            let options = Options {
                kind: kind.as_deref().and_then(Kind::parse),
                syntax: Syntax::from_path(&name),
                ..Options::default()
            };
            let slices = Slices::new(clock);
            let pause = || slices.pause(Turn::default);
            let analysis = opb_core::analyze_pausing(&text, &options, pause).await;
            match made {
                #[cfg(feature = "view")]
                Made::View => {
                    let (html, tabs) =
                        opb_render::markup::view_pausing(&name, &analysis, pause).await;
                    let tabs = tabs.iter().map(|tab| tab.id).collect::<Vec<_>>().join(" ");
                    Viewed { html, tabs, result: opb_render::markup::result(&analysis) }
                }
                // A build that does not check the document's kind leaves
                // its banner to the whole view's build.
                #[cfg(feature = "glance")]
                Made::Banner if analysis.checked.kind.is_some_and(|k| !opb_core::checks(k)) => {
                    Viewed { html: String::new(), tabs: String::new(), result: String::new() }
                }
                #[cfg(feature = "glance")]
                Made::Banner => {
                    let mut html = String::from(r#"<div class="opb-view">"#);
                    let paths = opb_core::risk_paths(&analysis);
                    opb_render::markup::banner(&mut html, &analysis, paths.as_ref());
                    html.push_str("</div>");
                    Viewed { html, tabs: String::new(), result: String::new() }
                }
            }
        };
        Viewing { work: Some(Box::pin(work)), viewed: None }
    }
}

/// The text of an element written inline in a page: its lines without the
/// blank ones around them and without the indentation they share, which
/// the page's markup gave them.
#[cfg(feature = "view")]
#[wasm_bindgen(js_name = elementText)]
pub fn element_text(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else { return String::new() };
    let body = &lines[first..=last];
    let indent = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    let mut out = body
        .iter()
        .map(|l| l.get(indent..).unwrap_or_else(|| l.trim_start()))
        .collect::<Vec<_>>()
        .join("\n");
    out.push('\n');
    out
}

#[cfg(all(test, feature = "view"))]
#[path = "../../core/benches/dense.rs"]
mod dense;

#[cfg(all(test, feature = "view"))]
mod tests {
    use super::{dense, element_text, Made, Viewed, Viewing};
    use std::cell::Cell;

    thread_local! {
        static NOW: Cell<f64> = const { Cell::new(0.0) };
    }

    /// A clock that moves ten milliseconds each time it is read.
    fn ticking() -> f64 {
        NOW.with(|now| {
            now.set(now.get() + 10.0);
            now.get()
        })
    }

    /// The view of `text`, stepped as the page steps it, and in how many
    /// steps it was made.
    fn view(text: &str, kind: Option<&str>, name: &str) -> (Viewed, usize) {
        let mut viewing = Viewing::new(
            text.to_owned(),
            kind.map(str::to_owned),
            name.to_owned(),
            ticking,
            Made::View,
        );
        let steps = (1..).find(|_| viewing.step()).unwrap_or_default();
        (viewing.viewed().expect("a view once ready"), steps)
    }

    #[test]
    fn an_element_text_loses_the_markup_indentation() {
        assert_eq!(
            element_text("\n      id: x\n      steps:\n        - id: a\n    "),
            "id: x\nsteps:\n  - id: a\n"
        );
        assert_eq!(element_text("  \n "), "");
        assert_eq!(element_text("\tkind: gate\n\t  next: a\n"), "kind: gate\n  next: a\n");
    }

    #[test]
    fn a_document_is_read_as_its_name_and_kind_say() {
        let (viewed, _) = view("{\"name\": \"x\"}", Some("plugin-manifest"), "oz0-plugin.json");
        assert!(viewed.result().contains(r#""kind":"plugin-manifest""#), "{}", viewed.result());
        assert!(viewed.tabs().starts_with("manifest "));
        let (unknown, _) = view("openplaybook: \"1.6\"\nsteps: []\n", Some("novel"), "document");
        assert!(
            unknown.result().contains(r#""kind":"playbook""#),
            "an unknown kind is detected instead"
        );
        assert!(unknown.html().contains("opb-panel"));
    }

    #[test]
    fn a_dense_graph_is_viewed_in_slices_as_it_would_be_at_once() {
        let text = dense::playbook(150, 8);
        let (viewed, steps) = view(&text, None, "dense.yaml");
        assert!(steps > 2, "made in {steps} steps");
        let analysis = opb_core::analyze(&text, &opb_core::Options::default());
        assert_eq!(viewed.html(), opb_render::markup::view("dense.yaml", &analysis).0);
        let mut done = Viewing::new(text, None, "dense.yaml".to_owned(), ticking, Made::View);
        while !done.step() {}
        assert!(done.viewed().is_some() && done.step() && done.viewed().is_none(), "given once");
    }

    /// The banner alone is the whole view's, so the reading view's page
    /// does not change under its reader when the whole view replaces it.
    #[cfg(feature = "glance")]
    #[test]
    fn the_banner_alone_is_the_whole_views_first_part() {
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
        for name in [
            "failed-charge-recovery.json",
            "refund-triage.broken.yaml",
            "acme-github.oz0-plugin.yaml",
        ] {
            let text = std::fs::read_to_string(format!("{examples}/{name}")).unwrap();
            let (whole, _) = view(&text, None, name);
            let mut glancing = Viewing::new(text, None, name.to_owned(), ticking, Made::Banner);
            while !glancing.step() {}
            let banner = glancing.viewed().expect("a banner once ready");
            let html = banner.html();
            let inner = html
                .strip_prefix(r#"<div class="opb-view">"#)
                .and_then(|rest| rest.strip_suffix("</div>"))
                .expect("the view's frame");
            assert!(inner.starts_with(r#"<section class="trust-banner""#), "{name}: {html}");
            assert!(
                whole.html().starts_with(&format!(r#"<div class="opb-view">{inner}"#)),
                "{name}"
            );
            assert_eq!((banner.tabs(), banner.result()), (String::new(), String::new()));
        }
    }
}
