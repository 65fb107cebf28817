//! What every mark of the drawn graph means, in one list for every page
//! that shows the graph: the playground's graph, the viewer, the embed page
//! and the HTML report. Each entry is drawn with the graph's own shapes
//! and classes (`style/graph.css`), so the legend and the drawing cannot
//! disagree, and worded from the core's risk words.

use crate::scene::{ErrorMark, UnsupervisedMark};
use crate::svg::{error_mark, unsupervised_mark};
use crate::xml::escape;
use crate::Theme;
use opb_core::explain::boundary::{no_person_decides, supervised_classes};
use opb_core::prose::capitalise;
use opb_core::spec::{risk_words, RISK_CLASSES};
use std::fmt::Write;

/// A mark the graph draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A step's risk bar and badge in the colour of a risk class, or
    /// `none`: no tool whose risk is known.
    Risk(&'static str),
    /// The dashed line of an edge back to an earlier step.
    LoopsBack,
    /// The `+?` on a badge: some tools do not say their risk.
    PartlyUnknown,
    /// The dot that counts a step's errors.
    Error,
    /// The warning triangle of a step no person decides before.
    Unsupervised,
}

/// One entry: a mark and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The mark, drawn as the graph draws it.
    pub mark: Mark,
    /// What it means.
    pub text: String,
}

/// Every mark of the graph with what it means: the risk classes, most
/// consequential first, then the other marks.
pub fn entries() -> Vec<Entry> {
    let mut entries: Vec<Entry> = RISK_CLASSES
        .iter()
        .rev()
        .filter_map(|class| {
            let words = risk_words(class)?;
            Some(Entry { mark: Mark::Risk(class), text: capitalise(words.label).to_string() })
        })
        .collect();
    let others = [
        (Mark::Risk("none"), "Calls no tool whose risk the document says".to_owned()),
        (Mark::Unsupervised, no_person_decides(supervised_classes())),
        (
            Mark::PartlyUnknown,
            "Some of its tools do not say their risk: it may be higher".to_owned(),
        ),
        (Mark::Error, "The step has errors: the number says how many".to_owned()),
        (Mark::LoopsBack, "Loops back to an earlier step".to_owned()),
    ];
    entries.extend(others.into_iter().map(|(mark, text)| Entry { mark, text }));
    entries
}

/// The legend as HTML: a disclosure, open when `open`, listing
/// [`entries`]. `theme` is the drawing's when it carries its own palette
/// (the HTML report), so the legend's marks take the same.
pub fn html(open: bool, theme: Option<Theme>) -> String {
    let mut out = String::with_capacity(2048);
    write!(
        out,
        r#"<details class="graph-legend" data-testid="graph-legend"{}><summary>Legend</summary><ul aria-label="What the graph's marks mean">"#,
        if open { " open" } else { "" }
    )
    .ok();
    let theme = theme.map(|t| format!(r#" data-theme="{}""#, t.name())).unwrap_or_default();
    for entry in entries() {
        let (width, height) = size(entry.mark);
        write!(
            out,
            r#"<li data-mark="{}"><svg class="graph legend-mark"{theme} width="{width}" height="{height}" viewBox="0 0 {width} {height}" aria-hidden="true">"#,
            name(entry.mark)
        )
        .ok();
        draw(&mut out, entry.mark);
        write!(out, "</svg><span>{}</span></li>", escape(&entry.text)).ok();
    }
    out.push_str("</ul></details>");
    out
}

/// What a mark is called in the legend's markup (`data-mark`).
fn name(mark: Mark) -> &'static str {
    match mark {
        Mark::Risk(_) => "risk",
        Mark::LoopsBack => "loops-back",
        Mark::PartlyUnknown => "partly-unknown",
        Mark::Error => "error",
        Mark::Unsupervised => "unsupervised",
    }
}

fn size(mark: Mark) -> (u32, u32) {
    match mark {
        Mark::Risk(_) => (14, 14),
        Mark::LoopsBack | Mark::PartlyUnknown => (28, 16),
        Mark::Error => (20, 20),
        Mark::Unsupervised => (26, 24),
    }
}

fn draw(out: &mut String, mark: Mark) {
    match mark {
        Mark::Risk(class) => {
            write!(out, r#"<rect class="risk-bar" data-risk="{class}" width="14" height="14" rx="3"/>"#)
                .ok();
        }
        Mark::LoopsBack => out.push_str(r#"<g class="edge back"><path d="M2 8H26"/></g>"#),
        Mark::PartlyUnknown => out.push_str(
            r#"<g class="risk-badge partly-unknown" data-risk="none"><rect x="1" y="1" width="26" height="14" rx="7"/><text x="14" y="8">+?</text></g>"#,
        ),
        Mark::Error => {
            let dot = ErrorMark { x: 10.0, y: 10.0, radius: 8.0, text: "1" };
            error_mark(out, &dot);
        }
        Mark::Unsupervised => {
            let mut mark = UnsupervisedMark::with("");
            (mark.x, mark.y) = (13.0, 13.5);
            unsupervised_mark(out, &mark, false);
        }
    }
}
