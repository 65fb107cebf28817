//! Each change as a short sentence, made of plain words and names from the
//! documents, so every renderer (the CLI's human and Markdown output, the
//! playground's compare view) says the same thing and marks names its own
//! way.

use super::{Change, Detail, FromTo, Section, Subject};
use crate::views::compare::{Direction, ListChange, ToolChange, ValueChange};

/// A piece of a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Plain words of the sentence, spaces and punctuation included.
    Text(String),
    /// A name or value taken from a document.
    Name(String),
}

/// A sentence being built.
#[derive(Default)]
struct Sentence(Vec<Part>);

impl Sentence {
    fn text(mut self, text: &str) -> Self {
        self.0.push(Part::Text(text.to_owned()));
        self
    }

    fn name(mut self, name: &str) -> Self {
        self.0.push(Part::Name(name.to_owned()));
        self
    }

    /// A value that may be absent: `none` as plain text.
    fn value(self, value: Option<&str>) -> Self {
        match value {
            Some(value) => self.name(value),
            None => self.text("none"),
        }
    }

    /// `a, b and c`.
    fn names(mut self, names: &[String]) -> Self {
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                self = self.text(if i + 1 == names.len() { " and " } else { ", " });
            }
            self = self.name(name);
        }
        self
    }

    fn before_after(self, values: &FromTo<Option<String>>) -> Self {
        self.value(values.from.as_deref()).text(" → ").value(values.to.as_deref())
    }

    fn done(self) -> Vec<Part> {
        self.0
    }
}

fn say(text: &str) -> Sentence {
    Sentence::default().text(text)
}

/// Where a change is: `step`, `embedded tool`, … and the key.
pub fn subject(subject: &Subject) -> Vec<Part> {
    let what = match subject.section {
        Section::Document => "the document",
        Section::Step => "step ",
        Section::Tool => "tool ",
        Section::Connection => "connection ",
        Section::McpServer => "MCP server ",
        Section::Secret => "secret ",
        Section::Flow => "flow ",
    };
    let sentence = say(what);
    match &subject.key {
        Some(key) => sentence.name(key),
        None => sentence,
    }
    .done()
}

fn flag(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "true",
        Some(false) => "false",
        None => "unset",
    }
}

fn definition(change: &ToolChange) -> Sentence {
    match change {
        ToolChange::RiskClass(ValueChange { from, to, direction }) => {
            let verb = match direction {
                Direction::Raised => "riskClass raised: ",
                Direction::Lowered => "riskClass lowered: ",
                Direction::Changed => "riskClass changed: ",
            };
            say(verb).value(from.as_deref()).text(" → ").value(to.as_deref())
        }
        ToolChange::SideEffecting(ValueChange { from, to, .. }) => {
            say("sideEffecting: ").text(flag(*from)).text(" → ").text(flag(*to))
        }
        ToolChange::RequiresApproval(ValueChange { direction: Direction::Raised, .. }) => {
            say("no longer requires approval")
        }
        ToolChange::RequiresApproval(_) => say("now requires approval"),
        ToolChange::List { list, change: ListChange { added, removed } } => {
            let key = list.key();
            if removed.is_empty() {
                say(&format!("{key} added: ")).names(added)
            } else if added.is_empty() {
                say(&format!("{key} removed: ")).names(removed)
            } else {
                say(&format!("{key} added: ")).names(added).text("; removed: ").names(removed)
            }
        }
        ToolChange::Origin { origin, change } => say(&format!("{}: ", origin.key()))
            .value(change.from.as_deref())
            .text(" → ")
            .value(change.to.as_deref()),
    }
}

/// What changed, as a sentence.
pub fn change(change: &Change) -> Vec<Part> {
    let sentence = match &change.detail {
        Detail::Version(values) => say("version ").before_after(values),
        Detail::Start(values) => say("starts at ")
            .value(values.to.as_deref())
            .text(" instead of ")
            .value(values.from.as_deref()),
        Detail::StepAdded { kind, tools, highest_risk_class } => {
            let sentence = say("new ").value(kind.as_deref()).text(" step");
            match (tools.is_empty(), highest_risk_class) {
                (true, _) => sentence,
                (false, Some(risk)) => sentence
                    .text(" that may call ")
                    .names(tools)
                    .text(" (highest risk ")
                    .name(risk)
                    .text(")"),
                (false, None) => sentence.text(" that may call ").names(tools),
            }
        }
        Detail::StepRemoved { kind, tools } if !tools.is_empty() => {
            say("removed ").value(kind.as_deref()).text(" step, which could call ").names(tools)
        }
        Detail::StepRemoved { kind, .. } => say("removed ").value(kind.as_deref()).text(" step"),
        Detail::StepKind(values) => say("kind ").before_after(values),
        Detail::ToolAllowed { tool, risk_class, embedded } => {
            let sentence = say("may now call ").name(tool);
            match (risk_class, embedded) {
                (Some(risk), _) => sentence.text(" (").name(risk).text(")"),
                (None, true) => sentence.text(" (risk not declared)"),
                (None, false) => sentence.text(" (not embedded: only a registry knows its risk)"),
            }
        }
        Detail::ToolDisallowed { tool } => say("may no longer call ").name(tool),
        Detail::StepRisk { values, direction } => {
            let verb = match direction {
                Direction::Raised => "highest risk raised: ",
                Direction::Lowered => "highest risk lowered: ",
                Direction::Changed => "highest risk changed: ",
            };
            say(verb).before_after(values)
        }
        Detail::BehindGate(FromTo { to: false, .. }) => {
            say("no longer behind a gate: some path reaches it without a person deciding")
        }
        Detail::BehindGate(_) => say("now behind a gate on every path"),
        Detail::NextAdded { to, label } => match label {
            Some(label) => say("now leads to ").name(to).text(" on ").name(label),
            None => say("now leads to ").name(to),
        },
        Detail::NextRemoved { to, label } => match label {
            Some(label) => say("no longer leads to ").name(to).text(" on ").name(label),
            None => say("no longer leads to ").name(to),
        },
        Detail::ToolDefined { risk_class, side_effecting, requires_approval } => {
            let sentence = say("definition added: riskClass ").value(risk_class.as_deref());
            let sentence = sentence.text(&format!(", sideEffecting {}", flag(*side_effecting)));
            if *requires_approval == Some(true) {
                sentence.text(", requires approval")
            } else {
                sentence
            }
        }
        Detail::ToolUndefined => say("definition removed"),
        Detail::Definition(change) => definition(change),
        Detail::ConnectionAdded { auth_kind, scopes } => {
            let sentence = say("new connection (authKind ").value(auth_kind.as_deref());
            if scopes.is_empty() {
                sentence.text(")")
            } else {
                sentence.text(", scopes ").names(scopes).text(")")
            }
        }
        Detail::ConnectionRemoved | Detail::ManifestConnectionRemoved => say("connection removed"),
        Detail::AuthKind(values) => say("authKind ").before_after(values),
        Detail::ScopesAdded { scopes } => say("scopes added: ").names(scopes),
        Detail::ScopesRemoved { scopes } => say("scopes removed: ").names(scopes),
        Detail::McpServerAdded { tool_names } if tool_names.is_empty() => say("new MCP server"),
        Detail::McpServerAdded { tool_names } => say("new MCP server for ").names(tool_names),
        Detail::McpServerRemoved => say("MCP server removed"),
        Detail::ToolNamesAdded { tool_names } => say("now lists ").names(tool_names),
        Detail::ToolNamesRemoved { tool_names } => say("no longer lists ").names(tool_names),
        Detail::SecretAdded { purpose: Some(purpose), .. } => say("new secret, for ").name(purpose),
        Detail::SecretAdded { required: Some(false), .. } => say("new optional secret"),
        Detail::SecretAdded { .. } => say("new secret"),
        Detail::SecretRemoved => say("secret removed"),
        Detail::ManifestToolAdded { runs } => say(&format!("new tool: {runs}")),
        Detail::ManifestToolRemoved { runs } => say(&format!("tool removed (it ran {runs})")),
        Detail::Runs(FromTo { from, to }) => say(&format!("now runs {to} (was {from})")),
        Detail::AlwaysAsksAdded { function } => {
            say("a person now decides every call to ").name(function)
        }
        Detail::AlwaysAsksRemoved { function } => {
            say("calls to ").name(function).text(" no longer always wait for a person")
        }
        Detail::ApprovalPolicy(FromTo { to, .. }) => say(&format!("approval policy changed: {to}")),
        Detail::Annotation { function, hint, values } => Sentence::default()
            .name(function)
            .text(&format!(": {hint} {} → {}", flag(values.from), flag(values.to))),
        Detail::Isolation(values) => say("isolation ").before_after(values),
        Detail::Sandbox(values) => say("sandbox ").before_after(values),
        Detail::ToolConnection(values) => say("connection ").before_after(values),
        Detail::EnvAdded { name } => say("environment variable ").name(name).text(" added"),
        Detail::EnvRemoved { name } => say("environment variable ").name(name).text(" removed"),
        Detail::HeaderAdded { name } => say("header ").name(name).text(" added"),
        Detail::HeaderRemoved { name } => say("header ").name(name).text(" removed"),
        Detail::ManifestConnectionAdded { tools } if tools.is_empty() => say("new connection"),
        Detail::ManifestConnectionAdded { tools } => say("new connection for ").names(tools),
        Detail::Egress(FromTo { to: true, .. }) => say("now declares egress: it reaches outside"),
        Detail::Egress(_) => say("no longer declares egress"),
        Detail::FlowAdded => say("new flow"),
        Detail::FlowRemoved => say("flow removed"),
    };
    sentence.done()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::diff::Impact;

    #[test]
    fn a_sentence_keeps_names_apart_from_words() {
        let change = Change {
            subject: Subject { section: Section::Step, key: Some("send".into()) },
            impact: Impact::Widens,
            detail: Detail::ToolAllowed {
                tool: "email.send".into(),
                risk_class: Some("customer_comms".into()),
                embedded: true,
            },
        };
        assert_eq!(
            super::change(&change),
            [
                Part::Text("may now call ".into()),
                Part::Name("email.send".into()),
                Part::Text(" (".into()),
                Part::Name("customer_comms".into()),
                Part::Text(")".into())
            ]
        );
        assert_eq!(
            subject(&change.subject),
            [Part::Text("step ".into()), Part::Name("send".into())]
        );
    }
}
