//! Files in and out of the playground: reading an opened or dropped file,
//! and the name and text of a download.

use crate::format::renamed;
use opb_core::{Limits, Syntax};

/// A file the reader opened, ready for the editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub name: String,
    pub text: String,
}

/// Reads an opened file's bytes: text in UTF-8 (a byte-order mark is
/// dropped), no larger than the core reads. The error says what to do.
pub fn read_file(name: &str, bytes: &[u8]) -> Result<Opened, String> {
    let limit = Limits::default().max_bytes;
    if bytes.len() > limit {
        return Err(format!(
            "{name} is {}; opb opens documents up to {}. Split it, or check it with the `opb` command.",
            crate::format::human_size(bytes.len()),
            crate::format::human_size(limit),
        ));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|error| {
        format!(
            "{name} is not UTF-8 text (byte {} is not), so it is not a JSON or YAML document. Save it as UTF-8 and open it again.",
            error.valid_up_to() + 1
        )
    })?;
    Ok(Opened { name: name.to_owned(), text: text.to_owned() })
}

/// A download of the document in `to`: its file name and text. The text is
/// converted when `to` is not its syntax; what the conversion cannot keep
/// is refused with the converter's message.
pub fn download(
    name: &str,
    text: &str,
    from: Syntax,
    to: Syntax,
) -> Result<(String, String), String> {
    let text = if from == to {
        text.to_owned()
    } else {
        opb_convert::convert(text, from, to, &Limits::default()).map_err(|e| e.to_string())?.text
    };
    Ok((renamed(name, to), text))
}

/// The name of an exported picture of the graph: the document's name with
/// the picture's extension.
pub fn picture_name(name: &str, extension: &str) -> String {
    let stem = name
        .strip_suffix(".json")
        .or_else(|| name.strip_suffix(".yaml"))
        .or_else(|| name.strip_suffix(".yml"))
        .unwrap_or(name);
    format!("{stem}.graph.{extension}")
}

/// The MIME type of a document download.
pub fn mime(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Json => "application/json",
        Syntax::Yaml => "application/yaml",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_must_be_utf8_text() {
        assert_eq!(
            read_file("a.yaml", b"\xEF\xBB\xBFid: x").map(|o| o.text),
            Ok("id: x".to_owned())
        );
        let error = read_file("b.json", b"{\"a\": \"\xff\"}").unwrap_err();
        assert!(error.contains("byte 8"), "{error}");
    }

    #[test]
    fn downloads_convert_and_rename() {
        let (name, text) =
            download("doc.yaml", "id: x\n", Syntax::Yaml, Syntax::Json).expect("converts");
        assert_eq!(name, "doc.json");
        assert!(text.contains("\"id\": \"x\""), "{text}");
        let (name, text) =
            download("doc.yaml", "id: x\n", Syntax::Yaml, Syntax::Yaml).expect("as it is");
        assert_eq!((name.as_str(), text.as_str()), ("doc.yaml", "id: x\n"));
    }

    #[test]
    fn pictures_are_named_after_the_document() {
        assert_eq!(picture_name("refund.broken.yaml", "svg"), "refund.broken.graph.svg");
        assert_eq!(picture_name("untitled", "png"), "untitled.graph.png");
    }
}
