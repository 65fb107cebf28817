//! Masking by what was found: a value a credential rule (SEC001, PB411,
//! PM312) flagged is cut to its first four characters wherever it occurs,
//! as a key, in another rule's message, in a pointer, in the explain view
//! and all built on it (risk paths, the trust summary), in hover text, in a
//! diff, and in the source lines a shell shows; and nothing the rules did
//! not flag is cut.

use opb_core::explain::Explain;
use opb_core::{analyze, Analysis, Diagnostic, Options, Syntax};

const TOKEN: &str = "ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8";
const SERVER: &str = "admin:hunter2@acme";

fn yaml(text: &str) -> Analysis {
    analyze(text, &Options { syntax: Some(Syntax::Yaml), ..Options::default() })
}

fn json(text: &str) -> Analysis {
    analyze(text, &Options { syntax: Some(Syntax::Json), ..Options::default() })
}

/// What must not be shown of a credential: every run of eight characters
/// after its first four.
fn hidden_parts(credential: &str) -> Vec<String> {
    let chars: Vec<char> = credential.chars().collect();
    chars[4..].windows(8).map(String::from_iter).collect()
}

fn assert_hidden(shown: &str, credential: &str, where_: &str) {
    for part in hidden_parts(credential) {
        assert!(!shown.contains(&part), "{where_} shows `{part}` of `{credential}`:\n{shown}");
    }
}

/// Everything an analysis shows outside the editor, as text: each
/// diagnostic (message, pointer, related places, fix), the explain view,
/// the risk paths and the trust summary.
fn shown(analysis: &Analysis) -> String {
    let mut out = serde_json::to_string(&analysis.checked.diagnostics).unwrap();
    out.push_str(&serde_json::to_string(&analysis.explain).unwrap());
    out.push_str(&serde_json::to_string(&opb_core::risk_paths(analysis)).unwrap());
    out.push_str(&serde_json::to_string(&opb_core::trust_summary(analysis)).unwrap());
    out
}

/// A fixture of the masking tests: the keyed playbook (`keyed.yaml`: a
/// token SEC001 finds in the description, used again as a top-level key and
/// a branch label; an MCP server name PB411 flags, used again in a tool
/// name other rules quote) or the keyed manifest.
fn fixture(name: &str) -> String {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/masking").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn leaky_playbook() -> String {
    fixture("keyed.yaml")
}

#[test]
fn a_flagged_value_is_shown_whole_nowhere_an_analysis_reaches() {
    let analysis = yaml(&leaky_playbook());
    let shown = shown(&analysis);
    assert_hidden(&shown, TOKEN, "the analysis");
    assert_hidden(&shown, SERVER, "the analysis");
    // What was cut is still there, by its first four characters.
    assert!(shown.contains("mcp.admi….search"), "{shown}");
    let Some(Explain::Playbook(explain)) = &analysis.explain else { panic!("a playbook") };
    let labels: Vec<Option<&str>> =
        explain.graph.edges.iter().map(|e| e.label.as_deref()).collect();
    assert!(labels.contains(&Some("ghp_…")), "the branch label, cut: {labels:?}");
}

#[test]
fn another_rules_message_quoting_a_flagged_value_is_masked() {
    let analysis = yaml(&leaky_playbook());
    let quoting: Vec<&Diagnostic> = analysis
        .checked
        .diagnostics
        .iter()
        .filter(|d| d.code != "PB411" && d.message.contains("mcp.admi…"))
        .collect();
    assert!(
        !quoting.is_empty(),
        "a rule quotes the tool name: {:#?}",
        analysis.checked.diagnostics
    );
}

#[test]
fn a_credential_used_as_a_key_is_found_at_the_key_once_and_its_pointer_masked() {
    let text = leaky_playbook();
    let analysis = yaml(&text);
    let on_keys: Vec<&Diagnostic> = analysis
        .checked
        .diagnostics
        .iter()
        .filter(|d| d.code == "SEC001" && d.message.starts_with("A "))
        .collect();
    let pointers: Vec<&str> = on_keys.iter().map(|d| d.pointer.as_str()).collect();
    assert_eq!(pointers, ["/ghp_…", "/steps/0/next/ghp_…"]);
    for d in &on_keys {
        let underlined = &text[d.range.start.offset..d.range.end.offset];
        assert_eq!(underlined, TOKEN, "{} underlines the key", d.pointer);
    }
    assert!(on_keys[0].message.starts_with("A top-level key holds"), "{}", on_keys[0].message);
    assert!(on_keys[1].message.starts_with("A key of `next` holds"), "{}", on_keys[1].message);
    // The key's finding and its value's are two: both in the text, each once.
    let both = yaml(&format!("openplaybook: \"1.6\"\nsteps: []\nx:\n  {TOKEN}: {TOKEN}\n"));
    let found: Vec<(usize, &str)> = both
        .checked
        .diagnostics
        .iter()
        .filter(|d| d.code == "SEC001")
        .map(|d| (d.range.start.column, d.pointer.as_str()))
        .collect();
    assert_eq!(found, [(3, "/x/ghp_…"), (3 + TOKEN.len() + 2, "/x/ghp_…")]);
}

#[test]
fn a_flagged_value_inside_a_longer_key_is_cut_and_the_rest_kept() {
    // Inside a word, the token is not one to SEC001 (`task_test_…` is no
    // Stripe key): the key is cut because the description's was flagged.
    let text = format!(
        "openplaybook: \"1.6\"\ndescription: {TOKEN}\nsteps:\n  - id: a\n    kind: gate\n    prefix_{TOKEN}_suffix: x\n"
    );
    let analysis = yaml(&text);
    let shown = shown(&analysis);
    assert_hidden(&shown, TOKEN, "the analysis");
    let unknown = analysis.checked.diagnostics.iter().find(|d| d.code == "IN007").unwrap();
    assert_eq!(unknown.pointer, "/steps/0/prefix_ghp_…_suffix");
    assert!(unknown.message.contains("`prefix_ghp_…_suffix`"), "{}", unknown.message);
}

#[test]
fn a_manifests_header_env_and_function_names_are_masked() {
    let manifest = fixture("keyed.oz0-plugin.yaml");
    let analysis = yaml(&manifest);
    assert!(matches!(analysis.explain, Some(Explain::PluginManifest(_))));
    let shown = shown(&analysis);
    assert_hidden(&shown, TOKEN, "the analysis");
    assert_hidden(&shown, "hunter2hunter2", "the analysis");
    let keys: Vec<&str> = analysis
        .checked
        .diagnostics
        .iter()
        .filter(|d| d.code == "SEC001")
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(keys, ["/tools/0/headers/ghp_…", "/tools/0/functions/ghp_…", "/tools/1/env/ghp_…"]);
}

/// A rule that reads a credential as something else may quote a piece of
/// it: PM513 reads a timeout as a Go duration and quotes the unit it could
/// not read, which here is most of the value.
#[test]
fn a_piece_of_a_credential_another_rule_quotes_is_cut_too() {
    // A random run in a field not named like a secret: no rule flags it,
    // and messages cut it by its shape.
    let random = "2aaaaaaaabbiDajAcbpBs6bdnmgHr5SQXRRWeTeS";
    // A header credential PM312 flags, with no credential's shape.
    let header = "7correcthorsebatterystaple";
    let manifest = format!(
        "name: acme\ntools:\n  - id: acme_fetch\n    url: https://api.acme.example/mcp\n    timeout: {random}\n  - id: acme_search\n    url: https://search.acme.example/mcp\n    timeout: {header}\n    headers:\n      X-Api-Key: \"{header}\"\n"
    );
    let analysis = yaml(&manifest);
    let timeouts: Vec<&str> = analysis
        .checked
        .diagnostics
        .iter()
        .filter(|d| d.code == "PM513")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(timeouts.len(), 2, "{timeouts:?}");
    assert!(
        timeouts[0].contains("is `2aaa…`, which is not a duration: `…` is not a unit"),
        "{}",
        timeouts[0]
    );
    assert!(
        timeouts[1].contains("is `7cor…`, which is not a duration: `…` is not a unit"),
        "{}",
        timeouts[1]
    );
    let messages = serde_json::to_string(&analysis.checked.diagnostics).unwrap();
    assert_hidden(&messages, random, "the diagnostics");
    // The flagged value is cut in the views too; the random run, which no
    // rule flagged, only in messages, as any of its shape is.
    assert_hidden(&shown(&analysis), header, "the analysis");
}

#[test]
fn a_pointer_is_masked_only_where_it_holds_a_flagged_value() {
    // A long pointer of mixed case and digits looks random to a search by
    // shape; nothing flagged it, so it is shown as it is.
    let text = "openplaybook: \"1.6\"\nsteps:\n  - id: a\n    kind: gate\n    purpose: Stop.\n    X9kQ2mZr7LpT4vB8nWc3Yd: 1\n";
    let analysis = yaml(text);
    let pointers: Vec<&str> =
        analysis.checked.diagnostics.iter().map(|d| d.pointer.as_str()).collect();
    assert!(pointers.contains(&"/steps/0/X9kQ2mZr7LpT4vB8nWc3Yd"), "{pointers:?}");
    assert!(analysis.masking().is_empty());
}

#[test]
fn source_lines_hide_a_value_found_behind_json_escapes() {
    let text = r#"{"openplaybook": "1.6", "steps": [],
 "awsSecret": "wJalrXUtnFEMI\/K7MDENG\/bPxRfiCYEXAMPLEKEY",
 "notes": "ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru\u0038",
 "plain": "ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8 again"}
"#;
    let analysis = json(text);
    let source = analysis.masking().mask_source(text);
    assert_eq!(source.len(), text.len(), "offsets are kept");
    assert_eq!(source.lines().count(), text.lines().count(), "lines are kept");
    for hidden in ["rXUtnFEMI", "K7MDENG", "bPxRfiCY", "Zq8rT2vLm4Nx7Kp1"] {
        assert!(!source.contains(hidden), "{hidden}:\n{source}");
    }
    assert!(source.contains(r#""awsSecret": "wJal****"#), "{source}");
    assert!(source.contains(r#""plain": "ghp_*****"#), "{source}");
    assert!(source.contains("* again\"}"), "the words around are kept:\n{source}");
}

#[test]
fn source_lines_hide_a_header_credential_pm312_found() {
    let manifest = "name: acme\ntools:\n  - id: acme_fetch\n    url: https://api.acme.example/mcp\n    headers:\n      X-Api-Key: \"hunter2hunter2\"\n# the key hunter2hunter2 again\n";
    let analysis = yaml(manifest);
    assert!(analysis.checked.diagnostics.iter().any(|d| d.code == "PM312"));
    let source = analysis.masking().mask_source(manifest);
    assert_eq!(
        source,
        manifest.replace("hunter2hunter2", "hunt**********"),
        "every occurrence, a comment's too"
    );
}

#[test]
fn source_lines_are_masked_by_shape_where_no_rule_read_them() {
    // A syntax error: no tree, so no rule read the text; its lines are
    // still shown, the error's first.
    let text = format!("openplaybook: \"1.6\"\nsteps: [\ndescription: {TOKEN}\n");
    let analysis = yaml(&text);
    assert!(analysis.checked.diagnostics.iter().any(|d| d.code == "IN001"));
    let source = analysis.masking().mask_source(&text);
    assert_hidden(&source, TOKEN, "the source of an unread text");
    // Read by the rules, a random-looking run nothing flagged is shown.
    let text = "openplaybook: \"1.6\"\nsteps: []\ndigest: X9kQ2mZr7LpT4vB8nWc3Yd\n";
    assert_eq!(yaml(text).masking().mask_source(text), text);
}

#[test]
fn a_diff_is_masked_by_what_either_version_flagged() {
    let old = format!(
        "openplaybook: \"1.6\"\nrequires:\n  connections: []\n  mcpServers:\n    - {{name: \"{SERVER}\", toolNames: []}}\nsteps:\n  - {{id: a, kind: agent, agent: lou, purpose: Look., allowedTools: []}}\n"
    );
    // The new version no longer declares the server, so nothing in it
    // flags the name; a step now calls a tool named after it.
    let new = format!(
        "openplaybook: \"1.6\"\nrequires:\n  connections: []\nsteps:\n  - {{id: a, kind: agent, agent: lou, purpose: Look., allowedTools: [\"mcp.{SERVER}.write\"]}}\n"
    );
    let (old, new) = (yaml(&old), yaml(&new));
    assert!(new.masking().is_empty(), "the new version alone flags nothing");
    let diff = opb_core::diff(&old, &new).unwrap();
    let shown = serde_json::to_string(&diff).unwrap();
    assert!(shown.contains("mcp.admi….write"), "{shown}");
    assert_hidden(&shown, SERVER, "the diff");
}

#[test]
fn hover_is_masked_by_what_was_found() {
    let text = leaky_playbook();
    let analysis = yaml(&text);
    let at = text.find(&format!("mcp.{SERVER}.search]")).unwrap() + 2;
    let hover = analysis.hover(&text, at).expect("a hover over the tool name");
    assert!(hover.markdown.contains("admi…"), "{}", hover.markdown);
    assert_hidden(&hover.markdown, SERVER, "the hover");
}

#[test]
fn the_same_secret_in_many_places_is_cut_in_each() {
    let mut text = String::from("openplaybook: \"1.6\"\nsteps:\n");
    for i in 0..200 {
        text.push_str(&format!(
            "  - {{id: s{i}, kind: gate, purpose: \"call {TOKEN} now\", {TOKEN}{i}: x}}\n"
        ));
    }
    let analysis = yaml(&text);
    assert_hidden(&shown(&analysis), TOKEN, "the analysis");
    let Some(Explain::Playbook(explain)) = &analysis.explain else { panic!("a playbook") };
    assert_eq!(explain.steps.len(), 200);
    for step in &explain.steps {
        assert_eq!(step.purpose.as_deref(), Some("call ghp_… now"));
    }
    let source = analysis.masking().mask_source(&text);
    assert_hidden(&source, TOKEN, "the source");
    assert_eq!(source.len(), text.len());
}

#[test]
fn the_masking_shows_no_value_when_debugged() {
    let analysis = yaml(&leaky_playbook());
    assert_hidden(&format!("{:?}", analysis.masking()), TOKEN, "Debug");
    assert_hidden(&format!("{:?}", analysis.checked), SERVER, "Debug");
}
