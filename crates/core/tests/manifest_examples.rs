//! Plugin manifests end to end: the two examples, SEC001 beside PM312,
//! wrong types everywhere, and each number the seed gives checked exactly at
//! its edge, on both sides.
//!
//! Refresh snapshots with `cargo insta review` (or INSTA_UPDATE=always).

use opb_core::explain::manifest::{ManifestExplain, RunsExplain};
use opb_core::explain::Explain;
use opb_core::{analyze, check, Checked, Kind, Limits, Options, Syntax};
use opb_syntax::{parse, Node, Value};
use std::path::Path;

fn options() -> Options {
    Options { syntax: Some(Syntax::Yaml), kind: Some(Kind::PluginManifest), ..Options::default() }
}

fn lint(text: &str) -> Checked {
    check(text, &options())
}

fn example(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(file))
        .unwrap()
}

/// One line per diagnostic: `line:col severity CODE pointer message`.
fn render(checked: &Checked) -> String {
    checked
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{}:{} {} {} {} {}\n",
                d.range.start.line, d.range.start.column, d.severity, d.code, d.pointer, d.message
            )
        })
        .collect()
}

fn codes(checked: &Checked) -> Vec<&'static str> {
    checked.diagnostics.iter().map(|d| d.code).collect()
}

/// The (code, pointer) of every diagnostic.
fn findings(checked: &Checked) -> Vec<(&'static str, String)> {
    checked.diagnostics.iter().map(|d| (d.code, d.pointer.clone())).collect()
}

fn explain(text: &str) -> ManifestExplain {
    match analyze(text, &options()).explain {
        Some(Explain::PluginManifest(explain)) => explain,
        other => panic!("expected a manifest explain view, got {other:?}"),
    }
}

#[test]
fn acme_github_is_clean() {
    let checked = check(&example("acme-github.oz0-plugin.yaml"), &Options::default());
    assert_eq!(checked.kind, Some(Kind::PluginManifest));
    assert!(checked.diagnostics.is_empty(), "{}", render(&checked));
}

#[test]
fn shady_tools_reports_each_mistake_its_comments_name() {
    let checked = check(&example("shady-tools.broken.oz0-plugin.yaml"), &Options::default());
    insta::assert_snapshot!(render(&checked));
    let found = findings(&checked);
    let expected = [
        ("PM102", "/tools/0/id"),                    // capitals
        ("PM103", "/tools/0/id"),                    // a double underscore
        ("PM205", "/tools/0/package"),               // npm @latest
        ("PM106", "/tools/1/id"),                    // reserved prefix
        ("PM201", "/tools/1/url"),                   // two kinds at once
        ("PM301", "/tools/2/url"),                   // http://
        ("PM312", "/tools/2/headers/Authorization"), // a literal bearer token
        ("PM314", "/tools/2/affinity"),              // everywhere
        ("PM206", "/tools/3/package"),               // a tag, not a digest
        ("PM502", "/tools/3/env/LD_PRELOAD"),
        ("PM503", "/tools/3/env/OPENAI_BASE_URL"),
        ("PM513", "/tools/3/timeout"),             // 3h
        ("PM510", "/tools/3/limits"),              // limits on an oci: image
        ("PM402", "/tools/3/approval/deadline"),   // 30s
        ("PM403", "/tools/3/approval/escalation"), // off without a reason
        ("PM601", "/tools/4/flow"),                // missing-flow
        ("PM604", "/tools/4/env"),                 // env on a flow tool
    ];
    for (code, pointer) in expected {
        assert!(
            found.iter().any(|(c, p)| *c == code && p == pointer),
            "{code} at {pointer} missing:\n{}",
            render(&checked)
        );
    }
    assert!(
        !codes(&checked).contains(&"SEC001"),
        "PM312 is the finding for a header value:\n{}",
        render(&checked)
    );
}

#[test]
fn acme_github_explained() {
    let explain = explain(&example("acme-github.oz0-plugin.yaml"));
    insta::assert_snapshot!(serde_json::to_string_pretty(&explain).unwrap());
}

#[test]
fn sec001_reports_credentials_elsewhere_in_a_manifest() {
    let text = "name: acme-github\nrequires:\n  secrets: [SEARCH_TOKEN]\ntools:\n  - id: acme_fetch\n    mcp: [node, fetch.js]\n    env:\n      GITHUB_TOKEN: ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\n";
    let checked = lint(text);
    let found = findings(&checked);
    assert!(
        found.contains(&("SEC001", "/tools/0/env/GITHUB_TOKEN".to_owned())),
        "{}",
        render(&checked)
    );
    let secret = checked.diagnostics.iter().find(|d| d.code == "SEC001").unwrap();
    assert!(!secret.message.contains("ghp_0"), "shows at most 4 characters: {}", secret.message);
}

#[test]
fn a_header_credential_is_pm312_and_shows_four_characters() {
    let text = "name: acme-github\ntools:\n  - id: acme_search\n    url: https://search.example.com/mcp\n    headers:\n      Authorization: Bearer abcdef0123456789abcdef0123456789\n";
    let checked = lint(text);
    assert_eq!(codes(&checked), ["PM312"], "{}", render(&checked));
    let message = &checked.diagnostics[0].message;
    assert!(message.contains("`Bear…`") && !message.contains("Bearer"), "{message}");
}

#[test]
fn wrong_types_are_reported_where_they_are_and_the_rest_is_still_checked() {
    let text = "\
name: [acme-github]
skills: triage-guide
requires: {secrets: SEARCH_TOKEN}
optional_secrets: [{purpose: x}, 7]
flows: {triage: {}}
connections:
  - {name: gh, tools: acme_search, params: 3}
  - 5
tools:
  - id: acme_a
    mcp: [node, a.js]
    requires_approval: acme_a.merge
    manual: {guide: true}
    env: [A, B]
    headers: Authorization
    limits: {memory_mb: lots, pids: 8}
    approval: {deadline: 48h, deciders: [operator], escalation: {at: 0.5}}
    functions: {search: 3}
    labels: true
    results: [fit]
    uses_model: yes
  - 42
  - id: oz0_b
    mcp: [node, b.js]
    timeout: 3h
";
    let checked = lint(text);
    let found = findings(&checked);
    for pointer in [
        "/name",
        "/skills",
        "/requires/secrets",
        "/optional_secrets/0",
        "/optional_secrets/1",
        "/flows",
        "/connections/0/tools",
        "/connections/0/params",
        "/connections/1",
        "/tools/0/requires_approval",
        "/tools/0/manual",
        "/tools/0/env",
        "/tools/0/headers",
        "/tools/0/limits/memory_mb",
        "/tools/0/approval/deciders",
        "/tools/0/approval/escalation",
        "/tools/0/functions/search",
        "/tools/0/labels",
        "/tools/0/results",
        "/tools/0/uses_model",
        "/tools/1",
    ] {
        assert!(
            found.contains(&("IN004", pointer.to_owned())),
            "no IN004 at {pointer}:\n{}",
            render(&checked)
        );
    }
    assert!(found.contains(&("PM106", "/tools/2/id".to_owned())), "{}", render(&checked));
    assert!(found.contains(&("PM513", "/tools/2/timeout".to_owned())), "{}", render(&checked));
    let explained = explain(text);
    assert_eq!(explained.tools.len(), 2, "the number is not a tool");
}

/// Every value of the clean example, replaced in turn by a value of each
/// other type: the core answers with diagnostics and an explain view, and
/// never panics.
#[test]
fn any_value_of_any_type_anywhere_is_survived() {
    let text = example("acme-github.oz0-plugin.yaml");
    let root = parse(&text, Syntax::Yaml, &Limits::default()).root.unwrap();
    let mut spans = Vec::new();
    collect_value_spans(&root, &mut spans);
    assert!(spans.len() > 80, "{}", spans.len());
    for (start, end) in spans {
        for replacement in ["7", "\"text\"", "[1, two]", "{a: 1}", "~", "true", "[]", "{}"] {
            let mutated = format!("{}{replacement}{}", &text[..start], &text[end..]);
            let analysis = analyze(&mutated, &options());
            assert!(analysis.explain.is_some(), "no explain view for:\n{mutated}");
        }
    }
}

fn collect_value_spans(node: &Node, spans: &mut Vec<(usize, usize)>) {
    match &node.value {
        Value::Array(items) => items.iter().for_each(|item| {
            spans.push((item.span.start, item.span.end));
            collect_value_spans(item, spans);
        }),
        Value::Object(object) => object.members.iter().for_each(|member| {
            spans.push((member.value.span.start, member.value.span.end));
            collect_value_spans(&member.value, spans);
        }),
        _ => {}
    }
}

/// A manifest with one tool whose fields are `fields` (YAML lines, indented
/// under the tool), and the plugin-level lines `top`.
fn manifest(top: &str, fields: &str) -> String {
    format!("name: acme-github\n{top}tools:\n  - id: acme_tool\n{fields}")
}

/// Asserts that `code` is reported for `at_edge` exactly when `reported`.
fn edge(code: &str, text: &str, reported: bool) {
    let checked = lint(text);
    assert_eq!(
        codes(&checked).contains(&code),
        reported,
        "{code} expected {reported} for:\n{text}\n{}",
        render(&checked)
    );
}

fn list(prefix: &str, n: usize) -> String {
    format!("[{}]", (1..=n).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>().join(", "))
}

#[test]
fn at_most_256_functions() {
    let functions = |n: usize| (1..=n).map(|i| format!("      f{i}: {{}}\n")).collect::<String>();
    let remote = "    url: https://search.example.com/mcp\n    functions:\n";
    edge("PM306", &manifest("", &format!("{remote}{}", functions(256))), false);
    edge("PM306", &manifest("", &format!("{remote}{}", functions(257))), true);
}

#[test]
fn at_most_16_headers() {
    let headers = |n: usize| (1..=n).map(|i| format!("      X-H{i}: v\n")).collect::<String>();
    let remote = "    url: https://search.example.com/mcp\n    headers:\n";
    edge("PM311", &manifest("", &format!("{remote}{}", headers(16))), false);
    edge("PM311", &manifest("", &format!("{remote}{}", headers(17))), true);
}

#[test]
fn at_most_8_skills_in_a_manual() {
    let skills = format!("skills: {}\n", list("s", 9));
    edge(
        "PM612",
        &manifest(&skills, &format!("    mcp: [node, a.js]\n    manual: {}\n", list("s", 8))),
        false,
    );
    edge(
        "PM612",
        &manifest(&skills, &format!("    mcp: [node, a.js]\n    manual: {}\n", list("s", 9))),
        true,
    );
}

#[test]
fn at_most_5_escalation_steps() {
    let steps = |n: usize| {
        (1..=n).map(|i| format!("        - {{at: 0.{i}, to: admins}}\n")).collect::<String>()
    };
    let tool = "    mcp: [node, a.js]\n    approval:\n      escalation:\n";
    edge("PM404", &manifest("", &format!("{tool}{}", steps(5))), false);
    edge("PM404", &manifest("", &format!("{tool}{}", steps(6))), true);
}

#[test]
fn escalation_points_lie_strictly_inside_the_deadline() {
    let at = |value: &str| {
        manifest("", &format!("    mcp: [node, a.js]\n    approval:\n      escalation:\n        - {{at: {value}, to: owner}}\n"))
    };
    for inside in ["0.001", "0.999", "\"0.1%\"", "\"99.9%\"", "\"90%\"", "\"0.5\""] {
        edge("PM404", &at(inside), false);
    }
    for outside in ["0", "1", "\"0%\"", "\"100%\"", "-0.5", "1.5", "\"ninety\""] {
        edge("PM404", &at(outside), true);
    }
}

#[test]
fn deciders_at_most_16_teams_32_people_8_keys() {
    let deciders = |key: &str, prefix: &str, n: usize| {
        manifest(
            "",
            &format!(
                "    mcp: [node, a.js]\n    approval:\n      deciders:\n        {key}: {}\n",
                list(prefix, n)
            ),
        )
    };
    for (key, prefix, limit) in
        [("teams", "team", 16), ("people", "user:p", 32), ("keys", "key", 8)]
    {
        edge("PM405", &deciders(key, prefix, limit), false);
        edge("PM405", &deciders(key, prefix, limit + 1), true);
    }
}

#[test]
fn output_schema_at_most_64_kb() {
    let base = r#"{"type":"object","description":""}"#.len();
    let schema = |bytes: usize| {
        let description = "x".repeat(bytes - base);
        manifest("", &format!("    url: https://search.example.com/mcp\n    functions:\n      search:\n        output_schema: {{type: object, description: {description}}}\n"))
    };
    edge("PM308", &schema(64 * 1024), false);
    edge("PM308", &schema(64 * 1024 + 1), true);
}

#[test]
fn deadline_from_1m_to_720h() {
    let deadline = |value: &str| {
        manifest("", &format!("    mcp: [node, a.js]\n    approval: {{deadline: {value}}}\n"))
    };
    for inside in ["1m", "60s", "720h", "719h59m59s", "1h30m"] {
        edge("PM402", &deadline(inside), false);
    }
    for outside in ["59.999999999s", "59s", "720h1ns", "721h", "0", "48", "2d", "\"\""] {
        edge("PM402", &deadline(outside), true);
    }
}

#[test]
fn timeout_at_most_2h() {
    let timeout =
        |value: &str| manifest("", &format!("    mcp: [node, a.js]\n    timeout: {value}\n"));
    for inside in ["2h", "1h59m59s", "90s", "35m", "1ns"] {
        edge("PM513", &timeout(inside), false);
    }
    for outside in ["2h1ns", "2h0m1s", "3h", "0s", "-1m", "300", "5 minutes"] {
        edge("PM513", &timeout(outside), true);
    }
}

#[test]
fn limits_memory_16_pids_8_cpus_one_hundredth() {
    let limits =
        |value: &str| manifest("", &format!("    mcp: [node, a.js]\n    limits: {{{value}}}\n"));
    for inside in ["memory_mb: 16", "pids: 8", "cpus: 0.01", "memory_mb: 4096, pids: 2048, cpus: 8"]
    {
        edge("PM511", &limits(inside), false);
    }
    for outside in ["memory_mb: 15", "pids: 7", "cpus: 0.0099", "cpus: 0", "memory_mb: 16.5"] {
        edge("PM511", &limits(outside), true);
    }
}

#[test]
fn purpose_1_to_200_characters() {
    let purpose = |value: &str| {
        manifest("", &format!("    mcp: [node, a.js]\n    uses_model: {{purpose: \"{value}\"}}\n"))
    };
    edge("PM609", &purpose("x"), false);
    edge("PM609", &purpose(&"é".repeat(200)), false);
    edge("PM609", &purpose(""), true);
    edge("PM609", &purpose(&"é".repeat(201)), true);
}

#[test]
fn at_most_16_secret_arguments_per_function() {
    let arguments = |n: usize| {
        manifest(
            "",
            &format!(
                "    mcp: [node, a.js]\n    secret_arguments:\n      run: {}\n",
                list("/a", n)
            ),
        )
    };
    edge("PM611", &arguments(16), false);
    edge("PM611", &arguments(17), true);
}

#[test]
fn the_tool_count_limit_applies_to_manifests() {
    let tools = |n: usize| {
        let tools: String =
            (1..=n).map(|i| format!("  - {{id: acme_t{i}, mcp: [node, a.js]}}\n")).collect();
        format!("name: acme-github\ntools:\n{tools}")
    };
    let limits = Limits { max_tools: 3, ..Limits::default() };
    let options = Options { limits, ..options() };
    assert!(check(&tools(3), &options).diagnostics.is_empty());
    let over = check(&tools(4), &options);
    assert_eq!(findings(&over), [("IN006", "/tools".to_owned())], "{}", render(&over));
}

#[test]
fn durations_read_as_go_writes_them() {
    for timeout in ["90s", "35m", "1h30m", "1.5h", "300ms"] {
        let checked =
            lint(&manifest("", &format!("    mcp: [node, a.js]\n    timeout: {timeout}\n")));
        assert!(checked.diagnostics.is_empty(), "{timeout}: {}", render(&checked));
    }
    let explained = explain(&manifest(
        "",
        "    mcp: [node, a.js]\n    timeout: 1h30m\n    approval: {deadline: 720h}\n",
    ));
    let tool = &explained.tools[0];
    let timeout = tool.timeout.as_ref().unwrap();
    assert_eq!((timeout.value.seconds, timeout.default), (Some(5400.0), false));
    assert_eq!(tool.approval.deadline.value.seconds, Some(720.0 * 3600.0));
}

#[test]
fn explain_fills_in_the_defaults_and_marks_them() {
    let digest = "3f1c9a7e2b4d6f8a0c2e4f6a8b0d2f4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4f6a";
    let text = format!(
        "name: acme-github\ntools:\n  - id: acme_box\n    package: oci:ghcr.io/acme/box@sha256:{digest}\n    isolation: microvm\n  - id: acme_health\n    mcp: [node, health.js]\n    sandbox: host\n    limits: {{memory_mb: 256}}\n  - id: acme_fetch\n    package: npm:acme-fetch\n"
    );
    let explained = explain(&text);
    let [boxed, health, fetch] = &explained.tools[..] else { panic!("three tools") };
    let container = boxed.resources.as_ref().unwrap();
    assert_eq!(
        (container.field, container.memory_mb.value, container.cpus.value, container.pids.value),
        ("container", 512.0, 1.0, 256.0)
    );
    assert!(container.memory_mb.default && container.cpus.default && container.pids.default);
    let placement = boxed.placement.as_ref().unwrap();
    assert_eq!(placement.node_label.as_deref(), Some("isolation.microvm=ready"));
    assert!(!placement.needs_container_runtime);
    let sandbox = health.resources.as_ref().unwrap();
    assert_eq!(
        (
            sandbox.field,
            sandbox.memory_mb.value,
            sandbox.memory_mb.default,
            sandbox.pids.value,
            sandbox.pids.default
        ),
        ("limits", 256.0, false, 256.0, true)
    );
    assert!(!sandbox.applies, "limits do not apply with sandbox: host");
    assert!(health.placement.as_ref().unwrap().needs_exemption);
    let timeout = fetch.timeout.as_ref().unwrap();
    assert_eq!((timeout.value.text.as_str(), timeout.default), ("5m", true));
    match &fetch.runs {
        RunsExplain::Package { pinned, version, .. } => {
            assert_eq!((*pinned, version.as_deref()), (false, None))
        }
        other => panic!("{other:?}"),
    }
    let defaults = fetch.resources.as_ref().unwrap();
    assert_eq!(
        (defaults.memory_mb.value, defaults.pids.value, defaults.cpus.value),
        (1024.0, 256.0, 1.0)
    );
}

#[test]
fn a_long_loop_of_flow_tools_is_named_by_its_size() {
    let n = 20;
    let flows: String = (0..n)
        .map(|i| format!("  - {{name: f{i}, description: d, input_schema: {{type: object}}, output_schema: {{type: object}}, steps: [{{tool: acme_f{}.f{}}}]}}\n", (i + 1) % n, (i + 1) % n))
        .collect();
    let tools: String = (0..n).map(|i| format!("  - {{id: acme_f{i}, flow: f{i}}}\n")).collect();
    let checked = lint(&format!("name: acme-github\nflows:\n{flows}tools:\n{tools}"));
    assert_eq!(codes(&checked), vec!["PM603"; n], "{}", render(&checked));
    assert!(
        checked.diagnostics[0]
            .message
            .ends_with("it is one of 20 flow tools whose flows call each other."),
        "{}",
        render(&checked)
    );
}

#[test]
fn messages_list_at_most_ten_known_names() {
    let flows: String = (1..=12).map(|i| format!("  - {{name: f{i}, description: d, input_schema: {{type: object}}, output_schema: {{type: object}}}}\n")).collect();
    let checked = lint(&format!(
        "name: acme-github\nflows:\n{flows}tools:\n  - {{id: acme_x, flow: nope}}\n"
    ));
    assert_eq!(codes(&checked), ["PM601"]);
    assert!(
        checked.diagnostics[0].message.ends_with("`f9`, `f10` and 2 more."),
        "{}",
        render(&checked)
    );
}

#[test]
fn a_manifest_in_json_reads_alike() {
    let text = r#"{"name": "acme-github", "tools": [{"id": "oz0_x", "mcp": ["node", "x.js"], "timout": "5m"}]}"#;
    let checked = check(text, &Options::default());
    assert_eq!(checked.kind, Some(Kind::PluginManifest));
    let rendered = render(&checked);
    assert!(rendered.contains("1:42 error PM106 /tools/0/id"), "{rendered}");
    assert!(
        rendered.contains("1:76 info IN007 /tools/0/timout")
            && rendered.contains("Did you mean `timeout`?"),
        "{rendered}"
    );
}
