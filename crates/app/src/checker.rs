//! One check of the editor's text: the core's analysis plus each
//! diagnostic's range in the editor's unit. The app never checks anything
//! itself; it calls the core and converts positions.

use opb_core::text::Unit;
use opb_core::{Analysis, Diagnostic, Kind, Options, Registry, RuleSettings};
use std::future::Future;
use std::sync::Arc;

/// A diagnostic and its range in UTF-16 offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub diagnostic: Diagnostic,
    pub from: u32,
    pub to: u32,
    /// The diagnostic's related places, in its order, as UTF-16 ranges.
    pub related: Vec<(u32, u32)>,
}

/// What one check of the text found.
#[derive(Debug, Clone)]
pub struct Report {
    pub analysis: Analysis,
    pub located: Vec<Located>,
    /// Size of the checked text, in bytes.
    pub bytes: usize,
    /// A hash of the checked text, to tell whether a text is the one
    /// checked (see [`Report::is_of`]) without keeping a copy of it.
    fingerprint: u64,
}

impl Report {
    /// Whether `text` is the text this report checked: only then do its
    /// positions (and its masking of the source) apply to it.
    pub fn is_of(&self, text: &str) -> bool {
        text.len() == self.bytes && fingerprint(text) == self.fingerprint
    }
}

fn fingerprint(text: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0).hash_one(text)
}

/// Checks `text`, read as `kind` when the reader chose one.
pub fn check(text: &str, kind: Option<Kind>) -> Report {
    check_with(text, kind, None)
}

/// Checks `text`, comparing its embedded tools with `registry` when one is
/// loaded (the DR rules).
pub fn check_with(text: &str, kind: Option<Kind>, registry: Option<Arc<Registry>>) -> Report {
    report(text, opb_core::analyze(text, &Options { kind, registry, ..Options::default() }))
}

/// Checks as [`check_with`] does, asking `pause` now and then whether to
/// pause ([`opb_core::pause`]), for a text too large to check at once.
pub async fn check_pausing<W: Future<Output = ()>>(
    text: &str,
    kind: Option<Kind>,
    registry: Option<Arc<Registry>>,
    pause: impl FnMut() -> Option<W>,
) -> Report {
    report(
        text,
        opb_core::analyze_pausing(text, &Options { kind, registry, ..Options::default() }, pause)
            .await,
    )
}

/// The editor's offsets (UTF-16) of byte offsets of `text`, in one sweep;
/// the conversion happens here, once per check, and everything past this
/// boundary speaks UTF-16.
pub fn utf16_offsets(text: &str, offsets: &[usize]) -> Vec<u32> {
    Unit::Utf16.counts_before(text, offsets).into_iter().map(saturate).collect()
}

/// A count as the editor's offsets hold it.
pub fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The order the Diagnostics panel lists a check's diagnostics in: the
/// most severe first, each severity in the text's order (the core's), or
/// the text's order alone when `line_order`.
pub fn listed(located: &[Located], line_order: bool) -> Vec<&Located> {
    let mut listed: Vec<&Located> = located.iter().collect();
    if !line_order {
        opb_core::order::sort_by_key(&mut listed, |l| l.diagnostic.severity);
    }
    listed
}

fn report(text: &str, mut analysis: Analysis) -> Report {
    // The author's editor sets aside what the document accepts with a
    // reason, as opb check and opb lsp do; the reading view does not.
    analysis.checked.accept(text, &RuleSettings::default());
    let diagnostics = std::mem::take(&mut analysis.checked.diagnostics);
    // Every range's ends, the diagnostic's then its related places', in
    // one conversion.
    let mut offsets = Vec::with_capacity(2 * diagnostics.len());
    for d in &diagnostics {
        offsets.extend([d.range.start.offset, d.range.end.offset]);
        for related in &d.related {
            offsets.extend([related.range.start.offset, related.range.end.offset]);
        }
    }
    let utf16 = utf16_offsets(text, &offsets);
    let mut ends = utf16.chunks_exact(2).map(|range| (range[0], range[1]));
    let located = diagnostics
        .iter()
        .map(|diagnostic| {
            let (from, to) = ends.next().unwrap_or_default();
            let related = ends.by_ref().take(diagnostic.related.len()).collect();
            Located { diagnostic: diagnostic.clone(), from, to, related }
        })
        .collect();
    analysis.checked.diagnostics = diagnostics;
    Report { analysis, located, bytes: text.len(), fingerprint: fingerprint(text) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_in_utf16_units() {
        let text = "{\"name\": \"😀é\", \"oops\": }";
        let report = check(text, None);
        let first = report.located.first().expect("a syntax error is reported");
        let bytes = first.diagnostic.range.start.offset;
        assert!(bytes > text.find('é').unwrap_or(0), "the error lies after the non-ASCII text");
        assert_eq!(first.from as usize, text[..bytes].encode_utf16().count());
        assert_ne!(first.from as usize, bytes);
    }

    #[test]
    fn a_report_knows_the_text_it_checked() {
        let report = check("a: 1\n", None);
        assert!(report.is_of("a: 1\n"));
        assert!(!report.is_of("a: 2\n"), "same length, another text");
        assert!(!report.is_of("a: 1\n\n"));
    }

    #[test]
    fn errors_are_listed_first_then_by_position_unless_in_line_order() {
        let report = check(include_str!("../../../examples/refund-triage.broken.yaml"), None);
        let key = |l: &&Located| (l.diagnostic.severity, l.from, l.to);
        let by_severity = listed(&report.located, false);
        assert!(by_severity.is_sorted_by_key(key), "severity, then position");
        let severities: Vec<_> = by_severity.iter().map(|l| l.diagnostic.severity).collect();
        assert!(severities.first() < severities.last(), "more than one severity: {severities:?}");
        let in_lines = listed(&report.located, true);
        assert!(in_lines.is_sorted_by_key(|l| l.from), "the text's order");
        assert_ne!(
            by_severity.iter().map(|l| l.from).collect::<Vec<_>>(),
            in_lines.iter().map(|l| l.from).collect::<Vec<_>>(),
            "the two orders differ on this document"
        );
    }

    #[test]
    fn related_places_are_in_utf16_units_too() {
        let text = "{\"😀\": [1, 2}";
        let report = check(text, None);
        let first = report.located.first().expect("the unclosed bracket is reported");
        assert_eq!(first.diagnostic.code, "IN001");
        assert_eq!((first.from, first.to), (7, 8), "the `[`, after a two-unit emoji");
        assert_eq!(first.related, [(12, 13)], "the `}}` where reading stopped");
    }
}
