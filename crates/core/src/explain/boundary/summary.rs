//! The plain-English summary of a step's boundary. It says only what the
//! document says: data scopes where the tools declare them, else the author's
//! description, quoted; and it names what the document leaves unknown.

use super::{AllowedTool, ListForm, Resolution, StepBoundary};
use crate::diagnostics::prose::write_list;
use crate::views::facts::{Requirement, ToolFacts};
use foldhash::{HashSet, HashSetExt};
use std::fmt::Write;

/// Descriptions longer than this are cut at a word boundary: a summary is a
/// few lines, the full text is in the tool's entry.
const DESCRIPTION_LIMIT: usize = 120;

/// Every sentence is written into one buffer: a summary is built for each
/// step of documents with thousands of steps, and each phrase as its own
/// `String` made explain allocation-bound.
pub(super) fn summarize(step: &StepBoundary) -> String {
    let mut out = String::with_capacity(160);
    match step.kind.as_deref() {
        Some("agent") => capabilities(step, &mut out),
        Some("gate") => {
            out.push_str("Waits for a person to decide before the playbook goes on.");
            if step.allowed_tools != ListForm::Absent {
                out.push_str(" It lists allowedTools, but only an agent step calls tools.");
            }
        }
        Some(kind) => {
            let _ = write!(out, "Is of kind “{kind}”, which this reader does not know, so it cannot say what the step does.");
            capabilities(step, &mut out);
        }
        None => {
            out.push_str("Has no kind, so this reader cannot say what the step does.");
            capabilities(step, &mut out);
        }
    }
    entry_sentence(step, &mut out);
    out
}

/// Starts a new sentence: a blank after the one before, if any.
fn sentence(out: &mut String) -> &mut String {
    if !out.is_empty() {
        out.push(' ');
    }
    out
}

/// What the step's `allowedTools` let it call.
fn capabilities(step: &StepBoundary, out: &mut String) {
    match step.allowed_tools {
        ListForm::Absent => sentence(out).push_str("May call no tool: it has no allowedTools."),
        ListForm::NotAList => sentence(out).push_str(
            "Its allowedTools is not a list, so this reader cannot say which tools it may call.",
        ),
        ListForm::List => {
            // A step lists a few tools: they are kept on the stack, each
            // compared with the ones kept before; only a long list is
            // collected through a set.
            const SHORT: usize = 12;
            let tools = &step.tools;
            if tools.len() <= SHORT {
                let mut valid: [Option<&AllowedTool>; SHORT] = [None; SHORT];
                let mut kept = 0;
                for tool in tools {
                    let Some(name) = tool.resolution.name() else { continue };
                    let repeated =
                        valid.iter().flatten().any(|t| t.resolution.name() == Some(name));
                    if let (false, Some(slot)) = (repeated, valid.get_mut(kept)) {
                        *slot = Some(tool);
                        kept += 1;
                    }
                }
                valid_sentence(valid.iter().flatten().copied(), tools.is_empty(), out);
            } else {
                let mut seen = HashSet::with_capacity(tools.len());
                let valid: Vec<&AllowedTool> = tools
                    .iter()
                    .filter(|t| t.resolution.name().is_some_and(|name| seen.insert(name)))
                    .collect();
                valid_sentence(valid.iter().copied(), false, out);
            }
            for tool in &step.tools {
                invalid_sentence(tool, out);
            }
        }
    }
}

/// What the valid entries (the first of each name) let the step call.
fn valid_sentence<'t>(
    valid: impl Iterator<Item = &'t AllowedTool> + Clone,
    empty_list: bool,
    out: &mut String,
) {
    if valid.clone().next().is_none() {
        let why = if empty_list { ": its allowedTools list is empty." } else { "." };
        let out = sentence(out);
        out.push_str("May call no tool");
        out.push_str(why);
    } else {
        let out = sentence(out);
        let first = out.len();
        clauses(valid, out);
        capitalize_at(out, first);
        out.push_str(". Every other tool call is refused.");
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
/// registry can explain; clauses are separated by `; `.
fn clauses<'t>(tools: impl Iterator<Item = &'t AllowedTool> + Clone, out: &mut String) {
    let embedded = tools.clone().filter_map(|t| match &t.resolution {
        Resolution::Embedded { facts, .. } => Some(&**facts),
        _ => None,
    });
    const GROUPS: [(Effect, bool); 6] = [
        (Effect::Reads, false),
        (Effect::Reads, true),
        (Effect::Writes, true),
        (Effect::Writes, false),
        (Effect::Undeclared, true),
        (Effect::Undeclared, false),
    ];
    let in_group = |(effect_wanted, approval): (Effect, bool), f: &ToolFacts| {
        effect(f) == effect_wanted && (f.requires_approval == Some(true)) == approval
    };
    // Which groups have a tool, found in one pass: a step's few tools fall
    // in one or two of the six.
    let present = embedded.clone().fold(0u8, |present, f| {
        present
            | GROUPS
                .iter()
                .enumerate()
                .find(|&(_, &group)| in_group(group, f))
                .map_or(0, |(i, _)| 1 << i)
    });
    let start = out.len();
    for (i, group) in GROUPS.into_iter().enumerate() {
        if present & (1 << i) == 0 {
            continue;
        }
        if out.len() > start {
            out.push_str("; ");
        }
        access_clause(group.0, group.1, embedded.clone().filter(|f| in_group(group, f)), out);
    }
    let registry = tools.filter_map(|t| match &t.resolution {
        Resolution::RegistryOnly { name, needs, .. } => Some((name.as_str(), needs.as_ref())),
        _ => None,
    });
    let registered = registry.clone().count();
    if registered > 0 {
        let also = if out.len() > start { "also " } else { "" };
        if out.len() > start {
            out.push_str("; ");
        }
        out.push_str("may ");
        out.push_str(also);
        out.push_str("call ");
        write_list(out, registry, "and", |out, (name, needs)| {
            out.push_str(name);
            place(needs, out);
        });
        let what = if registered == 1 { "it does" } else { "they do" };
        let _ = write!(out, ", which the document does not define, so only a runtime's registry can say what {what}");
    }
}

fn access_clause<'f>(
    effect: Effect,
    approval: bool,
    tools: impl Iterator<Item = &'f ToolFacts> + Clone,
    out: &mut String,
) {
    let (modal, scoped_verb, unscoped_verb) = match effect {
        Effect::Reads => ("can", "read", "read data with"),
        Effect::Writes => ("may", "write to", "change data with"),
        Effect::Undeclared => ("may", "", "call"),
    };
    out.push_str(modal);
    // The group is not empty, so at least one phrase follows.
    let mut phrases = 0;
    if effect != Effect::Undeclared {
        let mut scoped = tools.clone().filter_map(|f| Some((f, scopes(f, effect)?))).peekable();
        if scoped.peek().is_some() {
            out.push(' ');
            out.push_str(scoped_verb);
            out.push(' ');
            write_list(out, scoped, "and", |out, (facts, scopes)| scoped_item(facts, scopes, out));
            phrases += 1;
        }
    }
    let mut unscoped =
        tools.filter(|f| effect == Effect::Undeclared || scopes(f, effect).is_none()).peekable();
    if unscoped.peek().is_some() {
        out.push_str(if phrases > 0 { ", and " } else { " " });
        out.push_str(unscoped_verb);
        out.push(' ');
        write_list(out, unscoped, "and", |out, facts| described_item(facts, out));
        phrases += 1;
    }
    if effect == Effect::Undeclared {
        out.push_str(", whose side effects the document does not declare");
    }
    let tail = match (approval, effect) {
        (true, _) => "after a person approves each call",
        (false, Effect::Writes) => "without a person's approval",
        (false, _) => "",
    };
    if !tail.is_empty() {
        let separator = if phrases > 1 || effect == Effect::Undeclared { ", " } else { " " };
        out.push_str(separator);
        out.push_str(tail);
    }
}

/// The data scopes a tool declares for this effect, when it declares any
/// that is not blank.
fn scopes(facts: &ToolFacts, effect: Effect) -> Option<&[String]> {
    let scopes = match effect {
        Effect::Reads => &facts.data_scope_resources,
        Effect::Writes => &facts.data_scope_writes,
        Effect::Undeclared => return None,
    };
    // Not blank: a character that is not white space (what `trim` keeps),
    // found at the first character of nearly every scope.
    scopes.iter().any(|s| !s.chars().all(char::is_whitespace)).then_some(scopes.as_slice())
}

/// `customers and charges via Stripe (charge.history)`: the data scopes the
/// tool declares for this effect.
fn scoped_item(facts: &ToolFacts, scopes: &[String], out: &mut String) {
    let scopes = scopes.iter().map(|s| s.trim()).filter(|s| !s.is_empty());
    write_list(out, scopes, "and", |out, scope| {
        for (i, part) in scope.split('_').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(part);
        }
    });
    place(facts.needs.as_ref(), out);
    out.push_str(" (");
    out.push_str(facts.name.as_deref().unwrap_or_default());
    out.push(')');
}

/// `charge.history via Stripe (“List recent charges.”)`: the tool by name,
/// with the author's description when there is one.
fn described_item(facts: &ToolFacts, out: &mut String) {
    out.push_str(facts.name.as_deref().unwrap_or_default());
    place(facts.needs.as_ref(), out);
    let description = facts.description.as_deref().map(shorten);
    // A final period would sit before the closing parenthesis and the
    // sentence's own punctuation.
    if let Some(description) =
        description.as_deref().map(|d| d.strip_suffix('.').unwrap_or(d)).filter(|d| !d.is_empty())
    {
        let _ = write!(out, " (“{description}”)");
    }
}

/// Where a tool runs: ` via Stripe`, ` on MCP server acme`.
fn place(needs: Option<&Requirement>, out: &mut String) {
    match needs {
        Some(Requirement::Connection { provider, .. }) => {
            out.push_str(" via ");
            out.push_str(provider_name(provider));
        }
        Some(Requirement::McpServer { server, .. }) => {
            out.push_str(" on MCP server ");
            out.push_str(server);
        }
        None => {}
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

fn invalid_sentence(tool: &AllowedTool, out: &mut String) {
    let Resolution::Invalid { name, value_type, reason } = &tool.resolution else { return };
    let out = sentence(out);
    match name.as_deref() {
        Some(name) if !name.is_empty() => {
            let _ = write!(out, "“{name}” in allowedTools");
        }
        _ => {
            let _ = write!(out, "Entry {} of allowedTools ({value_type})", tool.index + 1);
        }
    }
    let _ = write!(out, " is not a valid tool name: {reason}.");
}

/// Who leads into the step, when a gate is among them, and whether a person
/// has always decided before it runs.
fn entry_sentence(step: &StepBoundary, out: &mut String) {
    if step.gated_by.is_empty() {
        return;
    }
    let out = sentence(out);
    let gates = |out: &mut String, conjunction: &str| {
        write_list(out, &step.gated_by, conjunction, |out, gate| {
            out.push_str("the gate “");
            out.push_str(&gate.gate);
            out.push('”');
            if !gate.labels.is_empty() {
                out.push_str(" (on ");
                write_list(out, &gate.labels, "or", quoted);
                out.push(')');
            }
        })
    };
    if step.entered_from.is_empty() && !step.is_start {
        out.push_str("Reached only from ");
        gates(out, "or");
        out.push_str(", so a person decides right before it runs.");
        return;
    }
    out.push_str("Reached from ");
    gates(out, "and");
    if !step.entered_from.is_empty() {
        out.push_str(" and from ");
        write_list(out, &step.entered_from, "and", quoted);
    }
    if step.is_start {
        out.push_str(", and the playbook starts here");
    }
    out.push_str(if step.behind_gate {
        "; every path to it passes a gate."
    } else {
        "; some path to it passes no gate, so it can run without a person deciding."
    });
}

/// `“text”`.
fn quoted(out: &mut String, text: impl AsRef<str>) {
    out.push('“');
    out.push_str(text.as_ref());
    out.push('”');
}

/// A description as one line, cut at a word boundary when long. Only its
/// first characters are read: a description may be megabytes long.
fn shorten(description: &str) -> String {
    let (head, rest) = match description.char_indices().nth(DESCRIPTION_LIMIT) {
        Some((end, _)) => description.split_at(end),
        None => (description, ""),
    };
    let cut = rest.chars().take(DESCRIPTION_LIMIT).any(|c| !c.is_whitespace())
        || rest.chars().nth(DESCRIPTION_LIMIT).is_some();
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

/// Upper-cases the character that starts at byte `at`, when it is ASCII
/// (as [`crate::diagnostics::prose::capitalise`] does).
fn capitalize_at(out: &mut str, at: usize) {
    if let Some(first) = out.get_mut(at..at + 1) {
        first.make_ascii_uppercase();
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
        assert_eq!(
            shorten(&format!("{}{}", "a".repeat(DESCRIPTION_LIMIT), " ".repeat(10))),
            "a".repeat(DESCRIPTION_LIMIT)
        );
    }

    #[test]
    fn one_long_word_is_cut_inside_it_on_a_character_boundary() {
        let word = "é".repeat(1_000);
        assert_eq!(shorten(&word), format!("{}…", "é".repeat(DESCRIPTION_LIMIT)));
    }
}
