//! The `opb` binary end to end: exit statuses, output formats, stdin, and
//! snapshots of what a person reads.
//!
//! Refresh snapshots with `INSTA_UPDATE=always cargo test -p opb-cli`, then
//! read every changed `.snap`.

#[path = "../crates/core/benches/dense.rs"]
mod dense;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

const CLEAN: &str = "examples/failed-charge-recovery.json";
const BROKEN: &str = "examples/refund-triage.broken.yaml";
const CLEAN_MANIFEST: &str = "examples/acme-github.oz0-plugin.yaml";
const UNCLOSED_FLOW: &str = "crates/core/tests/fixtures/input/unclosed-flow.oz0-plugin.yaml";

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `opb` run from the workspace root, so paths read as a user types them.
fn opb() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_opb"));
    command.current_dir(workspace()).env_remove("CLICOLOR_FORCE").env_remove("NO_COLOR");
    command
}

fn stdout(command: &mut Command) -> String {
    String::from_utf8(command.output().expect("opb runs").stdout).expect("UTF-8 output")
}

fn json(command: &mut Command) -> Value {
    serde_json::from_str(&stdout(command)).expect("the output is JSON")
}

mod exit_status {
    use super::*;

    #[test]
    fn clean_documents_exit_0() {
        opb().args(["check", CLEAN, CLEAN_MANIFEST]).assert().code(0);
    }

    #[test]
    fn a_document_with_errors_exits_1() {
        opb().args(["check", BROKEN]).assert().code(1);
        opb().args(["check", CLEAN, BROKEN]).assert().code(1);
    }

    #[test]
    fn a_missing_file_exits_2_and_says_which() {
        let assert = opb().args(["check", CLEAN, "no/such/file.json"]).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(stderr, "error: cannot read no/such/file.json: no such file; check the path\n");
        // The readable file is still checked.
        let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        assert!(stdout.contains("failed-charge-recovery.json: no problems"), "{stdout}");
    }

    #[test]
    fn text_that_is_not_utf8_exits_2_with_the_position() {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("latin1.yaml");
        std::fs::write(&path, b"openplaybook: \"1.6\"\nname: caf\xE9\n").expect("temporary file");
        let assert = opb().arg("check").arg(&path).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(
            stderr,
            format!(
                "error: cannot read {}: not UTF-8 text (byte 0xE9 at line 2, column 10); save it as UTF-8\n",
                path.display()
            )
        );
    }

    #[test]
    fn a_bad_flag_exits_2() {
        opb().args(["check", "--format", "xml", CLEAN]).assert().code(2);
        opb().args(["check", "--no-such-flag", CLEAN]).assert().code(2);
        opb().assert().code(2);
    }

    #[test]
    fn help_and_version_exit_0() {
        let help = stdout(opb().args(["check", "--help"]));
        assert!(help.contains("Exit status"), "{help}");
        opb().arg("--version").assert().code(0);
    }
}

mod json_output {
    use super::*;

    #[test]
    fn has_the_documented_shape() {
        let output = json(opb().args(["check", "--format", "json", BROKEN, CLEAN]));
        assert_eq!(output["version"], 1);
        let files = output["files"].as_array().expect("files is an array");
        assert_eq!(files.len(), 2);
        assert_eq!(files[0]["path"], BROKEN);
        assert_eq!(files[0]["kind"], "playbook");
        assert_eq!(files[1]["path"], CLEAN);
        assert_eq!(files[1]["diagnostics"], Value::Array(Vec::new()));
        let diagnostics = files[0]["diagnostics"].as_array().expect("diagnostics is an array");
        assert!(!diagnostics.is_empty());
        for d in diagnostics {
            assert!(
                d["code"].is_string() && d["name"].is_string() && d["message"].is_string(),
                "{d}"
            );
            assert!(
                ["error", "warning", "info"].contains(&d["severity"].as_str().unwrap_or_default()),
                "{d}"
            );
            assert!(
                d["pointer"].as_str().is_some_and(|p| p.is_empty() || p.starts_with('/')),
                "{d}"
            );
            for end in ["start", "end"] {
                for field in ["line", "column", "offset"] {
                    assert!(d["range"][end][field].is_u64(), "range.{end}.{field} in {d}");
                }
            }
        }
    }

    #[test]
    fn reports_the_next_that_names_no_step_where_it_is() {
        let output = json(opb().args(["check", "--format", "json", BROKEN]));
        let next = output["files"][0]["diagnostics"]
            .as_array()
            .and_then(|ds| ds.iter().find(|d| d["code"] == "PB213"))
            .cloned()
            .expect("PB213 is reported");
        assert_eq!(next["name"], "next-unknown");
        assert_eq!(next["severity"], "error");
        assert_eq!(next["pointer"], "/steps/1/next");
        let text = std::fs::read_to_string(workspace().join(BROKEN)).expect("example");
        let start = next["range"]["start"]["offset"].as_u64().unwrap_or_default() as usize;
        let end = next["range"]["end"]["offset"].as_u64().unwrap_or_default() as usize;
        assert_eq!(&text[start..end], "file");
    }

    #[test]
    fn a_file_that_cannot_be_read_is_an_entry_with_its_error() {
        let bad = std::env::temp_dir().join(format!("opb-not-utf8-{}.json", std::process::id()));
        std::fs::write(&bad, b"{\"a\": \"\xFF\"}").expect("written");
        let bad = bad.display().to_string();
        let assert =
            opb().args(["check", "--format", "json", &bad, CLEAN, "missing.json"]).assert().code(2);
        let output: Value =
            serde_json::from_slice(&assert.get_output().stdout).expect("the output is JSON");
        let files = output["files"].as_array().expect("files is an array");
        assert_eq!(
            files.iter().map(|f| f["path"].as_str().unwrap_or_default()).collect::<Vec<_>>(),
            [CLEAN, bad.as_str(), "missing.json"]
        );
        assert!(files[0].get("error").is_none(), "a file read has no error");
        assert_eq!(files[1]["error"]["reason"], "not-utf8");
        assert_eq!(files[1]["error"]["message"], format!("cannot read {bad}: not UTF-8 text (byte 0xFF at line 1, column 8); save it as UTF-8"));
        assert_eq!(files[2]["error"]["reason"], "not-found");
        for unread in &files[1..] {
            assert_eq!(
                (&unread["kind"], &unread["syntax"], &unread["diagnostics"]),
                (&Value::Null, &Value::Null, &Value::Array(Vec::new()))
            );
            assert_eq!(unread["counts"]["error"], 0);
        }
        // stderr still says it, for a person.
        assert!(String::from_utf8_lossy(&assert.get_output().stderr)
            .contains("cannot read missing.json: no such file"));
        std::fs::remove_file(&bad).expect("removed");
    }

    #[test]
    fn an_unclosed_bracket_carries_its_related_place() {
        let output = json(opb().args(["check", "--format", "json", UNCLOSED_FLOW]));
        let d = &output["files"][0]["diagnostics"][0];
        assert_eq!(d["code"], "IN001");
        assert_eq!(
            (&d["range"]["start"]["line"], &d["range"]["start"]["column"]),
            (&Value::from(23), &Value::from(14))
        );
        let related = &d["related"][0];
        assert_eq!(
            (&related["range"]["start"]["line"], &related["range"]["start"]["column"]),
            (&Value::from(25), &Value::from(5))
        );
        assert_eq!(
            related["message"],
            "Reading stopped here: invalid indentation in flow construct."
        );
        // Diagnostics without a second place carry no `related`.
        let broken = json(opb().args(["check", "--format", "json", BROKEN]));
        assert!(broken["files"][0]["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .all(|d| d.get("related").is_none()));
    }

    #[test]
    fn kind_is_null_when_unknown() {
        let output =
            json(opb().args(["check", "--format", "json", "-"]).write_stdin("name: something\n"));
        assert_eq!(output["files"][0]["kind"], Value::Null);
        assert_eq!(output["files"][0]["diagnostics"][0]["code"], "IN003");
    }
}

mod github {
    use super::*;

    /// A workflow command's name, properties and message.
    fn parse(line: &str) -> (&str, Vec<(&str, &str)>, &str) {
        let rest = line.strip_prefix("::").expect("a workflow command");
        let (head, message) = rest.split_once("::").expect("a message after the properties");
        let (command, properties) = head.split_once(' ').expect("properties");
        (
            command,
            properties.split(',').map(|p| p.split_once('=').expect("name=value")).collect(),
            message,
        )
    }

    #[test]
    fn one_annotation_per_diagnostic_where_the_json_report_places_it() {
        let report = json(opb().args(["check", "--format", "json", BROKEN]));
        let diagnostics =
            report["files"][0]["diagnostics"].as_array().expect("diagnostics").clone();
        let assert = opb().args(["check", "--format", "github", BROKEN]).assert().code(1);
        let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), diagnostics.len(), "{out}");
        for (line, d) in lines.iter().zip(&diagnostics) {
            let (command, properties, message) = parse(line);
            let expected = match d["severity"].as_str() {
                Some("error") => "error",
                Some("warning") => "warning",
                _ => "notice",
            };
            assert_eq!(command, expected, "{line}");
            let title = format!("{} {}", d["code"].as_str().unwrap(), d["name"].as_str().unwrap());
            let want = [
                ("file", BROKEN.to_owned()),
                ("line", d["range"]["start"]["line"].to_string()),
                ("col", d["range"]["start"]["column"].to_string()),
                ("endLine", d["range"]["end"]["line"].to_string()),
                ("endColumn", d["range"]["end"]["column"].to_string()),
                ("title", title),
            ];
            let got: Vec<(&str, String)> =
                properties.iter().map(|&(k, v)| (k, v.to_owned())).collect();
            assert_eq!(got, want.to_vec(), "{line}");
            assert_eq!(
                message,
                d["message"].as_str().unwrap().replace('%', "%25").replace('\n', "%0A")
            );
        }
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("::error ") && l.contains("title=PB213 next-unknown")),
            "{out}"
        );
    }

    #[test]
    fn a_file_name_cannot_end_the_command_and_an_unreadable_file_is_annotated() {
        let path = std::env::temp_dir().join(format!("opb-github-{},a:b.yaml", std::process::id()));
        std::fs::write(&path, "steps: [\n").unwrap();
        let out =
            stdout(opb().args(["check", "--format", "github"]).arg(&path).arg("missing.yaml"));
        std::fs::remove_file(&path).ok();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "::error file=missing.yaml,title=opb::no such file; check the path");
        let (_, properties, _) = parse(lines[1]);
        assert!(properties[0].1.ends_with("%2Ca%3Ab.yaml"), "{}", lines[1]);
        assert!(
            properties.iter().any(|&(k, v)| k == "title" && v == "IN001 parse-error"),
            "{}",
            lines[1]
        );
    }
}

mod sarif {
    use super::*;

    fn validator() -> jsonschema::Validator {
        let schema = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json"),
        )
        .expect("the SARIF schema is in tests/data");
        let schema: Value = serde_json::from_str(&schema).expect("the schema is JSON");
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the schema compiles")
    }

    fn assert_valid(sarif: &Value) {
        let errors: Vec<String> = validator()
            .iter_errors(sarif)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "SARIF schema violations:\n{}", errors.join("\n"));
    }

    #[test]
    fn the_schema_rejects_what_sarif_forbids() {
        let mut sarif = json(opb().args(["check", "--format", "sarif", BROKEN]));
        sarif["runs"][0]["results"][0]["level"] = Value::from("info");
        assert!(!validator().is_valid(&sarif), "the validator accepts a level SARIF does not have");
    }

    #[test]
    fn is_valid_and_describes_every_reported_rule() {
        let sarif = json(opb().args([
            "check",
            "--format",
            "sarif",
            BROKEN,
            CLEAN,
            "examples/shady-tools.broken.oz0-plugin.yaml",
        ]));
        assert_valid(&sarif);
        let run = &sarif["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "opb");
        assert_eq!(run["columnKind"], "unicodeCodePoints");
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        let results = run["results"].as_array().expect("results");
        assert!(!results.is_empty());
        for result in results {
            let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[index]["id"], result["ruleId"], "{result}");
            assert!(["error", "warning", "note"]
                .contains(&result["level"].as_str().unwrap_or_default()));
            let region = &result["locations"][0]["physicalLocation"]["region"];
            assert!(
                region["startLine"].as_u64() >= Some(1)
                    && region["startColumn"].as_u64() >= Some(1),
                "{result}"
            );
        }
        for rule in rules {
            assert!(
                results.iter().any(|r| r["ruleId"] == rule["id"]),
                "rule {} reported by no result",
                rule["id"]
            );
            for field in ["shortDescription", "fullDescription"] {
                assert!(rule[field]["text"].is_string(), "{field} of {}", rule["id"]);
            }
            assert!(rule["help"]["text"].is_string() && rule["help"]["markdown"].is_string());
            assert!(rule["defaultConfiguration"]["level"].is_string());
        }
    }

    #[test]
    fn the_next_that_names_no_step_has_its_region_and_pointer() {
        let sarif = json(opb().args(["check", "--format", "sarif", BROKEN]));
        let result = sarif["runs"][0]["results"]
            .as_array()
            .and_then(|rs| rs.iter().find(|r| r["ruleId"] == "PB213"))
            .cloned()
            .expect("PB213 is reported");
        let location = &result["locations"][0];
        assert_eq!(location["physicalLocation"]["artifactLocation"]["uri"], BROKEN);
        assert_eq!(location["logicalLocations"][0]["fullyQualifiedName"], "/steps/1/next");
        let region = &location["physicalLocation"]["region"];
        assert_eq!(region["startLine"], region["endLine"]);
        assert_eq!(
            region["endColumn"].as_u64().unwrap_or_default()
                - region["startColumn"].as_u64().unwrap_or_default(),
            4
        );
    }

    #[test]
    fn an_unclosed_bracket_has_its_opening_as_location_and_the_parsers_stop_as_related() {
        let sarif = json(opb().args(["check", "--format", "sarif", UNCLOSED_FLOW]));
        assert_valid(&sarif);
        let result = &sarif["runs"][0]["results"][0];
        assert_eq!(result["ruleId"], "IN001");
        let region = |location: &Value| {
            let r = &location["physicalLocation"]["region"];
            [&r["startLine"], &r["startColumn"], &r["endLine"], &r["endColumn"]]
                .map(|v| v.as_u64().unwrap_or_default())
        };
        assert_eq!(region(&result["locations"][0]), [23, 14, 23, 15]);
        let related = result["relatedLocations"].as_array().expect("relatedLocations");
        assert_eq!(related.len(), 1);
        assert_eq!(related[0]["id"], 0);
        assert_eq!(region(&related[0]), [25, 5, 25, 6]);
        assert_eq!(
            related[0]["message"]["text"],
            "Reading stopped here: invalid indentation in flow construct."
        );
        assert_eq!(related[0]["physicalLocation"]["artifactLocation"]["uri"], UNCLOSED_FLOW);
    }

    #[test]
    fn an_unreadable_file_is_a_failed_invocation() {
        let assert =
            opb().args(["check", "--format", "sarif", CLEAN, "missing.json"]).assert().code(2);
        let sarif: Value =
            serde_json::from_slice(&assert.get_output().stdout).expect("SARIF is JSON");
        assert_valid(&sarif);
        let invocation = &sarif["runs"][0]["invocations"][0];
        assert_eq!(invocation["executionSuccessful"], false);
        assert_eq!(
            invocation["toolExecutionNotifications"][0]["message"]["text"],
            "cannot read missing.json: no such file; check the path"
        );
    }
}

mod reading {
    use super::*;

    #[test]
    fn stdin_is_read_for_a_dash() {
        let text = std::fs::read_to_string(workspace().join(BROKEN)).expect("example");
        let from_stdin =
            json(opb().args(["check", "--format", "json", "-"]).write_stdin(text.clone()));
        let from_file = json(opb().args(["check", "--format", "json", BROKEN]));
        assert_eq!(from_stdin["files"][0]["path"], "<stdin>");
        assert_eq!(from_stdin["files"][0]["diagnostics"], from_file["files"][0]["diagnostics"]);

        let named = json(
            opb()
                .args(["check", "--format", "json", "--stdin-name", "refund.yaml", "-"])
                .write_stdin(text),
        );
        assert_eq!(named["files"][0]["path"], "refund.yaml");
    }

    #[test]
    fn stdin_can_be_named_once() {
        let assert = opb().args(["check", "-", "-"]).write_stdin("a: 1").assert().code(2);
        assert_eq!(
            String::from_utf8_lossy(&assert.get_output().stderr),
            "error: standard input (`-`) can be named only once; name the other files by path\n"
        );
    }

    #[test]
    fn kind_overrides_detection() {
        let text = "name: something\nversion: 1\n";
        let detected = json(opb().args(["check", "--format", "json", "-"]).write_stdin(text));
        assert_eq!(detected["files"][0]["diagnostics"][0]["code"], "IN003");

        let given = json(
            opb().args(["check", "--format", "json", "--kind", "playbook", "-"]).write_stdin(text),
        );
        assert_eq!(given["files"][0]["kind"], "playbook");
        let codes: Vec<&Value> = given["files"][0]["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| &d["code"])
            .collect();
        assert!(!codes.contains(&&Value::from("IN003")), "{codes:?}");
        assert!(codes.contains(&&Value::from("PB104")), "no steps: {codes:?}");

        let manifest = json(opb().args(["check", "--format", "json", "--kind", "plugin", BROKEN]));
        assert_eq!(manifest["files"][0]["kind"], "plugin-manifest");
    }
}

mod human {
    use super::*;

    #[test]
    fn broken_example() {
        let output = stdout(opb().args(["check", "--color", "never", BROKEN]));
        insta::assert_snapshot!("check_refund_triage_broken", output);
    }

    #[test]
    fn several_files_get_a_total() {
        let output = stdout(opb().args(["check", "--color", "never", CLEAN, CLEAN_MANIFEST]));
        assert_eq!(
            output,
            "examples/failed-charge-recovery.json: no problems (read as a playbook)\n\
             examples/acme-github.oz0-plugin.yaml: no problems (read as a plugin manifest)\n\
             \n\
             no problems in 2 files\n"
        );
    }

    #[test]
    fn an_unclosed_bracket_is_labelled_at_its_opening_and_where_reading_stopped() {
        let output = stdout(opb().args(["check", "--color", "never", UNCLOSED_FLOW]));
        insta::assert_snapshot!("check_unclosed_flow", output);
        // On one line, both labels share the line.
        let output = stdout(
            opb()
                .args(["check", "--color", "never", "--stdin-name", "a.json", "-"])
                .write_stdin(r#"{"a": [1, 2}"#),
        );
        assert!(output.contains("1 | {\"a\": [1, 2}\n  |       ^    - Reading stopped here: Unexpected close brace.\n"), "{output}");
    }

    #[test]
    fn a_long_line_is_cut_around_the_range_and_keeps_its_position() {
        let steps: Vec<String> = (0..200)
            .map(|i| format!(r#"{{"id": "s{i}", "kind": "gate", "next": "s{}"}}"#, i + 1))
            .collect();
        let text = format!(
            r#"{{"openplaybook": "1.6", "requires": {{"connections": []}}, "steps": [{}]}}"#,
            steps.join(", ")
        );
        let output = stdout(
            opb()
                .args(["check", "--color", "never", "--stdin-name", "min.json", "-"])
                .write_stdin(text.clone()),
        );
        let column = text[..text.find(r#""s200""#).expect("the last next")].chars().count() + 1;
        assert!(output.contains(&format!("--> min.json:1:{column}\n")), "{output}");
        assert!(output.lines().all(|line| line.len() < 400), "{output}");
    }

    #[test]
    fn document_text_cannot_restyle_the_terminal() {
        let evil = r#"{"openplaybook": "1.6", "steps": [{"id": "a", "kind": "gate", "next": "\u001b[31mevil"}]}"#;
        let output = stdout(opb().args(["check", "--color", "always", "-"]).write_stdin(evil));
        assert!(output.contains("PB213"), "{output}");
        assert!(!output.contains("\u{1b}[31mevil"), "{output}");
    }

    #[test]
    fn colour_only_when_asked_or_on_a_terminal() {
        let piped = stdout(opb().args(["check", BROKEN]));
        assert!(!piped.contains('\u{1b}'), "colour on a pipe");
        let forced = stdout(opb().args(["check", "--color", "always", BROKEN]));
        assert!(forced.contains("\u{1b}["), "no colour with --color always");
    }
}

mod rules {
    use super::*;

    #[test]
    fn catalogue() {
        let output = stdout(opb().args(["rules", "--color", "never"]));
        insta::assert_snapshot!("rules", output);
    }

    #[test]
    fn one_rule() {
        let output = stdout(opb().args(["rules", "PB213"]));
        insta::assert_snapshot!("rules_pb213", output);
        assert_eq!(stdout(opb().args(["rules", "next-unknown"])), output);
        assert_eq!(stdout(opb().args(["rules", "pb213"])), output);
    }

    #[test]
    fn an_unknown_rule_exits_2_with_suggestions() {
        let assert = opb().args(["rules", "PB2133"]).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.starts_with(
                "error: no rule has the code or name `PB2133`; the closest: PB213 (next-unknown)"
            ),
            "{stderr}"
        );
    }
}

mod explain {
    use super::*;

    #[test]
    fn a_clean_playbook() {
        let output = stdout(opb().args(["explain", "--color", "never", CLEAN]));
        insta::assert_snapshot!("explain_failed_charge_recovery", output);
    }

    #[test]
    fn a_broken_playbook_shows_what_requires_lacks() {
        let assert = opb().args(["explain", "--color", "never", BROKEN]).assert().code(0);
        let output = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        insta::assert_snapshot!("explain_refund_triage_broken", output);
    }

    #[test]
    fn a_manifest() {
        let output = stdout(opb().args(["explain", "--color", "never", CLEAN_MANIFEST]));
        insta::assert_snapshot!("explain_acme_github", output);
    }

    #[test]
    fn json_is_the_core_explain_view() {
        let playbook = json(opb().args(["explain", "--format", "json", CLEAN]));
        assert_eq!(playbook["kind"], "playbook");
        let steps: Vec<&Value> =
            playbook["steps"].as_array().into_iter().flatten().map(|s| &s["id"]).collect();
        assert_eq!(steps, ["recover", "gate", "send", "record"]);
        assert!(playbook["steps"][0]["summary"].is_string());
        assert!(playbook["requires"]["connections"].is_array());

        let manifest = json(opb().args(["explain", "--format", "json", CLEAN_MANIFEST]));
        assert_eq!(manifest["kind"], "plugin-manifest");
        assert_eq!(manifest["plugin"]["name"], "acme-github");
    }

    #[test]
    fn what_cannot_be_explained_exits_1_and_a_missing_file_2() {
        let assert = opb().args(["explain", "-"]).write_stdin("{ not json").assert().code(1);
        let output = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        assert!(output.starts_with("opb cannot explain <stdin>"), "{output}");
        let assert = opb().args(["explain", "missing.yaml"]).assert().code(2);
        assert_eq!(
            String::from_utf8_lossy(&assert.get_output().stderr),
            "error: cannot read missing.yaml: no such file; check the path\n"
        );
    }
}

const MONEY_SKIPS_GATE: &str = "crates/core/tests/fixtures/paths/money-skips-gate.yaml";
const REGISTRY: &str = "crates/core/tests/fixtures/registry/runtime.registry.yaml";
const BAD_REGISTRY: &str = "crates/core/tests/fixtures/rules/DR009.bad.registry.json";
const COMMS_OLD: &str = "crates/core/tests/fixtures/diff/comms.old.json";
const COMMS_NEW: &str = "crates/core/tests/fixtures/diff/comms.new.json";
const MANIFEST_OLD: &str = "crates/core/tests/fixtures/diff/acme-github.old.oz0-plugin.yaml";
const MANIFEST_NEW: &str = "crates/core/tests/fixtures/diff/acme-github.new.oz0-plugin.yaml";

mod risk_paths {
    use super::*;

    #[test]
    fn the_only_path_to_money_skips_the_gate() {
        let output =
            stdout(opb().args(["explain", "--paths", "--color", "never", MONEY_SKIPS_GATE]));
        insta::assert_snapshot!("explain_paths_money_skips_gate", output);
    }

    #[test]
    fn json_is_the_core_risk_paths() {
        let paths = json(opb().args(["explain", "--paths", "--format", "json", MONEY_SKIPS_GATE]));
        assert_eq!(paths["start"], "triage");
        assert_eq!(paths["complete"], true);
        assert_eq!(paths["paths"][0]["flagged"], true);
        assert_eq!(paths["paths"][0]["steps"], serde_json::json!(["triage", "refund", "done"]));
        assert_eq!(paths["limits"]["max_paths"], 200);
    }

    #[test]
    fn a_manifest_has_none_and_exits_2() {
        let assert = opb().args(["explain", "--paths", CLEAN_MANIFEST]).assert().code(2);
        assert_eq!(
            String::from_utf8_lossy(&assert.get_output().stderr),
            "error: no risk paths in examples/acme-github.oz0-plugin.yaml: it is a plugin manifest, and only a playbook's steps form paths; `opb explain examples/acme-github.oz0-plugin.yaml` describes its tools\n"
        );
    }

    #[test]
    fn a_large_lattice_answers_and_says_where_it_stopped() {
        let mut steps = vec![r#"{"id": "s", "kind": "gate", "next": ["a0", "b0"]}"#.to_owned()];
        for layer in 0..60 {
            let next = if layer == 59 {
                "null".to_owned()
            } else {
                format!(r#"["a{0}", "b{0}"]"#, layer + 1)
            };
            for side in ["a", "b"] {
                steps.push(format!(r#"{{"id": "{side}{layer}", "kind": "gate", "next": {next}}}"#));
            }
        }
        let text = format!(
            r#"{{"openplaybook": "1.6", "requires": {{"connections": []}}, "steps": [{}]}}"#,
            steps.join(", ")
        );
        let output =
            stdout(opb().args(["explain", "--paths", "--color", "never", "-"]).write_stdin(text));
        assert!(
            output.contains(
                "The first 200 paths from s to an end, riskiest first: the walk stops at 200 paths"
            ),
            "{output}"
        );
        assert!(
            output.contains("→ … 31 more steps … →"),
            "a path of 61 steps shows its ends: {output}"
        );
    }
}

mod risk_paths_long {
    use super::*;

    #[test]
    fn a_long_gate_free_route_shows_its_start_and_last_steps() {
        let tool = r#"{"name": "pay", "source": "primitive", "description": "d", "permissions": [], "inputSchema": {}, "outputSchema": {}, "riskClass": "money", "sideEffecting": true}"#;
        let steps: Vec<String> = (0..100)
            .map(|i| {
                let next = if i == 99 { String::new() } else { format!(r#", "next": "s{}""#, i + 1) };
                format!(r#"{{"id": "s{i}", "kind": "agent", "agent": "a", "purpose": "p", "allowedTools": ["pay"]{next}}}"#)
            })
            .collect();
        let text = format!(
            r#"{{"openplaybook": "1.6", "requires": {{"connections": []}}, "tools": [{tool}], "steps": [{}]}}"#,
            steps.join(", ")
        );
        let output =
            stdout(opb().args(["explain", "--paths", "--color", "never", "-"]).write_stdin(text));
        let tail: Vec<String> = (85..100).map(|i| format!("s{i}")).collect();
        let route = format!("none on some path: s0 → … 84 more steps … → {}", tail.join(" → "));
        let flat: String = output.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&route), "{output}");
        assert!(output.contains("1. No person decides"), "the path: {output}");
        let steps = output.lines().filter(|l| l.trim_end().ends_with("  no person decides"));
        assert_eq!(steps.count(), 100, "each step");
    }
}

mod registry {
    use super::*;

    #[test]
    fn drift_is_reported_in_the_document() {
        let output =
            stdout(opb().args(["check", "--color", "never", "--registry", REGISTRY, CLEAN]));
        insta::assert_snapshot!("check_registry", output);
    }

    #[test]
    fn json_lists_the_registry_first() {
        let output = json(opb().args(["check", "--format", "json", "--registry", REGISTRY, CLEAN]));
        assert_eq!(output["files"][0]["path"], REGISTRY);
        assert_eq!(output["files"][0]["role"], "registry");
        assert_eq!(output["files"][0]["kind"], Value::Null);
        assert_eq!(output["files"][1]["role"], "document");
        let codes: Vec<&Value> = output["files"][1]["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| &d["code"])
            .collect();
        assert_eq!(codes, ["DR004", "DR001", "DR003"]);
    }

    #[test]
    fn a_registry_with_errors_exits_1_and_one_that_cannot_be_read_2() {
        let assert = opb()
            .args(["check", "--color", "never", "--registry", BAD_REGISTRY, CLEAN])
            .assert()
            .code(1);
        let output = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        assert!(output.contains("DR009.bad.registry.json: 3 errors, 0 warnings, 0 infos (read as a tool registry of 1 tool)"), "{output}");
        let assert =
            opb().args(["check", "--registry", "no/such/registry.yaml", CLEAN]).assert().code(2);
        assert_eq!(
            String::from_utf8_lossy(&assert.get_output().stderr),
            "error: the registry: cannot read no/such/registry.yaml: no such file; check the path\n"
        );
        assert!(
            assert.get_output().stdout.is_empty(),
            "nothing is checked without the registry asked for"
        );
    }

    #[test]
    fn the_registry_may_come_from_stdin_but_not_twice() {
        let registry = std::fs::read_to_string(workspace().join(REGISTRY)).expect("fixture");
        let from_stdin = json(
            opb()
                .args(["check", "--format", "json", "--registry", "-", CLEAN])
                .write_stdin(registry),
        );
        assert_eq!(from_stdin["files"][1]["counts"]["warning"], 1);
        opb().args(["check", "--registry", "-", "-"]).write_stdin("[]").assert().code(2);
    }
}

mod diff {
    use super::*;

    #[test]
    fn a_step_gains_a_customer_comms_tool() {
        let output = stdout(opb().args(["diff", "--color", "never", COMMS_OLD, COMMS_NEW]));
        insta::assert_snapshot!("diff_comms_human", output);
        let markdown = stdout(opb().args(["diff", "--format", "markdown", COMMS_OLD, COMMS_NEW]));
        insta::assert_snapshot!("diff_comms_markdown", markdown);
    }

    #[test]
    fn a_manifest_a_version_later() {
        let output = stdout(opb().args(["diff", "--color", "never", MANIFEST_OLD, MANIFEST_NEW]));
        insta::assert_snapshot!("diff_manifest_human", output);
        let markdown =
            stdout(opb().args(["diff", "--format", "markdown", MANIFEST_OLD, MANIFEST_NEW]));
        insta::assert_snapshot!("diff_manifest_markdown", markdown);
    }

    #[test]
    fn json_is_the_core_diff_with_the_names() {
        let output = json(opb().args(["diff", "--format", "json", COMMS_OLD, COMMS_NEW]));
        assert_eq!(output["version"], 1);
        assert_eq!(
            (output["old"].as_str(), output["new"].as_str()),
            (Some(COMMS_OLD), Some(COMMS_NEW))
        );
        assert_eq!(output["kind"], "playbook");
        assert_eq!(output["summary"]["widens"], 2);
        assert_eq!(output["changes"][0]["change"], "tool_allowed");
        assert_eq!(output["changes"][0]["subject"]["key"], "record");
    }

    #[test]
    fn fail_on_says_when_to_exit_1() {
        opb().args(["diff", COMMS_OLD, COMMS_NEW]).assert().code(0);
        opb().args(["diff", "--fail-on", "widened", COMMS_OLD, COMMS_NEW]).assert().code(1);
        opb().args(["diff", "--fail-on", "widened", COMMS_NEW, COMMS_OLD]).assert().code(0);
        opb().args(["diff", "--fail-on", "any", COMMS_NEW, COMMS_OLD]).assert().code(1);
        opb().args(["diff", "--fail-on", "any", COMMS_OLD, COMMS_OLD]).assert().code(0);
    }

    #[test]
    fn no_change() {
        let output = stdout(opb().args(["diff", "--color", "never", CLEAN, CLEAN]));
        assert!(output.ends_with("No change in what it may do.\n"), "{output}");
    }

    #[test]
    fn what_cannot_be_compared_exits_2() {
        let assert = opb().args(["diff", CLEAN, CLEAN_MANIFEST]).assert().code(2);
        assert_eq!(
            String::from_utf8_lossy(&assert.get_output().stderr),
            "error: cannot compare examples/failed-charge-recovery.json with examples/acme-github.oz0-plugin.yaml: the old version is a playbook and the new one a plugin manifest: only two versions of one kind compare\n"
        );
        opb().args(["diff", CLEAN, "-"]).write_stdin("{ not json").assert().code(2);
        opb().args(["diff", CLEAN, "missing.json"]).assert().code(2);
        opb().args(["diff", "-", "-"]).assert().code(2);
    }

    #[test]
    fn markdown_keeps_document_text_out_of_the_markup() {
        let old = std::fs::read_to_string(workspace().join(COMMS_OLD)).expect("fixture");
        let new = old.replace(
            r#""allowedTools": ["today.surface"]"#,
            r#""allowedTools": ["today.surface", "x|<b>`y`</b>"]"#,
        );
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("evil.json");
        std::fs::write(&path, new).expect("temporary file");
        let markdown = stdout(opb().args(["diff", "--format", "markdown", COMMS_OLD]).arg(&path));
        assert!(markdown.contains("may now call ``x\\|<b>`y`</b>``"), "{markdown}");
        assert!(
            markdown.lines().filter(|l| l.starts_with("| ")).all(|l| l.matches(" | ").count() == 2),
            "{markdown}"
        );
    }
}

mod convert {
    use super::*;

    #[test]
    fn json_becomes_yaml_and_back_to_the_same_data() {
        let yaml = stdout(opb().args(["convert", "--to", "yaml", CLEAN]));
        assert!(yaml.starts_with("openplaybook: \"1.6\"\n"), "{yaml}");
        let json = opb()
            .args(["convert", "--to", "json", "--stdin-name", "x.yaml", "-"])
            .write_stdin(yaml)
            .output()
            .expect("opb runs");
        assert!(json.status.success());
        let original: Value = serde_json::from_str(
            &std::fs::read_to_string(workspace().join(CLEAN)).expect("example"),
        )
        .expect("JSON");
        let back: Value = serde_json::from_slice(&json.stdout).expect("JSON");
        assert_eq!(back, original);
    }

    #[test]
    fn dropped_comments_are_said_and_what_cannot_be_converted_is_refused() {
        let assert = opb()
            .args(["convert", "--to", "json", "--stdin-name", "x.yaml", "-"])
            .write_stdin("# top\na: 1 # c\n")
            .assert()
            .success();
        assert_eq!(
            String::from_utf8_lossy(&assert.get_output().stderr),
            "note: x.yaml: Its 2 comments were not kept.\n"
        );
        let assert = opb()
            .args(["convert", "--to", "yaml", "--stdin-name", "x.json", "-"])
            .write_stdin("{\"a\": 1, \"a\": 2}")
            .assert()
            .code(2);
        assert!(String::from_utf8_lossy(&assert.get_output().stderr)
            .contains("The key `a` appears twice"));
    }

    #[test]
    fn fmt_checks_prints_and_writes() {
        let path = std::env::temp_dir().join(format!("opb-fmt-{}.json", std::process::id()));
        std::fs::write(&path, "{\"b\": 1, \"a\": [1]}").expect("written");
        let name = path.display().to_string();
        let assert = opb().args(["fmt", "--check", &name]).assert().code(1);
        assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("is not formatted"));
        let printed = stdout(opb().args(["fmt", &name]));
        assert_eq!(printed, "{\n  \"b\": 1,\n  \"a\": [\n    1\n  ]\n}\n");
        opb().args(["fmt", "--write", &name]).assert().success();
        assert_eq!(std::fs::read_to_string(&path).expect("read"), printed);
        opb().args(["fmt", "--check", &name]).assert().success();
        std::fs::remove_file(&path).expect("removed");
    }

    #[test]
    fn fmt_write_keeps_a_yaml_file_whose_comments_it_would_lose() {
        let path = std::env::temp_dir().join(format!("opb-fmt-{}.yaml", std::process::id()));
        std::fs::write(&path, "a:   1  # why\n").expect("written");
        let name = path.display().to_string();
        let assert = opb().args(["fmt", "--write", &name]).assert().code(2);
        assert!(String::from_utf8_lossy(&assert.get_output().stderr)
            .contains("Its one comment was not kept, so it was not rewritten"));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "a:   1  # why\n");
        opb().args(["fmt", "--write", "--drop-comments", &name]).assert().success();
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "a: 1\n");
        std::fs::remove_file(&path).expect("removed");
    }
}

mod render {
    use super::*;

    #[test]
    fn a_playbook_is_drawn_as_svg_to_stdout_or_a_file() {
        let svg = stdout(opb().args(["render", CLEAN]));
        assert!(
            svg.starts_with(
                r#"<svg xmlns="http://www.w3.org/2000/svg" class="graph" data-theme="light""#
            ),
            "{svg}"
        );
        assert!(svg.contains("title\">Step graph of Failed charge recovery</title>"), "{svg}");
        assert!(svg.ends_with("</svg>\n"));
        let path = std::env::temp_dir().join(format!("opb-render-{}.svg", std::process::id()));
        let name = path.display().to_string();
        let assert =
            opb().args(["render", "--theme", "dark", "-o", &name, BROKEN]).assert().success();
        assert!(assert.get_output().stdout.is_empty());
        let written = std::fs::read_to_string(&path).expect("written");
        std::fs::remove_file(&path).ok();
        assert!(written.contains(r#"data-theme="dark""#));
        assert!(
            written.contains(r#"class="error-mark""#),
            "a playbook with errors is drawn, its steps' errors marked"
        );
    }

    /// Gates whose branches each lead anywhere in the playbook: an exact
    /// layout of 1,000 with twenty branches each would make 12 million
    /// dummy vertices. The layout's budget draws 150 with eight branches
    /// simplified and lists the 1,000, in a fraction of a second
    /// (docs/performance.md); the timeout only guards against a hang.
    #[test]
    fn a_dense_playbook_is_drawn_simplified_or_listed_and_names_every_step() {
        for (steps, branches, notice) in [
            (150, 8, "Simplified drawing: too many edges cross several ranks"),
            (1_000, 20, "Too many crossing edges to draw: here are the steps and their edges"),
        ] {
            for format in ["svg", "html"] {
                let output = opb()
                    .args(["render", "--format", format, "--stdin-name", "dense.yaml", "-"])
                    .write_stdin(dense::playbook(steps, branches))
                    .timeout(Duration::from_secs(60))
                    .assert()
                    .success();
                let out = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
                assert!(out.contains(notice), "{steps} steps, {format}");
                let named = |i: usize| match steps {
                    150 => out.contains(&format!(r#"data-step-id="s{i}""#)),
                    _ => {
                        out.contains(&format!(">s{i} → "))
                            || out.contains(&format!(">s{i} (start)"))
                    }
                };
                assert!((0..steps).all(named), "every step, {steps} steps, {format}");
            }
        }
    }

    #[test]
    fn what_has_no_graph_is_refused_with_the_reason() {
        let assert = opb().args(["render", CLEAN_MANIFEST]).assert().code(1);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains("it is a plugin manifest, which has no step graph"), "{stderr}");
        let assert = opb()
            .args(["render", "--stdin-name", "x.json", "-"])
            .write_stdin("{\"steps\": [")
            .assert()
            .code(1);
        assert!(String::from_utf8_lossy(&assert.get_output().stderr)
            .contains("could not be read as a playbook; `opb check x.json` shows why"));
        opb().args(["render", "missing.json"]).assert().code(2);
    }

    #[test]
    fn a_fragment_is_written_for_a_docs_page_in_the_view_and_theme_asked() {
        let graph =
            stdout(opb().args(["render", "--format", "fragment", "--theme", "auto", CLEAN]));
        assert!(
            graph.starts_with(
                r#"<div class="opb-fragment" data-theme="auto" data-view="graph" v-pre><svg class="opb-style" width="0" height="0" aria-hidden="true"><style>"#
            ),
            "{graph}"
        );
        assert!(graph.contains("html.dark .opb-fragment[data-theme=&quot;auto&quot;]{"));
        assert!(graph.contains(r#"data-step-id="gate""#) && graph.ends_with("</div>\n"));
        let summary = stdout(opb().args([
            "render",
            "--format",
            "fragment",
            "--view",
            "summary",
            "--dark-selector",
            r#"[data-theme="dark"]"#,
            CLEAN_MANIFEST,
        ]));
        assert!(summary.contains(r#"data-theme="light" data-view="summary""#), "light by default");
        assert!(summary
            .contains("[data-theme=&quot;dark&quot;] .opb-fragment[data-theme=&quot;auto&quot;]{"));
        assert!(summary.contains(r#"class="trust-facts"#) && !summary.contains("<svg xmlns"));
        let live = stdout(opb().args([
            "render",
            "--format",
            "fragment",
            "--interactive",
            "--kind",
            "playbook",
            CLEAN,
        ]));
        assert!(
            live.starts_with(r#"<opb-viewer code="{"#)
                && live
                    .contains(r#" kind="playbook" theme="light" v-pre><div class="opb-fragment""#)
        );
    }

    #[test]
    fn strict_fails_on_an_error_and_a_selector_that_could_leave_its_rule_is_refused() {
        // Without strict a broken document is written, its problems listed.
        let written = stdout(opb().args(["render", "--format", "fragment", BROKEN]));
        assert!(written.contains("<code>PB213 next-unknown</code>"));
        let assert =
            opb().args(["render", "--format", "fragment", "--strict", BROKEN]).assert().code(1);
        assert!(assert.get_output().stdout.is_empty(), "nothing written");
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.starts_with(&format!("error: {BROKEN} has 8 errors, and strict forbids any:\n")),
            "{stderr}"
        );
        assert!(
            stderr.contains("note: PB213 line 60: `next` of step `decide` names `file`"),
            "{stderr}"
        );
        // Warnings are not errors: PB220 warns, and strict writes.
        opb()
            .args([
                "render",
                "--format",
                "fragment",
                "--strict",
                "crates/core/tests/fixtures/rules/PB220.bad.yaml",
            ])
            .assert()
            .success();
        let assert = opb()
            .args(["render", "--format", "fragment", "--dark-selector", "html.dark,body", CLEAN])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(r#"the dark selector "html.dark,body" is refused: ',' could carry it outside the fragment's style"#), "{stderr}");
    }
}

/// A playbook whose step may move money with no person deciding: PB220
/// says so in every output a person or a program reads.
mod unsupervised {
    use super::*;

    const UNGATED: &str = "crates/core/tests/fixtures/rules/PB220.bad.yaml";

    #[test]
    fn the_warning_is_in_the_text_the_annotations_and_the_sarif() {
        // A warning: the check passes, and says so.
        let assert = opb().args(["check", UNGATED]).assert().code(0);
        let text = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
        assert!(text.contains("PB220") && text.contains("quick_refund"), "{text}");

        let github = stdout(opb().args(["check", "--format", "github", UNGATED]));
        assert!(
            github.lines().any(|l| l.starts_with("::warning ")
                && l.contains("title=PB220 money-unsupervised")
                && l.contains("line=134")),
            "{github}"
        );

        let sarif = json(opb().args(["check", "--format", "sarif", UNGATED]));
        let result = sarif["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .find(|r| r["ruleId"] == "PB220")
            .expect("a PB220 result");
        assert_eq!(result["level"], "warning");
        assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 134);
        assert!(result["message"]["text"].as_str().unwrap().contains("no person deciding"));

        let good = stdout(opb().args([
            "check",
            "--format",
            "github",
            UNGATED.replace("bad", "good").as_str(),
        ]));
        assert!(!good.contains("PB220"), "{good}");
    }
}
