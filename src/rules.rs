//! `opb rules`: the catalogue, or one rule's documentation.

use crate::args::RulesArgs;
use crate::output::Output;
use crate::{style, Status};
use opb_core::{Group, Rule, Severity};
use std::fmt::Write;

pub fn run(args: &RulesArgs, output: &mut Output) -> Status {
    match &args.rule {
        None => {
            output.print_for_people(&catalogue());
            Status::Clean
        }
        Some(query) => match opb_core::rule(query) {
            Some(rule) => {
                output.print_for_people(&documentation(rule));
                Status::Clean
            }
            None => {
                output.error(unknown(query));
                Status::Failed
            }
        },
    }
}

/// Every rule, one line each (so the list greps well), under its group's
/// title.
fn catalogue() -> String {
    let width = opb_core::rules().map(|r| r.name.len()).max().unwrap_or_default();
    let mut out = String::new();
    let mut group: Option<Group> = None;
    for rule in opb_core::rules() {
        if group != Some(rule.group) {
            if group.is_some() {
                out.push('\n');
            }
            let heading = style::HEADING;
            writeln!(out, "{}{}{}", heading.render(), rule.group.title(), heading.render_reset())
                .ok();
            group = Some(rule.group);
        }
        let severity = severity_style(rule.severity);
        writeln!(
            out,
            "  {code:<6} {}{sev:<7}{} {name:<width$}  {summary}",
            severity.render(),
            severity.render_reset(),
            code = rule.code,
            sev = rule.severity.as_str(),
            name = rule.name,
            summary = rule.summary,
        )
        .ok();
    }
    let count = opb_core::rules().count();
    writeln!(
        out,
        "\n{count} rules. `opb rules <CODE>` shows why a rule exists and how to fix a finding."
    )
    .ok();
    out
}

fn documentation(rule: &Rule) -> String {
    format!("{}\nGroup: {}\n", rule.documentation(), rule.group.title())
}

fn severity_style(severity: Severity) -> anstyle::Style {
    match severity {
        Severity::Error => style::ERROR,
        Severity::Warning => style::WARNING,
        Severity::Info => style::INFO,
    }
}

/// How many close matches an unknown rule gets.
const SUGGESTIONS: usize = 3;
/// How alike (0 to 1) a code or name must be to be suggested.
const SIMILAR_ENOUGH: f64 = 0.7;

/// The rules whose code or name is closest to `query`, closest first.
pub fn closest(query: &str) -> Vec<&'static Rule> {
    let query_lower = query.to_ascii_lowercase();
    let mut scored: Vec<(f64, &Rule)> = opb_core::rules()
        .map(|rule| {
            let by_code = strsim::jaro_winkler(&query_lower, &rule.code.to_ascii_lowercase());
            let by_name = strsim::jaro_winkler(&query_lower, rule.name);
            (by_code.max(by_name), rule)
        })
        .filter(|(score, _)| *score >= SIMILAR_ENOUGH)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(SUGGESTIONS).map(|(_, rule)| rule).collect()
}

fn unknown(query: &str) -> String {
    let close: Vec<String> =
        closest(query).iter().map(|rule| format!("{} ({})", rule.code, rule.name)).collect();
    let query = crate::escape::line(query);
    let mut message = format!("no rule has the code or name `{query}`");
    if !close.is_empty() {
        write!(message, "; the closest: {}", close.join(", ")).ok();
    }
    message.push_str(". `opb rules` lists them all.");
    message
}

#[cfg(test)]
mod tests {
    use super::unknown;

    #[test]
    fn a_near_miss_suggests_the_rule() {
        assert!(unknown("PB2133").contains("PB213 (next-unknown)"), "{}", unknown("PB2133"));
        assert!(
            unknown("next-unknwn").contains("PB213 (next-unknown)"),
            "{}",
            unknown("next-unknwn")
        );
    }

    #[test]
    fn nonsense_suggests_nothing() {
        assert!(!unknown("zzzzzzzzzzzz").contains("closest"));
    }
}
