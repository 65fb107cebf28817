//! Credential detection: what a credential looks like (known token
//! prefixes, private keys, bearer tokens, JWTs, long high-entropy runs) and
//! how a text is shown without one. One definition shared by PB411 (an MCP
//! server name that is auth material) and SEC001 (a credential anywhere in
//! a document), so the two can never disagree.
//!
//! Messages never echo a credential: [`preview`] shows its first four
//! characters and nothing more. The shapes of a known family are in
//! `shapes.rs`, the random-looking runs in `entropy.rs`.

mod entropy;
mod pieces;
mod shapes;

pub use entropy::{high_entropy_run, high_entropy_runs};
pub(crate) use pieces::{merged, Pieces};
pub(crate) use shapes::{automaton, may_hold_credential};

use shapes::anchored;

/// A credential-shaped part of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Credential<'s> {
    /// What it looks like, for messages, e.g. "a Stripe live secret key".
    pub kind: &'static str,
    /// The credential-shaped part of the text.
    pub text: &'s str,
}

/// The first credential of a known shape in `text`: a token with a known
/// prefix, an AWS access key id, a private key block, a bearer token or a
/// JWT. High-entropy runs are a separate, context-dependent test
/// ([`high_entropy_run`]).
pub fn find_credential(text: &str) -> Option<Credential<'_>> {
    if !may_hold_credential(text) {
        return None;
    }
    // Families rank in the order above; within one, the first occurrence.
    let mut best: Option<(usize, Credential<'_>)> = None;
    for (rank, credential) in anchored(text) {
        if best.is_none_or(|(top, _)| rank < top) {
            best = Some((rank, credential));
        }
    }
    best.map(|(_, credential)| credential)
}

/// Every credential of a known shape in `text`, each family's in the
/// order they start (a credential inside another, a JWT after `Bearer`,
/// included): what a rule flags, so that none of them is shown whole.
pub fn credential_parts(text: &str) -> impl Iterator<Item = &str> + '_ {
    may_hold_credential(text)
        .then(|| anchored(text).map(|(_, credential)| credential.text))
        .into_iter()
        .flatten()
}

/// Whether a text starts with the word `Bearer` (any case).
pub fn starts_with_bearer(text: &str) -> bool {
    text.as_bytes().get(..6).is_some_and(|head| head.eq_ignore_ascii_case(b"bearer"))
}

/// A message with every credential-shaped part cut to its [`preview`], and
/// every part of one quoted apart from it cut to `…`. Every diagnostic
/// passes through it, so no rule can echo a credential it quotes (a tool
/// name, a server name, a list of declared values, a piece of a value it
/// read as something else) in full.
pub fn redact(message: &str) -> std::borrow::Cow<'_, str> {
    let mut shown = Vec::new();
    let cut = rewrite_credentials(message, String::new, |out, credential| {
        out.push_str(&preview(credential));
        shown.push(credential);
    });
    match Pieces::of(&shown) {
        Some(pieces) => pieces.cut(cut),
        None => cut,
    }
}

/// `text` with every credential-shaped part, and every part of one written
/// apart from it, hidden past its first four characters
/// ([`hide_past_shown`]), so byte offsets and lines into the text stay
/// valid. For showing source text, as the CLI shows the lines a diagnostic
/// points at: a credential must not reach a CI log through its snippet.
pub fn mask(text: &str) -> std::borrow::Cow<'_, str> {
    let mut shown = Vec::new();
    let hidden = rewrite_credentials(
        text,
        || String::with_capacity(text.len()),
        |out, credential| {
            hide_past_shown(out, credential);
            shown.push(credential);
        },
    );
    match Pieces::of(&shown) {
        Some(pieces) => pieces.hide(hidden),
        None => hidden,
    }
}

/// Writes `part` with every character past its first four replaced by as
/// many `*` as it has bytes, blanks and line breaks kept.
pub(crate) fn hide_past_shown(out: &mut String, part: &str) {
    for (i, c) in part.chars().enumerate() {
        match c {
            c if c.is_ascii_whitespace() || i < 4 => out.push(c),
            c => out.extend(std::iter::repeat_n('*', c.len_utf8())),
        }
    }
}

/// `text` with each credential-shaped part, earliest first, written by
/// `write` in its place; `text` itself, uncopied, when it holds none.
fn rewrite_credentials<'t>(
    text: &'t str,
    new: impl FnOnce() -> String,
    mut write: impl FnMut(&mut String, &'t str),
) -> std::borrow::Cow<'t, str> {
    let Some(mut found) = earliest_credential(text) else {
        return text.into();
    };
    let mut out = new();
    let mut rest = text;
    loop {
        let (at, len) = found;
        out.push_str(&rest[..at]);
        write(&mut out, &rest[at..at + len]);
        rest = &rest[at + len..];
        match earliest_credential(rest) {
            Some(next) => found = next,
            None => break,
        }
    }
    out.push_str(rest);
    out.into()
}

/// The credential-shaped part of `text` that starts first (the longest of
/// those that start there), as its offset and length. Every shape is looked
/// for, not only the first that matches somewhere: a message cut at a later
/// match would show an earlier one in full.
fn earliest_credential(text: &str) -> Option<(usize, usize)> {
    if !may_hold_credential(text) {
        return None;
    }
    let offset = |part: &str| part.as_ptr() as usize - text.as_ptr() as usize;
    anchored(text)
        .map(|(_, credential)| credential.text)
        .chain(high_entropy_run(text))
        .map(|part| (offset(part), part.len()))
        .min_by_key(|&(at, len)| (at, std::cmp::Reverse(len)))
}

/// The first four characters of a value and an ellipsis: all a message may
/// show of something that may be a credential.
pub fn preview(text: &str) -> String {
    let mut shown: String = text.chars().take(4).collect();
    shown.push('…');
    shown
}

#[cfg(test)]
mod tests;
