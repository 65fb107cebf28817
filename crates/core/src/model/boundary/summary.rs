//! The plain-English summary of a step's boundary. It says only what the
//! document says: data scopes where the tools declare them, else the author's
//! description, quoted; and it names what the document leaves unknown.

use super::{AllowedTool, ListForm, Requirement, Resolution, StepBoundary, ToolFacts};
use std::collections::HashSet;

/// Descriptions longer than this are cut at a word boundary: a summary is a
/// few lines, the full text is in the tool's entry.
const DESCRIPTION_LIMIT: usize = 120;

pub(super) fn summarize(step: &StepBoundary) -> String {
    let mut sentences: Vec<String> = Vec::new();
    match step.kind.as_deref() {
        Some("agent") => sentences.extend(capabilities(step)),
        Some("gate") => {
            sentences.push("Waits for a person to decide before the playbook goes on.".to_owned());
            if step.allowed_tools != ListForm::Absent {
                sentences.push("It lists allowedTools, but only an agent step calls tools.".to_owned());
            }
        }
        Some(kind) => {
            sentences.push(format!("Is of kind “{kind}”, which this reader does not know, so it cannot say what the step does."));
            sentences.extend(capabilities(step));
        }
        None => {
            sentences.push("Has no kind, so this reader cannot say what the step does.".to_owned());
            sentences.extend(capabilities(step));
        }
    }
    sentences.extend(entry_sentence(step));
    sentences.join(" ")
}

/// What the step's `allowedTools` let it call.
fn capabilities(step: &StepBoundary) -> Vec<String> {
    match step.allowed_tools {
        ListForm::Absent => vec!["May call no tool: it has no allowedTools.".to_owned()],
        ListForm::NotAList => vec!["Its allowedTools is not a list, so this reader cannot say which tools it may call.".to_owned()],
        ListForm::List => {
            let mut seen = HashSet::new();
            let valid: Vec<&AllowedTool> =
                step.tools.iter().filter(|t| t.resolution.name().is_some_and(|name| seen.insert(name))).collect();
            let mut sentences = Vec::new();
            if valid.is_empty() {
                let why = if step.tools.is_empty() { ": its allowedTools list is empty." } else { "." };
                sentences.push(format!("May call no tool{why}"));
            } else {
                sentences.push(format!("{}. Every other tool call is refused.", capitalize(&clauses(&valid).join("; "))));
            }
            sentences.extend(step.tools.iter().filter_map(invalid_sentence));
            sentences
        }
    }
}

/// What a tool does to data, as its definition declares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    Reads,
    Writes,
    Undeclared,
}

fn effect(facts: &ToolFacts) -> Effect {
    match facts.side_effecting {
        Some(false) => Effect::Reads,
        Some(true) => Effect::Writes,
        None => Effect::Undeclared,
    }
}

/// One clause per kind of access, most harmless first, then the tools only a
/// registry can explain.
fn clauses(tools: &[&AllowedTool]) -> Vec<String> {
    let embedded: Vec<&ToolFacts> = tools
        .iter()
        .filter_map(|t| match &t.resolution {
            Resolution::Embedded { facts, .. } => Some(&**facts),
            _ => None,
        })
        .collect();
    let mut clauses = Vec::new();
    for (effect_wanted, approval) in [
        (Effect::Reads, false),
        (Effect::Reads, true),
        (Effect::Writes, true),
        (Effect::Writes, false),
        (Effect::Undeclared, true),
        (Effect::Undeclared, false),
    ] {
        let group: Vec<&ToolFacts> = embedded
            .iter()
            .copied()
            .filter(|f| effect(f) == effect_wanted && (f.requires_approval == Some(true)) == approval)
            .collect();
        if !group.is_empty() {
            clauses.push(access_clause(effect_wanted, approval, &group));
        }
    }
    let registry: Vec<String> = tools
        .iter()
        .filter_map(|t| match &t.resolution {
            Resolution::RegistryOnly { name, needs, .. } => Some(format!("{name}{}", place(needs.as_ref()))),
            _ => None,
        })
        .collect();
    if !registry.is_empty() {
        let also = if clauses.is_empty() { "" } else { "also " };
        let what = if registry.len() == 1 { "it does" } else { "they do" };
        clauses.push(format!(
            "may {also}call {}, which the document does not define, so only a runtime's registry can say what {what}",
            list(&registry)
        ));
    }
    clauses
}

fn access_clause(effect: Effect, approval: bool, tools: &[&ToolFacts]) -> String {
    let (modal, scoped_verb, unscoped_verb) = match effect {
        Effect::Reads => ("can", "read", "read data with"),
        Effect::Writes => ("may", "write to", "change data with"),
        Effect::Undeclared => ("may", "", "call"),
    };
    let mut phrases = Vec::new();
    if effect != Effect::Undeclared {
        let scoped: Vec<String> = tools.iter().filter_map(|f| scoped_item(f, effect)).collect();
        if !scoped.is_empty() {
            phrases.push(format!("{scoped_verb} {}", list(&scoped)));
        }
    }
    let unscoped: Vec<String> = tools
        .iter()
        .filter(|f| effect == Effect::Undeclared || scoped_item(f, effect).is_none())
        .map(|f| described_item(f))
        .collect();
    if !unscoped.is_empty() {
        phrases.push(format!("{unscoped_verb} {}", list(&unscoped)));
    }
    let mut clause = format!("{modal} {}", phrases.join(", and "));
    if effect == Effect::Undeclared {
        clause.push_str(", whose side effects the document does not declare");
    }
    let tail = match (approval, effect) {
        (true, _) => "after a person approves each call",
        (false, Effect::Writes) => "without a person's approval",
        (false, _) => "",
    };
    if !tail.is_empty() {
        let separator = if phrases.len() > 1 || effect == Effect::Undeclared { ", " } else { " " };
        clause.push_str(separator);
        clause.push_str(tail);
    }
    clause
}

/// `customers and charges via Stripe (charge.history)`: the data scopes the
/// tool declares for this effect, when it declares any.
fn scoped_item(facts: &ToolFacts, effect: Effect) -> Option<String> {
    let scopes = match effect {
        Effect::Reads => &facts.data_scope_resources,
        Effect::Writes => &facts.data_scope_writes,
        Effect::Undeclared => return None,
    };
    let scopes: Vec<String> = scopes.iter().map(|s| s.trim().replace('_', " ")).filter(|s| !s.is_empty()).collect();
    if scopes.is_empty() {
        return None;
    }
    let name = facts.name.as_deref().unwrap_or_default();
    Some(format!("{}{} ({name})", list(&scopes), place(facts.needs.as_ref())))
}

/// `charge.history via Stripe (“List recent charges.”)`: the tool by name,
/// with the author's description when there is one.
fn described_item(facts: &ToolFacts) -> String {
    let name = facts.name.as_deref().unwrap_or_default();
    let place = place(facts.needs.as_ref());
    let description = facts.description.as_deref().map(shorten);
    // A final period would sit before the closing parenthesis and the
    // sentence's own punctuation.
    match description.as_deref().map(|d| d.strip_suffix('.').unwrap_or(d)).filter(|d| !d.is_empty()) {
        Some(description) => format!("{name}{place} (“{description}”)"),
        None => format!("{name}{place}"),
    }
}

/// Where a tool runs: ` via Stripe`, ` on MCP server acme`.
fn place(needs: Option<&Requirement>) -> String {
    match needs {
        Some(Requirement::Connection { provider, .. }) => format!(" via {}", provider_name(provider)),
        Some(Requirement::McpServer { server, .. }) => format!(" on MCP server {server}"),
        None => String::new(),
    }
}

/// A provider as its users write it.
pub(crate) fn provider_name(provider: &str) -> &str {
    match provider {
        "stripe" => "Stripe",
        "github" => "GitHub",
        "vercel" => "Vercel",
        "posthog" => "PostHog",
        "gmail" => "Gmail",
        "resend" => "Resend",
        "linear" => "Linear",
        "slack" => "Slack",
        "notion" => "Notion",
        "mercury" => "Mercury",
        "square" => "Square",
        "plaid" => "Plaid",
        "shopify" => "Shopify",
        "ramp" => "Ramp",
        "clover" => "Clover",
        "brex" => "Brex",
        "stripe_financial_connections" => "Stripe Financial Connections",
        "teller" => "Teller",
        "paypal" => "PayPal",
        "etsy" => "Etsy",
        "amazon" => "Amazon",
        "gusto" => "Gusto",
        other => other,
    }
}

fn invalid_sentence(tool: &AllowedTool) -> Option<String> {
    let Resolution::Invalid { name, value_type, reason } = &tool.resolution else { return None };
    let subject = match name.as_deref() {
        Some(name) if !name.is_empty() => format!("“{name}” in allowedTools"),
        _ => format!("Entry {} of allowedTools ({value_type})", tool.index + 1),
    };
    Some(format!("{subject} is not a valid tool name: {reason}."))
}

/// Who leads into the step, when a gate is among them, and whether a person
/// has always decided before it runs.
fn entry_sentence(step: &StepBoundary) -> Option<String> {
    if step.gated_by.is_empty() {
        return None;
    }
    let gates: Vec<String> = step
        .gated_by
        .iter()
        .map(|g| {
            let labels: Vec<String> = g.labels.iter().map(|l| format!("“{l}”")).collect();
            match labels.as_slice() {
                [] => format!("the gate “{}”", g.gate),
                _ => format!("the gate “{}” (on {})", g.gate, list_with(&labels, "or")),
            }
        })
        .collect();
    if step.entered_from.is_empty() && !step.is_start {
        return Some(format!("Reached only from {}, so a person decides right before it runs.", list_with(&gates, "or")));
    }
    let mut reached = format!("Reached from {}", list_with(&gates, "and"));
    if !step.entered_from.is_empty() {
        let others: Vec<String> = step.entered_from.iter().map(|id| format!("“{id}”")).collect();
        reached.push_str(&format!(" and from {}", list(&others)));
    }
    if step.is_start {
        reached.push_str(", and the playbook starts here");
    }
    Some(if step.behind_gate {
        format!("{reached}; every path to it passes a gate.")
    } else {
        format!("{reached}; some path to it passes no gate, so it can run without a person deciding.")
    })
}

/// A description as one line, cut at a word boundary when long. Only its
/// first characters are read: a description may be megabytes long.
fn shorten(description: &str) -> String {
    let (head, rest) = match description.char_indices().nth(DESCRIPTION_LIMIT) {
        Some((end, _)) => description.split_at(end),
        None => (description, ""),
    };
    let cut = rest.chars().take(DESCRIPTION_LIMIT).any(|c| !c.is_whitespace()) || rest.chars().nth(DESCRIPTION_LIMIT).is_some();
    let mut words: Vec<&str> = head.split_whitespace().collect();
    // The cut may fall inside a word: drop that word, unless it is the only one.
    let mid_word = !head.ends_with(char::is_whitespace) && !rest.starts_with(char::is_whitespace);
    if cut && mid_word && words.len() > 1 {
        words.pop();
    }
    let mut line = words.join(" ");
    if cut {
        line.push('…');
    }
    line
}

fn list(items: &[String]) -> String {
    list_with(items, "and")
}

/// `a`, `a and b`, `a, b and c`.
fn list_with(items: &[String], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} {conjunction} {last}", init.join(", ")),
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{shorten, DESCRIPTION_LIMIT};

    #[test]
    fn short_descriptions_are_kept_on_one_line() {
        assert_eq!(shorten("  Read one\n customer.  "), "Read one customer.");
        assert_eq!(shorten(""), "");
    }

    #[test]
    fn long_descriptions_are_cut_between_words() {
        let text = "word ".repeat(100);
        let short = shorten(&text);
        assert!(short.ends_with("word…"), "{short}");
        assert!(short.chars().count() <= DESCRIPTION_LIMIT + 1);
        // Trailing whitespace past the limit is not more text.
        assert_eq!(shorten(&format!("{}{}", "a".repeat(DESCRIPTION_LIMIT), " ".repeat(10))), "a".repeat(DESCRIPTION_LIMIT));
    }

    #[test]
    fn one_long_word_is_cut_inside_it_on_a_character_boundary() {
        let word = "é".repeat(1_000);
        assert_eq!(shorten(&word), format!("{}…", "é".repeat(DESCRIPTION_LIMIT)));
    }
}
