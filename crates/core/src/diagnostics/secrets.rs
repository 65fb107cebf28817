//! What a credential looks like: known token prefixes, private keys, bearer
//! tokens, JWTs, and long high-entropy runs. One definition shared by PB411
//! (an MCP server name that is auth material) and SEC001 (a credential
//! anywhere in a document), so the two can never disagree.
//!
//! Messages never echo a credential: [`preview`] shows its first four
//! characters and nothing more.

use aho_corasick::automaton::Automaton;
use aho_corasick::nfa::noncontiguous::NFA;
use aho_corasick::Input;
use std::sync::{Arc, OnceLock};

/// A credential-shaped part of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Credential<'s> {
    /// What it looks like, for messages, e.g. "a Stripe live secret key".
    pub kind: &'static str,
    /// The credential-shaped part of the text.
    pub text: &'s str,
}

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
const PRIVATE_KEY_BEGIN: &str = "-----BEGIN ";
const BEARER: &str = "bearer";
const JWT: &str = "eyJ";

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
fn anchored(text: &str) -> impl Iterator<Item = (usize, Credential<'_>)> + '_ {
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
const MIN_TOKEN_RUN: usize = 20;

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

/// Whether a text starts with the word `Bearer` (any case).
pub fn starts_with_bearer(text: &str) -> bool {
    text.as_bytes().get(..6).is_some_and(|head| head.eq_ignore_ascii_case(b"bearer"))
}

/// The first long high-entropy run of `text`, the shape of a random token.
///
/// A run is a maximal sequence of token characters (ASCII letters and
/// digits, `_`, `-`, `+`, `/`, `=`). It is high-entropy when either:
///
/// - it is hexadecimal: at least 32 hex digits, with both digits and
///   letters, and a Shannon entropy of at least 3.0 bits per character; or
/// - it has at least 20 characters, with an uppercase letter, a lowercase
///   letter and a digit; a Shannon entropy of at least 0.8 × log2(min(length,
///   64)) bits per character (a random base64 string comes close to
///   log2(min(length, 64))); and a character-class change (lowercase,
///   uppercase, digit, other) between at least 40% of its adjacent pairs,
///   which a random token has (about 60%) and a camelCase or snake_case name
///   does not (`OrdersDbV2Production2024` has 35%).
///
/// Logical names (`acme`, `orders_db`, `github-enterprise`, an upper-case
/// `ACME_MCP_TOKEN`) are not high-entropy.
pub fn high_entropy_run(text: &str) -> Option<&str> {
    high_entropy_runs(text).next()
}

/// Every long high-entropy run of `text` (see [`high_entropy_run`]).
///
/// Token characters are ASCII, so the runs split from the bytes are the
/// runs split from the characters, found without decoding UTF-8 (every
/// string of a document and every message passes here).
pub fn high_entropy_runs(text: &str) -> impl Iterator<Item = &str> + '_ {
    let start = text.as_ptr() as usize;
    text.as_bytes().split(|&b| !is_token_char(b)).filter(|run| is_high_entropy(run)).filter_map(
        move |run| {
            let at = run.as_ptr() as usize - start;
            text.get(at..at + run.len())
        },
    )
}

/// A message with every credential-shaped part cut to its [`preview`]. Every
/// diagnostic passes through it, so no rule can echo a credential it quotes
/// (a tool name, a server name, a list of declared values) in full.
pub fn redact(message: &str) -> std::borrow::Cow<'_, str> {
    let mut rest = message;
    let mut out: Option<String> = None;
    while let Some((at, len)) = earliest_credential(rest) {
        let out = out.get_or_insert_with(String::new);
        out.push_str(&rest[..at]);
        out.push_str(&preview(&rest[at..at + len]));
        rest = &rest[at + len..];
    }
    match out {
        Some(mut out) => {
            out.push_str(rest);
            out.into()
        }
        None => message.into(),
    }
}

/// `text` with every credential-shaped part hidden past its first four
/// characters, each hidden character replaced by as many `*` as it has
/// bytes (blanks and line breaks kept), so byte offsets and lines into the
/// text stay valid. For showing source text, as the CLI shows the lines a diagnostic
/// points at: a credential must not reach a CI log through its snippet.
pub fn mask(text: &str) -> std::borrow::Cow<'_, str> {
    let mut rest = text;
    let mut out: Option<String> = None;
    while let Some((at, len)) = earliest_credential(rest) {
        let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
        out.push_str(&rest[..at]);
        for (i, c) in rest[at..at + len].chars().enumerate() {
            match c {
                c if c.is_ascii_whitespace() => out.push(c),
                c if i < 4 => out.push(c),
                c => out.extend(std::iter::repeat_n('*', c.len_utf8())),
            }
        }
        rest = &rest[at + len..];
    }
    match out {
        Some(mut out) => {
            out.push_str(rest);
            out.into()
        }
        None => text.into(),
    }
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

const fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'/' | b'=')
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

fn is_high_entropy(bytes: &[u8]) -> bool {
    let has = |test: fn(&u8) -> bool| bytes.iter().any(test);
    let length = bytes.len();
    // The length first, then the entropy last: nearly every run fails a
    // cheaper test first. No run shorter than 20 passes either test below.
    if length < 20 {
        return false;
    }
    if bytes.iter().all(u8::is_ascii_hexdigit) {
        return length >= 32
            && has(u8::is_ascii_digit)
            && has(u8::is_ascii_alphabetic)
            && shannon_entropy(bytes) >= 3.0;
    }
    has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && has(u8::is_ascii_digit)
        && class_changes(bytes) * 10 >= (length - 1) * 4
        && shannon_entropy(bytes) >= 0.8 * (length.min(64) as f64).log2()
}

/// Shannon entropy in bits per byte.
fn shannon_entropy(bytes: &[u8]) -> f64 {
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0usize; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let total = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| {
            let p = n as f64 / total;
            -p * p.log2()
        })
        .sum()
}

/// How many adjacent pairs change character class.
fn class_changes(bytes: &[u8]) -> usize {
    fn class(b: u8) -> u8 {
        match b {
            b'a'..=b'z' => 0,
            b'A'..=b'Z' => 1,
            b'0'..=b'9' => 2,
            _ => 3,
        }
    }
    bytes.windows(2).filter(|pair| class(pair[0]) != class(pair[1])).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masking_keeps_every_offset() {
        let text = "key: ghp_0123456789abcdefABCDEF0123456789abcd # é\nother: plain\n";
        let masked = mask(text);
        assert_eq!(masked, "key: ghp_************************************ # é\nother: plain\n");
        assert_eq!(masked.len(), text.len());
        let block = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
        let masked = mask(block);
        assert_eq!(masked.len(), block.len());
        assert_eq!(masked.lines().count(), 3);
        assert!(!masked.contains("MIIE") && !masked.contains("END"), "{masked}");
        assert_eq!(mask("nothing secret here"), "nothing secret here");
    }

    #[test]
    fn messages_never_carry_a_credential() {
        let token = "ghp_0123456789abcdefABCDEF0123456789abcd";
        let message = format!("it declares `acme` or `{token}`.");
        assert_eq!(redact(&message), "it declares `acme` or `ghp_…`.");
        assert_eq!(redact("step `send` allows `email.send`."), "step `send` allows `email.send`.");
        let two = format!("{token} and Bearer abcdef0123456789abcdef0123456789");
        assert!(!redact(&two).contains("0123"), "{}", redact(&two));
    }

    fn kind(text: &str) -> Option<&'static str> {
        find_credential(text).map(|c| c.kind)
    }

    #[test]
    fn known_prefixes_are_found_inside_text() {
        let found = find_credential("key: sk_live_51HqLyjWDarjtT1zdp7dcXYZ, rest").unwrap();
        assert_eq!(found.kind, "a Stripe live secret key");
        assert_eq!(found.text, "sk_live_51HqLyjWDarjtT1zdp7dcXYZ");
        assert_eq!(kind("sk_test_4eC39HqLyjWDarjtT1zdp7dc"), Some("a Stripe test secret key"));
        assert_eq!(kind("rk_live_51HqLyjWDarjtT1zdp7dcAB"), Some("a Stripe restricted key"));
        assert_eq!(
            kind("ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
            Some("a GitHub personal access token")
        );
        assert_eq!(kind("gho_16C7e42F292c6912E7710c838347Ae178B4a"), Some("a GitHub OAuth token"));
        assert_eq!(
            kind("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"),
            Some("a GitHub fine-grained personal access token")
        );
        assert_eq!(kind("xoxb-1234567890-1234567890123-AbCdEfGh"), Some("a Slack bot token"));
        assert_eq!(kind("xoxp-1234567890-1234567890123-AbCdEfGh"), Some("a Slack user token"));
    }

    #[test]
    fn prefixes_in_prose_patterns_and_words_are_not_keys() {
        assert_eq!(kind("Use a sk_live_ key from the dashboard."), None);
        assert_eq!(kind("^sk_live_[A-Za-z0-9]{24}$"), None);
        assert_eq!(kind("task_test_runner_with_a_long_enough_body"), None);
        assert_eq!(kind("ghp_short"), None);
        assert_eq!(kind("xoxb-"), None);
    }

    #[test]
    fn aws_key_ids_have_exactly_sixteen_characters() {
        assert_eq!(kind("AKIAIOSFODNN7EXAMPLE"), Some("an AWS access key id"));
        assert_eq!(kind("id=AKIAIOSFODNN7EXAMPLE;"), Some("an AWS access key id"));
        assert_eq!(kind("AKIAIOSFODNN7EXAMPLEX"), None);
        assert_eq!(kind("AKIAIOSFODNN7EXAMPL"), None);
        assert_eq!(kind("XAKIAIOSFODNN7EXAMPLE"), None);
    }

    #[test]
    fn private_key_blocks_are_found() {
        assert_eq!(kind("-----BEGIN RSA PRIVATE KEY-----\nMIIEow…"), Some("a private key"));
        assert_eq!(kind("-----BEGIN PRIVATE KEY-----"), Some("a private key"));
        assert_eq!(kind("-----BEGIN OPENSSH PRIVATE KEY-----"), Some("a private key"));
        assert_eq!(kind("-----BEGIN PUBLIC KEY-----"), None);
        assert_eq!(kind("-----BEGIN CERTIFICATE-----"), None);
    }

    #[test]
    fn bearer_tokens_need_a_long_literal_token() {
        assert_eq!(kind("Bearer abcdefghij0123456789XYZ"), Some("a bearer token"));
        assert_eq!(kind("Authorization: bearer abcdefghij0123456789XYZ"), Some("a bearer token"));
        assert_eq!(kind("Bearer ${ACME_TOKEN}"), None);
        assert_eq!(kind("Bearer <token>"), None);
        assert_eq!(kind("Send a Bearer token from the vault."), None);
        assert_eq!(kind("Bearerabcdefghij0123456789XYZ"), None);
    }

    #[test]
    fn jwts_are_three_base64url_segments() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assert_eq!(kind(jwt), Some("a JSON Web Token"));
        assert_eq!(find_credential(&format!("token={jwt}")).map(|c| c.text), Some(jwt));
        assert_eq!(kind("eyJhbGciOiJIUzI1NiJ9"), None);
        assert_eq!(kind("eyJ.a.b"), None);
        assert_eq!(kind(&format!("mcp.acme.{jwt}")), Some("a JSON Web Token"), "after a dot");
        assert!(mask(&format!("use mcp.acme.{jwt} here")).starts_with("use mcp.acme.eyJh***"));
    }

    #[test]
    fn the_cheap_check_passes_every_credential() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        for text in [
            "key: sk_live_51HqLyjWDarjtT1zdp7dcXYZ, rest",
            "id=AKIAIOSFODNN7EXAMPLE;",
            "x-----BEGIN PRIVATE KEY-----",
            "Authorization: BEARER a.b.c.d.e.f.g.h.i.j.k",
            "token Xk9fQ2mZr7LpT4vB8nWc here",
            jwt,
        ] {
            assert!(earliest_credential(text).is_some(), "{text}");
            assert!(may_hold_credential(text), "{text}");
        }
        for text in [
            "Step `send` may call `mcp.server0.tool12`, which requires approval.",
            "short",
            "é".repeat(40).as_str(),
        ] {
            assert!(!may_hold_credential(text), "{text}");
        }
    }

    /// The check as first written, a byte at a time: the skipping one must
    /// answer as it does.
    fn may_hold_credential_bytewise(text: &str) -> bool {
        let bytes = text.as_bytes();
        if bytes.len() < MIN_TOKEN_RUN {
            return false;
        }
        let mut run = 0;
        for (at, &b) in bytes.iter().enumerate() {
            if !is_token_char(b) {
                run = 0;
                continue;
            }
            run += 1;
            if run == MIN_TOKEN_RUN {
                return true;
            }
            let (start, literal) = match b {
                b'-' => (Some(at), PRIVATE_KEY_BEGIN),
                b'J' => (at.checked_sub(2), JWT),
                b'b' | b'B' => (Some(at), BEARER),
                _ => continue,
            };
            let word = start.and_then(|start| bytes.get(start..start + literal.len()));
            if word.is_some_and(|word| word.eq_ignore_ascii_case(literal.as_bytes())) {
                return true;
            }
        }
        false
    }

    #[test]
    fn the_cheap_check_skips_ahead_without_missing_anything() {
        let pieces = [
            "a",
            "Z9",
            "_",
            "-",
            " ",
            ".",
            "~",
            "é",
            "bearer",
            "BeArEr",
            "eyJ",
            "EYJ",
            "eyj",
            "-----BEGIN ",
            "-----begin",
            "x",
            "J",
            "b",
        ];
        // Every text of up to four pieces, then padded to each length around the run.
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> =
                texts.iter().flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}"))).collect();
            texts.extend(longer);
        }
        let mut checked = 0;
        for text in &texts {
            for pad in [MIN_TOKEN_RUN - 3, MIN_TOKEN_RUN - 1, MIN_TOKEN_RUN, MIN_TOKEN_RUN + 4] {
                for padded in [
                    format!("{}{text}", "k".repeat(pad)),
                    format!("{text}{}", "k".repeat(pad)),
                    format!("{} {text} {}", "k".repeat(pad / 2), "k".repeat(pad / 2)),
                ] {
                    assert_eq!(
                        may_hold_credential(&padded),
                        may_hold_credential_bytewise(&padded),
                        "{padded:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000);
    }

    #[test]
    fn random_tokens_are_high_entropy() {
        for token in [
            "Xk9fQ2mZr7LpT4vB8nWc",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B",
            "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRva2VuIDEyMw==",
        ] {
            assert_eq!(high_entropy_run(token), Some(token), "{token}");
        }
        assert_eq!(
            high_entropy_run("token Xk9fQ2mZr7LpT4vB8nWc here"),
            Some("Xk9fQ2mZr7LpT4vB8nWc")
        );
    }

    #[test]
    fn logical_names_are_not_high_entropy() {
        for name in [
            "acme",
            "orders_db",
            "github-enterprise",
            "ACME_MCP_TOKEN",
            "ACME_MCP_TOKEN_PRODUCTION_2024",
            "OrdersDbV2Production2024",
            "customer_support_knowledge_base_v2",
            "3f2b1c9e-4d5a-4b6c-8d7e-9f0a1b2c3d4e",
            "abcdefghijklmnopqrstuvwxyz0123",
            "https://mcp.acme.example/v1/sse",
            "auth for MCP server \"acme\"",
        ] {
            assert_eq!(high_entropy_run(name), None, "{name}");
        }
    }

    #[test]
    fn entropy_is_measured_in_bits_per_character() {
        assert_eq!(shannon_entropy(b""), 0.0);
        assert_eq!(shannon_entropy(b"aaaa"), 0.0);
        assert!((shannon_entropy(b"abcd") - 2.0).abs() < 1e-9);
        assert!((shannon_entropy(b"aabb") - 1.0).abs() < 1e-9);
    }

    #[test]
    fn previews_show_four_characters() {
        assert_eq!(preview("sk_live_51HqLyj"), "sk_l…");
        assert_eq!(preview("ab"), "ab…");
        assert_eq!(preview("çéèàü"), "çéèà…");
    }

    #[test]
    fn bearer_prefix_is_case_insensitive() {
        assert!(starts_with_bearer("Bearer x"));
        assert!(starts_with_bearer("BEARER"));
        assert!(!starts_with_bearer("Bear"));
        assert!(!starts_with_bearer("çBearer"));
    }
}
