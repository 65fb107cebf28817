//! Credentials written into a document never reach `opb check`'s output past
//! their first four characters, in any format: not in a message (the core
//! redacts every one), not in the source lines or pointer labels the human
//! format shows (the CLI masks them), not in JSON or SARIF. CI logs are
//! public more often than documents are.
//!
//! One exception, by design: JSON and SARIF carry each finding's exact
//! pointer for tools to resolve, so a credential used as a *key* appears
//! there in the pointer (and only there).

use assert_cmd::Command;

const GITHUB: &str = "ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8";
const STRIPE: &str = "sk_live_51HqLyjWDarjtT1zdp7dcQx4Vb";
const AWS: &str = "AKIAZ7Q4M2XK9R3T6W1P";
const SLACK: &str = "xoxb-2048193756-9Hq3Lm7Zt2Vx8Kd4";
const JWT: &str =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiIsIm5hbWUiOiJvcGIifQ.Xq3vL9mT2kR8wZ5nB1yH7cJ4dF6gA0sE";
const BEARER_TOKEN: &str = "Rk9Tq2Wx7Lm3Zp8Vb4Nc6Hd1Jf5Gs0Ay";
const PRIVATE_KEY_BODY: &str = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vq3Xp9Lm2Rt";

fn playbook() -> String {
    format!(
        r#"openplaybook: "1.6"
requires:
  connections: []
  secrets:
    - name: STRIPE_KEY
      purpose: {STRIPE}
steps:
  - id: {GITHUB}
    kind: agent
    agent: lou
    purpose: Find the customer.
    allowedTools: [{SLACK}]
    {AWS}: set by the harness
    notes: "call with Bearer {BEARER_TOKEN} and {JWT}"
    signingKey: |
      -----BEGIN PRIVATE KEY-----
      {PRIVATE_KEY_BODY}
      -----END PRIVATE KEY-----
"#
    )
}

/// What must not be shown of a credential: every run of eight characters
/// after its first four.
fn hidden_parts(credential: &str) -> Vec<String> {
    let chars: Vec<char> = credential.chars().collect();
    chars[4..].windows(8).map(String::from_iter).collect()
}

/// The pointer of the finding on the key that is a credential: exact in JSON
/// and SARIF.
const KEY_POINTER: &str = "/steps/0/AKIAZ7Q4M2XK9R3T6W1P";

/// `opb COMMAND --format FORMAT` on the leaky playbook: its output, both
/// streams, once its exit code is checked.
fn run(command: &str, format: &str, code: i32) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_opb"))
        .args([command, "--format", format, "--stdin-name", "leaky.yaml", "-"])
        .env_remove("CLICOLOR_FORCE")
        .write_stdin(playbook())
        .output()
        .expect("opb runs");
    assert_eq!(output.status.code(), Some(code), "opb {command} --format {format}");
    let mut all = String::from_utf8(output.stdout).expect("UTF-8 output");
    all.push_str(&String::from_utf8_lossy(&output.stderr));
    all
}

/// The credentials are errors: `opb check` exits 1.
fn check(format: &str) -> String {
    run("check", format, 1)
}

#[test]
fn no_output_format_shows_more_than_four_characters_of_a_credential() {
    for format in ["human", "json", "sarif"] {
        let output = check(format);
        let output = if format == "human" { output } else { output.replace(KEY_POINTER, "") };
        assert!(output.contains("SEC001"), "{format}: the credentials are reported");
        for credential in [GITHUB, STRIPE, AWS, SLACK, JWT, BEARER_TOKEN, PRIVATE_KEY_BODY] {
            for part in hidden_parts(credential) {
                assert!(
                    !output.contains(&part),
                    "{format} shows `{part}` of `{credential}`:\n{output}"
                );
            }
        }
    }
}

#[test]
fn the_human_format_masks_source_lines_and_keeps_their_positions() {
    let output = check("human");
    // The step id's line, masked to the same length, caret still under it.
    let masked = format!("ghp_{}", "*".repeat(GITHUB.len() - 4));
    let line = output
        .lines()
        .find(|l| l.contains(&masked))
        .unwrap_or_else(|| panic!("masked line:\n{output}"));
    assert!(line.ends_with(&format!("- id: {masked}")), "{line}");
    // Messages name each credential by its first four characters.
    assert!(output.contains("(`ghp_…`)") && output.contains("(`sk_l…`)"), "{output}");
}

/// `opb explain` prints the document's own words (purposes, step ids, tool
/// names, secrets): the core masks them where it found a credential, so
/// both formats show what a reader needs and no credential whole.
#[test]
fn explain_shows_no_credential_whole_in_either_format() {
    for format in ["human", "json"] {
        let output = run("explain", format, 0);
        assert!(
            output.contains("ghp_…"),
            "{format}: the step is still there, by its masked id:\n{output}"
        );
        assert!(
            output.contains("Find the customer."),
            "{format}: the words around are kept:\n{output}"
        );
        for credential in [GITHUB, STRIPE, AWS, SLACK, JWT, BEARER_TOKEN, PRIVATE_KEY_BODY] {
            for part in hidden_parts(credential) {
                assert!(
                    !output.contains(&part),
                    "{format} shows `{part}` of `{credential}`:\n{output}"
                );
            }
        }
    }
}
