//! Long high-entropy runs: the shape of a random token that no known
//! family's literal announces.

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

/// A character a token's run is made of: an ASCII letter or digit, `_`,
/// `-`, `+`, `/` or `=`.
pub(super) const fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'/' | b'=')
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
pub(super) fn shannon_entropy(bytes: &[u8]) -> f64 {
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
