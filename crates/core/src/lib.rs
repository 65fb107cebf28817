//! The opb validation core: reads an OpenPlaybook document or an Orchestrator
//! Zero plugin manifest (JSON or YAML), checks it against the spec, and
//! explains it.
//!
//! This page is the whole public API: the shells (the CLI, the playground,
//! the language server, the renderers) use nothing else.
//! - Checking: [`check`], [`analyze`] and [`analyze_pausing`], one pipeline
//!   under three calls, with [`Options`]; what they return, [`Checked`] and
//!   [`Analysis`], holds [`Diagnostic`]s with their [`Counts`].
//! - The catalogue: [`rules`], [`rule`], each a [`Rule`] of a [`Group`] with
//!   a default [`Severity`].
//! - Explaining: the types of [`explain`], [`risk_paths`], [`trust_summary`]
//!   (and [`trust_summary_with`]) and [`diff`]; the seed's risk classes in [`spec`].
//! - Editors: [`schema`], the fields the shape checks know, as a JSON Schema
//!   and by JSON pointer; [`assist`], what an editor shows at a place (hover).
//! - Safety: [`Masking`] ([`Analysis::masking`]), the credentials an
//!   analysis found, by which every text shown outside the editor is cut.
//! - The syntax layer's types a shell needs ([`Kind`], [`Syntax`],
//!   [`Limits`], [`text`] positions, [`pause`], one stable sort for
//!   small builds in [`order`]), from `opb-syntax`.
//!
//! Inside, the core is layered, each layer importing only from those below
//! it (`tests/layers.rs` keeps it so): `opb-syntax` (reading text into a
//! tree) → `diagnostics` (severity, rule metadata, findings, masking) →
//! `views` (the typed views the rules read) → `rules` (the catalogue and the
//! checks) → `schema` (the rules' field tables, for editors) → `explain`
//! (what a document can do, for people) → `assist` (what an editor shows at
//! a place) → this façade, which runs the pipeline.
//!
//! Architecture invariants:
//! - The core never panics and never fails as a whole: every text gets an
//!   [`Analysis`], with what could be understood plus diagnostics.
//! - The core knows nothing of the browser, the terminal or output formats.
//!   The shells are thin over this API, so they cannot disagree on a
//!   document.
//! - Every diagnostic carries a JSON pointer and a source range in bytes and
//!   in lines and characters; shells convert to their own units at their
//!   boundary.
//! - No credential is shown whole outside the editor: every value a
//!   credential rule flagged is cut to four characters wherever it occurs,
//!   by one [`Masking`] per analysis: in diagnostics' messages and
//!   pointers, in the tree the explain view is built from (keys too), in
//!   hover text, and in the source lines a shell shows.

#![warn(missing_docs)]

pub mod assist;
mod diagnostics;
pub mod explain;
mod rules;
pub mod schema;
mod views;

pub use diagnostics::masking::Masking;
pub use diagnostics::prose;
pub use diagnostics::{
    Accepted, Counts, Diagnostic, Edit, Group, Related, Rule, RuleSettings, Severity, Suppressed,
    Suppression, SuppressionKind,
};
pub use opb_syntax::{order, pause, text, CompactString, Kind, Limits, Syntax};
pub use rules::checks;
pub use rules::drift::Registry;

/// What the seeds define that a viewer shows beside the explain view.
pub mod spec {
    pub use crate::views::spec::{risk_label, risk_meaning, risk_words, RiskWords, RISK_CLASSES};
}

use diagnostics::Report;
use explain::Explain;
use opb_syntax::text::LineIndex;
use opb_syntax::{Node, ProblemKind};
use serde::Serialize;
use std::future::Future;

/// How to read a text. The defaults detect everything.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The kind, when the caller knows it; otherwise detected.
    pub kind: Option<Kind>,
    /// The syntax, when the caller knows it (a file extension); otherwise
    /// sniffed from the text.
    pub syntax: Option<Syntax>,
    /// The input limits the read and the rules stop at (IN006).
    pub limits: Limits,
    /// A tool registry to compare a playbook's embedded definitions with
    /// (the DR rules); read once with [`Registry::read`] and shared.
    pub registry: Option<std::sync::Arc<Registry>>,
    /// Which rules report and how seriously (a repository's `opb.toml`);
    /// the default reports every rule at its own severity.
    pub rules: RuleSettings,
}

/// What checking a text found.
#[derive(Debug, Clone, Serialize)]
pub struct Checked {
    /// The kind the document was read as, if any.
    pub kind: Option<Kind>,
    /// Whether `kind` was detected (rather than given).
    pub kind_detected: bool,
    /// The syntax the text was read as: given, or sniffed.
    pub syntax: Syntax,
    /// Every finding, ordered by position then code; messages redacted.
    pub diagnostics: Vec<Diagnostic>,
    /// `diagnostics` by severity.
    pub counts: Counts,
    /// The findings accepted with a reason (a `# opb: ignore[…]` comment,
    /// the settings' per-file-ignores): not in `diagnostics` or `counts`,
    /// kept here so a report can say so.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suppressed: Vec<Suppressed>,
    /// The credentials the credential rules found, by which every text
    /// shown outside the editor is masked (see [`Analysis::masking`]).
    #[serde(skip)]
    pub masking: Masking,
}

impl Checked {
    /// The findings of a credential written into the document (SEC001, and
    /// PB411 and PM312, which report one more specifically): the values the
    /// explain view masks. A shell asks before a document with one leaves
    /// the page, in a link or an embed code.
    pub fn credential_findings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| rules::credentials::is_credential_finding(d))
    }
}

/// A checked document with its explanation, for viewers.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// What checking found (flattened into the analysis when serialised).
    #[serde(flatten)]
    pub checked: Checked,
    /// The explain view of the kind, when the text parsed to an object.
    pub explain: Option<Explain>,
    /// Where the items of the document's lists are in the text, for viewers
    /// that link what they show to it; the JSON view names items by pointer.
    #[serde(skip)]
    pub anchors: explain::anchors::Anchors,
}

impl Analysis {
    /// What this analysis masks every shown text by: the values the
    /// credential rules (SEC001, PB411, PM312) flagged, computed once.
    /// Everything the core builds is masked by it already (diagnostics'
    /// messages and pointers, the explain view, hover); a shell uses it for
    /// what the core does not build: [`Masking::mask_source`] for the lines
    /// of the text it shows, [`Masking::mask`] for any other text of the
    /// document.
    pub fn masking(&self) -> &Masking {
        &self.checked.masking
    }

    /// What an editor shows when the pointer rests at `offset` (bytes) of
    /// `text`, the text this analysis was made from: see [`assist::hover`].
    pub fn hover(&self, text: &str, offset: usize) -> Option<assist::Hover> {
        let explain = self.explain.as_ref();
        assist::hover(
            self.checked.kind?,
            self.checked.syntax,
            explain,
            self.masking(),
            text,
            offset,
        )
    }
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

/// Whether a run of the pipeline builds the explain view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Check,
    Explain,
}

/// What the pipeline found, and explained when asked.
struct Run {
    checked: Checked,
    explain: Option<Explain>,
    anchors: explain::anchors::Anchors,
}

/// Parses a text and detects its kind; the tree is returned beside the
/// document, so what the rules build from it can outlive them.
async fn read<'t, W: Future<Output = ()>>(
    text: &'t str,
    options: &Options,
    pause: &mut impl FnMut() -> Option<W>,
) -> (Document<'t>, Option<Node>) {
    let syntax = options.syntax.unwrap_or_else(|| Syntax::sniff(text));
    let parsed = opb_syntax::parse_pausing(text, syntax, &options.limits, pause).await;
    let stopped = parsed.problems.iter().any(|p| p.kind == ProblemKind::Limit);
    let mut report = Report::new();
    report.extend(parsed.problems.into_iter().map(rules::input::problem_finding));
    let detected = parsed.root.as_ref().and_then(opb_syntax::detect);
    let (kind, kind_detected) = match options.kind {
        Some(kind) => (Some(kind), false),
        None => (detected, detected.is_some()),
    };
    (Document { text, syntax, kind, kind_detected, report, stopped }, parsed.root)
}

impl Document<'_> {
    /// Runs the rules of the document's kind over a checked root (a
    /// playbook's read its `model`: the view, the step graph and the
    /// cross-check), then the DR rules when a registry was given.
    fn check(
        &mut self,
        root: &Node,
        model: Option<&views::PlaybookModel<'_, '_>>,
        options: &Options,
    ) {
        rules::check(root, self.kind, model, &options.limits, &mut self.report);
        self.stopped = self.report.has(&rules::input::IN006);
        if let (Some(registry), Some(Kind::Playbook), false) =
            (&options.registry, self.kind, self.stopped)
        {
            rules::drift::check(root, registry, &mut self.report);
        }
    }

    /// What checking found, masked by the credentials the rules flagged
    /// in `root`, the document's tree.
    fn checked(mut self, root: Option<&Node>, rules: &RuleSettings) -> Checked {
        if self.stopped {
            self.report.retain(|f| std::ptr::eq(f.rule, &rules::input::IN006));
        }
        let (findings, credentials) = self.report.into_parts();
        // Stopped by a limit, the rules read nothing to go by.
        let masking = match credentials.filter(|_| !self.stopped) {
            Some(values) => Masking::found(values, root, self.text),
            None => Masking::default(),
        };
        let index = LineIndex::new(self.text);
        let mut diagnostics = diagnostics::resolve(findings, &index, &masking);
        rules.apply(&mut diagnostics);
        let counts = Counts::of(&diagnostics);
        Checked {
            kind: self.kind,
            kind_detected: self.kind_detected,
            syntax: self.syntax,
            diagnostics,
            counts,
            suppressed: Vec::new(),
            masking,
        }
    }
}

impl Checked {
    /// Sets aside the findings accepted with a reason, into
    /// [`Checked::suppressed`]: those a YAML comment `# opb: ignore[CODE]
    /// reason` names on their line (or alone on the line above), and the
    /// settings' per-file-ignores ([`RuleSettings::accepted`]); a comment
    /// that accepts nothing is reported as IN008. `text` is the text
    /// checked, `rules` the settings it was checked with.
    ///
    /// The shells that check an author's repository call it (`opb check`,
    /// `opb lsp`, the playground's editor); what a reader is shown (the
    /// reading view, the embeds, `opb explain`, `opb render`) does not: a
    /// document cannot vouch for itself to its reader, so there every
    /// finding stays in view (and the viewer's builds carry none of this).
    pub fn accept(&mut self, text: &str, rules: &RuleSettings) {
        let diagnostics = std::mem::take(&mut self.diagnostics);
        let index = LineIndex::new(text);
        let (kept, suppressed) = rules::suppressions::apply(
            text,
            self.syntax,
            diagnostics,
            rules,
            &index,
            &self.masking,
        );
        self.diagnostics = kept;
        self.suppressed.extend(suppressed);
        self.counts = Counts::of(&self.diagnostics);
    }
}

/// The one pipeline every call runs: read, check the root, build a
/// playbook's parts once (the rules read them, then explain), run the rules,
/// resolve positions, and explain when asked. `pause` is asked between the
/// phases and, by the YAML reader, while reading.
async fn run<W: Future<Output = ()>>(
    text: &str,
    options: &Options,
    want: Want,
    mut pause: impl FnMut() -> Option<W>,
) -> Run {
    let (mut document, root) = read(text, options, &mut pause).await;
    opb_syntax::pause::ask(&mut pause).await;
    let checked_root = root
        .as_ref()
        .filter(|root| rules::input::check_root(root, document.kind, &mut document.report));
    let parts = checked_root.and_then(|root| {
        rules::playbook_parts(root, document.kind, &options.limits, &mut document.report)
    });
    let (view, graph) = parts.map(|parts| (parts.view, parts.graph)).unzip();
    let check = view.as_ref().map(views::requires::cross_check);
    if let Some(root) = checked_root {
        let model = view
            .as_ref()
            .zip(graph.as_ref())
            .zip(check.as_ref())
            .map(|((view, graph), check)| views::PlaybookModel { view, graph, check });
        document.check(root, model.as_ref(), options);
    }
    opb_syntax::pause::ask(&mut pause).await;
    let stopped = document.stopped;
    let checked = document.checked(root.as_ref(), &options.rules);
    // A text a limit stopped is not explained: only IN006 is reported.
    let root = root.as_ref().filter(|_| !stopped && want == Want::Explain);
    // A credential is shown whole nowhere the explain view reaches: when
    // one was found, the view is built again from the masked tree (rare,
    // so the parts the rules read are not kept for it), and the anchors
    // name items by the masked keys, as the diagnostics' pointers do.
    let masked = root.and_then(|root| checked.masking.masked_tree(root));
    let explain = match (root, &masked, checked.kind) {
        (Some(_), Some(masked), Some(kind)) => {
            explain_masked(masked, kind, &checked.diagnostics, options)
        }
        (Some(root), None, Some(kind)) => {
            explain::explain(root, kind, &checked.diagnostics, view.as_ref(), check.as_ref(), graph)
        }
        _ => None,
    };
    let anchors = masked.as_ref().or(root).map(explain::anchors::Anchors::new).unwrap_or_default();
    Run { checked, explain, anchors }
}

/// The explain view of a tree whose credentials are masked, with the
/// diagnostics of the tree as written.
fn explain_masked(
    masked: &Node,
    kind: Kind,
    diagnostics: &[Diagnostic],
    options: &Options,
) -> Option<Explain> {
    let parts = rules::playbook_parts(masked, Some(kind), &options.limits, &mut Report::new());
    let (view, graph) = parts.map(|parts| (parts.view, parts.graph)).unzip();
    let check = view.as_ref().map(views::requires::cross_check);
    explain::explain(masked, kind, diagnostics, view.as_ref(), check.as_ref(), graph)
}

/// Checks a text: parse, detect the kind, run every rule of that kind.
pub fn check(text: &str, options: &Options) -> Checked {
    opb_syntax::pause::at_once(run(text, options, Want::Check, pause::never)).checked
}

/// A text with the certain fixes applied, and what checking it finds.
#[derive(Debug, Clone)]
pub struct Fixed {
    /// The text, edited only where a fix applied: every other byte,
    /// comments and formatting included, is as it was.
    pub text: String,
    /// The findings fixed, as they were reported, in the order applied.
    pub fixed: Vec<Diagnostic>,
    /// What checking the fixed text finds.
    pub checked: Checked,
}

/// How many times [`fix`] checks again after applying fixes: a fix may
/// reveal another (a corrected step id that a later fix then names).
const FIX_ROUNDS: usize = 8;

/// Applies every certain fix ([`Diagnostic::edit`], what an editor's quick
/// fix applies) to `text`, checking again until none is left: the edits of
/// one round that overlap are left to the next. Fixing the result again
/// changes nothing.
pub fn fix(text: &str, options: &Options) -> Fixed {
    // An accepted finding is left as written, as ruff leaves a `noqa`'d one.
    let check = |text: &str| {
        let mut checked = check(text, options);
        checked.accept(text, &options.rules);
        checked
    };
    let mut text = text.to_owned();
    let mut fixed = Vec::new();
    let mut checked = check(&text);
    for _ in 0..FIX_ROUNDS {
        let mut edits: Vec<(Edit, &Diagnostic)> =
            checked.diagnostics.iter().filter_map(|d| Some((d.edit()?, d))).collect();
        order::sort_by(&mut edits, |a, b| (a.0.start, a.0.end).cmp(&(b.0.start, b.0.end)));
        let mut applied: Vec<(Edit, Diagnostic)> = Vec::new();
        for (edit, d) in edits {
            let clear = applied.last().is_none_or(|(last, _)| last.end <= edit.start);
            let in_text = text.get(edit.start..edit.end).is_some_and(|old| old != edit.text);
            if clear && in_text {
                applied.push((edit, d.clone()));
            }
        }
        if applied.is_empty() {
            break;
        }
        for (edit, _) in applied.iter().rev() {
            text.replace_range(edit.start..edit.end, &edit.text);
        }
        fixed.extend(applied.into_iter().map(|(_, d)| d));
        checked = check(&text);
    }
    Fixed { text, fixed, checked }
}

/// Checks a text and builds its explain view.
pub fn analyze(text: &str, options: &Options) -> Analysis {
    opb_syntax::pause::at_once(analyze_pausing(text, options, pause::never))
}

/// Analyses as [`analyze`] does, asking `pause` now and then whether to
/// pause (see [`pause`]): while reading a YAML text, and between reading,
/// checking and explaining.
pub async fn analyze_pausing<W: Future<Output = ()>>(
    text: &str,
    options: &Options,
    pause: impl FnMut() -> Option<W>,
) -> Analysis {
    let Run { checked, explain, anchors } = run(text, options, Want::Explain, pause).await;
    Analysis { checked, explain, anchors }
}

/// What checking finds in an input over the size limit that the caller
/// did not read whole (a stream read only to `max_bytes + 1`, a file whose
/// size says it is over): IN006 alone, as [`analyze`] reports for such a
/// text. `size` is the input's length in bytes when known.
pub fn too_large(size: Option<u64>, options: &Options) -> Analysis {
    let mut report = Report::new();
    report.extend([rules::input::problem_finding(options.limits.input_too_large(size))]);
    let document = Document {
        text: "",
        syntax: options.syntax.unwrap_or_else(|| Syntax::sniff("")),
        kind: options.kind,
        kind_detected: false,
        report,
        stopped: true,
    };
    Analysis {
        checked: document.checked(None, &options.rules),
        explain: None,
        anchors: Default::default(),
    }
}

/// Every rule, in catalogue order.
pub fn rules() -> impl Iterator<Item = &'static Rule> {
    rules::all()
}

/// The rule with this code (case-insensitive) or name.
pub fn rule(code_or_name: &str) -> Option<&'static Rule> {
    rules::lookup(code_or_name)
}

/// The risk paths of an analysed playbook, under the default limits; none
/// for a document that is not a playbook or could not be explained.
///
/// Separate from [`analyze`] on purpose: `analyze` stays linear for every
/// keystroke of a large document, and the walk over paths (bounded by
/// [`explain::paths::PathLimits`]) runs only when a reader asks for it. It
/// reads the explain view, so it parses nothing again.
pub fn risk_paths(analysis: &Analysis) -> Option<explain::paths::RiskPaths> {
    match &analysis.explain {
        Some(Explain::Playbook(explain)) => {
            Some(explain::paths::build(explain, &explain::paths::PathLimits::default()))
        }
        _ => None,
    }
}

/// What a reader should know first about a document that arrived by a link
/// or an embed (see [`explain::trust`]): the risk classes it reaches and
/// through which steps, what it requires, how many problems it has. None
/// when the document could not be explained.
pub fn trust_summary(analysis: &Analysis) -> Option<explain::trust::TrustSummary> {
    trust_summary_with(analysis, risk_paths(analysis).as_ref())
}

/// [`trust_summary`] from risk paths the caller has walked already with
/// [`risk_paths`] (a viewer that shows them too), so they are walked once.
pub fn trust_summary_with(
    analysis: &Analysis,
    paths: Option<&explain::paths::RiskPaths>,
) -> Option<explain::trust::TrustSummary> {
    let explain = analysis.explain.as_ref()?;
    Some(explain::trust::summarize(explain, paths, &analysis.checked.diagnostics))
}

/// What changed from `old` to `new` in what the document may do: a semantic
/// diff of the two explain views (see [`explain::diff`]). Both must have been
/// explained, and be of one kind.
///
/// Each view is masked by its own analysis; the diff is masked by both, so
/// a credential flagged in one version is cut where the other shows it.
pub fn diff(
    old: &Analysis,
    new: &Analysis,
) -> Result<explain::diff::Diff, explain::diff::DiffError> {
    match (&old.explain, &new.explain) {
        (Some(old_explain), Some(new_explain)) => {
            let mut diff = explain::diff::diff(old_explain, new_explain)?;
            diff.mask(&old.masking().union(new.masking()));
            Ok(diff)
        }
        (old, new) => {
            Err(explain::diff::DiffError::Unreadable { old: old.is_none(), new: new.is_none() })
        }
    }
}
