//! Reading a share link: fragment, scheme, base64url, deflate, UTF-8, JSON,
//! each step with its own [`ShareError`].

use crate::error::{Base64Problem, ShareError};
use crate::{Scheme, Share};
use base64::alphabet::URL_SAFE;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::{DecodeError, Engine as _};
use opb_syntax::{Kind, Limits, Syntax};

/// Padded and unpadded input alike (the padding is cut before decoding), and
/// a last character with stray low bits is read as browsers' `atob` reads it.
const LENIENT_URL_SAFE: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// The longest scheme word read as one; anything longer is not a share link.
const MAX_SCHEME_LEN: usize = 32;

/// Opens a share link: a whole address, its fragment (`#pako:…`) or the
/// fragment without `#`. The unpacked data may be as large as the core's
/// input limit ([`Limits::default`]`.max_bytes`).
pub fn decode(link: &str) -> Result<Share, ShareError> {
    decode_with_limit(link, Limits::default().max_bytes)
}

/// [`decode`] with another cap on the unpacked data, in bytes.
pub fn decode_with_limit(link: &str, max_bytes: usize) -> Result<Share, ShareError> {
    let unpacked = unpack(link, max_bytes)?;
    let json = match unpacked.scheme {
        Scheme::Pako => inflate(&unpacked.data, max_bytes)?,
        Scheme::Base64 => unpacked.data,
    };
    read(json)
}

/// A link's data out of its base64url: the JSON of the share, or for
/// [`Scheme::Pako`] its zlib stream, to be inflated to at most the cap
/// [`unpack`] was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpacked {
    pub scheme: Scheme,
    pub data: Vec<u8>,
}

/// The first steps of [`decode_with_limit`]: the link's scheme and its
/// base64url decoded, refused when it cannot fit in `max_bytes` unpacked.
/// For a shell that inflates with the platform's own zlib (the
/// playground's reading view, with the browser's `DecompressionStream`),
/// then hands the JSON to [`read`].
pub fn unpack(link: &str, max_bytes: usize) -> Result<Unpacked, ShareError> {
    let (scheme, data) = split(link)?;
    let data = data.trim_end_matches('=');
    // Refuse before decoding what cannot fit: base64 holds 3 bytes in 4
    // characters, and deflate adds at most a few bytes per 64 KiB stored.
    let most_packed = max_bytes.saturating_add(max_bytes / 1024).saturating_add(64);
    if data.len() / 4 * 3 > most_packed {
        return Err(ShareError::TooLarge { limit: max_bytes });
    }
    let data = LENIENT_URL_SAFE.decode(data).map_err(|error| bad_base64(data, error))?;
    if scheme == Scheme::Base64 && data.len() > max_bytes {
        return Err(ShareError::TooLarge { limit: max_bytes });
    }
    Ok(Unpacked { scheme, data })
}

/// The last steps of [`decode_with_limit`]: a share's unpacked JSON, as
/// UTF-8, read.
pub fn read(json: Vec<u8>) -> Result<Share, ShareError> {
    let json = String::from_utf8(json)
        .map_err(|error| ShareError::NotUtf8 { offset: error.utf8_error().valid_up_to() })?;
    read_json(&json)
}

/// The scheme and data of a link's fragment.
fn split(link: &str) -> Result<(Scheme, &str), ShareError> {
    let link = link.trim();
    let fragment = match link.split_once('#') {
        Some((_, fragment)) => fragment,
        // An address without a fragment carries no document.
        None if link.contains("://") => return Err(ShareError::NotShareLink),
        None => link,
    };
    let Some((scheme, data)) = fragment.split_once(':') else {
        return Err(ShareError::NotShareLink);
    };
    match scheme {
        "pako" => Ok((Scheme::Pako, data)),
        "base64" => Ok((Scheme::Base64, data)),
        _ if is_scheme_word(scheme) => Err(ShareError::UnknownScheme { scheme: scheme.to_owned() }),
        _ => Err(ShareError::NotShareLink),
    }
}

fn is_scheme_word(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= MAX_SCHEME_LEN
        && word.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'+'))
}

fn bad_base64(data: &str, error: DecodeError) -> ShareError {
    let invalid_at = |offset: usize, byte: u8| {
        // Every byte before the offending one is base64, so ASCII: the
        // offset is a character boundary and the character's position.
        let found =
            data.get(offset..).and_then(|rest| rest.chars().next()).unwrap_or(char::from(byte));
        ShareError::BadBase64 {
            position: offset + 1,
            problem: Base64Problem::InvalidCharacter(found),
        }
    };
    match error {
        DecodeError::InvalidByte(offset, byte) | DecodeError::InvalidLastSymbol(offset, byte) => {
            invalid_at(offset, byte)
        }
        DecodeError::InvalidLength(length) => {
            ShareError::BadBase64 { position: length, problem: Base64Problem::Length }
        }
        DecodeError::InvalidPadding => {
            ShareError::BadBase64 { position: data.len(), problem: Base64Problem::Length }
        }
    }
}

/// Unpacks zlib data, growing the output only up to `max_bytes`.
fn inflate(packed: &[u8], max_bytes: usize) -> Result<Vec<u8>, ShareError> {
    use miniz_oxide::inflate::TINFLStatus;
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(packed, max_bytes).map_err(|error| {
        match error.status {
            TINFLStatus::HasMoreOutput => ShareError::TooLarge { limit: max_bytes },
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                ShareError::TruncatedDeflate
            }
            _ => ShareError::CorruptDeflate,
        }
    })
}

/// The JSON of a share, read with opb-syntax's JSON reader, the one the
/// core reads documents with (so a page that shows documents reads links
/// with no second JSON parser): an object with the document in `code`,
/// optionally `kind` and `view`. Other members are ignored, so a later
/// version can add some.
fn read_json(json: &str) -> Result<Share, ShareError> {
    let not_share = |detail: String| ShareError::NotShareJson { detail };
    let parsed = opb_syntax::parse(json, Syntax::Json, &Limits::default());
    if let Some(problem) = parsed.problems.first() {
        return Err(not_share(format!(
            "it is not JSON: {}",
            problem.message.trim_end_matches('.')
        )));
    }
    let Some(object) = parsed.root.as_ref().and_then(|root| root.as_object()) else {
        return Err(not_share("it is not a JSON object".into()));
    };
    let text = |key: &str| match object.get(key) {
        None => Ok(None),
        Some(node) if node.is_null() && key != "code" => Ok(None),
        Some(node) => match node.as_str() {
            Some(text) => Ok(Some(text)),
            None => Err(not_share(format!("its `{key}` is {}, not a string", node.type_name()))),
        },
    };
    let code = text("code")?.ok_or_else(|| not_share("it has no `code`".into()))?;
    let kind = match text("kind")? {
        None => None,
        Some(word) => Some(
            [Kind::Playbook, Kind::PluginManifest]
                .into_iter()
                .find(|kind| kind.as_str() == word)
                .ok_or_else(|| {
                not_share(format!(
                    "its `kind` is `{word}`, where it is `playbook` or `plugin-manifest`"
                ))
            })?,
        ),
    };
    Ok(Share { code: code.to_owned(), kind, view: text("view")?.map(str::to_owned) })
}
