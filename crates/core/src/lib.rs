//! The opb validation core: reads an OpenPlaybook document or an Orchestrator
//! Zero plugin manifest (JSON or YAML), checks it against the spec, and
//! explains it.
//!
//! Architecture invariants:
//! - The core never panics and never fails as a whole: every text gets an
//!   [`Analysis`], with what could be understood plus diagnostics.
//! - The core knows nothing of the browser, the terminal or output formats.
//!   The CLI and the playground are thin shells over [`check`] and
//!   [`analyze`], so they cannot disagree on a document.
//! - Every diagnostic carries a JSON pointer and a source range in bytes and
//!   in lines and characters; shells convert to their own units at their
//!   boundary.

mod detect;
mod diagnostic;
mod finding;
pub mod model;
pub mod parse;
pub mod pause;
mod registry;
pub mod rules;
pub mod text;

pub use detect::{detect, Kind};
pub use diagnostic::{Counts, Diagnostic};
pub use finding::Ptr;
pub use parse::{CompactString, Limits, Node, Syntax};
pub use registry::Registry;
pub use rules::{Rule, Severity};

use finding::Report;
use serde::Serialize;
use std::future::Future;
use text::LineIndex;

/// How to read a text. The defaults detect everything.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The kind, when the caller knows it; otherwise detected.
    pub kind: Option<Kind>,
    /// The syntax, when the caller knows it (a file extension); otherwise
    /// sniffed from the text.
    pub syntax: Option<Syntax>,
    pub limits: Limits,
    /// A tool registry to compare a playbook's embedded definitions with
    /// (the DR rules); read once with [`Registry::read`] and shared.
    pub registry: Option<std::sync::Arc<Registry>>,
}

/// What checking a text found.
#[derive(Debug, Clone, Serialize)]
pub struct Checked {
    /// The kind the document was read as, if any.
    pub kind: Option<Kind>,
    /// Whether `kind` was detected (rather than given).
    pub kind_detected: bool,
    pub syntax: Syntax,
    pub diagnostics: Vec<Diagnostic>,
    pub counts: Counts,
}

/// A checked document with its explanation, for viewers.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    #[serde(flatten)]
    pub checked: Checked,
    /// The explain view of the kind, when the text parsed to an object.
    pub explain: Option<model::Explain>,
    /// Where the items of the document's lists are in the text, for viewers
    /// that link what they show to it; the JSON view names items by pointer.
    #[serde(skip)]
    pub anchors: model::anchors::Anchors,
}

/// A text being checked: what parsing and the rules found.
struct Document<'t> {
    text: &'t str,
    syntax: Syntax,
    kind: Option<Kind>,
    kind_detected: bool,
    report: Report,
    /// Set when a limit stopped the read: nothing else is reported.
    stopped: bool,
}

/// Parses a text and detects its kind; the tree is returned beside the
/// document, so what the rules build from it can outlive them.
async fn read<'t, W: Future<Output = ()>>(
    text: &'t str,
    options: &Options,
    pause: &mut impl FnMut() -> Option<W>,
) -> (Document<'t>, Option<Node>) {
    let syntax = options.syntax.unwrap_or_else(|| Syntax::sniff(text));
    let parsed = parse::parse_pausing(text, syntax, &options.limits, pause).await;
    let stopped = parsed.findings.iter().any(|f| std::ptr::eq(f.rule, &rules::input::IN006));
    let mut report = Report::new();
    report.extend(parsed.findings);
    let detected = parsed.root.as_ref().and_then(detect);
    let (kind, kind_detected) = match options.kind {
        Some(kind) => (Some(kind), false),
        None => (detected, detected.is_some()),
    };
    (Document { text, syntax, kind, kind_detected, report, stopped }, parsed.root)
}

impl Document<'_> {
    /// Checks what every document's root must be; `false` when no rule of
    /// its kind can run.
    fn check_root(&mut self, root: &Node) -> bool {
        rules::input::check_root(root, self.kind, &mut self.report)
    }

    /// A playbook's parts for its rules and explain (see
    /// [`rules::playbook_parts`]), once its root is checked.
    fn playbook_parts<'a>(&mut self, root: &'a Node, options: &Options) -> Option<model::PlaybookParts<'a>> {
        rules::playbook_parts(root, self.kind, &options.limits, &mut self.report)
    }

    /// Runs the rules of the document's kind over a checked root; a
    /// playbook's read `model`.
    fn check(&mut self, root: &Node, model: Option<&model::PlaybookModel<'_, '_>>, options: &Options) {
        rules::check(root, self.kind, model, &options.limits, &mut self.report);
        self.stopped = self.report.has(&rules::input::IN006);
        if let (Some(registry), Some(Kind::Playbook), false) = (&options.registry, self.kind, self.stopped) {
            rules::drift::check(root, registry, &mut self.report);
        }
    }

    fn checked(mut self) -> Checked {
        if self.stopped {
            self.report.retain(|f| std::ptr::eq(f.rule, &rules::input::IN006));
        }
        let index = LineIndex::new(self.text);
        let diagnostics = diagnostic::resolve(self.report.into_findings(), &index);
        let counts = Counts::of(&diagnostics);
        Checked { kind: self.kind, kind_detected: self.kind_detected, syntax: self.syntax, diagnostics, counts }
    }
}

/// Checks a text: parse, detect the kind, run every rule of that kind.
pub fn check(text: &str, options: &Options) -> Checked {
    let (mut document, root) = pause::at_once(read(text, options, &mut pause::never));
    if let Some(root) = root.as_ref().filter(|root| document.check_root(root)) {
        let parts = document.playbook_parts(root, options);
        let check = parts.as_ref().map(|parts| model::requires::cross_check(&parts.view));
        let model = parts.as_ref().zip(check.as_ref()).map(|(parts, check)| model::PlaybookModel {
            view: &parts.view,
            graph: &parts.graph,
            check,
        });
        document.check(root, model.as_ref(), options);
    }
    document.checked()
}

/// The risk paths of an analysed playbook, under the default limits; none
/// for a document that is not a playbook or could not be explained.
///
/// Separate from [`analyze`] on purpose: `analyze` stays linear for every
/// keystroke of a large document, and the walk over paths (bounded by
/// [`model::paths::PathLimits`]) runs only when a reader asks for it. It
/// reads the explain view, so it parses nothing again.
pub fn risk_paths(analysis: &Analysis) -> Option<model::paths::RiskPaths> {
    match &analysis.explain {
        Some(model::Explain::Playbook(explain)) => Some(model::paths::build(explain, &model::paths::PathLimits::default())),
        _ => None,
    }
}

/// What a reader should know first about a document that arrived by a link
/// or an embed (see [`model::trust`]): the risk classes it reaches and
/// through which steps, what it requires, how many problems it has. None
/// when the document could not be explained.
pub fn trust_summary(analysis: &Analysis) -> Option<model::trust::TrustSummary> {
    let explain = analysis.explain.as_ref()?;
    let paths = risk_paths(analysis);
    Some(model::trust::summarize(explain, paths.as_ref(), &analysis.checked.diagnostics))
}

/// What changed from `old` to `new` in what the document may do: a semantic
/// diff of the two explain views (see [`model::diff`]). Both must have been
/// explained, and be of one kind.
pub fn diff(old: &Analysis, new: &Analysis) -> Result<model::diff::Diff, model::diff::DiffError> {
    match (&old.explain, &new.explain) {
        (Some(old), Some(new)) => model::diff::diff(old, new),
        (old, new) => Err(model::diff::DiffError::Unreadable { old: old.is_none(), new: new.is_none() }),
    }
}

/// Checks a text and builds its explain view.
pub fn analyze(text: &str, options: &Options) -> Analysis {
    pause::at_once(analyze_pausing(text, options, pause::never))
}

/// Analyses as [`analyze`] does, asking `pause` now and then whether to
/// pause (see [`pause`]): while reading a YAML text, and between reading,
/// checking and explaining.
pub async fn analyze_pausing<W: Future<Output = ()>>(
    text: &str,
    options: &Options,
    mut pause: impl FnMut() -> Option<W>,
) -> Analysis {
    let (mut document, root) = read(text, options, &mut pause).await;
    pause::ask(&mut pause).await;
    let checked_root = root.as_ref().filter(|root| document.check_root(root));
    let parts = checked_root.and_then(|root| document.playbook_parts(root, options));
    let (view, graph) = parts.map(|parts| (parts.view, parts.graph)).unzip();
    // Built once: the rules read it, then explain.
    let check = view.as_ref().map(model::requires::cross_check);
    if let Some(root) = checked_root {
        let model = view.as_ref().zip(graph.as_ref()).zip(check.as_ref()).map(|((view, graph), check)| {
            model::PlaybookModel { view, graph, check }
        });
        document.check(root, model.as_ref(), options);
    }
    pause::ask(&mut pause).await;
    let stopped = document.stopped;
    let checked = document.checked();
    // A text a limit stopped is not explained: only IN006 is reported.
    let root = root.as_ref().filter(|_| !stopped);
    let explain = match (root, checked.kind) {
        (Some(root), Some(kind)) => match model::masked::masked(root, &checked.diagnostics) {
            // A credential is shown whole nowhere the explain view reaches:
            // it is built again from the masked tree (rare, so the parts the
            // rules read are not kept for it).
            Some(masked) => explain_masked(&masked, kind, &checked.diagnostics, options),
            None => model::explain(root, kind, &checked.diagnostics, view.as_ref(), check.as_ref(), graph),
        },
        _ => None,
    };
    let anchors = root.map(model::anchors::Anchors::new).unwrap_or_default();
    Analysis { checked, explain, anchors }
}

/// The explain view of a tree whose credentials are masked, with the
/// diagnostics of the tree as written.
fn explain_masked(masked: &Node, kind: Kind, diagnostics: &[Diagnostic], options: &Options) -> Option<model::Explain> {
    let parts = rules::playbook_parts(masked, Some(kind), &options.limits, &mut Report::new());
    let (view, graph) = parts.map(|parts| (parts.view, parts.graph)).unzip();
    let check = view.as_ref().map(model::requires::cross_check);
    model::explain(masked, kind, diagnostics, view.as_ref(), check.as_ref(), graph)
}
