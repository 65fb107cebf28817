//! Credentials written into a document never reach opb's output past their
//! first four characters, in any command or format: not in a message or a
//! pointer (the core masks every one by what the credential rules found),
//! not in the source lines the human format shows (masked by the same
//! findings), not in JSON, SARIF or GitHub annotations, not in `opb
//! explain`, `opb render` or `opb diff`. CI logs are public more often than
//! documents are.

use assert_cmd::Command;
use std::io::Write;

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

/// `opb ARGS` with `stdin` as its standard input: its output, both
/// streams, once its exit code is checked.
fn opb(args: &[&str], stdin: &str, code: i32) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_opb"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .write_stdin(stdin)
        .output()
        .expect("opb runs");
    let mut all = String::from_utf8(output.stdout).expect("UTF-8 output");
    all.push_str(&String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(code), "opb {args:?}:\n{all}");
    all
}

/// `opb COMMAND --format FORMAT` on the leaky playbook.
fn run(command: &str, format: &str, code: i32) -> String {
    opb(&[command, "--format", format, "--stdin-name", "leaky.yaml", "-"], &playbook(), code)
}

fn assert_hidden(output: &str, credential: &str, what: &str) {
    for part in hidden_parts(credential) {
        assert!(!output.contains(&part), "{what} shows `{part}` of `{credential}`:\n{output}");
    }
}

/// The credentials are errors: `opb check` exits 1.
fn check(format: &str) -> String {
    run("check", format, 1)
}

#[test]
fn no_output_format_shows_more_than_four_characters_of_a_credential() {
    for format in ["human", "json", "sarif", "github"] {
        let output = check(format);
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

/// The server name of the keyed playbook that PB411 flags.
const SERVER: &str = "admin:hunter2@acme";

/// The path of a fixture of the masking tests: the keyed playbook
/// (`keyed.yaml`: `GITHUB` in the description, as a top-level key and as a
/// branch label; `SERVER` declared and used in a tool name) or the keyed
/// manifest (`GITHUB` naming a header, a variable and a function; a
/// header's `hunter2hunter2` that PM312 finds).
fn fixture(name: &str) -> String {
    format!("{}/crates/core/tests/fixtures/masking/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn keyed_playbook() -> String {
    std::fs::read_to_string(fixture("keyed.yaml")).unwrap()
}

/// A directory of its own for a test, for the commands that read paths.
fn directory(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("opb-credentials-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `text` written to `name` in `dir`: its path.
fn file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::File::create(&path).and_then(|mut f| f.write_all(text.as_bytes())).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_credential_used_as_a_key_or_quoted_by_another_rule_is_shown_whole_in_no_output() {
    let (playbook, manifest) = (fixture("keyed.yaml"), fixture("keyed.oz0-plugin.yaml"));
    let mut outputs = Vec::new();
    for format in ["human", "json", "sarif", "github"] {
        outputs.push((
            format!("check {format}"),
            opb(&["check", "--format", format, &playbook], "", 1),
        ));
        outputs.push((
            format!("check {format} (manifest)"),
            opb(&["check", "--format", format, &manifest], "", 1),
        ));
    }
    for format in ["human", "json"] {
        for path in [&playbook, &manifest] {
            outputs.push((
                format!("explain {format} {path}"),
                opb(&["explain", "--format", format, path], "", 0),
            ));
        }
        outputs.push((
            format!("explain --paths {format}"),
            opb(&["explain", "--paths", "--format", format, &playbook], "", 0),
        ));
    }
    outputs.push(("render svg".into(), opb(&["render", &playbook], "", 0)));
    for path in [&playbook, &manifest] {
        outputs.push((
            format!("render html {path}"),
            opb(&["render", "--format", "html", path], "", 0),
        ));
        for view in ["graph", "summary", "report"] {
            outputs.push((
                format!("render fragment {view} {path}"),
                opb(
                    &["render", "--format", "fragment", "--interactive", "--view", view, path],
                    "",
                    0,
                ),
            ));
        }
    }
    for (what, output) in &outputs {
        assert_hidden(output, GITHUB, what);
        assert_hidden(output, SERVER, what);
        assert_hidden(output, "hunter2hunter2", what);
    }
    // What was cut is still named by its first four characters.
    let check_json = &outputs[2].1;
    assert!(check_json.contains("\"/ghp_…\""), "the top-level key's pointer:\n{check_json}");
    assert!(check_json.contains("/steps/0/next/ghp_…"), "{check_json}");
    let explain = &outputs[8].1;
    assert!(explain.contains("ghp_…"), "the branch label, cut:\n{explain}");
}

#[test]
fn a_diff_shows_no_credential_either_version_flagged() {
    let dir = directory("diff");
    let old = file(&dir, "old.yaml", &keyed_playbook());
    // The new version no longer declares the server: nothing in it flags
    // the name, which a step still calls a tool by.
    let new = keyed_playbook()
        .replace(&format!("  mcpServers:\n    - name: {SERVER}\n      toolNames: []\n"), "")
        .replace(
            &format!("[mcp.{SERVER}.search]"),
            &format!("[mcp.{SERVER}.search, mcp.{SERVER}.write]"),
        );
    let new = file(&dir, "new.yaml", &new);
    for format in ["human", "json", "markdown"] {
        let output = opb(&["diff", "--format", format, &old, &new], "", 0);
        assert!(output.contains("mcp.admi….write"), "{format}:\n{output}");
        assert_hidden(&output, SERVER, &format!("diff {format}"));
        assert_hidden(&output, GITHUB, &format!("diff {format}"));
    }
    std::fs::remove_dir_all(dir).ok();
}

/// The source lines are masked by what the rules found, read as the
/// document reads it: an escape in a JSON string does not hide a value
/// from the masking, and a header's credential PM312 found is masked
/// though it has no credential's shape.
#[test]
fn source_lines_hide_what_the_rules_found_through_escapes_and_without_a_shape() {
    let json = r#"{"openplaybook": "1.6", "steps": [],
 "awsSecret": "wJalrXUtnFEMI\/K7MDENG\/bPxRfiCYEXAMPLEKEY",
 "notes": "token ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru\u0038"}
"#;
    let output = opb(&["check", "--stdin-name", "escaped.json", "-"], json, 1);
    assert!(output.contains("\"awsSecret\": \"wJal***"), "{output}");
    for hidden in ["rXUtnFEMI", "K7MDENG", "bPxRfiCY", "Zq8rT2vLm4Nx"] {
        assert!(!output.contains(hidden), "`{hidden}`:\n{output}");
    }
    let output = opb(&["check", &fixture("keyed.oz0-plugin.yaml")], "", 1);
    assert!(output.contains("X-Api-Key: \"hunt**********\""), "{output}");
    assert_hidden(&output, "hunter2hunter2", "check");
    assert_hidden(&output, GITHUB, "check");
}

/// A pointer label is masked only where it holds a flagged value: a long
/// field name of mixed case and digits merely looks random.
#[test]
fn a_pointer_label_that_merely_looks_random_is_shown_as_it_is() {
    let text = "openplaybook: \"1.6\"\nrequires: {connections: []}\nsteps:\n  - id: a\n    kind: gate\n    purpose: Stop.\n    X9kQ2mZr7LpT4vB8nWc3Yd: 1\n";
    let output = opb(&["check", "--stdin-name", "random.yaml", "-"], text, 0);
    assert!(output.contains("^ /steps/0/X9kQ2mZr7LpT4vB8nWc3Yd\n"), "{output}");
    assert!(output.contains("    X9kQ2mZr7LpT4vB8nWc3Yd: 1"), "the source line too:\n{output}");
}
