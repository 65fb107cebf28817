//! `opb check` over a team's repository, made in each test: git init,
//! nested folders, a `.gitignore`d `node_modules` full of JSON, a hidden
//! folder, files of other names. Which files are chosen, what is reported
//! and the exit status.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

/// A playbook with one error: a `next` one letter from `done` (PB213, with
/// a certain fix).
const TYPO: &str = "openplaybook: \"1.6\"
id: small
name: Small
description: Two steps.
requires:
  connections: []
steps:
  - id: look
    kind: agent
    agent: lou
    purpose: Look.
    allowedTools: []
    next: dnoe
  - id: done
    kind: agent
    agent: lou
    purpose: Finish.
    allowedTools: []
start: look
";

const MANIFEST: &str = "name: acme\ntools:\n  - id: acme_helper\n    mcp: [node, server.js]\n";

/// The files a walk of [`Repo::team`] chooses, in the order reported.
const CHOSEN: [&str; 4] = [
    "playbooks/clean.opb.yaml",
    "playbooks/legacy/old.opb.yaml",
    "playbooks/refund.opb.yaml",
    "plugins/acme/oz0-plugin.yaml",
];

/// A repository in a temporary directory, removed when dropped.
struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let repo = Repo { dir: tempfile::tempdir().expect("a temporary directory") };
        let status = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(repo.path())
            .status()
            .expect("git runs");
        assert!(status.success());
        repo
    }

    /// The repository every test starts from.
    fn team() -> Repo {
        let repo = Repo::new();
        repo.write(".gitignore", "node_modules/\n");
        repo.write("playbooks/refund.opb.yaml", TYPO);
        repo.write("playbooks/clean.opb.yaml", &TYPO.replace("dnoe", "done"));
        repo.write("playbooks/legacy/old.opb.yaml", TYPO);
        repo.write("plugins/acme/oz0-plugin.yaml", MANIFEST);
        repo.write("notes/settings.json", "{\"not\": \"a playbook\"}");
        repo.write("README.md", "# playbooks\n");
        repo.write(".hidden/secret.opb.yaml", TYPO);
        for i in 0..20 {
            repo.write(&format!("node_modules/pkg{i}/index.opb.json"), "{\"broken\": ");
            repo.write(&format!("node_modules/pkg{i}/package.json"), "{}");
        }
        repo
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(path, text).expect("written");
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.path().join(path)).expect("readable")
    }

    /// `opb` run in the repository (or a folder of it).
    fn opb(&self, args: &[&str]) -> Command {
        self.opb_in(".", args)
    }

    fn opb_in(&self, dir: &str, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_opb"));
        command
            .current_dir(self.path().join(dir))
            .env_remove("CLICOLOR_FORCE")
            .env_remove("NO_COLOR")
            .env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join(".config"))
            .args(args);
        command
    }

    /// The JSON report of `opb check ARGS --format json`, and the status.
    fn report(&self, args: &[&str]) -> (Value, i32) {
        let mut all = vec!["check", "--format", "json"];
        all.extend(args);
        let output = self.opb(&all).output().expect("opb runs");
        let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "{e}: {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        });
        (report, output.status.code().expect("an exit status"))
    }
}

/// The paths a report names, in its order.
fn paths(report: &Value) -> Vec<String> {
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("a path").to_owned())
        .collect()
}

fn stdout(mut command: Command) -> String {
    String::from_utf8(command.output().expect("opb runs").stdout).expect("UTF-8")
}

mod discovery {
    use super::*;

    #[test]
    fn no_path_walks_the_current_directory_skipping_ignored_hidden_and_other_files() {
        let repo = Repo::team();
        let (report, status) = repo.report(&[]);
        assert_eq!(paths(&report), CHOSEN);
        assert_eq!(status, 1, "PB213 is an error");
        // `.` named is the same walk.
        assert_eq!(repo.report(&["."]).0, report);
    }

    #[test]
    fn a_directory_named_is_walked_and_paths_keep_its_name() {
        let repo = Repo::team();
        let (report, _) = repo.report(&["playbooks/legacy", "plugins"]);
        assert_eq!(
            paths(&report),
            ["playbooks/legacy/old.opb.yaml", "plugins/acme/oz0-plugin.yaml"]
        );
        let (report, status) = repo.report(&["plugins"]);
        assert_eq!((paths(&report).len(), status), (1, 0));
    }

    #[test]
    fn a_file_named_is_checked_even_where_a_walk_leaves_it_out() {
        let repo = Repo::team();
        let (report, status) =
            repo.report(&["node_modules/pkg3/index.opb.json", ".hidden/secret.opb.yaml"]);
        assert_eq!(paths(&report), ["node_modules/pkg3/index.opb.json", ".hidden/secret.opb.yaml"]);
        assert_eq!(status, 1);
    }

    #[test]
    fn the_ignore_file_and_a_nested_gitignore_are_honoured() {
        let repo = Repo::team();
        repo.write(".ignore", "playbooks/legacy/\n");
        repo.write("plugins/.gitignore", "acme/\n");
        let (report, _) = repo.report(&[]);
        assert_eq!(paths(&report), ["playbooks/clean.opb.yaml", "playbooks/refund.opb.yaml"]);
    }

    #[test]
    fn the_report_is_the_same_on_every_run_and_with_one_thread() {
        let repo = Repo::team();
        for i in 0..40 {
            repo.write(&format!("many/{i:02}.opb.yaml"), TYPO);
        }
        let first = stdout(repo.opb(&["check"]));
        for _ in 0..3 {
            assert_eq!(stdout(repo.opb(&["check"])), first);
        }
        assert_eq!(
            stdout({
                let mut c = repo.opb(&["check"]);
                c.env("RAYON_NUM_THREADS", "1");
                c
            }),
            first
        );
        let listed: Vec<&str> = first.lines().filter(|l| l.starts_with("many/")).collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        assert_eq!((listed.len(), &listed), (40, &sorted));
    }

    #[test]
    fn a_directory_with_nothing_to_check_reports_no_files_and_exits_0() {
        let repo = Repo::team();
        let (report, status) = repo.report(&["notes"]);
        assert_eq!((paths(&report).len(), status), (0, 0));
    }
}

/// `path: CODE@pointer severity` for each diagnostic of a report.
fn findings(report: &Value) -> Vec<String> {
    listed(report, |d| d["pointer"].as_str().expect("a pointer").to_owned())
}

/// `path: CODE@PLACE severity` for each diagnostic, `place` its place.
fn listed(report: &Value, place: fn(&Value) -> String) -> Vec<String> {
    let mut out = Vec::new();
    for file in report["files"].as_array().expect("files") {
        for d in file["diagnostics"].as_array().into_iter().flatten() {
            out.push(format!(
                "{}: {}@{} {}",
                file["path"].as_str().expect("a path"),
                d["code"].as_str().expect("a code"),
                place(d),
                d["severity"].as_str().expect("a severity"),
            ));
        }
    }
    out
}

fn stderr(mut command: Command) -> (String, i32) {
    let output = command.output().expect("opb runs");
    (String::from_utf8(output.stderr).expect("UTF-8"), output.status.code().expect("a status"))
}

mod settings {
    use super::*;

    /// Two settings files at different depths: the nearest applies alone.
    fn configured() -> Repo {
        let repo = Repo::team();
        repo.write("opb.toml", "exclude = [\"fixtures\"]\n\n[severity]\nPB213 = \"warning\"\n");
        repo.write("playbooks/legacy/.opb.toml", "ignore = [\"PB2\"]\n");
        repo.write("fixtures/bad.opb.yaml", TYPO);
        repo.write("playbooks/fixtures/deep/bad.opb.yaml", TYPO);
        repo
    }

    #[test]
    fn the_nearest_settings_file_applies_to_each_file() {
        let repo = configured();
        let (report, status) = repo.report(&[]);
        assert_eq!(paths(&report), CHOSEN);
        assert_eq!(findings(&report), ["playbooks/refund.opb.yaml: PB213@/steps/0/next warning"]);
        assert_eq!(status, 0, "PB213 is a warning here");
        // From inside a folder, the same settings apply.
        let output = repo.opb_in("playbooks", &["check", "--format", "json"]).output().unwrap();
        let inner: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(findings(&inner), ["refund.opb.yaml: PB213@/steps/0/next warning"]);
    }

    #[test]
    fn isolated_uses_none_and_config_names_one() {
        let repo = configured();
        let (report, status) = repo.report(&["--isolated"]);
        assert_eq!(status, 1);
        assert_eq!(paths(&report).len(), 6, "fixtures are walked too: {:?}", paths(&report));
        repo.write("strict.toml", "select = [\"PB213\"]\n[severity]\nPB2 = \"info\"\n");
        let (report, status) = repo.report(&["--config", "strict.toml", "playbooks"]);
        assert_eq!(status, 0);
        assert_eq!(
            findings(&report),
            [
                "playbooks/fixtures/deep/bad.opb.yaml: PB213@/steps/0/next info",
                "playbooks/legacy/old.opb.yaml: PB213@/steps/0/next info",
                "playbooks/refund.opb.yaml: PB213@/steps/0/next info",
            ]
        );
    }

    #[test]
    fn include_and_per_file_ignores_choose_files_and_rules() {
        let repo = Repo::team();
        repo.write(
            "opb.toml",
            "include = [\"playbooks/**/*.yaml\", \"notes/*.json\"]\n\n[per-file-ignores]\n\"**/legacy/*.yaml\" = [\"PB213\"]\n",
        );
        let (report, _) = repo.report(&[]);
        assert_eq!(
            paths(&report),
            [
                "notes/settings.json",
                "playbooks/clean.opb.yaml",
                "playbooks/legacy/old.opb.yaml",
                "playbooks/refund.opb.yaml",
            ]
        );
        assert_eq!(
            findings(&report),
            [
                "notes/settings.json: IN003@ error",
                "playbooks/refund.opb.yaml: PB213@/steps/0/next error"
            ]
        );
    }

    #[test]
    fn an_unknown_setting_or_code_is_an_error_at_its_line_with_the_closest_name() {
        let repo = Repo::team();
        for (toml, expected) in [
            (
                "exclude = []\nselct = [\"PB\"]\n",
                "opb.toml:2: `selct` is no setting; did you mean `select`?",
            ),
            ("ignore = [\n  \"PB213\",\n  \"PB2133\",\n]\n", "opb.toml:3: `PB2133` names no rule"),
            ("[severity]\nPB220 = \"fatal\"\n", "opb.toml:2: `fatal` is no severity"),
            (
                "[per-file-ignores]\n\"x.json\" = [\"PB231@/steps/3\"]\n",
                "opb.toml:2: `PB231` names no rule",
            ),
            ("ignore = [\"nxet-unknown\"]\n", "did you mean `PB213` (next-unknown)?"),
        ] {
            repo.write("opb.toml", toml);
            let (stderr, status) = stderr(repo.opb(&["check"]));
            assert_eq!(status, 2, "{toml}");
            assert!(stderr.contains(expected), "{toml}: {stderr}");
            assert!(
                stderr.contains(&repo.path().join("opb.toml").display().to_string()),
                "{stderr}"
            );
            let (config, status) = stderr_of_config(&repo);
            assert_eq!((status, config), (2, stderr));
        }
    }

    fn stderr_of_config(repo: &Repo) -> (String, i32) {
        let (stderr, status) = stderr(repo.opb(&["config"]));
        (stderr, status)
    }

    #[test]
    fn opb_config_shows_what_applies_and_from_where() {
        let repo = configured();
        let shown = stdout(repo.opb(&["config", "playbooks/refund.opb.yaml"]));
        let file = repo.path().join("opb.toml");
        assert!(
            shown.starts_with(&format!(
                "playbooks/refund.opb.yaml: the settings of {}\n",
                file.display()
            )),
            "{shown}"
        );
        let line = |key: &str| {
            shown.lines().find(|l| l.trim_start().starts_with(key)).unwrap_or_default().to_owned()
        };
        assert_eq!(line("exclude"), "  exclude          line 1   [\"fixtures\"]", "{shown}");
        assert_eq!(line("severity"), "  severity         line 3   PB213 = \"warning\"", "{shown}");
        assert_eq!(line("select"), "  select           default  every rule", "{shown}");
        assert!(shown.contains("a walk checks it"), "{shown}");
        let legacy = stdout(repo.opb(&["config", "playbooks/legacy/old.opb.yaml"]));
        assert!(legacy.contains("legacy/.opb.toml"), "{legacy}");
        let excluded = stdout(repo.opb(&["config", "fixtures/bad.opb.yaml"]));
        assert!(excluded.contains("a walk leaves it out"), "{excluded}");
        let none = stdout(repo.opb(&["config", "--isolated"]));
        assert!(none.contains("no settings file applies"), "{none}");
    }
}

/// What `opb lsp` publishes for each file opened in it: `path: CODE@line
/// severity` (the LSP has no pointer; lines are 1-based as in the JSON
/// report).
fn published(repo: &Repo, files: &[&str]) -> Vec<String> {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_opb"))
        .arg("lsp")
        .current_dir(repo.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("opb lsp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |message: Value| {
        let body = message.to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("written");
        stdin.flush().expect("flushed");
    };
    let mut receive = || -> Value {
        let mut length = 0;
        loop {
            let mut header = String::new();
            stdout.read_line(&mut header).expect("a header");
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some(value) = header.strip_prefix("Content-Length: ") {
                length = value.parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        stdout.read_exact(&mut body).expect("a body");
        serde_json::from_slice(&body).expect("JSON")
    };
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    assert!(receive()["result"]["capabilities"].is_object());
    send(serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let mut out = Vec::new();
    for file in files {
        let path = repo.path().join(file);
        let uri = format!("file://{}", path.display());
        let text = std::fs::read_to_string(&path).expect("readable");
        send(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}));
        let message = loop {
            let message = receive();
            if message["method"] == "textDocument/publishDiagnostics" {
                break message;
            }
        };
        for d in message["params"]["diagnostics"].as_array().expect("diagnostics") {
            let severity = match d["severity"].as_u64() {
                Some(1) => "error",
                Some(2) => "warning",
                _ => "info",
            };
            let line = d["range"]["start"]["line"].as_u64().expect("a line") + 1;
            out.push(format!("{file}: {}@{line} {severity}", d["code"].as_str().expect("a code")));
        }
    }
    send(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    send(serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().expect("opb lsp ends");
    out
}

/// The same as [`findings`], with lines for pointers, as [`published`].
fn findings_by_line(report: &Value) -> Vec<String> {
    listed(report, |d| d["range"]["start"]["line"].to_string())
}

mod language_server {
    use super::*;

    #[test]
    fn each_document_gets_the_settings_of_its_file_as_opb_check_applies_them() {
        let repo = Repo::team();
        repo.write("opb.toml", "[severity]\nPB213 = \"info\"\n");
        repo.write("playbooks/legacy/opb.toml", "ignore = [\"PB213\"]\n");
        let files = ["playbooks/legacy/old.opb.yaml", "playbooks/refund.opb.yaml"];
        let (report, _) = repo.report(&files);
        let checked = findings_by_line(&report);
        assert_eq!(checked, ["playbooks/refund.opb.yaml: PB213@13 info"]);
        assert_eq!(published(&repo, &files), checked);
    }
}

mod formats {
    use super::*;

    fn workspace() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR"))
    }

    fn output(repo: &Repo, format: &str) -> String {
        stdout(repo.opb(&["check", "--format", format, ".", "node_modules/pkg1/index.opb.json"]))
    }

    #[test]
    fn gitlab_code_quality_follows_the_format_with_fingerprints_that_survive_edits_above() {
        let repo = Repo::team();
        let report: Value = serde_json::from_str(&output(&repo, "gitlab")).expect("JSON");
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(
                workspace().join("tests/data/gitlab-code-quality.schema.json"),
            )
            .expect("the schema is in tests/data"),
        )
        .expect("JSON");
        let validator = jsonschema::draft7::new(&schema).expect("the schema compiles");
        let errors: Vec<String> = validator.iter_errors(&report).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        let issues = report.as_array().expect("an array");
        let at = |issue: &Value| {
            format!(
                "{}:{} {} {}",
                issue["location"]["path"].as_str().unwrap(),
                issue["location"]["lines"]["begin"],
                issue["check_name"].as_str().unwrap(),
                issue["severity"].as_str().unwrap()
            )
        };
        let listed: Vec<String> = issues.iter().map(at).collect();
        assert_eq!(
            listed,
            [
                "playbooks/legacy/old.opb.yaml:13 PB213 critical",
                "playbooks/refund.opb.yaml:13 PB213 critical",
                "node_modules/pkg1/index.opb.json:1 IN001 critical",
            ]
        );
        let fingerprints: Vec<&str> =
            issues.iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
        let mut unique = fingerprints.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), fingerprints.len(), "{fingerprints:?}");
        // Lines added above a finding move it, and keep its fingerprint.
        repo.write("playbooks/refund.opb.yaml", &format!("# owned by the payments team\n\n{TYPO}"));
        let again: Value = serde_json::from_str(&output(&repo, "gitlab")).expect("JSON");
        assert_eq!(again[1]["location"]["lines"]["begin"], 15);
        let again: Vec<&str> =
            again.as_array().unwrap().iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
        assert_eq!(again, fingerprints);
    }

    #[test]
    fn junit_is_valid_under_jenkins_schema_with_a_test_case_a_file_and_a_failure_a_finding() {
        let repo = Repo::team();
        let xml = stdout(repo.opb(&[
            "check",
            "--format",
            "junit",
            ".",
            "node_modules/pkg1/index.opb.json",
            "no/such.opb.yaml",
        ]));
        let file = repo.path().join("report.xml");
        std::fs::write(&file, &xml).unwrap();
        let xsd = workspace().join("vendor/junit-xsd/junit-10.xsd");
        let lint = std::process::Command::new("xmllint")
            .args(["--noout", "--schema"])
            .arg(&xsd)
            .arg(&file)
            .output()
            .expect("xmllint runs (Debian's libxml2-utils; scripts/setup.sh test installs it)");
        assert!(lint.status.success(), "{}\n{xml}", String::from_utf8_lossy(&lint.stderr));
        assert_eq!(xml.matches("<testcase ").count(), 6, "{xml}");
        assert_eq!(xml.matches("<failure ").count(), 3, "{xml}");
        assert_eq!(xml.matches("<error ").count(), 1, "{xml}");
        assert!(xml.contains("<testcase name=\"playbooks/clean.opb.yaml\" classname=\"playbooks/clean.opb.yaml\"/>"), "{xml}");
        assert!(
            xml.contains("<testsuite name=\"opb check\" tests=\"6\" failures=\"3\" errors=\"1\">"),
            "{xml}"
        );
    }
}

mod suppressions {
    use super::*;

    /// `refund` accepts its PB213 in a comment above the line, `old` on the
    /// line itself, and a JSON playbook by a pointer in the settings.
    fn suppressed() -> Repo {
        let repo = Repo::team();
        repo.write(
            "playbooks/refund.opb.yaml",
            &TYPO.replace(
                "    next: dnoe\n",
                "    # opb: ignore[PB213] the harness maps the old step name\n    next: dnoe\n",
            ),
        );
        repo.write(
            "playbooks/legacy/old.opb.yaml",
            &TYPO.replace(
                "    next: dnoe\n",
                "    next: dnoe   # opb: ignore[PB2] frozen until the migration\n",
            ),
        );
        let json = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("crates/core/tests/fixtures/rules/PB213.bad.json"),
        )
        .expect("the PB213 fixture");
        repo.write("playbooks/legacy.opb.json", &json);
        repo.write(
            "opb.toml",
            "[per-file-ignores]\n\"playbooks/legacy.opb.json\" = [\"PB213@/steps/1/next/rejected\"]\n",
        );
        repo
    }

    #[test]
    fn accepted_findings_are_not_reported_but_counted_and_kept_with_their_reason() {
        let repo = suppressed();
        let (report, status) = repo.report(&[]);
        assert_eq!(findings(&report), Vec::<String>::new());
        assert_eq!(status, 0);
        let kept: Vec<String> = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| {
                f["suppressed"].as_array().into_iter().flatten().map(move |s| {
                    format!(
                        "{} {}@{} {}: {}",
                        f["path"].as_str().unwrap(),
                        s["code"].as_str().unwrap(),
                        s["pointer"].as_str().unwrap(),
                        s["suppression"]["kind"].as_str().unwrap(),
                        s["suppression"]["justification"].as_str().unwrap()
                    )
                })
            })
            .collect();
        let settings = repo.path().join("opb.toml");
        assert_eq!(
            kept,
            [
                "playbooks/legacy/old.opb.yaml PB213@/steps/0/next in-source: frozen until the migration".to_owned(),
                format!("playbooks/legacy.opb.json PB213@/steps/1/next/rejected external: per-file-ignores \"playbooks/legacy.opb.json\" in {}, line 2", settings.display()),
                "playbooks/refund.opb.yaml PB213@/steps/0/next in-source: the harness maps the old step name".to_owned(),
            ]
        );
        let human = stdout(repo.opb(&["check"]));
        assert!(human.contains("playbooks/refund.opb.yaml: no problems, 1 suppressed"), "{human}");
        assert!(human.ends_with("no problems, 3 suppressed in 5 files\n"), "{human}");
    }

    #[test]
    fn sarif_keeps_each_accepted_finding_with_its_suppression() {
        let repo = suppressed();
        let sarif: Value =
            serde_json::from_str(&stdout(repo.opb(&["check", "--format", "sarif"]))).unwrap();
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json"),
            )
            .unwrap(),
        )
        .unwrap();
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft7)
            .build(&schema)
            .expect("the schema compiles");
        let errors: Vec<String> = validator.iter_errors(&sarif).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        let kinds: Vec<(&str, &str)> = results
            .iter()
            .map(|r| {
                let s = &r["suppressions"][0];
                (s["kind"].as_str().unwrap(), s["justification"].as_str().unwrap())
            })
            .collect();
        // In path order: playbooks/legacy/ sorts before playbooks/legacy.opb.json.
        assert_eq!(kinds[0], ("inSource", "frozen until the migration"));
        assert_eq!(kinds[1].0, "external");
    }

    #[test]
    fn a_reader_is_shown_the_findings_a_document_accepts() {
        // A document cannot vouch for itself to its reader: what explains or
        // draws it for one keeps every finding.
        let repo = suppressed();
        let file = "playbooks/refund.opb.yaml";
        let (report, _) = repo.report(&[file]);
        assert_eq!(findings(&report), Vec::<String>::new());
        let explained = stdout(repo.opb(&["explain", file]));
        assert!(explained.contains("1 error points into this step"), "{explained}");
        let drawn = stdout(repo.opb(&["render", "--format", "fragment", file]));
        assert!(drawn.contains("PB213"), "{drawn}");
    }

    #[test]
    fn a_suppression_that_silences_nothing_is_a_warning() {
        let repo = suppressed();
        repo.write(
            "playbooks/clean.opb.yaml",
            &TYPO.replace("dnoe", "done").replace(
                "    kind: agent\n",
                "    kind: agent   # opb: ignore[PB213, PB999] was a typo\n",
            ),
        );
        let (report, status) = repo.report(&["playbooks/clean.opb.yaml"]);
        assert_eq!(status, 0);
        let messages: Vec<String> = report["files"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {} {}",
                    d["code"].as_str().unwrap(),
                    d["severity"].as_str().unwrap(),
                    d["range"]["start"]["line"]
                )
            })
            .collect();
        assert_eq!(
            messages,
            ["IN008 warning 9", "IN008 warning 9", "IN008 warning 15", "IN008 warning 15"]
        );
        assert!(report["files"][0]["diagnostics"][1]["message"]
            .as_str()
            .unwrap()
            .contains("`PB999` names no rule"));
    }
}

mod baseline {
    use super::*;

    #[test]
    fn a_baseline_reports_only_new_findings_matched_by_file_code_and_pointer() {
        let repo = Repo::team();
        let written =
            repo.opb(&["check", "--write-baseline", "opb-baseline.json"]).output().unwrap();
        assert_eq!(written.status.code(), Some(1), "the findings are still reported");
        assert!(String::from_utf8_lossy(&written.stderr)
            .contains("wrote 2 findings to the baseline opb-baseline.json"));
        let recorded: Value = serde_json::from_str(&repo.read("opb-baseline.json")).unwrap();
        assert_eq!(
            recorded["findings"],
            serde_json::json!([
                {"path": "playbooks/legacy/old.opb.yaml", "code": "PB213", "pointer": "/steps/0/next"},
                {"path": "playbooks/refund.opb.yaml", "code": "PB213", "pointer": "/steps/0/next"},
            ])
        );
        // Lines added above a finding keep it matched; a new finding is reported.
        repo.write("playbooks/refund.opb.yaml", &format!("# payments\n\n{TYPO}"));
        repo.write("playbooks/new.opb.yaml", TYPO);
        let (report, status) = repo.report(&["--baseline", "opb-baseline.json"]);
        assert_eq!(findings(&report), ["playbooks/new.opb.yaml: PB213@/steps/0/next error"]);
        assert_eq!(status, 1);
        let suppressed: usize = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["suppressed"].as_array().map_or(0, Vec::len))
            .sum();
        assert_eq!(suppressed, 2);
        // From a folder inside, the baseline's paths still match.
        let inside = repo
            .opb_in(
                "playbooks",
                &["check", "--baseline", "../opb-baseline.json", "refund.opb.yaml"],
            )
            .output()
            .unwrap();
        assert_eq!(inside.status.code(), Some(0), "{}", String::from_utf8_lossy(&inside.stdout));
    }

    #[test]
    fn entries_that_no_longer_occur_are_counted() {
        let repo = Repo::team();
        repo.opb(&["check", "--write-baseline", "opb-baseline.json"]).output().unwrap();
        repo.write("playbooks/refund.opb.yaml", &TYPO.replace("dnoe", "done"));
        let output = repo.opb(&["check", "--baseline", "opb-baseline.json"]).output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        let note = String::from_utf8_lossy(&output.stderr);
        assert!(
            note.contains(
                "note: the baseline opb-baseline.json: 1 of its 2 entries no longer occurs"
            ),
            "{note}"
        );
        repo.write("broken.json", "{\"version\": 2, \"findings\": []}");
        let (stderr, status) = stderr(repo.opb(&["check", "--baseline", "broken.json"]));
        assert_eq!(status, 2);
        assert!(stderr.contains("version 2"), "{stderr}");
    }
}

mod fix {
    use super::*;

    #[test]
    fn fix_applies_the_certain_fixes_keeping_comments_and_a_second_run_changes_nothing() {
        let repo = Repo::team();
        let commented = format!(
            "# owned by payments\n{}",
            TYPO.replace("    next: dnoe\n", "    next: dnoe    # renamed in March\n")
        );
        repo.write("playbooks/refund.opb.yaml", &commented);
        let diff = repo.opb(&["check", "--diff", "playbooks/refund.opb.yaml"]).output().unwrap();
        assert_eq!(diff.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&diff.stdout),
            "--- a/playbooks/refund.opb.yaml\n+++ b/playbooks/refund.opb.yaml\n@@ -11,7 +11,7 @@\n     agent: lou\n     purpose: Look.\n     allowedTools: []\n-    next: dnoe    # renamed in March\n+    next: done    # renamed in March\n   - id: done\n     kind: agent\n     agent: lou\n"
        );
        assert_eq!(repo.read("playbooks/refund.opb.yaml"), commented, "--diff changes nothing");
        let (report, status) = repo.report(&["--fix"]);
        assert_eq!((findings(&report), status), (Vec::<String>::new(), 0));
        assert_eq!(
            repo.read("playbooks/refund.opb.yaml"),
            commented.replace("next: dnoe", "next: done")
        );
        let once = repo.read("playbooks/legacy/old.opb.yaml");
        let second = repo.opb(&["check", "--fix"]).output().unwrap();
        assert!(String::from_utf8_lossy(&second.stderr).contains("fixed 0 findings in 0 files"));
        assert_eq!(repo.read("playbooks/legacy/old.opb.yaml"), once);
        let diff = repo.opb(&["check", "--diff"]).output().unwrap();
        assert_eq!((diff.status.code(), diff.stdout.len()), (Some(0), 0));
    }

    #[test]
    fn fix_on_every_fixture_with_a_certain_fix_leaves_no_such_finding_and_is_idempotent() {
        let fixtures =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/tests/fixtures/rules");
        let mut names: Vec<String> = std::fs::read_dir(&fixtures)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".bad.") && !n.contains(".registry."))
            .collect();
        names.sort();
        let repo = Repo::new();
        for name in &names {
            repo.write(name, &std::fs::read_to_string(fixtures.join(name)).unwrap());
        }
        let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
        let (before, _) = repo.report(&args);
        // The codes of the findings with a certain fix, per fixture.
        let fixable: Vec<(String, Vec<String>)> = before["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let codes = f["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|d| d.get("fix").is_some())
                    .map(|d| {
                        format!(
                            "{}@{}",
                            d["code"].as_str().unwrap(),
                            d["pointer"].as_str().unwrap()
                        )
                    })
                    .collect();
                (f["path"].as_str().unwrap().to_owned(), codes)
            })
            .filter(|(_, codes): &(String, Vec<String>)| !codes.is_empty())
            .collect();
        assert!(fixable.len() >= 2 && fixable[0].0 == "PB213.bad.json", "{fixable:?}");
        args.insert(0, "--fix");
        let (after, _) = repo.report(&args);
        let left = findings(&after);
        for (path, codes) in &fixable {
            for code in codes {
                let (code, pointer) = code.split_once('@').unwrap();
                let still = format!("{path}: {code}@{pointer} ");
                assert!(
                    !left.iter().any(|l| l.starts_with(&still)),
                    "{still} is still reported: {left:?}"
                );
            }
        }
        let fixed: Vec<String> = names.iter().map(|n| repo.read(n)).collect();
        args.insert(0, "check");
        let second = repo.opb(&args).output().unwrap();
        let note = String::from_utf8_lossy(&second.stderr);
        assert!(note.contains("fixed 0 findings in 0 files"), "{note}");
        assert_eq!(names.iter().map(|n| repo.read(n)).collect::<Vec<_>>(), fixed);
    }
}
