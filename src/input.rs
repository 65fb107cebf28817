//! Reading the files (or standard input) the user named.
//!
//! The core takes text, so a file that is not UTF-8 never reaches it: opb
//! stops with exit status 2 and says where the first bad byte is, rather than
//! reporting IN001 at a position in a text it could not decode.

use crate::args::ReadArgs;
use std::fmt;
use std::io::{self, Read};
use std::path::Path;

/// A text to check, with the name to show for it.
#[derive(Debug)]
pub struct Input {
    /// The path as the user wrote it, or the name given to standard input.
    pub name: String,
    pub text: String,
    /// JSON or YAML, when the name's extension says.
    pub syntax: Option<opb_core::Syntax>,
}

/// Reads the file at `path` and analyses it as `args` say, for the
/// commands that explain or draw one document; a file that cannot be read
/// is reported on `output`.
pub fn analyze(
    path: &Path,
    args: &ReadArgs,
    output: &mut crate::output::Output,
) -> Option<(Input, opb_core::Analysis)> {
    let input = read(path, args).map_err(|error| output.error(error)).ok()?;
    let options = opb_core::Options {
        kind: args.kind.map(Into::into),
        syntax: input.syntax,
        ..opb_core::Options::default()
    };
    let analysis = opb_core::analyze(&input.text, &options);
    Some((input, analysis))
}

/// Why a file could not be read: one line for the user.
#[derive(Debug)]
pub struct Unreadable {
    pub name: String,
    /// Why, in a sentence that says what to do.
    pub reason: String,
    /// Why, for programs.
    pub cause: Cause,
}

/// Why a file could not be read, as the JSON report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    NotFound,
    PermissionDenied,
    IsADirectory,
    /// UTF-16 text (a byte-order mark says so).
    Utf16,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// Another I/O error.
    Io,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read {}: {}", self.name, self.reason)
    }
}

const STDIN_NAME: &str = "<stdin>";

/// Reads `path`, or standard input for `-`.
pub fn read(path: &Path, args: &ReadArgs) -> Result<Input, Unreadable> {
    let is_stdin = path.as_os_str() == "-";
    let name = if is_stdin {
        args.stdin_name.clone().unwrap_or_else(|| STDIN_NAME.to_owned())
    } else {
        path.display().to_string()
    };
    let bytes = if is_stdin {
        let mut bytes = Vec::new();
        io::stdin().read_to_end(&mut bytes).map(|_| bytes)
    } else {
        std::fs::read(path)
    };
    let bytes = bytes.map_err(|e| {
        let (reason, cause) = io_reason(&e);
        Unreadable { name: name.clone(), reason, cause }
    })?;
    let text = decode(bytes).map_err(|(reason, cause)| Unreadable {
        name: name.clone(),
        reason,
        cause,
    })?;
    let syntax = opb_core::Syntax::from_path(&name);
    Ok(Input { name, text, syntax })
}

fn io_reason(error: &io::Error) -> (String, Cause) {
    match error.kind() {
        io::ErrorKind::NotFound => ("no such file; check the path".to_owned(), Cause::NotFound),
        io::ErrorKind::PermissionDenied => {
            ("permission denied; check the file's permissions".to_owned(), Cause::PermissionDenied)
        }
        io::ErrorKind::IsADirectory => {
            ("it is a directory; name the files inside it".to_owned(), Cause::IsADirectory)
        }
        _ => (error.to_string(), Cause::Io),
    }
}

fn decode(bytes: Vec<u8>) -> Result<String, (String, Cause)> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(("the text is UTF-16; save it as UTF-8".to_owned(), Cause::Utf16));
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&valid[line_start..]).chars().count() + 1;
        let byte = e.as_bytes().get(valid.len()).copied().unwrap_or_default();
        let reason = format!(
            "not UTF-8 text (byte 0x{byte:02X} at line {line}, column {column}); save it as UTF-8"
        );
        (reason, Cause::NotUtf8)
    })
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn invalid_utf8_names_the_position() {
        let (error, cause) = decode(b"a: 1\nb: \xFFx\n".to_vec()).unwrap_err();
        assert_eq!(error, "not UTF-8 text (byte 0xFF at line 2, column 4); save it as UTF-8");
        assert_eq!(cause, super::Cause::NotUtf8);
    }

    #[test]
    fn utf16_is_named() {
        let (error, cause) = decode(vec![0xFF, 0xFE, b'{', 0]).unwrap_err();
        assert!(error.contains("UTF-16"));
        assert_eq!(cause, super::Cause::Utf16);
    }

    #[test]
    fn utf8_passes() {
        assert_eq!(decode("é: 1".as_bytes().to_vec()).unwrap(), "é: 1");
    }
}
