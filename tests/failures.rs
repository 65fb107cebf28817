//! Every way a run of `opb` can fail that a person can reach: each exits 2
//! (1 for `explain` of a document it cannot read) with one message that
//! says what happened and what to do about it.

use assert_cmd::Command;
use std::path::Path;

const MANIFEST: &str = "examples/acme-github.oz0-plugin.yaml";

/// `opb` run from the workspace root, with the given standard input.
fn opb(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_opb"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("CLICOLOR_FORCE")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("opb runs");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8 output");
    (output.status.code().unwrap_or(-1), text(output.stdout), text(output.stderr))
}

/// A failure's message: what happened, then (after `;` or `.`) what to do,
/// as an imperative or a command to run.
fn assert_actionable(message: &str, what: &str, to_do: &[&str]) {
    assert!(message.contains(what), "says what happened ({what}): {message}");
    assert!(
        to_do.iter().all(|advice| message.contains(advice)),
        "says what to do ({to_do:?}): {message}"
    );
}

#[test]
fn a_missing_file() {
    let (status, _, stderr) = opb(&["check", "no/such/playbook.json"], b"");
    assert_eq!(status, 2);
    assert_actionable(
        &stderr,
        "cannot read no/such/playbook.json: no such file",
        &["check the path"],
    );
}

#[test]
fn a_directory() {
    let (status, _, stderr) = opb(&["explain", "examples"], b"");
    assert_eq!(status, 2);
    assert_actionable(
        &stderr,
        "cannot read examples: it is a directory",
        &["name the files inside it"],
    );
}

#[test]
fn text_that_is_not_utf8() {
    let (status, _, stderr) =
        opb(&["check", "--stdin-name", "latin1.yaml", "-"], b"name: caf\xe9\n");
    assert_eq!(status, 2);
    assert_actionable(
        &stderr,
        "not UTF-8 text (byte 0xE9 at line 1, column 10)",
        &["save it as UTF-8"],
    );

    let (status, _, stderr) = opb(&["check", "-"], b"\xff\xfe{\x00}\x00");
    assert_eq!(status, 2);
    assert_actionable(&stderr, "the text is UTF-16", &["save it as UTF-8"]);
}

#[test]
fn standard_input_named_twice() {
    for args in [["check", "-", "-"], ["diff", "-", "-"]] {
        let (status, _, stderr) = opb(&args, b"steps: []\n");
        assert_eq!(status, 2, "{args:?}");
        assert_actionable(
            &stderr,
            "standard input (`-`) can be named only once",
            &["name the other files by path"],
        );
    }
}

#[test]
fn a_registry_that_cannot_be_read() {
    let (status, stdout, stderr) =
        opb(&["check", "--registry", "no/such/tools.yaml", MANIFEST], b"");
    assert_eq!(status, 2);
    assert_actionable(&stderr, "the registry: cannot read no/such/tools.yaml", &["check the path"]);
    assert_eq!(stdout, "", "nothing is checked without the registry asked for");
}

#[test]
fn a_document_explain_cannot_read() {
    for (text, why) in
        [("[1, 2]\n", "a list"), ("name: something\n", "no kind"), ("a: [\n", "not YAML")]
    {
        let (status, stdout, _) =
            opb(&["explain", "--stdin-name", "pasted.yaml", "-"], text.as_bytes());
        assert_eq!(status, 1, "{why}");
        let message = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_actionable(
            &message,
            "opb cannot explain pasted.yaml: it could not read it as a playbook or a plugin manifest.",
            &["`opb check pasted.yaml` shows why", "`--kind playbook` or `--kind plugin`"],
        );
    }
}

#[test]
fn risk_paths_of_what_has_none() {
    let (status, _, stderr) = opb(&["explain", "--paths", MANIFEST], b"");
    assert_eq!(status, 2);
    assert_actionable(
        &stderr,
        "it is a plugin manifest, and only a playbook's steps form paths",
        &[&format!("`opb explain {MANIFEST}` describes its tools")],
    );

    let (status, _, stderr) =
        opb(&["explain", "--paths", "--stdin-name", "pasted.yaml", "-"], b"a: [\n");
    assert_eq!(status, 2);
    assert_actionable(
        &stderr,
        "no risk paths in pasted.yaml: it could not be read as a playbook",
        &["`opb check pasted.yaml` shows why"],
    );
}

#[test]
fn an_unknown_rule() {
    let (status, _, stderr) = opb(&["rules", "PB2133"], b"");
    assert_eq!(status, 2);
    assert_actionable(
        &stderr,
        "no rule has the code or name `PB2133`",
        &["the closest: PB213 (next-unknown)", "`opb rules` lists them all"],
    );
}

#[test]
fn wrong_arguments() {
    for (args, what, to_do) in [
        (
            &["check", "--kind", "novel", "x.yaml"][..],
            "invalid value 'novel' for '--kind <KIND>'",
            "[possible values: playbook, plugin]",
        ),
        (&["fmt"][..], "the following required arguments were not provided", "Usage: opb fmt"),
        (&["frobnicate"][..], "unrecognized subcommand 'frobnicate'", "try '--help'"),
        (
            &["check", "--format", "xml", "x.yaml"][..],
            "invalid value 'xml' for '--format <FORMAT>'",
            "[possible values: human, json, sarif, github, gitlab, junit]",
        ),
    ] {
        let (status, _, stderr) = opb(args, b"");
        assert_eq!(status, 2, "{args:?}");
        assert_actionable(&stderr, what, &[to_do]);
    }
}

#[test]
fn output_that_cannot_be_written() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let file = std::fs::OpenOptions::new().write(true).open(full).expect("/dev/full opens");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_opb"))
        .args(["rules"])
        .stdout(file)
        .output()
        .expect("opb runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_actionable(&stderr, "cannot write the output", &["No space left on device"]);
}
