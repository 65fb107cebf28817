//! A repository's choice of rules, as the shells read it from `opb.toml`
//! and hand it to the core: which rules report and how seriously, and
//! which findings are accepted. Applied in one place, on the resolved
//! diagnostics, so the CLI, the language server and every other shell
//! report a file alike.

use super::{Diagnostic, Severity};
use serde::Serialize;

/// Which rules report, and at which severity. A selector is a rule's code
/// (`PB213`) or the start of codes (`PB2`, `PB`, `SEC`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleSettings {
    /// The selectors of the rules to report; empty for every rule.
    pub select: Vec<String>,
    /// The selectors of the rules not to report.
    pub ignore: Vec<String>,
    /// A severity for the rules a selector names, instead of the rule's own.
    pub severity: Vec<(String, Severity)>,
    /// Findings accepted at one place, from outside the document (the
    /// settings' per-file-ignores): kept, as suppressed, not reported.
    pub accepted: Vec<Accepted>,
}

/// A finding accepted at one place: the rule's code and the JSON pointer,
/// and why (where it was accepted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The rule's code, whole.
    pub code: String,
    /// The finding's JSON pointer, as reported.
    pub pointer: String,
    /// Why, or where it was accepted, for the reports.
    pub justification: String,
}

/// A finding that is not reported because someone accepted it, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Suppressed {
    /// The finding, as it would have been reported.
    #[serde(flatten)]
    pub diagnostic: Diagnostic,
    /// How it was accepted.
    pub suppression: Suppression,
}

/// How a finding was accepted, in SARIF's terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suppression {
    /// In the document (a comment), or outside it (the settings).
    pub kind: SuppressionKind,
    /// The reason written with it; empty when none was.
    pub justification: String,
}

/// Where a suppression is written: SARIF's `inSource` and `external`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SuppressionKind {
    /// A comment in the document.
    InSource,
    /// The settings, outside the document.
    External,
}

impl RuleSettings {
    /// Whether `code` reports: the longest selector of `select` and
    /// `ignore` that names it decides (an `ignore` on a tie), as ruff
    /// decides, so `select = ["PB"]` with `ignore = ["PB2"]` leaves out the
    /// PB2xx rules and `ignore = ["PB"]` with `select = ["PB213"]` keeps
    /// PB213. A code neither names reports when `select` is empty.
    pub fn reports(&self, code: &str) -> bool {
        let longest = |selectors: &[String]| {
            selectors.iter().filter(|s| code.starts_with(s.as_str())).map(String::len).max()
        };
        match (longest(&self.select), longest(&self.ignore)) {
            (None, None) => self.select.is_empty(),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(select), Some(ignore)) => select > ignore,
        }
    }

    /// The severity `code` reports at: that of the longest selector of
    /// `severity` naming it, else `own`.
    pub fn severity_of(&self, code: &str, own: Severity) -> Severity {
        self.severity
            .iter()
            .filter(|(selector, _)| code.starts_with(selector.as_str()))
            .max_by_key(|(selector, _)| selector.len())
            .map_or(own, |(_, severity)| *severity)
    }

    /// Keeps the diagnostics of the rules that report, each at its
    /// severity.
    pub(crate) fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.select.is_empty() && self.ignore.is_empty() && self.severity.is_empty() {
            return;
        }
        diagnostics.retain(|d| self.reports(d.code));
        for d in diagnostics {
            d.severity = self.severity_of(d.code, d.severity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(select: &[&str], ignore: &[&str]) -> RuleSettings {
        RuleSettings {
            select: select.iter().map(|s| s.to_string()).collect(),
            ignore: ignore.iter().map(|s| s.to_string()).collect(),
            ..RuleSettings::default()
        }
    }

    #[test]
    fn the_longest_selector_decides() {
        assert!(settings(&[], &[]).reports("PB213"));
        assert!(!settings(&["PM"], &[]).reports("PB213"));
        assert!(!settings(&["PB"], &["PB2"]).reports("PB213"));
        assert!(settings(&["PB"], &["PB2"]).reports("PB301"));
        assert!(settings(&["PB213"], &["PB"]).reports("PB213"));
        assert!(!settings(&["PB213"], &["PB"]).reports("PB214"));
        assert!(!settings(&["PB2"], &["PB2"]).reports("PB213"));
        assert!(settings(&[], &["SEC"]).reports("PB213"));
    }

    #[test]
    fn the_longest_severity_selector_decides() {
        let settings = RuleSettings {
            severity: vec![("PB2".into(), Severity::Info), ("PB220".into(), Severity::Error)],
            ..RuleSettings::default()
        };
        assert_eq!(settings.severity_of("PB220", Severity::Warning), Severity::Error);
        assert_eq!(settings.severity_of("PB211", Severity::Warning), Severity::Info);
        assert_eq!(settings.severity_of("PM201", Severity::Error), Severity::Error);
    }
}
