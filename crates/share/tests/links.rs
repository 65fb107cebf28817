//! Share links: what opb writes opens again, links written by JavaScript's
//! zlib open, and every broken link gets its own error with a message that
//! says what to do.

use opb_share::{
    decode, decode_with_limit, encode, encode_with_limit, read, unpack, Base64Problem, Scheme,
    Share, ShareError,
};
use opb_syntax::{Kind, Limits};
use std::time::Instant;

fn share(code: &str) -> Share {
    Share { code: code.to_owned(), kind: None, view: None }
}

fn base64url(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn what_opb_writes_opens_again() {
    let shares = [
        share(""),
        share("openplaybook: \"1.6\"\nsteps: []\n"),
        Share {
            code: "{\"steps\": [{\"id\": \"ünïcode ✓ 🚀\", \"x\": \"<script>alert(1)</script>\"}]}"
                .into(),
            kind: Some(Kind::Playbook),
            view: Some("graph".into()),
        },
        Share { code: "tools: []\n".into(), kind: Some(Kind::PluginManifest), view: None },
    ];
    for original in shares {
        for scheme in [Scheme::Pako, Scheme::Base64] {
            let link = encode(&original, scheme).expect("a small share encodes");
            assert!(link.starts_with(&format!("#{}:", scheme.as_str())), "{link}");
            assert!(!link.contains('='), "no padding: {link}");
            assert!(
                link[1..].bytes().all(|b| b.is_ascii_alphanumeric() || b"-_:".contains(&b)),
                "{link}"
            );
            assert_eq!(decode(&link), Ok(original.clone()), "{link}");
        }
    }
}

#[test]
fn a_link_opens_whole_as_fragment_or_bare_and_padded_or_not() {
    let original = share("steps: []\n");
    let link = encode(&original, Scheme::Base64).expect("encodes");
    let bare = &link[1..];
    let padding = "=".repeat((4 - (bare.len() - "base64:".len()) % 4) % 4);
    assert!(!padding.is_empty(), "the test needs data whose length is not a multiple of 4");
    for form in [
        link.clone(),
        bare.to_owned(),
        format!("https://opb.example.invalid/play/{link}"),
        format!("  {link}\n"),
        format!("{link}{padding}"),
    ] {
        assert_eq!(decode(&form), Ok(original.clone()), "{form:?}");
    }
}

#[test]
fn links_written_by_javascript_zlib_open() {
    // Node's zlib.deflateSync(…, {level: 9}), the format pako writes.
    let link = "#pako:eNqrVkrOT0lVslLKL0jNK8hJrEzKz8-2UohRMtQzi1GKySsuSS0otlKIjo3JU1Y4vCfv8HqQeoVHcybH5CnpKGVn5qUoWSnBNCrpKJVlppYrWSmlFyUWZCjVAgBhiiIR";
    let expected = Share {
        code: "openplaybook: \"1.6\"\nsteps: []\n# ünïcode ✓\n".into(),
        kind: Some(Kind::Playbook),
        view: Some("graph".into()),
    };
    assert_eq!(decode(link), Ok(expected.clone()));
    // Buffer.toString("base64"): padded, and the same JSON uncompressed.
    let padded = "#base64:eyJjb2RlIjoib3BlbnBsYXlib29rOiBcIjEuNlwiXG5zdGVwczogW11cbiMgw7xuw69jb2RlIOKck1xuIiwia2luZCI6InBsYXlib29rIiwidmlldyI6ImdyYXBoIn0=";
    assert_eq!(decode(padded), Ok(expected));
}

#[test]
fn what_is_not_a_share_link_says_so() {
    for link in
        ["", "#", "https://opb.example.invalid/play", "#steps", "just some text", "#a b:c", "#:abc"]
    {
        assert_eq!(decode(link), Err(ShareError::NotShareLink), "{link:?}");
    }
}

#[test]
fn an_unknown_scheme_is_named() {
    let error = decode("#gzip:eJwDAAAAAAE").unwrap_err();
    assert_eq!(error, ShareError::UnknownScheme { scheme: "gzip".into() });
    assert!(error.to_string().contains("`gzip:`"), "{error}");
}

#[test]
fn bad_base64_names_the_character_and_where() {
    let error = decode("#base64:eyJj$b2Rl").unwrap_err();
    assert_eq!(
        error,
        ShareError::BadBase64 { position: 5, problem: Base64Problem::InvalidCharacter('$') }
    );
    assert!(error.to_string().contains("character 5 of its data is `$`"), "{error}");
    // Standard base64's `+` and `/` are not base64url.
    assert!(matches!(decode("#pako:ab+/"), Err(ShareError::BadBase64 { position: 3, .. })));
    // A control character is named by code point, never printed.
    let error = decode("#pako:ab\u{7}c").unwrap_err();
    assert!(error.to_string().contains("U+0007"), "{error}");
    // One character into a group of four: the link was cut.
    assert!(matches!(
        decode("#base64:eyJjb"),
        Err(ShareError::BadBase64 { problem: Base64Problem::Length, .. })
    ));
}

#[test]
fn damaged_and_cut_compressed_data_are_told_apart() {
    let link = encode(&share(&"steps: []\n".repeat(50)), Scheme::Pako).expect("encodes");
    let data = link.strip_prefix("#pako:").expect("pako link");
    // Cut at a group of four, so the base64 stays valid and the stream ends early.
    let cut = &data[..(data.len() / 2) / 4 * 4];
    assert_eq!(decode(&format!("#pako:{cut}")), Err(ShareError::TruncatedDeflate));
    // Not a zlib stream at all.
    assert_eq!(
        decode(&format!("#pako:{}", base64url(b"not deflate at all"))),
        Err(ShareError::CorruptDeflate)
    );
    // A flipped byte in the middle breaks the stream or its checksum.
    let mut bytes =
        miniz_oxide::deflate::compress_to_vec_zlib("steps: []\n".repeat(50).as_bytes(), 9);
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    let flipped = decode(&format!("#pako:{}", base64url(&bytes)));
    assert!(
        matches!(flipped, Err(ShareError::CorruptDeflate | ShareError::TruncatedDeflate)),
        "{flipped:?}"
    );
}

/// A zlib stream that unpacks to `expanded` zero bytes, written bit by bit so
/// the test never holds the expanded data: one fixed-Huffman block of a
/// literal 0 and then copies of 258 bytes from distance 1.
fn zeros_bomb(expanded: usize) -> Vec<u8> {
    struct Bits {
        bytes: Vec<u8>,
        used: u32,
    }
    impl Bits {
        fn push(&mut self, value: u32, count: u32) {
            for i in 0..count {
                if self.used % 8 == 0 {
                    self.bytes.push(0);
                }
                if let Some(last) = self.bytes.last_mut() {
                    *last |= (((value >> i) & 1) as u8) << (self.used % 8);
                }
                self.used += 1;
            }
        }
        /// Huffman codes go most significant bit first.
        fn push_code(&mut self, code: u32, count: u32) {
            let reversed = (0..count).fold(0, |acc, i| (acc << 1) | ((code >> i) & 1));
            self.push(reversed, count);
        }
    }
    let mut bits = Bits { bytes: vec![0x78, 0xda], used: 16 };
    bits.push(1, 1); // the last block
    bits.push(1, 2); // fixed Huffman codes
    bits.push_code(0x30, 8); // literal 0
    for _ in 0..(expanded - 1) / 258 {
        bits.push_code(0xc5, 8); // length code 285: 258 bytes
        bits.push_code(0, 5); // distance code 0: distance 1
    }
    bits.push_code(0, 7); // end of block (no checksum: the cap stops first)
    bits.bytes
}

#[test]
fn a_zip_bomb_stops_at_the_cap() {
    let limit = Limits::default().max_bytes;
    let bomb = zeros_bomb(8 * limit);
    assert!(bomb.len() < limit, "the bomb itself is small: {} bytes", bomb.len());
    let link = format!("#pako:{}", base64url(&bomb));
    let started = Instant::now();
    let error = decode(&link).unwrap_err();
    println!(
        "a bomb of {} bytes (unpacking to {} bytes) refused in {:?}",
        bomb.len(),
        8 * limit,
        started.elapsed()
    );
    assert_eq!(error, ShareError::TooLarge { limit });
    assert!(error.to_string().contains("more than 16 MiB"), "{error}");
}

#[test]
fn data_over_the_cap_is_refused_before_it_is_decoded() {
    // Far more base64 than the cap can hold: refused on its length alone.
    let huge = format!("#base64:{}", "A".repeat(64 * 1024));
    assert_eq!(decode_with_limit(&huge, 1024), Err(ShareError::TooLarge { limit: 1024 }));
    // Uncompressed data just over the cap.
    let json = format!("{{\"code\": \"{}\"}}", "x".repeat(1024));
    assert_eq!(
        decode_with_limit(&format!("#base64:{}", base64url(json.as_bytes())), 1024),
        Err(ShareError::TooLarge { limit: 1024 })
    );
    // And opb never writes a link it would refuse.
    assert_eq!(
        encode_with_limit(&share(&"x".repeat(2000)), Scheme::Pako, 1024),
        Err(ShareError::TooLarge { limit: 1024 })
    );
    assert!(ShareError::TooLarge { limit: 1024 }.to_string().contains("more than 1024 bytes"));
}

#[test]
fn data_that_is_not_text_or_not_a_share_says_how() {
    assert_eq!(
        decode(&format!("#base64:{}", base64url(b"{\"code\": \"\xff\"}"))),
        Err(ShareError::NotUtf8 { offset: 10 })
    );
    let not_share = |json: &str| match decode(&format!("#base64:{}", base64url(json.as_bytes()))) {
        Err(ShareError::NotShareJson { detail }) => detail,
        other => panic!("{json}: {other:?}"),
    };
    assert_eq!(not_share("[\"steps: []\"]"), "it is not a JSON object");
    assert_eq!(not_share("{}"), "it has no `code`");
    assert_eq!(not_share("{\"code\": 1}"), "its `code` is a number, not a string");
    assert_eq!(not_share("{\"code\": null}"), "its `code` is null, not a string");
    assert_eq!(not_share("{\"code\": \"\", \"view\": []}"), "its `view` is an array, not a string");
    assert_eq!(
        not_share("{\"code\": \"\", \"kind\": \"novel\"}"),
        "its `kind` is `novel`, where it is `playbook` or `plugin-manifest`"
    );
    assert!(
        not_share("{\"code\": ").starts_with("it is not JSON: "),
        "{}",
        not_share("{\"code\": ")
    );
    // An absent and a null `kind` or `view` are the same.
    assert_eq!(
        decode(&format!("#base64:{}", base64url(b"{\"code\": \"a\", \"kind\": null}"))),
        Ok(share("a"))
    );
    // Members a later version may add are ignored.
    assert_eq!(
        decode(&format!("#base64:{}", base64url(b"{\"code\": \"a\", \"theme\": \"dark\"}"))),
        Ok(share("a"))
    );
}

#[test]
fn every_message_says_what_happened_and_what_to_do() {
    let errors = [
        ShareError::NotShareLink,
        ShareError::UnknownScheme { scheme: "gzip".into() },
        ShareError::BadBase64 { position: 3, problem: Base64Problem::InvalidCharacter('%') },
        ShareError::BadBase64 { position: 5, problem: Base64Problem::Length },
        ShareError::CorruptDeflate,
        ShareError::TruncatedDeflate,
        ShareError::TooLarge { limit: 16 * 1024 * 1024 },
        ShareError::NotUtf8 { offset: 4 },
        ShareError::NotShareJson { detail: "missing field `code`".into() },
    ];
    for error in errors {
        let message = error.to_string();
        let (what, to_do) =
            message.split_once(". ").unwrap_or_else(|| panic!("two sentences: {message}"));
        assert!(what.starts_with("This "), "says what the link is: {message}");
        assert!(
            ["Copy ", "Ask "].iter().any(|verb| to_do.contains(verb)),
            "says what to do: {message}"
        );
    }
}

#[test]
fn unpacking_then_reading_is_decoding_for_a_shell_that_inflates() {
    let sent = Share {
        code: "steps: []\n".into(),
        kind: Some(Kind::PluginManifest),
        view: Some("tools".into()),
    };
    for scheme in [Scheme::Pako, Scheme::Base64] {
        let link = encode(&sent, scheme).unwrap();
        let unpacked = unpack(&link, 1024).unwrap();
        assert_eq!(unpacked.scheme, scheme);
        let json = match scheme {
            Scheme::Pako => miniz_oxide::inflate::decompress_to_vec_zlib(&unpacked.data).unwrap(),
            Scheme::Base64 => unpacked.data,
        };
        assert_eq!(read(json), Ok(sent.clone()), "{scheme:?}");
    }
    // What cannot fit is refused before any inflating.
    let large = encode(&share(&"x".repeat(4096)), Scheme::Base64).unwrap();
    assert_eq!(unpack(&large, 1024), Err(ShareError::TooLarge { limit: 1024 }));
    assert_eq!(unpack("#gzip:abc", 1024), Err(ShareError::UnknownScheme { scheme: "gzip".into() }));
    assert_eq!(read(b"\xff".to_vec()), Err(ShareError::NotUtf8 { offset: 0 }));
}
