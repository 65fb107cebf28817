//! What an editor shows at a place in the text: the field under the cursor
//! and its seed sentence, an enumeration value's meaning, and on a step id
//! or an `allowedTools` entry what the viewer's panels say of it (the step's
//! boundary sentence, the tool's risk); and what it offers to complete
//! there (the keys an object may still have, an enumeration's values). One
//! wording for the playground's editor and the language server.

mod block;
mod context;
mod json;
pub mod markdown;

use crate::diagnostics::masking::Masking;
use crate::explain::boundary::{Resolution, StepBoundary};
use crate::explain::{Explain, PlaybookExplain};
use crate::schema::{field_at, fields_at, Field, Holds, Ty};
use crate::views::spec::risk_meaning;
use context::{Context, Slot};
use opb_syntax::text::{floor_char_boundary, Span};
use opb_syntax::{parse, Kind, Limits, Node, Syntax, Value};
use std::fmt::Write;

/// A place in the document: the JSON pointer tokens of the value there, and
/// whether the offset is on the member's key or on the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The pointer's tokens, unescaped: `["steps", "0", "allowedTools", "1"]`.
    pub tokens: Vec<String>,
    /// On the key of the last token's member (not on its value).
    pub on_key: bool,
    /// The bytes of the key or scalar value under the offset.
    pub span: Span,
    /// The scalar's value as read (a string unquoted and unescaped); none
    /// on a key, or for null.
    pub value: Option<String>,
}

/// The deepest key or scalar value of `text` whose bytes hold `offset`.
pub fn locate(text: &str, syntax: Syntax, offset: usize) -> Option<Place> {
    let root = parse(text, syntax, &Limits::default()).root?;
    let mut tokens = Vec::new();
    let mut node = &root;
    loop {
        let child = match &node.value {
            Value::Object(object) => object.members.iter().find_map(|member| {
                if holds(member.key_span, offset) {
                    Some(Err(member))
                } else {
                    holds(member.value.span, offset)
                        .then_some(Ok((member.key.to_string(), &member.value)))
                }
            }),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .find(|(_, item)| holds(item.span, offset))
                .map(|(i, item)| Ok((i.to_string(), item))),
            _ => None,
        };
        match child {
            Some(Ok((token, child))) => {
                tokens.push(token);
                node = child;
            }
            Some(Err(member)) => {
                tokens.push(member.key.to_string());
                return Some(Place { tokens, on_key: true, span: member.key_span, value: None });
            }
            None if is_scalar(node) && !tokens.is_empty() => {
                let value = node.scalar_text().map(|text| text.into_owned());
                return Some(Place { tokens, on_key: false, span: node.span, value });
            }
            None => return None,
        }
    }
}

fn holds(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end && span.start < span.end
}

fn is_scalar(node: &Node) -> bool {
    !matches!(node.value, Value::Array(_) | Value::Object(_))
}

/// What to show over a place: Markdown, and the bytes it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hover {
    /// The text, in Markdown; credentials masked as in every shown text.
    pub markdown: String,
    /// The key or value it explains.
    pub span: Span,
}

/// What an editor shows when the pointer rests at `offset` of `text`, read
/// as `kind` in `syntax`, explained as `explain` and masked by `masking`
/// (see [`crate::Analysis::hover`]).
pub fn hover(
    kind: Kind,
    syntax: Syntax,
    explain: Option<&Explain>,
    masking: &Masking,
    text: &str,
    offset: usize,
) -> Option<Hover> {
    let place = locate(text, syntax, offset)?;
    let tokens: Vec<&str> = place.tokens.iter().map(String::as_str).collect();
    // The explain view names steps as masked: a step id read from the text
    // is looked for as the view spells it.
    let value = || place.value.as_deref().map(|value| masking.mask(value));
    let markdown = match (explain, tokens.as_slice()) {
        (Some(Explain::Playbook(explain)), ["steps", step, "id"]) if !place.on_key => {
            step_hover(explain.steps.get(step.parse::<usize>().ok()?)?)
        }
        (Some(Explain::Playbook(explain)), ["steps", step, "allowedTools", entry]) => {
            let step = explain.steps.get(step.parse::<usize>().ok()?)?;
            tool_hover(explain, step, entry.parse().ok()?)?
        }
        (Some(Explain::Playbook(explain)), ["steps", _, "next", ..] | ["start"])
            if !place.on_key =>
        {
            let id = value()?;
            step_hover(explain.steps.iter().find(|s| s.id.as_deref() == Some(&*id))?)
        }
        _ => {
            let field = field_at(kind, &tokens)?;
            if place.on_key {
                field_hover(field)
            } else {
                value_hover(field, &value()?)?
            }
        }
    };
    Some(Hover { markdown: masking.mask(&markdown).into_owned(), span: place.span })
}

/// A field: its name and type, the seed's sentence, and the values of an
/// enumeration with their meanings.
pub fn field_hover(field: &Field) -> String {
    let mut out = format!("**`{}`**: {}", field.name, field.ty.describe());
    if field.required {
        out.push_str(", required");
    }
    if !field.doc.is_empty() {
        let _ = write!(out, "\n\n{}", field.doc);
    }
    if let Some(values) = field.values {
        out.push_str(if values.closed { "\n\nOne of:" } else { "\n\nKnown values:" });
        for value in values.values {
            let _ = write!(out, "\n- `{value}`");
            if let Some(meaning) = (values.meaning)(value) {
                let _ = write!(out, ": {meaning}");
            }
        }
    }
    out
}

/// An enumeration value's meaning, after its field's name.
fn value_hover(field: &Field, value: &str) -> Option<String> {
    let values = field.values?;
    let meaning = values.values.contains(&value).then(|| (values.meaning)(value)).flatten();
    Some(match meaning {
        Some(meaning) => {
            format!("{}: {meaning}", markdown::code(&format!("{}: {value}", field.name)))
        }
        None if values.closed => format!(
            "{} is not a value of `{}`; it is {}.",
            markdown::code(value),
            field.name,
            crate::views::spec::one_of(values.values)
        ),
        None => format!(
            "{} is not a kind of step opb knows; it is drawn as a plain step.",
            markdown::code(value)
        ),
    })
}

/// A step as the viewer's panel opens it: its boundary sentence. Every
/// text from the document is escaped ([`markdown`]), the summary too,
/// which quotes it.
fn step_hover(step: &StepBoundary) -> String {
    let mut out = match &step.id {
        Some(id) => format!("**Step {}**", markdown::code(id)),
        None => format!("**Step {}**", step.index + 1),
    };
    if let Some(kind) = &step.kind {
        let _ = write!(out, " ({})", markdown::text(kind));
    }
    let _ = write!(out, "\n\n{}", markdown::text(&step.summary));
    if let Some(purpose) = &step.purpose {
        let _ = write!(out, "\n\nPurpose: {}", markdown::text(purpose));
    }
    out
}

/// An `allowedTools` entry: what the tool may do, as the Tools panel says.
fn tool_hover(explain: &PlaybookExplain, step: &StepBoundary, entry: usize) -> Option<String> {
    let allowed = step.tools.iter().find(|t| t.index == entry)?;
    Some(match &allowed.resolution {
        Resolution::Embedded { tool, facts } => {
            let name = facts.name.as_deref().unwrap_or("this tool");
            let mut out = format!("**Tool {}**, embedded in `tools[{tool}]`", markdown::code(name));
            match facts.risk_class.as_deref() {
                Some(class) => {
                    let _ = write!(out, "\n\nRisk class {}", markdown::code(class));
                    if let Some(meaning) = risk_meaning(class) {
                        let _ = write!(out, ": {meaning}");
                    }
                }
                None => out.push_str("\n\nIts definition declares no risk class."),
            }
            match facts.side_effecting {
                Some(true) => out.push_str("\n\nSide-effecting."),
                Some(false) => out.push_str("\n\nNot side-effecting."),
                None => {}
            }
            if facts.requires_approval == Some(true) {
                out.push_str(" Each call needs a person's approval.");
            }
            if let Some(description) = explain.tools.iter().find(|t| t.index == *tool).and_then(|t| t.facts.description.as_deref()) {
                let _ = write!(out, "\n\n{}", markdown::text(description));
            }
            out
        }
        Resolution::RegistryOnly { name, .. } => format!(
            "**Tool {}**, not embedded: it resolves against the runtime's tool registry only, so this document cannot say what it may do.",
            markdown::code(name)
        ),
        Resolution::Invalid { .. } => "Not a tool name: a call to it is refused.".to_owned(),
    })
}

/// What an editor offers to complete at a place: the items, and the bytes
/// of the word they replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completions {
    /// Where the replaced word starts (inside its opening quote, if any).
    pub from: usize,
    /// Where it ends: the cursor, or the end of the word the cursor is in.
    pub to: usize,
    /// What may go there, in the tables' order.
    pub items: Vec<Completion>,
}

/// One item of a completion list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// What the list shows and a typed word is matched against.
    pub label: String,
    /// What replaces `from..to`: a key with its quotes and `: `, a value
    /// with its quotes, as the syntax and the text around want them.
    pub insert: String,
    /// A key's type (and "required" when a rule requires it); empty for a value.
    pub detail: String,
    /// Markdown: a key's [`field_hover`], a value's meaning.
    pub info: String,
    /// A key (rather than a value).
    pub is_key: bool,
}

/// What an editor offers at `offset` (bytes; clamped to the text and to a
/// character boundary) of `text`, read as `kind` in `syntax`: the keys the
/// object the cursor is in may still have, or the values of the field whose
/// value is being typed. Works on text that does not parse (a key half
/// typed, an empty value): the place is read from the text itself (in YAML
/// the lines that hold the cursor's, by indentation; in JSON the tokens
/// before it and its object's keys after), never from a check, so it is
/// cheap enough to ask as the author types. Only inside a YAML flow
/// collection is the text parsed (up to 256 KiB). All the items are
/// returned; the editor filters them by the typed word.
pub fn complete(kind: Kind, syntax: Syntax, text: &str, offset: usize) -> Option<Completions> {
    let offset = floor_char_boundary(text, offset);
    let mut context = match syntax {
        Syntax::Json => json::context(text, offset)?,
        // Flow collections are read from the parsed text.
        Syntax::Yaml if block::in_flow(text, offset) => context::parsed(text, syntax, offset)?,
        Syntax::Yaml => block::context(text, offset)?,
    };
    if let (Slot::Key { .. }, Some(quote), true, false) =
        (&context.slot, context.quote, context.closed, context.has_colon)
    {
        // `"‸"`: the key's closing quote is replaced, so that `: ` follows it.
        context.to += quote.len_utf8();
        context.closed = false;
    }
    let mut tokens: Vec<&str> = context.tokens.iter().map(String::as_str).collect();
    let items: Vec<Completion> = match &context.slot {
        Slot::Key { present } => fields_at(kind, &tokens)?
            .iter()
            .filter(|field| !present.iter().any(|key| key == field.name))
            .map(|field| Completion {
                label: field.name.to_owned(),
                insert: key_insert(field, syntax, &context),
                detail: key_detail(field),
                info: field_hover(field),
                is_key: true,
            })
            .collect(),
        Slot::Value { key } => {
            tokens.push(key);
            let field = field_at(kind, &tokens)?;
            field
                .values?
                .values
                .iter()
                .map(|value| Completion {
                    label: (*value).to_owned(),
                    insert: value_insert(value, syntax, &context),
                    detail: String::new(),
                    info: value_hover(field, value).unwrap_or_default(),
                    is_key: false,
                })
                .collect()
        }
    };
    (!items.is_empty()).then_some(Completions { from: context.from, to: context.to, items })
}

/// A key as it goes into the text: quoted in JSON, followed by `: ` unless
/// a colon is already there; in YAML, a field holding an object or a list
/// opens it on the next line.
fn key_insert(field: &Field, syntax: Syntax, context: &Context) -> String {
    let quote = context.quote.unwrap_or('"');
    let mut out = String::new();
    if syntax == Syntax::Json && context.quote.is_none() {
        out.push('"');
    }
    out.push_str(field.name);
    if (syntax == Syntax::Json || context.quote.is_some()) && !context.closed {
        out.push(quote);
    }
    if context.has_colon {
        return out;
    }
    let below = " ".repeat(context.column + 2);
    match (syntax, field.holds) {
        (Syntax::Yaml, Holds::Items(_)) => {
            let _ = write!(out, ":\n{below}- ");
        }
        (Syntax::Yaml, Holds::Object(_) | Holds::Map(_)) => {
            let _ = write!(out, ":\n{below}");
        }
        _ => out.push_str(": "),
    }
    out
}

/// An enumeration value as it goes into the text: quoted in JSON.
fn value_insert(value: &str, syntax: Syntax, context: &Context) -> String {
    let mut out = String::new();
    if context.space {
        out.push(' ');
    }
    match context.quote {
        Some(quote) => {
            out.push_str(value);
            if !context.closed {
                out.push(quote);
            }
        }
        None if syntax == Syntax::Json => {
            let _ = write!(out, "\"{value}\"");
        }
        None => out.push_str(value),
    }
    out
}

/// A key's type in a word or two, and whether a rule requires it.
fn key_detail(field: &Field) -> String {
    let ty = match field.ty {
        Ty::StringArray => "array of strings",
        ty => ty.json_type().unwrap_or("any"),
    };
    if field.required {
        format!("{ty}, required")
    } else {
        ty.to_owned()
    }
}
