//! The host page's messages: what a page that frames the embed page
//! (docs/embedding.md) may ask of it, the themes and the messages it may
//! post (`opb:set-document`, `opb:set-theme`), read or refused with a
//! reason.
//! Here, beside the links, so the embed page (the viewer build's `embed`
//! feature, crates/viewer) and the playground (its theme, its Share menu)
//! word them once.

use opb_syntax::{JsonType, Kind};
use serde_json::Value;

/// The colour scheme a page asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    Light,
    Dark,
    /// The reader's system setting (`prefers-color-scheme`).
    #[default]
    Auto,
}

impl Theme {
    pub fn parse(word: &str) -> Option<Theme> {
        match word.trim().to_ascii_lowercase().as_str() {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            "auto" => Some(Theme::Auto),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Auto => "auto",
        }
    }

    /// The theme to draw, given whether the system prefers dark.
    pub fn resolve(self, system_dark: bool) -> Theme {
        match self {
            Theme::Auto if system_dark => Theme::Dark,
            Theme::Auto => Theme::Light,
            chosen => chosen,
        }
    }
}

/// The message type a host page sends to set the document.
pub const SET_DOCUMENT: &str = "opb:set-document";
/// The message type a host page sends to set the theme.
pub const SET_THEME: &str = "opb:set-theme";

/// What a host page asked of the viewer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostMessage {
    /// `opb:set-document`: show this document.
    SetDocument(SetDocument),
    /// `opb:set-theme`: draw in this theme.
    SetTheme(Theme),
}

/// A document a host page sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetDocument {
    pub code: String,
    pub kind: Option<Kind>,
}

/// Why a host's message was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadMessage {
    /// An object whose `type` is not an `opb:` one: another script's,
    /// ignored in silence.
    NotOurs,
    /// Anything else that is not a whole `opb:set-document` or
    /// `opb:set-theme`: no object, no `type`, an `opb:` type the viewer does
    /// not take, no string `code`, a `kind` or `theme` opb does not know;
    /// the text says which.
    Invalid(String),
}

/// Reads a message a host page posted.
pub fn read_message(data: &Value) -> Result<HostMessage, BadMessage> {
    let Some(object) = data.as_object() else {
        return Err(BadMessage::Invalid(format!(
            "a message to the viewer is an object, `{{type: \"{SET_DOCUMENT}\", code: \"…\"}}`, not {}",
            json_type(data)
        )));
    };
    match object.get("type").and_then(Value::as_str) {
        Some(SET_DOCUMENT) => {}
        Some(SET_THEME) => {
            let word = data.get("theme").and_then(Value::as_str).unwrap_or_default();
            return Theme::parse(word).map(HostMessage::SetTheme).ok_or_else(|| {
                BadMessage::Invalid(format!(
                    "`{SET_THEME}` needs `theme`: `light`, `dark` or `auto`, not `{word}`"
                ))
            });
        }
        Some(other) if !other.starts_with("opb:") => return Err(BadMessage::NotOurs),
        Some(other) => {
            return Err(BadMessage::Invalid(format!(
                "the viewer takes `{SET_DOCUMENT}` and `{SET_THEME}` messages, not `{other}`"
            )));
        }
        None => {
            return Err(BadMessage::Invalid(format!(
                "a message to the viewer needs `type: \"{SET_DOCUMENT}\"`"
            )))
        }
    }
    let code = data.get("code").and_then(Value::as_str).ok_or_else(|| {
        BadMessage::Invalid(format!(
            "`{SET_DOCUMENT}` needs the document's text in `code`, a string"
        ))
    })?;
    let kind = match data.get("kind") {
        None | Some(Value::Null) => None,
        Some(Value::String(word)) => Some(Kind::parse(word).ok_or_else(|| {
            BadMessage::Invalid(format!(
                "`kind` is `{word}`; opb reads `playbook` or `plugin-manifest`"
            ))
        })?),
        Some(_) => {
            return Err(BadMessage::Invalid(
                "`kind` must be a string: `playbook` or `plugin-manifest`".to_owned(),
            ))
        }
    };
    Ok(HostMessage::SetDocument(SetDocument { code: code.to_owned(), kind }))
}

/// A JSON value's type, with its article, for a message: the syntax
/// layer's words.
fn json_type(value: &Value) -> &'static str {
    let json_type = match value {
        Value::Null => JsonType::Null,
        Value::Bool(_) => JsonType::Boolean,
        Value::Number(_) => JsonType::Number,
        Value::String(_) => JsonType::String,
        Value::Array(_) => JsonType::Array,
        Value::Object(_) => JsonType::Object,
    };
    json_type.name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn auto_follows_the_system() {
        assert_eq!(Theme::Auto.resolve(true), Theme::Dark);
        assert_eq!(Theme::Auto.resolve(false), Theme::Light);
        assert_eq!(Theme::Light.resolve(true), Theme::Light);
    }

    #[test]
    fn host_messages_are_read_or_refused_with_a_reason() {
        let ok = read_message(
            &json!({"type": "opb:set-document", "code": "a: 1", "kind": "plugin-manifest"}),
        );
        assert_eq!(
            ok,
            Ok(HostMessage::SetDocument(SetDocument {
                code: "a: 1".into(),
                kind: Some(Kind::PluginManifest)
            }))
        );
        assert_eq!(
            read_message(&json!({"type": "opb:set-theme", "theme": "dark"})),
            Ok(HostMessage::SetTheme(Theme::Dark))
        );
        let theme = read_message(&json!({"type": "opb:set-theme", "theme": "purple"}));
        assert!(
            matches!(&theme, Err(BadMessage::Invalid(why)) if why.contains("not `purple`")),
            "{theme:?}"
        );
        assert_eq!(read_message(&json!({"type": "other"})), Err(BadMessage::NotOurs));
        let unknown = read_message(&json!({"type": "opb:nope"}));
        assert!(
            matches!(&unknown, Err(BadMessage::Invalid(why)) if why.contains("`opb:nope`")),
            "{unknown:?}"
        );
        let plain = read_message(&json!("hello"));
        assert!(
            matches!(&plain, Err(BadMessage::Invalid(why)) if why.contains("not a string")),
            "{plain:?}"
        );
        assert!(matches!(read_message(&json!({"code": "a: 1"})), Err(BadMessage::Invalid(_))));
        assert!(matches!(
            read_message(&json!({"type": "opb:set-document", "code": 3})),
            Err(BadMessage::Invalid(_))
        ));
        assert!(matches!(
            read_message(&json!({"type": "opb:set-document", "code": "", "kind": "x"})),
            Err(BadMessage::Invalid(_))
        ));
    }
}
