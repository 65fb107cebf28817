//! The credentials of a known family, each found from the literal it
//! starts with (a token prefix, `AKIA`, `-----BEGIN `, `Bearer`, `eyJ`),
//! and the cheap test that clears a text holding none.

use super::entropy::is_token_char;
use super::Credential;
use aho_corasick::automaton::Automaton;
use aho_corasick::nfa::noncontiguous::NFA;
use aho_corasick::Input;
use std::sync::{Arc, OnceLock};

/// A token family recognised by its prefix: the prefix, then at least
/// `min_body` characters that `body` accepts.
struct Prefixed {
    prefix: &'static str,
    kind: &'static str,
    body: fn(u8) -> bool,
    min_body: usize,
}

/// The prefixes of RULES.md (SEC001). The minimum body lengths are below the
/// issuers' real lengths, and high enough that a prefix named in prose or in
/// a schema pattern (`^sk_live_[A-Za-z0-9]+$`) is not taken for a key.
const PREFIXED: &[Prefixed] = &[
    Prefixed {
        prefix: "sk_live_",
        kind: "a Stripe live secret key",
        body: is_alphanumeric,
        min_body: 16,
    },
    Prefixed {
        prefix: "sk_test_",
        kind: "a Stripe test secret key",
        body: is_alphanumeric,
        min_body: 16,
    },
    Prefixed {
        prefix: "rk_live_",
        kind: "a Stripe restricted key",
        body: is_alphanumeric,
        min_body: 16,
    },
    Prefixed {
        prefix: "ghp_",
        kind: "a GitHub personal access token",
        body: is_alphanumeric,
        min_body: 20,
    },
    Prefixed { prefix: "gho_", kind: "a GitHub OAuth token", body: is_alphanumeric, min_body: 20 },
    Prefixed {
        prefix: "github_pat_",
        kind: "a GitHub fine-grained personal access token",
        body: is_word,
        min_body: 20,
    },
    Prefixed {
        prefix: "xoxb-",
        kind: "a Slack bot token",
        body: is_alphanumeric_or_dash,
        min_body: 20,
    },
    Prefixed {
        prefix: "xoxp-",
        kind: "a Slack user token",
        body: is_alphanumeric_or_dash,
        min_body: 20,
    },
];

/// The shortest token after `Bearer ` that counts as a credential.
const MIN_BEARER_TOKEN: usize = 20;

/// The shortest header and payload of a JWT, base64url of `{"alg":"…"}`
/// and of a claim set.
const MIN_JWT_SEGMENT: usize = 10;

/// Where a credential of a known shape may start: the literal it begins
/// with, and the family it would be, by rank (the prefixes of [`PREFIXED`]
/// in order, then an AWS key id, a private key, a bearer token, a JWT).
#[derive(Clone, Copy)]
enum Anchor {
    Prefixed(&'static Prefixed),
    AwsKeyId,
    PrivateKey,
    Bearer,
    Jwt,
}

const AWS_KEY_ID: &str = "AKIA";
pub(super) const PRIVATE_KEY_BEGIN: &str = "-----BEGIN ";
pub(super) const BEARER: &str = "bearer";
pub(super) const JWT: &str = "eyJ";

/// The automaton of the literals below, and each literal with its anchor.
type Anchors = (Arc<NFA>, Vec<(&'static str, Anchor)>);

/// The literals every known shape starts with, found in one pass over a
/// text. Every string of a document and every message is searched, so one
/// automaton replaces a search per shape. Matching ignores ASCII case (for
/// `Bearer`); the other literals are compared exactly after a match.
fn anchors() -> &'static Anchors {
    static ANCHORS: OnceLock<Anchors> = OnceLock::new();
    ANCHORS.get_or_init(|| {
        let anchors: Vec<(&'static str, Anchor)> = PREFIXED
            .iter()
            .map(|family| (family.prefix, Anchor::Prefixed(family)))
            .chain([
                (AWS_KEY_ID, Anchor::AwsKeyId),
                (PRIVATE_KEY_BEGIN, Anchor::PrivateKey),
                (BEARER, Anchor::Bearer),
                (JWT, Anchor::Jwt),
            ])
            .collect();
        let literals: Vec<&str> = anchors.iter().map(|(literal, _)| *literal).collect();
        (automaton(&literals, true), anchors)
    })
}

/// The automaton that finds `literals` (ignoring ASCII case when told),
/// searched for overlapping matches: built here for the shapes and for the
/// credentials an analysis found (`masking.rs`), so the wasm holds one
/// build and one search. Its states are fewer than the literals' bytes,
/// a dozen short words or parts of one text, far from its bound.
pub(crate) fn automaton(literals: &[&str], ascii_case_insensitive: bool) -> Arc<NFA> {
    let automaton = NFA::builder()
        .ascii_case_insensitive(ascii_case_insensitive)
        .build(literals)
        .expect("literals of one text build");
    Arc::new(automaton)
}

/// Every credential of a known shape in `text` with its family's rank,
/// each family's in the order they start.
pub(super) fn anchored(text: &str) -> impl Iterator<Item = (usize, Credential<'_>)> + '_ {
    let (automaton, anchors) = anchors();
    // Overlapping, so a literal inside another's match is still seen; the
    // literals cannot overlap themselves where a credential could start.
    let found = automaton
        .try_find_overlapping_iter(Input::new(text))
        .expect("a standard-match NFA searches overlapping");
    found.filter_map(move |found| {
        let rank = found.pattern().as_usize();
        let (literal, anchor) = anchors.get(rank)?;
        let at = found.start();
        if !matches!(anchor, Anchor::Bearer)
            && text.as_bytes().get(at..found.end()) != Some(literal.as_bytes())
        {
            return None;
        }
        let credential = match anchor {
            Anchor::Prefixed(family) => prefixed_at(text, family, at),
            Anchor::AwsKeyId => aws_key_id_at(text, at),
            Anchor::PrivateKey => private_key_at(text, at),
            Anchor::Bearer => bearer_at(text, at),
            Anchor::Jwt => jwt_at(text, at),
        }?;
        Some((rank, credential))
    })
}

/// The fewest bytes in a run of token characters (see [`high_entropy_run`])
/// that a credential without a literal anchor needs: an AWS key id (`AKIA`
/// and 16) and a high-entropy run have 20, a prefixed token more.
pub(super) const MIN_TOKEN_RUN: usize = 20;

/// Whether `text` may hold a credential: a necessary condition, without the
/// automaton, so the common text (every string of a document, every
/// message) is cleared at a few instructions a byte or less. Every shape
/// needs either a run of [`MIN_TOKEN_RUN`] token characters (a prefixed
/// token, an AWS key id, a high-entropy run) or the literal it starts with
/// (a private key's `-----BEGIN `, `Bearer` in any case, a JWT's `eyJ`): a
/// bearer token or a JWT may be cut into short runs by `.` or `~`.
pub(crate) fn may_hold_credential(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= MIN_TOKEN_RUN && (has_token_run(bytes) || has_anchor_literal(bytes))
}

/// Whether `bytes` hold [`MIN_TOKEN_RUN`] token characters in a row. Such
/// a run starting in a window of that many bytes covers the window's last
/// byte: when that byte is no token character, the whole window is passed
/// over; else the run can only start after the window's last other byte.
/// Text of words and blanks is so read about a word at a time.
fn has_token_run(bytes: &[u8]) -> bool {
    // No run of the length starts before `start`.
    let mut start = 0;
    while let Some(&last) = bytes.get(start + MIN_TOKEN_RUN - 1) {
        if !TOKEN_BYTES[usize::from(last)] {
            start += MIN_TOKEN_RUN;
            continue;
        }
        let before_last = bytes.get(start..start + MIN_TOKEN_RUN - 1).unwrap_or_default();
        match before_last.iter().rposition(|&b| !TOKEN_BYTES[usize::from(b)]) {
            Some(other) => start += other + 1,
            None => return true,
        }
    }
    false
}

/// Whether `bytes` hold a literal a credential shape starts with: a
/// private key's `-----BEGIN ` or `Bearer`, in any case, or a JWT's `eyJ`
/// (its `J` upper-case: that letter is rare in text, where `e` is the
/// commonest).
fn has_anchor_literal(bytes: &[u8]) -> bool {
    let at_literal = |start: usize, literal: &str| {
        bytes
            .get(start..start + literal.len())
            .is_some_and(|word| word.eq_ignore_ascii_case(literal.as_bytes()))
    };
    memchr::memchr3_iter(b'-', b'b', b'B', bytes).any(|at| {
        at_literal(at, if bytes.get(at) == Some(&b'-') { PRIVATE_KEY_BEGIN } else { BEARER })
    }) || memchr::memchr_iter(b'J', bytes)
        .any(|at| at.checked_sub(2).is_some_and(|start| at_literal(start, JWT)))
}

/// The bytes of token characters (see [`is_token_char`]), by value.
static TOKEN_BYTES: [bool; 256] = {
    let mut tokens = [false; 256];
    let mut b = 0;
    while b < 256 {
        tokens[b] = is_token_char(b as u8);
        b += 1;
    }
    tokens
};

fn is_alphanumeric(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_alphanumeric_or_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

fn is_base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// Whether the byte before `at` does not continue a word, so `task_test_…`
/// is not read as `sk_test_…`.
fn at_word_start(bytes: &[u8], at: usize) -> bool {
    at == 0 || !is_word(bytes[at - 1])
}

/// The length of the run of bytes from `from` that `accept` accepts.
fn run_len(bytes: &[u8], from: usize, accept: fn(u8) -> bool) -> usize {
    bytes.get(from..).map_or(0, |rest| rest.iter().take_while(|&&b| accept(b)).count())
}

/// A token of `family` whose prefix starts at `at`.
fn prefixed_at<'s>(text: &'s str, family: &Prefixed, at: usize) -> Option<Credential<'s>> {
    let bytes = text.as_bytes();
    let body_start = at + family.prefix.len();
    let body = run_len(bytes, body_start, family.body);
    (at_word_start(bytes, at) && body >= family.min_body)
        .then(|| Credential { kind: family.kind, text: &text[at..body_start + body] })
}

/// `AKIA` at `at` and exactly 16 uppercase letters or digits.
fn aws_key_id_at(text: &str, at: usize) -> Option<Credential<'_>> {
    let bytes = text.as_bytes();
    let body_start = at + AWS_KEY_ID.len();
    let body = run_len(bytes, body_start, |b| b.is_ascii_uppercase() || b.is_ascii_digit());
    let end = body_start + body;
    // A `_` may follow (a message suggesting `AKIA…_tool`); a letter
    // may not (a longer word that merely starts so).
    let ends_id = bytes.get(end).is_none_or(|&b| !b.is_ascii_alphanumeric());
    (at_word_start(bytes, at) && body == 16 && ends_id)
        .then(|| Credential { kind: "an AWS access key id", text: &text[at..end] })
}

/// `-----BEGIN <label> PRIVATE KEY-----` at `at` (RSA, EC, OPENSSH,
/// ENCRYPTED, or no label). The credential is the whole block: the header,
/// the base64 lines of the key after it, and the `-----END …-----` line
/// when it is there (a message may quote a block cut short).
fn private_key_at(text: &str, at: usize) -> Option<Credential<'_>> {
    const END: &str = "-----END ";
    let bytes = text.as_bytes();
    let label_start = at + PRIVATE_KEY_BEGIN.len();
    let label_len = text.get(label_start..)?.find("-----")?;
    let label = &text[label_start..label_start + label_len];
    if !(label == "PRIVATE KEY" || label.ends_with(" PRIVATE KEY")) {
        return None;
    }
    let header_end = label_start + label_len + 5;
    let body_end = header_end + key_body_len(bytes, header_end);
    let end = text[body_end..]
        .strip_prefix(END)
        .and_then(|after| after.find("-----"))
        .map_or(body_end, |close| body_end + END.len() + close + 5);
    Some(Credential { kind: "a private key", text: &text[at..end] })
}

/// The length of a private key's body from `from`: base64 characters, line
/// breaks, and the indentation that starts a line (a key in a YAML block).
fn key_body_len(bytes: &[u8], from: usize) -> usize {
    let mut len = 0;
    let mut at_line_start = false;
    while let Some(&b) = bytes.get(from + len) {
        let line_break = b == b'\n' || b == b'\r';
        let indentation = at_line_start && (b == b' ' || b == b'\t');
        if !(is_base64(b) || line_break || indentation) {
            break;
        }
        at_line_start = line_break || indentation;
        len += 1;
    }
    len
}

/// `Bearer` (any case) at `at`, blanks, then a token of at least
/// [`MIN_BEARER_TOKEN`] characters (RFC 6750 `b64token`). A template such
/// as `Bearer ${TOKEN}` is not a token.
fn bearer_at(text: &str, at: usize) -> Option<Credential<'_>> {
    let bytes = text.as_bytes();
    if !bytes.get(at..at + BEARER.len())?.eq_ignore_ascii_case(BEARER.as_bytes())
        || !at_word_start(bytes, at)
    {
        return None;
    }
    let blanks = run_len(bytes, at + 6, |b| b == b' ' || b == b'\t');
    let token_start = at + 6 + blanks;
    let token = run_len(bytes, token_start, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
    });
    (blanks > 0 && token >= MIN_BEARER_TOKEN)
        .then(|| Credential { kind: "a bearer token", text: &text[at..token_start + token] })
}

/// Three base64url segments joined by dots from `at`, the first starting
/// `eyJ` (the encoding of `{"`).
fn jwt_at(text: &str, at: usize) -> Option<Credential<'_>> {
    let bytes = text.as_bytes();
    // Inside a longer run (`xeyJ…`) it is not a token's start; after a `.`
    // it may be (`mcp.acme.eyJ…`, a name built from the token): the search
    // runs left to right, so a JWT's later segments are inside its match.
    if at > 0 && is_base64url(bytes[at - 1]) {
        return None;
    }
    let mut end = at;
    for segment in 0..3 {
        if segment > 0 {
            if bytes.get(end) != Some(&b'.') {
                return None;
            }
            end += 1;
        }
        let len = run_len(bytes, end, is_base64url);
        if len < MIN_JWT_SEGMENT {
            return None;
        }
        end += len;
    }
    Some(Credential { kind: "a JSON Web Token", text: &text[at..end] })
}
