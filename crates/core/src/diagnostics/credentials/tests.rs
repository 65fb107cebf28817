use super::entropy::{is_token_char, shannon_entropy};
use super::shapes::{BEARER, JWT, MIN_TOKEN_RUN, PRIVATE_KEY_BEGIN};
use super::*;

#[test]
fn masking_keeps_every_offset() {
    let text = "key: ghp_0123456789abcdefABCDEF0123456789abcd # é\nother: plain\n";
    let masked = mask(text);
    assert_eq!(masked, "key: ghp_************************************ # é\nother: plain\n");
    assert_eq!(masked.len(), text.len());
    let block =
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
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

#[test]
fn a_part_of_a_credential_quoted_apart_from_it_is_cut_too() {
    // A random run no field names a secret, read as a duration: the value
    // is cut by its shape, and the unit quoted from it with it.
    let value = "2aaaaaaaabbybhcciAefApCkx4m2nd6Bdwgeb8PJ";
    let message = format!("`timeout` is `{value}`: `aaaaaaaabbybhcciAefApCkx` is not a unit.");
    assert_eq!(redact(&message), "`timeout` is `2aaa…`: `…` is not a unit.");
    let source = format!("timeout: {value} # unit aaaaaaaabbybhcc\n");
    let masked = mask(&source);
    assert_eq!(masked.len(), source.len());
    assert_eq!(masked, format!("timeout: 2aaa{} # unit aaaa***********\n", "*".repeat(36)));
    // Runs shorter than a piece are left: they are common in words.
    assert_eq!(redact(&format!("`{value}`, at `8PJ`")), "`2aaa…`, at `8PJ`");
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
    assert_eq!(high_entropy_run("token Xk9fQ2mZr7LpT4vB8nWc here"), Some("Xk9fQ2mZr7LpT4vB8nWc"));
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
