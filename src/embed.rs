//! Embedding in docs sites: the page's options (`?embed=1&theme=dark`), the
//! `<iframe>` snippet and the `postMessage` protocol.

use opb_core::Kind;
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

/// What the page's query string asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PageOptions {
    /// `embed=1`: the viewer alone, for an `<iframe>`.
    pub embed: bool,
    /// `theme=light|dark|auto`, when given.
    pub theme: Option<Theme>,
    /// `height=auto`: the embed takes the height of its content and tells
    /// the host page (`opb:resize`), which sizes the frame.
    pub auto_height: bool,
}

impl PageOptions {
    /// Reads `location.search` (with or without its `?`). Unknown
    /// parameters and values are ignored.
    pub fn from_query(search: &str) -> PageOptions {
        let mut options = PageOptions::default();
        for pair in search.trim_start_matches('?').split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "embed" => options.embed = matches!(value, "" | "1" | "true" | "yes"),
                "theme" => options.theme = Theme::parse(value),
                "height" => options.auto_height = value == "auto",
                _ => {}
            }
        }
        options
    }
}

/// The address of the embedded viewer of a document: `page` is the
/// playground's address without query or fragment.
pub fn embed_src(page: &str, fragment: &str, theme: Theme) -> String {
    format!("{page}?embed=1&theme={}{fragment}", theme.as_str())
}

/// The `<iframe>` a docs site pastes to show a document.
pub fn iframe_snippet(src: &str, title: &str) -> String {
    format!(
        r#"<iframe src="{}" title="{}" width="100%" height="560" loading="lazy" style="border: 1px solid #e3e6ec; border-radius: 10px"></iframe>"#,
        attribute(src),
        attribute(title),
    )
}

/// Text as an HTML attribute value between double quotes.
fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The message type a host page sends to set the document.
pub const SET_DOCUMENT: &str = "opb:set-document";
/// The message type a host page sends to set the theme.
pub const SET_THEME: &str = "opb:set-theme";
/// The message type the viewer sends when its height changes, in
/// `height=auto` mode.
pub const RESIZE: &str = "opb:resize";
/// The message type the viewer sends after each check.
pub const RESULT: &str = "opb:result";
/// The message type the viewer sends once it listens.
pub const READY: &str = "opb:ready";

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
                BadMessage::Invalid(format!("`{SET_THEME}` needs `theme`: `light`, `dark` or `auto`, not `{word}`"))
            });
        }
        Some(other) if !other.starts_with("opb:") => return Err(BadMessage::NotOurs),
        Some(other) => {
            return Err(BadMessage::Invalid(format!("the viewer takes `{SET_DOCUMENT}` and `{SET_THEME}` messages, not `{other}`")));
        }
        None => return Err(BadMessage::Invalid(format!("a message to the viewer needs `type: \"{SET_DOCUMENT}\"`"))),
    }
    let code = data
        .get("code")
        .and_then(Value::as_str)
        .ok_or_else(|| BadMessage::Invalid(format!("`{SET_DOCUMENT}` needs the document's text in `code`, a string")))?;
    let kind = match data.get("kind") {
        None | Some(Value::Null) => None,
        Some(Value::String(word)) => Some(Kind::parse(word).ok_or_else(|| {
            BadMessage::Invalid(format!("`kind` is `{word}`; opb reads `playbook` or `plugin-manifest`"))
        })?),
        Some(_) => return Err(BadMessage::Invalid("`kind` must be a string: `playbook` or `plugin-manifest`".to_owned())),
    };
    Ok(HostMessage::SetDocument(SetDocument { code: code.to_owned(), kind }))
}

/// A JSON value's type, with its article, for a message.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn query_strings_are_read_leniently() {
        assert_eq!(PageOptions::from_query(""), PageOptions::default());
        assert_eq!(PageOptions::from_query("?embed=1&theme=dark"), PageOptions { embed: true, theme: Some(Theme::Dark), auto_height: false });
        assert_eq!(PageOptions::from_query("?theme=purple&embed=0"), PageOptions { embed: false, theme: None, auto_height: false });
        assert_eq!(PageOptions::from_query("embed"), PageOptions { embed: true, theme: None, auto_height: false });
        assert!(PageOptions::from_query("?embed=1&height=auto").auto_height);
        assert!(!PageOptions::from_query("?embed=1&height=400").auto_height);
    }

    #[test]
    fn auto_follows_the_system() {
        assert_eq!(Theme::Auto.resolve(true), Theme::Dark);
        assert_eq!(Theme::Auto.resolve(false), Theme::Light);
        assert_eq!(Theme::Light.resolve(true), Theme::Light);
    }

    #[test]
    fn the_snippet_escapes_its_attributes() {
        let snippet = iframe_snippet(&embed_src("https://opb.example/", "#pako:abc", Theme::Auto), "a \"b\" <c>");
        assert!(snippet.starts_with(r#"<iframe src="https://opb.example/?embed=1&amp;theme=auto#pako:abc" title="a &quot;b&quot; &lt;c&gt;""#), "{snippet}");
    }

    #[test]
    fn host_messages_are_read_or_refused_with_a_reason() {
        let ok = read_message(&json!({"type": "opb:set-document", "code": "a: 1", "kind": "plugin-manifest"}));
        assert_eq!(ok, Ok(HostMessage::SetDocument(SetDocument { code: "a: 1".into(), kind: Some(Kind::PluginManifest) })));
        assert_eq!(read_message(&json!({"type": "opb:set-theme", "theme": "dark"})), Ok(HostMessage::SetTheme(Theme::Dark)));
        let theme = read_message(&json!({"type": "opb:set-theme", "theme": "purple"}));
        assert!(matches!(&theme, Err(BadMessage::Invalid(why)) if why.contains("not `purple`")), "{theme:?}");
        assert_eq!(read_message(&json!({"type": "other"})), Err(BadMessage::NotOurs));
        let unknown = read_message(&json!({"type": "opb:nope"}));
        assert!(matches!(&unknown, Err(BadMessage::Invalid(why)) if why.contains("`opb:nope`")), "{unknown:?}");
        let plain = read_message(&json!("hello"));
        assert!(matches!(&plain, Err(BadMessage::Invalid(why)) if why.contains("not a string")), "{plain:?}");
        assert!(matches!(read_message(&json!({"code": "a: 1"})), Err(BadMessage::Invalid(_))));
        assert!(matches!(read_message(&json!({"type": "opb:set-document", "code": 3})), Err(BadMessage::Invalid(_))));
        assert!(matches!(read_message(&json!({"type": "opb:set-document", "code": "", "kind": "x"})), Err(BadMessage::Invalid(_))));
    }
}
