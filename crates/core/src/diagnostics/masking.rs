//! Masking by what was found: the credentials the credential rules (SEC001,
//! PB411, PM312) flagged in a document, computed once per analysis, and the
//! one place every text shown outside the editor is cut by them. Each
//! occurrence of a flagged value, in a string or a key of the document, a
//! message of any rule, a pointer, the source lines a shell shows, is cut to
//! its first four characters ([`preview`]).
//!
//! A value is masked wherever it occurs, not only where a rule found it:
//! a token flagged in a description and used again as a branch label, or a
//! server name PB411 flagged and quoted by another rule, is the same secret.
//! The values are searched for all at once (one Aho-Corasick automaton),
//! so masking a text costs one pass over it however many were found. A
//! part of a value quoted apart from it is cut too ([`Pieces`]), in a
//! second pass over what the first has cut.

use super::credentials::{
    automaton, hide_past_shown, mask as mask_by_shape, merged, preview, Pieces,
};
use aho_corasick::automaton::Automaton;
use aho_corasick::nfa::noncontiguous::NFA;
use aho_corasick::Input;
use opb_syntax::text::Span;
use opb_syntax::{Node, Ptr, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// How many characters of a credential may be shown. A flagged value no
/// longer than this has nothing to hide, and is not searched for (a short
/// server name PB411 flags, `a@b`, would otherwise be cut everywhere).
const SHOWN: usize = 4;

/// What an analysis masks every shown text by: the credential values its
/// credential rules found. See [`crate::Analysis::masking`].
///
/// The default is the masking of a text the credential rules did not read
/// (a tool registry, a text that could not be read): it has found nothing,
/// and masks source lines by the shapes of credentials. Its `Debug` output
/// counts the values and never shows one.
#[derive(Clone, Default)]
pub struct Masking {
    /// None when the credential rules did not read the document (it could
    /// not be read, its kind is not known, a limit stopped it).
    found: Option<Found>,
}

#[derive(Clone)]
struct Found {
    /// The values flagged, each once (those longer than [`SHOWN`]).
    values: Vec<String>,
    /// What each searched text is cut to, by the automaton's pattern id:
    /// each value's preview, and for a value's form in a JSON pointer
    /// (`/` and `~` escaped) the preview's form.
    cuts: Vec<String>,
    /// The values and their pointer forms; none when nothing was found.
    automaton: Option<Arc<NFA>>,
    /// The runs of each value's bytes, and of its pointer form.
    pieces: Option<Arc<Pieces>>,
    /// The bytes of the analysed text to hide, sorted and apart: every
    /// occurrence of a value as written, and every key or scalar whose
    /// value holds one that its source does not spell out (an escape, a
    /// folded line), whole.
    hidden: Vec<Span>,
}

impl std::fmt::Debug for Masking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.found {
            None => f.write_str("Masking(not read: by shape)"),
            Some(found) => write!(f, "Masking({} values found)", found.values.len()),
        }
    }
}

impl Masking {
    /// The masking of a document the credential rules read: `values` are
    /// what they flagged, `root` and `text` the document.
    pub(crate) fn found(values: Vec<String>, root: Option<&Node>, text: &str) -> Masking {
        let mut found = Found::new(values);
        if let (Some(automaton), Some(root)) = (&found.automaton, root) {
            found.hidden = hidden_spans(automaton, found.pieces.as_deref(), root, text);
        }
        Masking { found: Some(found) }
    }

    /// The masking of both `self` and `other`: a value either flagged is
    /// cut. For a text built from two documents (a diff); it has no source.
    pub(crate) fn union(&self, other: &Masking) -> Masking {
        let values = [self, other]
            .into_iter()
            .filter_map(|masking| masking.found.as_ref())
            .flat_map(|found| found.values.iter().cloned())
            .collect();
        Masking { found: Some(Found::new(values)) }
    }

    /// Whether there is no value to mask by: the credential rules found
    /// none, or did not read the text.
    pub fn is_empty(&self) -> bool {
        self.found.as_ref().is_none_or(|found| found.automaton.is_none())
    }

    /// `text` with every occurrence of a flagged value cut to its first
    /// four characters and `…`, and of a value's JSON-pointer form to the
    /// pointer form of that, then every part of a value quoted apart from
    /// it cut to `…`: for any text shown outside the editor (a message, a
    /// pointer, a hover, a label). Borrowed, not copied, when it holds
    /// none.
    pub fn mask<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let Some((found, automaton)) =
            self.found.as_ref().and_then(|found| Some((found, found.automaton.as_deref()?)))
        else {
            return Cow::Borrowed(text);
        };
        let matches = occurrences(automaton, text);
        let cut = if matches.is_empty() {
            Cow::Borrowed(text)
        } else {
            let mut out = String::with_capacity(text.len());
            let mut at = 0;
            for (start, end, pattern) in matches {
                out.push_str(&text[at..start]);
                out.push_str(&found.cuts[pattern]);
                at = end;
            }
            out.push_str(&text[at..]);
            Cow::Owned(out)
        };
        match &found.pieces {
            Some(pieces) => pieces.cut(cut),
            None => cut,
        }
    }

    /// The text this masking's analysis was made from, with every
    /// credential it found hidden past its first four characters: each
    /// hidden character becomes as many `*` as it has bytes (blanks and
    /// line breaks kept), so byte offsets and lines stay valid. For showing
    /// source lines (the CLI's snippets, the playground's list of drafts).
    ///
    /// A value is found in the source as written, and where a key or a
    /// scalar holds one its source does not spell out (`\/` or `\u0031` in
    /// JSON, a folded YAML line), that key or scalar is hidden whole. A part
    /// of a value written apart from it is hidden past its first four
    /// characters.
    ///
    /// Where the credential rules did not read the text (it could not be
    /// read, or its kind is not known, or a limit stopped it), nothing was
    /// found to go by, and its lines are still shown (the syntax error's
    /// first): they are masked by the shapes of credentials instead (known
    /// token prefixes, private keys, bearer tokens, JWTs, long high-entropy
    /// runs), keeping offsets the same way.
    pub fn mask_source<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let Some(found) = &self.found else { return mask_by_shape(text) };
        if found.hidden.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for span in &found.hidden {
            let Some(part) = text.get(span.start..span.end) else { continue };
            out.push_str(&text[at..span.start]);
            hide_past_shown(&mut out, part);
            at = span.end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// A copy of `root` with every flagged value cut in every string, key
    /// and number, spans kept; `None` when nothing was flagged (the common
    /// case: nothing is copied). The explain view is built from it.
    /// Iterative, so no nesting depth the limits allow can exhaust the
    /// stack.
    pub(crate) fn masked_tree(&self, root: &Node) -> Option<Node> {
        if self.is_empty() {
            return None;
        }
        let mut root = root.clone();
        let mut stack = vec![&mut root];
        while let Some(node) = stack.pop() {
            match &mut node.value {
                Value::String(text) => {
                    if let Cow::Owned(masked) = self.mask(text) {
                        *text = masked.into();
                    }
                }
                Value::Number(number) => {
                    if let Cow::Owned(masked) = self.mask(&number.raw) {
                        number.raw = masked;
                    }
                }
                Value::Array(items) => stack.extend(items.iter_mut()),
                Value::Object(object) => {
                    for member in &mut object.members {
                        if let Cow::Owned(masked) = self.mask(&member.key) {
                            member.key = masked.into();
                        }
                        stack.push(&mut member.value);
                    }
                }
                Value::Null | Value::Bool(_) => {}
            }
        }
        Some(root)
    }
}

impl Found {
    fn new(values: Vec<String>) -> Found {
        let mut values: Vec<String> =
            values.into_iter().filter(|value| value.chars().nth(SHOWN).is_some()).collect();
        opb_syntax::order::sort(&mut values);
        values.dedup();
        let mut forms = Vec::with_capacity(values.len());
        let mut cuts = Vec::with_capacity(values.len());
        for value in &values {
            let cut = preview(value);
            let in_pointer = pointer_form(value);
            if in_pointer != *value {
                cuts.push(pointer_form(&cut));
                forms.push(in_pointer);
            }
            cuts.push(cut);
            forms.push(value.clone());
        }
        let forms: Vec<&str> = forms.iter().map(String::as_str).collect();
        let automaton = (!forms.is_empty()).then(|| automaton(&forms, false));
        // Each value and its pointer form are among the forms.
        let pieces = Pieces::of(&forms).map(Arc::new);
        Found { values, cuts, automaton, pieces, hidden: Vec::new() }
    }
}

/// `value` as a token of a JSON pointer: `~` and `/` escaped.
fn pointer_form(value: &str) -> String {
    let pointer = Ptr::root().key(value);
    pointer.as_str()[1..].to_owned()
}

/// The occurrences of the values in `text` that masking cuts, in order and
/// apart, each as its start, end and pattern id: of those that overlap, the
/// one that starts first, and of those that start together the longest.
///
/// The overlapping matches come by their ends. Those kept so far that a
/// match overlaps are the last ones; it replaces them when none starts
/// before it (it starts with or before each and ends after), else it is
/// dropped.
fn occurrences(automaton: &NFA, text: &str) -> Vec<(usize, usize, usize)> {
    let mut kept: Vec<(usize, usize, usize)> = Vec::new();
    let found = automaton
        .try_find_overlapping_iter(Input::new(text))
        .expect("a standard-match NFA searches overlapping");
    for found in found {
        let (start, end) = (found.start(), found.end());
        let overlapping = kept.partition_point(|&(_, kept_end, _)| kept_end <= start);
        if kept[overlapping..].first().is_none_or(|&(kept_start, _, _)| kept_start >= start) {
            kept.truncate(overlapping);
            kept.push((start, end, found.pattern().as_usize()));
        }
    }
    kept
}

/// What [`Masking::mask_source`] hides of `text`, whose tree is `root`:
/// every occurrence of a value as written, in one pass over the text; then
/// every key and scalar whose value holds more occurrences than its source
/// spells out, whole; then every part of a value written apart from it.
/// Sorted and merged.
fn hidden_spans(automaton: &NFA, pieces: Option<&Pieces>, root: &Node, text: &str) -> Vec<Span> {
    let mut hidden: Vec<Span> = occurrences(automaton, text)
        .into_iter()
        .map(|(start, end, _)| Span::new(start, end))
        .collect();
    let count = |text: &str| occurrences(automaton, text).len();
    let mut hide_unspelled = |value: &str, span: Span| {
        let found = count(value);
        let source = text.get(span.start..span.end).unwrap_or_default();
        if found > 0 && count(source) < found {
            hidden.push(unquoted(source, span));
        }
    };
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::String(value) => hide_unspelled(value, node.span),
            Value::Array(items) => stack.extend(items),
            Value::Object(object) => {
                for member in &object.members {
                    hide_unspelled(&member.key, member.key_span);
                    stack.push(&member.value);
                }
            }
            // A number's value is its source text, searched with the rest.
            Value::Number(_) | Value::Null | Value::Bool(_) => {}
        }
    }
    if let Some(pieces) = pieces {
        hidden.extend(pieces.spans(text));
    }
    opb_syntax::order::sort_by_key(&mut hidden, |span| (span.start, span.end));
    merged(hidden)
}

/// The span of a scalar's source inside its quotes, if it has them, so
/// that what is hidden of it starts with its first characters.
fn unquoted(source: &str, span: Span) -> Span {
    let quoted = source.len() >= 2
        && [b'"', b'\'']
            .iter()
            .any(|&q| source.starts_with(q as char) && source.ends_with(q as char));
    if quoted {
        Span::new(span.start + 1, span.end - 1)
    } else {
        span
    }
}

#[cfg(test)]
mod tests {
    use crate::{analyze, Options};
    use opb_syntax::{Node, Value};

    fn strings(node: &Node, out: &mut Vec<String>) {
        match &node.value {
            Value::String(s) => out.push(s.to_string()),
            Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
            Value::Object(o) => o.members.iter().for_each(|m| {
                out.push(m.key.to_string());
                strings(&m.value, out)
            }),
            _ => {}
        }
    }

    /// The keys and strings of the masked tree of `text`, a YAML document;
    /// none when nothing was flagged.
    fn masked_strings(text: &str) -> Option<Vec<String>> {
        let root =
            opb_syntax::parse(text, opb_syntax::Syntax::Yaml, &opb_syntax::Limits::default())
                .root
                .unwrap();
        let analysis = analyze(text, &Options::default());
        let masked = analysis.masking().masked_tree(&root)?;
        assert_eq!(masked.span, root.span, "spans are kept");
        let mut out = Vec::new();
        strings(&masked, &mut out);
        Some(out)
    }

    #[test]
    fn only_the_credential_is_cut_and_the_prose_around_it_kept() {
        let text = "openplaybook: \"1.6\"\nsteps:\n  - id: a\n    kind: gate\n    purpose: Charge with sk_live_51HqzR7Kx9PmW2vT8nLcB4yQd then stop\n  - {id: b, kind: gate, purpose: plain words}\n";
        let strings = masked_strings(text).unwrap();
        assert!(strings.contains(&"Charge with sk_l… then stop".to_owned()), "{strings:?}");
        assert!(strings.contains(&"plain words".to_owned()), "{strings:?}");
        assert!(!strings.iter().any(|s| s.contains("sk_live")), "{strings:?}");
    }

    #[test]
    fn a_credential_of_no_known_shape_is_cut_whole() {
        let manifest = "name: acme\ntools:\n  - id: acme_fetch\n    url: https://api.acme.example/mcp\n    headers:\n      Authorization: \"Basic dXNlcjpwYXNz\"\n";
        let strings = masked_strings(manifest).unwrap();
        assert!(strings.contains(&"Basi…".to_owned()), "{strings:?}");
        assert!(!strings.iter().any(|s| s.contains("dXNl")), "{strings:?}");
    }

    #[test]
    fn a_duplicate_member_and_a_key_are_masked_too() {
        let text = "openplaybook: \"1.6\"\nsteps:\n  - {id: a, kind: gate}\ndescription: x\ndescription: token ghp_16C7e42F292c6912E7710c838347Ae178B4a\nghp_16C7e42F292c6912E7710c838347Ae178B4a: y\n";
        let strings = masked_strings(text).unwrap();
        assert!(strings.contains(&"token ghp_…".to_owned()), "{strings:?}");
        assert!(strings.contains(&"ghp_…".to_owned()), "{strings:?}");
        assert!(!strings.iter().any(|s| s.contains("ghp_16C7")), "{strings:?}");
    }

    #[test]
    fn a_value_in_a_pointer_is_cut_in_its_pointer_form() {
        let masking = super::Masking::found(vec!["a/b~cdefgh".to_owned()], None, "");
        // Its preview `a/b~…`, escaped as the pointer escapes the value.
        assert_eq!(masking.mask("/x/a~1b~0cdefgh/y"), "/x/a~1b~0…/y");
        assert_eq!(masking.mask("in a/b~cdefgh words"), "in a/b~… words");
    }

    #[test]
    fn a_part_of_a_value_quoted_apart_from_it_is_cut() {
        let value = "2aaaaaaaabbiDajAcbpBs6bdnmgHr5SQXRRWeTeS";
        let masking = super::Masking::found(vec![value.to_owned()], None, "");
        let message = format!("`{value}` is not a duration: `aaaaaaaabbiDajAcbpBs` is not a unit");
        assert_eq!(masking.mask(&message), "`2aaa…` is not a duration: `…` is not a unit");
        // A part shorter than a run of a token is a word's.
        assert_eq!(masking.mask("at TeS or 5SQXRRW"), "at TeS or 5SQXRRW");
        // Two parts side by side are one cut; a part in a pointer too.
        assert_eq!(masking.mask("x bbiDajAcbpBsSQXRRWeTeS y"), "x … y");
        assert_eq!(masking.mask("/tools/DajAcbpBs6bd"), "/tools/…");
    }

    #[test]
    fn a_part_of_a_value_in_the_source_is_hidden_past_four_characters() {
        let token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
        let text = format!("{{\"token\": \"{token}\", \"note\": \"ends 2c6912E7710c\"}}");
        let root = opb_syntax::parse(&text, opb_syntax::Syntax::Json, &Default::default()).root;
        let masking = super::Masking::found(vec![token.to_owned()], root.as_ref(), &text);
        let shown = masking.mask_source(&text);
        assert_eq!(shown.len(), text.len(), "offsets are kept");
        assert!(shown.contains("\"ends 2c69********\""), "{shown}");
        assert!(shown.contains("\"ghp_************************************\""), "{shown}");
    }

    /// Leftmost-longest as its definition says: at each place, the longest
    /// value that starts there, then on after it.
    fn leftmost_longest(values: &[&str], text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let longest =
                values.iter().filter(|v| text[at..].starts_with(**v)).map(|v| v.len()).max();
            match longest {
                Some(len) => {
                    out.push((at, at + len));
                    at += len;
                }
                None => at += 1,
            }
        }
        out
    }

    #[test]
    fn occurrences_are_the_leftmost_longest_of_the_overlapping_matches() {
        let values = ["ab", "abab", "bab", "aab", "b", "aaaa"];
        let automaton = aho_corasick::nfa::noncontiguous::NFA::new(values).unwrap();
        let mut texts = vec![String::new()];
        for _ in 0..8 {
            let longer: Vec<String> =
                texts.iter().flat_map(|t| ["a", "b", "c"].map(|c| format!("{t}{c}"))).collect();
            texts.extend(longer);
        }
        for text in &texts {
            let found: Vec<(usize, usize)> =
                super::occurrences(&automaton, text).iter().map(|&(s, e, _)| (s, e)).collect();
            assert_eq!(found, leftmost_longest(&values, text), "{text}");
        }
    }

    #[test]
    fn nothing_is_copied_without_a_credential() {
        assert!(
            masked_strings("openplaybook: \"1.6\"\nsteps:\n  - {id: a, kind: gate}\n").is_none()
        );
    }
}
