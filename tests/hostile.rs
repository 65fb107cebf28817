//! Input a stranger controls, end to end through the `opb` binary: inputs
//! that never end, file names and document text written to steer a
//! terminal or a CI log, and the language server's wire.
//!
//! A run that should be quick is watched by a hang guard (generous: it
//! fails only a run that would otherwise never end), and memory is bounded
//! with the shell's `ulimit -v` where an unbounded read would exhaust it.
//! Unix only: FIFOs, devices, `sh` and `yes` are what it runs.

#![cfg(unix)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Long enough for a debug build on a loaded machine; an unbounded read or
/// a blocked open never finishes at all.
const HANG_GUARD: Duration = Duration::from_secs(60);
/// Virtual memory for a run, in KiB: reading to the 16 MiB limit fits with
/// room to spare; reading `/dev/zero` whole does not.
const MEMORY_KIB: u32 = 1024 * 1024;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir.join(name)
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Waits for `child`, killing it (and failing) if the hang guard expires.
fn finish(mut child: Child, what: &str) -> Run {
    let started = Instant::now();
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        stdout.read_to_end(&mut text).ok();
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        stderr.read_to_end(&mut text).ok();
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > HANG_GUARD {
            child.kill().ok();
            child.wait().ok();
            panic!("{what}: still running after {HANG_GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    Run {
        code: status.code(),
        stdout: text(out.join().expect("stdout read")),
        stderr: text(err.join().expect("stderr read")),
    }
}

/// `script` run by `sh` in the workspace, `$OPB` the binary, memory bounded.
fn shell(script: &str) -> Run {
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB}; {script}"))
        .env("OPB", env!("CARGO_BIN_EXE_opb"))
        .env_remove("CLICOLOR_FORCE")
        .current_dir(workspace())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    finish(child, script)
}

/// `opb args…` with `stdin` written to it.
fn opb(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_opb"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .current_dir(workspace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("opb runs");
    child.stdin.take().expect("piped stdin").write_all(stdin).expect("stdin written");
    finish(child, &args.join(" "))
}

mod endless_input {
    use super::*;

    const MORE_THAN: &str = "The input is more than 16777216 bytes";

    #[test]
    fn standard_input_that_never_ends_is_over_the_limit_at_once() {
        for script in ["\"$OPB\" check - < /dev/zero", "yes | \"$OPB\" check -"] {
            let run = shell(script);
            assert_eq!(run.code, Some(1), "{script}: {}", run.stderr);
            assert!(run.stdout.contains("error[IN006 too-large]"), "{script}: {}", run.stdout);
            assert!(run.stdout.contains(MORE_THAN), "{script}: {}", run.stdout);
        }
    }

    #[test]
    fn a_device_is_refused_before_it_is_read() {
        let run = shell("\"$OPB\" check /dev/zero");
        assert_eq!(run.code, Some(2));
        assert_eq!(
            run.stderr,
            "error: cannot read /dev/zero: it is a device, not a regular file; to read it all the same, redirect it to standard input and name `-` instead\n"
        );
    }

    #[test]
    fn a_fifo_no_one_writes_to_is_refused_not_waited_on() {
        let fifo = scratch("never-written.opb.yaml");
        std::fs::remove_file(&fifo).ok();
        let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success());
        let name = fifo.to_str().expect("UTF-8 path");
        for command in ["check", "explain"] {
            let run = opb(&[command, name], b"");
            assert_eq!(run.code, Some(2), "{command}");
            assert!(
                run.stderr.contains("it is a FIFO (a named pipe), not a regular file"),
                "{}",
                run.stderr
            );
        }
        // A symbolic link to one, as a checkout may hold, is no different.
        let link = scratch("link.opb.yaml");
        std::fs::remove_file(&link).ok();
        std::os::unix::fs::symlink(&fifo, &link).expect("symlink");
        assert_eq!(opb(&["check", link.to_str().expect("UTF-8 path")], b"").code, Some(2));
    }

    #[test]
    fn a_settings_file_or_baseline_that_never_ends_is_refused() {
        // A repository's settings may name any path; so may a command line.
        for (flag, said) in [
            ("--config", "/dev/zero: it is a device"),
            ("--baseline", "cannot read the baseline /dev/zero: it is a device"),
        ] {
            let script =
                format!("\"$OPB\" check {flag} /dev/zero examples/failed-charge-recovery.json");
            let run = shell(&script);
            assert_eq!(run.code, Some(2), "{flag}: {}", run.stderr);
            assert!(run.stderr.contains(said), "{flag}: {}", run.stderr);
        }
    }

    #[test]
    fn a_file_over_the_limit_is_not_read_and_its_size_is_named() {
        let big = scratch("big.opb.yaml");
        let file = std::fs::File::create(&big).expect("file");
        // Sparse: 20 MB that take no room on disk.
        file.set_len(20_000_000).expect("set_len");
        let run = opb(&["check", big.to_str().expect("UTF-8 path")], b"");
        assert_eq!(run.code, Some(1));
        assert!(run.stdout.contains("The input is 20000000 bytes"), "{}", run.stdout);
        let run = opb(&["convert", "--to", "json", big.to_str().expect("UTF-8 path")], b"");
        assert_eq!(run.code, Some(2));
        assert!(run.stderr.contains("The input is 20000000 bytes"), "{}", run.stderr);
    }
}

mod terminal {
    use super::*;

    /// A playbook whose texts carry ESC and C1 sequences (CSI, OSC, ST,
    /// NEL), bidi overrides and workflow commands after line breaks; its
    /// `next` names no step, so `opb check` quotes it.
    const HOSTILE: &str = concat!(
        "openplaybook: \"1.6\"\n",
        "requires:\n  connections: []\n",
        "steps:\n",
        "  - id: \"triage\\e[2J\"\n",
        "    kind: agent\n",
        "    agent: \"lou\\x9b31m\"\n",
        "    purpose: \"Read it\\x9d0;pwned\\x9c\\x85now.\\n::error file=a.yaml,line=1::forged\\n  ::add-mask::hidden ##[warning]legacy\\u202eevil\"\n",
        "    allowedTools: []\n",
        "    next: \"ga\\x9b2J\\u202eet\"\n",
        "  - id: gate\n",
        "    kind: gate\n",
        "    purpose: A person approves.\n",
    );

    /// A control character a terminal acts on, or a bidi control.
    fn is_dangerous(c: char) -> bool {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
    }

    /// No control sequence, and no line GitHub Actions runs as a command.
    fn assert_inert(what: &str, output: &str) {
        assert!(!output.chars().any(is_dangerous), "{what}: raw control in {output:?}");
        for line in output.lines() {
            assert!(!line.trim_start().starts_with("::"), "{what}: a workflow command: {line:?}");
            assert!(!line.contains("##["), "{what}: a legacy workflow command: {line:?}");
        }
    }

    #[test]
    fn check_and_explain_show_c1_controls_and_line_breaks_as_escapes() {
        let run = opb(&["check", "--stdin-name", "x.opb.yaml", "-"], HOSTILE.as_bytes());
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert!(run.stdout.contains("PB213"), "{}", run.stdout);
        assert!(run.stdout.contains("ga\\u{9b}2J\\u{202e}et"), "{}", run.stdout);
        assert_inert("check", &run.stdout);

        let run = opb(&["explain", "--stdin-name", "x.opb.yaml", "-"], HOSTILE.as_bytes());
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            run.stdout.contains("\\u{9d}0;pwned\\u{9c}\\u{85}now.\\n::error"),
            "{}",
            run.stdout
        );
        assert_inert("explain", &run.stdout);
        let run =
            opb(&["explain", "--paths", "--stdin-name", "x.opb.yaml", "-"], HOSTILE.as_bytes());
        assert_inert("explain --paths", &run.stdout);
    }

    #[test]
    fn a_wrapped_line_does_not_start_a_workflow_command() {
        for words in 1..40 {
            let purpose =
                format!("{}::error file=a.yaml::forged ::add-mask::hidden", "word ".repeat(words));
            let text = HOSTILE.replace("Read it\\x9d0", &format!("{purpose} \\x9d0"));
            let run = opb(&["explain", "--stdin-name", "x.opb.yaml", "-"], text.as_bytes());
            assert_inert(&format!("explain, {words} words"), &run.stdout);
        }
    }

    #[test]
    fn file_names_are_escaped_wherever_they_are_shown() {
        let name = "evil\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}lmay.opb.yaml";
        let path = scratch(name);
        std::fs::write(&path, HOSTILE).expect("file");
        let path = path.to_str().expect("UTF-8 path");
        for format in ["human", "github", "json", "sarif"] {
            let run = opb(&["check", "--format", format, path], b"");
            assert_eq!(run.code, Some(1), "{format}: {}", run.stderr);
            if format == "human" || format == "github" {
                assert!(
                    run.stdout.contains("evil\\u{1b}]0;owned\\u{7}"),
                    "{format}: {}",
                    run.stdout
                );
                assert!(!run.stdout.chars().any(is_dangerous), "{format}: {:?}", run.stdout);
            }
        }
        let run = opb(&["check", "--format", "github", path], b"");
        for line in run.stdout.lines() {
            assert!(line.starts_with("::"), "one command per line: {line:?}");
        }
        let run = opb(&["explain", path], b"");
        assert_inert("explain", &run.stdout);
        let missing = format!("{path}.missing\u{9b}2J");
        let run = opb(&["check", &missing], b"");
        assert_eq!(run.code, Some(2));
        assert!(run.stderr.contains("\\u{9b}2J"), "{}", run.stderr);
        assert_inert("error", &run.stderr);
        let run = opb(&["diff", path, path], b"");
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_inert("diff", &run.stdout);
        let run = opb(&["rules", "PB213\u{9b}2J\n::error::x"], b"");
        assert_eq!(run.code, Some(2));
        assert_inert("rules", &run.stderr);
    }

    #[test]
    fn github_annotations_show_bidi_controls_as_escapes() {
        let run = opb(
            &["check", "--format", "github", "--stdin-name", "x.opb.yaml", "-"],
            HOSTILE.as_bytes(),
        );
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert!(run.stdout.contains("ga\\u{9b}2J\\u{202e}et"), "{}", run.stdout);
        assert!(!run.stdout.chars().any(is_dangerous), "{:?}", run.stdout);
    }
}

mod language_server {
    use super::*;
    use serde_json::{json, Value};

    fn framed(message: &Value) -> Vec<u8> {
        let body = message.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    /// `opb lsp` under a memory bound, fed `input` then end of input.
    fn lsp(input: impl Read + Send + 'static) -> Run {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {MEMORY_KIB}; exec \"$OPB\" lsp"))
            .env("OPB", env!("CARGO_BIN_EXE_opb"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("opb lsp runs");
        let mut stdin = child.stdin.take().expect("piped stdin");
        let mut input = input;
        // The server may stop reading early: a broken pipe is its answer.
        std::thread::spawn(move || io_copy(&mut input, &mut stdin));
        finish(child, "opb lsp")
    }

    fn io_copy(from: &mut impl Read, to: &mut impl Write) {
        let _ = std::io::copy(from, to);
    }

    fn initialize() -> Vec<u8> {
        framed(
            &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }),
        )
    }

    #[test]
    fn a_registry_the_settings_point_at_a_device_is_logged_not_read() {
        let folder = scratch("endless-registry");
        std::fs::create_dir_all(&folder).expect("folder");
        std::fs::write(folder.join("opb.toml"), "registry = \"/dev/zero\"\n").expect("opb.toml");
        let document = folder.join("recovery.opb.json");
        let text =
            std::fs::read_to_string(workspace().join("examples/failed-charge-recovery.json"))
                .expect("example");
        std::fs::write(&document, &text).expect("document");
        let uri = format!("file://{}", document.display());
        let messages = [
            initialize(),
            framed(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })),
            framed(&json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": { "uri": uri, "languageId": "json", "version": 1, "text": text }
            } })),
            framed(&json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" })),
            framed(&json!({ "jsonrpc": "2.0", "method": "exit" })),
        ]
        .concat();
        let run = lsp(std::io::Cursor::new(messages));
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            run.stdout.contains("cannot read /dev/zero, the settings' registry: it is a device"),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("textDocument/publishDiagnostics"), "{}", run.stdout);
    }

    #[test]
    fn a_content_length_past_any_memory_does_not_abort_the_server() {
        let input = b"Content-Length: 99999999999999\r\n\r\n{\"jsonrpc\":\"2.0\"".to_vec();
        let run = lsp(std::io::Cursor::new(input));
        assert_eq!(run.code, Some(2), "exits, not killed: {}", run.stderr);
        assert!(
            run.stderr.contains(
                "opb lsp stopped: the input ended 16 bytes into a message of 99999999999999 bytes"
            ),
            "{}",
            run.stderr
        );
    }

    #[test]
    fn a_message_over_the_limit_is_dropped_and_the_next_one_answered() {
        // One byte over the limit of 128 MiB, read through, not held.
        let huge = 8 * 16 * 1024 * 1024 + 1;
        let header = format!("Content-Length: {huge}\r\n\r\n").into_bytes();
        let exit = [
            framed(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })),
            framed(&json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" })),
            framed(&json!({ "jsonrpc": "2.0", "method": "exit" })),
        ]
        .concat();
        let input = std::io::Cursor::new(header)
            .chain(std::io::repeat(b' ').take(huge))
            .chain(std::io::Cursor::new([initialize(), exit].concat()));
        let run = lsp(input);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(run.stdout.contains("window/logMessage"), "{}", run.stdout);
        assert!(
            run.stdout.contains(&format!("dropped a message of {huge} bytes")),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("\"serverInfo\""), "initialize answered: {}", run.stdout);
    }
}
