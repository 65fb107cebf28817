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
    /// The text; empty when the input is over the size limit.
    pub text: String,
    /// JSON or YAML, when the name's extension says.
    pub syntax: Option<opb_core::Syntax>,
    /// Set when the input is over the size limit, which it was not read
    /// past: its length when known (a file's size).
    pub too_large: Option<Option<u64>>,
}

impl Input {
    /// The text, or why it was not read: the core's words for an input over
    /// the size limit, for the commands that rewrite a text rather than
    /// check it.
    pub fn whole_text(&self) -> Result<&str, String> {
        match self.too_large {
            Some(size) => Err(opb_core::Limits::default().input_too_large(size).message),
            None => Ok(&self.text),
        }
    }

    /// What the core finds in it, as `options` say (the syntax is the
    /// input's): IN006 alone when it is over the size limit.
    pub fn analyze(&self, options: opb_core::Options) -> opb_core::Analysis {
        let options = opb_core::Options { syntax: self.syntax, ..options };
        match self.too_large {
            Some(size) => opb_core::too_large(size, &options),
            None => opb_core::analyze(&self.text, &options),
        }
    }

    /// What `opb check` finds in it: [`Input::analyze`] without the
    /// explanation, and with the findings accepted with a reason set aside
    /// ([`opb_core::Checked::accept`]), as a repository's check does.
    pub fn check(&self, options: opb_core::Options) -> opb_core::Checked {
        let options = opb_core::Options { syntax: self.syntax, ..options };
        match self.too_large {
            Some(size) => opb_core::too_large(size, &options).checked,
            None => {
                let mut checked = opb_core::check(&self.text, &options);
                checked.accept(&self.text, &options.rules);
                checked
            }
        }
    }
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
    let analysis = input.analyze(opb_core::Options {
        kind: args.kind.map(Into::into),
        ..opb_core::Options::default()
    });
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
    /// A FIFO, a device or a socket: named paths must be regular files.
    NotAFile,
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
///
/// No more than the input-size limit and one byte is ever read, so an
/// input that never ends (`/dev/zero`, `yes | opb check -`) is answered at
/// once, with IN006, in bounded memory. A named path must be a regular
/// file: a FIFO or a device (a terminal, `/dev/zero`, a FIFO no one writes
/// to) could keep opb waiting for ever, as it would `cat`, and in a
/// checkout a symbolic link can point at one. Such input is piped to
/// standard input instead (`opb check - < fifo`), where waiting for the
/// writer is what was asked for.
pub fn read(path: &Path, args: &ReadArgs) -> Result<Input, Unreadable> {
    let is_stdin = path.as_os_str() == "-";
    let name = if is_stdin {
        args.stdin_name.clone().unwrap_or_else(|| STDIN_NAME.to_owned())
    } else {
        path.display().to_string()
    };
    let unreadable = |(reason, cause)| Unreadable { name: name.clone(), reason, cause };
    let limit = opb_core::Limits::default().max_bytes;
    let read =
        if is_stdin { read_to_limit(io::stdin().lock(), limit) } else { read_file(path, limit) };
    let syntax = opb_core::Syntax::from_path(&name);
    match read.map_err(unreadable)? {
        Contents::Whole(bytes) => {
            let text = decode(bytes).map_err(unreadable)?;
            Ok(Input { name, text, syntax, too_large: None })
        }
        Contents::TooLarge(size) => {
            Ok(Input { name, text: String::new(), syntax, too_large: Some(size) })
        }
    }
}

/// Reads a file opb is pointed to rather than one it checks (a settings
/// file, a registry, a baseline) as [`read`] reads a document: no more than
/// the size limit and a byte, and never waiting on a FIFO or a device, since
/// a repository's settings can name any path. Why not, in a sentence.
pub fn read_text(path: &Path) -> Result<String, String> {
    let limits = opb_core::Limits::default();
    match read_file(path, limits.max_bytes).map_err(|(reason, _)| reason)? {
        Contents::Whole(bytes) => decode(bytes).map_err(|(reason, _)| reason),
        Contents::TooLarge(size) => Err(limits.input_too_large(size).message),
    }
}

/// What reading an input gave.
enum Contents {
    /// All of it.
    Whole(Vec<u8>),
    /// The start of an input over the size limit, whose length is known
    /// when it is a file.
    TooLarge(Option<u64>),
}

fn read_file(path: &Path, limit: usize) -> Result<Contents, (String, Cause)> {
    let refuse = |what: &str| {
        let reason = format!(
            "it is {what}, not a regular file; to read it all the same, redirect it to standard input and name `-` instead"
        );
        (reason, Cause::NotAFile)
    };
    // Refused before it is opened: opening a FIFO waits for a writer.
    let metadata = std::fs::metadata(path).map_err(|e| io_reason(&e))?;
    if let Some(what) = special(&metadata) {
        return Err(refuse(what));
    }
    let file = open(path).map_err(|e| io_reason(&e))?;
    // Asked again of the file opened, which may not be the one looked at.
    let metadata = file.metadata().map_err(|e| io_reason(&e))?;
    if let Some(what) = special(&metadata) {
        return Err(refuse(what));
    }
    if metadata.len() > limit as u64 {
        return Ok(Contents::TooLarge(Some(metadata.len())));
    }
    read_to_limit(file, limit)
}

/// What a path names that is not a regular file, or none.
fn special(metadata: &std::fs::Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        // Reading it gives the usual "is a directory".
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (a named pipe)");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Opens without waiting: should the path have become a FIFO since it was
/// looked at, opening it does not wait for a writer (and the file is then
/// refused).
fn open(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads at most `limit + 1` bytes: one past the limit says the input is
/// over it without reading the rest.
fn read_to_limit(input: impl io::Read, limit: usize) -> Result<Contents, (String, Cause)> {
    let mut bytes = Vec::new();
    input.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(|e| io_reason(&e))?;
    Ok(if bytes.len() > limit { Contents::TooLarge(None) } else { Contents::Whole(bytes) })
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
