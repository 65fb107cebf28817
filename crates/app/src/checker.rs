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
    /// The core's certain fix ([`Diagnostic::edit`]), in UTF-16 offsets:
    /// what the squiggle's action and the list's button apply.
    pub fix: Option<Fix>,
}

/// A certain fix as an edit of the editor's text: replace the UTF-16 range
/// `from..to` with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub from: u32,
    pub to: u32,
    pub text: String,
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

/// The text with every certain fix applied (`opb_core::fix`, what `opb
/// check --fix` applies, checking again between rounds), as one edit of
/// `text` in UTF-16 offsets: the span from the first changed unit to the
/// last. None when no fix applies.
pub fn fix_all(text: &str, kind: Option<Kind>, registry: Option<Arc<Registry>>) -> Option<Fix> {
    let fixed = opb_core::fix(text, &Options { kind, registry, ..Options::default() });
    if fixed.fixed.is_empty() || fixed.text == text {
        return None;
    }
    let new = fixed.text;
    let prefix = text.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    let prefix = floor_char_boundary(text, prefix);
    let suffix = text[prefix..]
        .bytes()
        .rev()
        .zip(new[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_end, new_end) = (text.len() - suffix, new.len() - suffix);
    let old_end = ceil_char_boundary(text, old_end);
    let new_end = new_end + (old_end - (text.len() - suffix));
    let ends = utf16_offsets(text, &[prefix, old_end]);
    Some(Fix { from: ends[0], to: ends[1], text: new[prefix..new_end].to_owned() })
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
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
    // Every range's ends, the diagnostic's, its related places' then its
    // fix's, in one conversion.
    let mut offsets = Vec::with_capacity(2 * diagnostics.len());
    for d in &diagnostics {
        offsets.extend([d.range.start.offset, d.range.end.offset]);
        for related in &d.related {
            offsets.extend([related.range.start.offset, related.range.end.offset]);
        }
        if let Some(edit) = d.edit() {
            offsets.extend([edit.start, edit.end]);
        }
    }
    let utf16 = utf16_offsets(text, &offsets);
    let mut ends = utf16.chunks_exact(2).map(|range| (range[0], range[1]));
    let located = diagnostics
        .iter()
        .map(|diagnostic| {
            let (from, to) = ends.next().unwrap_or_default();
            let related = ends.by_ref().take(diagnostic.related.len()).collect();
            let fix = diagnostic.edit().map(|edit| {
                let (from, to) = ends.next().unwrap_or_default();
                Fix { from, to, text: edit.text }
            });
            Located { diagnostic: diagnostic.clone(), from, to, related, fix }
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

    /// Two certain fixes (a step id and a field name one edit away) after
    /// a two-unit emoji.
    const FIXABLE: &str = "openplaybook: '1.6'\n# 😀\nrequires: {connections: []}\nsteps:\n  - {id: triage, kind: gate, next: 'gaet'}\n  - id: gate\n    kind: gate\n    purpos: x\n";

    #[test]
    fn certain_fixes_are_located_in_utf16_units() {
        let report = check(FIXABLE, None);
        let fixes: Vec<&Fix> = report.located.iter().filter_map(|l| l.fix.as_ref()).collect();
        assert_eq!(fixes.len(), 2, "{:?}", report.located);
        let at = |needle: &str| FIXABLE[..FIXABLE.find(needle).unwrap()].encode_utf16().count();
        assert_eq!((fixes[0].from as usize, fixes[0].text.as_str()), (at("'gaet'"), "'gate'"));
        assert_eq!(fixes[0].to as usize, at("'gaet'") + 6);
        assert_eq!((fixes[1].from as usize, fixes[1].text.as_str()), (at("purpos:"), "purpose"));
    }

    #[test]
    fn fix_all_is_one_edit_from_the_first_change_to_the_last() {
        let fix = fix_all(FIXABLE, None, None).expect("two fixes apply");
        let mut fixed: Vec<u16> = FIXABLE.encode_utf16().collect();
        fixed.splice(fix.from as usize..fix.to as usize, fix.text.encode_utf16());
        let fixed = String::from_utf16(&fixed).unwrap();
        assert_eq!(fixed, FIXABLE.replace("'gaet'", "'gate'").replace("purpos:", "purpose:"));
        assert!(fix.from > 0 && fix.text.ends_with("purpose"), "not the whole text: {fix:?}");
        assert_eq!(fix_all(&fixed, None, None), None, "nothing left to fix");
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
