//! What rules report, before positions are computed.

use crate::diagnostics::Rule;
use opb_syntax::text::Span;
use opb_syntax::{Member, Node, Note, Ptr};

/// One rule's finding: the rule, a specific message, an RFC 6901 pointer,
/// the byte span to underline and, for some, a second place it concerns.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: &'static Rule,
    pub message: String,
    pub pointer: String,
    pub span: Span,
    pub related: Option<Note>,
    /// The value or key that certainly belongs where `span` is (the step
    /// id or field name one small edit away), unquoted.
    pub fix: Option<String>,
}

/// Where a finding points. The pointer convention: the offending value; for
/// a missing field, the object that lacks it.
#[derive(Debug, Clone, Copy)]
pub enum At<'a> {
    /// The value itself is wrong: underline the value.
    Value(&'a Node),
    /// The key is the problem (a duplicate, an unknown field): underline it.
    Key(&'a Member),
    /// A field is missing from this object: underline the object's head.
    Missing(&'a Node),
}

impl At<'_> {
    pub fn span(self) -> Span {
        match self {
            At::Value(node) => node.span,
            At::Key(member) => member.key_span,
            At::Missing(node) => node.head_span(),
        }
    }
}

/// Collects findings as rules run, and the credentials the credential
/// rules flag, for masking.
#[derive(Debug, Default)]
pub struct Report {
    findings: Vec<Finding>,
    /// Each credential a credential rule found, as the document's value
    /// holds it.
    credentials: Vec<String>,
    /// Whether the credential rules read the whole document.
    credentials_read: bool,
}

impl Report {
    pub fn new() -> Self {
        Report::default()
    }

    pub fn push(
        &mut self,
        rule: &'static Rule,
        pointer: &Ptr,
        at: At<'_>,
        message: impl Into<String>,
    ) {
        self.findings.push(Finding {
            rule,
            message: message.into(),
            pointer: pointer.as_str().to_owned(),
            span: at.span(),
            related: None,
            fix: None,
        });
    }

    /// As [`Report::push`], with the text that certainly belongs at `at`
    /// instead, when there is one: editors offer it as a quick fix.
    pub fn push_fixable(
        &mut self,
        rule: &'static Rule,
        pointer: &Ptr,
        at: At<'_>,
        message: impl Into<String>,
        fix: Option<&str>,
    ) {
        self.push(rule, pointer, at, message);
        if let Some(finding) = self.findings.last_mut() {
            finding.fix = fix.map(str::to_owned);
        }
    }

    pub fn extend(&mut self, findings: impl IntoIterator<Item = Finding>) {
        self.findings.extend(findings);
    }

    pub fn has(&self, rule: &'static Rule) -> bool {
        self.findings.iter().any(|f| std::ptr::eq(f.rule, rule))
    }

    /// Where `rule` has reported something: lets a general rule stay
    /// silent where a more specific one has spoken.
    pub fn pointers_of(&self, rule: &'static Rule) -> impl Iterator<Item = &str> {
        self.findings.iter().filter(move |f| std::ptr::eq(f.rule, rule)).map(|f| f.pointer.as_str())
    }

    /// Records a credential a rule found (a part of a value or key, or a
    /// whole value): wherever it occurs, it is shown cut to four
    /// characters. Kept apart from the findings: a finding's message shows
    /// only its preview.
    pub fn flag_credential(&mut self, value: &str) {
        self.credentials.push(value.to_owned());
    }

    /// Records that the credential rules have read the whole document, so
    /// what they flagged is all there is to mask.
    pub fn credentials_read(&mut self) {
        self.credentials_read = true;
    }

    /// The credentials flagged, when the credential rules read the
    /// document; beside the findings.
    pub fn into_parts(self) -> (Vec<Finding>, Option<Vec<String>>) {
        (self.findings, self.credentials_read.then_some(self.credentials))
    }

    pub fn retain(&mut self, keep: impl FnMut(&Finding) -> bool) {
        self.findings.retain(keep);
    }

    pub fn into_findings(self) -> Vec<Finding> {
        self.findings
    }
}
