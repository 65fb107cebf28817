//! Every way a share link can be broken, each with a message that says what
//! happened and what to do.

use std::fmt;

/// Why a link could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// There is no `#scheme:data` part, or it is not of that shape.
    NotShareLink,
    /// The fragment names a scheme other than `pako` and `base64`.
    UnknownScheme { scheme: String },
    /// The data is not base64url. `position` counts characters of the data
    /// from 1.
    BadBase64 { position: usize, problem: Base64Problem },
    /// The compressed data is damaged.
    CorruptDeflate,
    /// The compressed data ends before the stream does.
    TruncatedDeflate,
    /// The data, unpacked, is over `limit` bytes.
    TooLarge { limit: usize },
    /// The unpacked data is not UTF-8; `offset` is the first bad byte's.
    NotUtf8 { offset: usize },
    /// The unpacked text is not the JSON of a share; `detail` says how.
    NotShareJson { detail: String },
}

/// What is wrong in a link's base64url data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base64Problem {
    /// A character outside `A–Z a–z 0–9 - _`.
    InvalidCharacter(char),
    /// The data stops one character into a group of four, which no encoder
    /// writes: it was cut.
    Length,
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NotShareLink => f.write_str(
                "This is not an opb share link: the part after `#` should start with `pako:` or `base64:`. Copy the whole link again from where it was shared.",
            ),
            ShareError::UnknownScheme { scheme } => write!(
                f,
                "This link's data is written as `{scheme}:`, which opb does not read (it reads `pako:` and `base64:`). Ask the sender for the document itself: the link may come from another tool or a newer version of opb."
            ),
            ShareError::BadBase64 { position, problem: Base64Problem::InvalidCharacter(c) } => write!(
                f,
                "This link is damaged: character {position} of its data is {}, which a share link never holds (only letters, digits, `-` and `_`). Copy the whole link again; if it came through a chat or an email, ask for it as plain text.",
                describe_char(*c)
            ),
            ShareError::BadBase64 { problem: Base64Problem::Length, .. } => f.write_str(
                "This link is cut short: its data stops in the middle of a character group. Copy the whole link again, up to its last character.",
            ),
            ShareError::CorruptDeflate => f.write_str(
                "This link is damaged: its compressed data does not unpack. Copy the whole link again; if it still fails, ask the sender for a new link.",
            ),
            ShareError::TruncatedDeflate => f.write_str(
                "This link is cut short: its compressed data ends early. Copy the whole link again, up to its last character.",
            ),
            ShareError::TooLarge { limit } => write!(
                f,
                "This link holds more than {} of data once unpacked; opb opens documents up to that size. Ask the sender for the file itself.",
                human_bytes(*limit)
            ),
            ShareError::NotUtf8 { offset } => write!(
                f,
                "This link's data is not text (byte {} is not UTF-8), so it holds no document. Ask the sender for a new link.",
                offset + 1
            ),
            ShareError::NotShareJson { detail } => write!(
                f,
                "This link's data is not an opb share ({detail}); a share is a JSON object with the document in `code`. Ask the sender for a new link made by opb."
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// A character as a message can show it: printable ones quoted, the rest by
/// code point, so a control character never reaches a terminal or a page.
fn describe_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("`{c}`")
    }
}

fn human_bytes(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}
