//! `schema::json_schema` and the shape checks are one source: the schema,
//! read by a real draft-07 validator (the `jsonschema` crate), rejects a
//! document only where a rule reports it, and reports every unknown field
//! and wrong type that a rule reports where a field table reaches. Every
//! description is a seed's sentence (or DOCUMENTS.md's).

use opb_core::schema::{self, field_at, fields_at, Field, Holds, Ty};
use opb_core::{check, Checked, Kind, Limits, Options, Syntax};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every document of `examples/` and the core's fixtures, with its syntax.
fn documents() -> Vec<(PathBuf, Syntax)> {
    let mut out = Vec::new();
    let mut dirs = vec![root().join("examples"), root().join("crates/core/tests/fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Some(syntax) = Syntax::from_path(&path.to_string_lossy()) {
                if !path.to_string_lossy().contains(".registry.") {
                    out.push((path, syntax));
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() > 200, "{} documents", out.len());
    out
}

fn validator(kind: Kind) -> jsonschema::Validator {
    let schema = serde_json::to_value(schema::json_schema(kind)).expect("serializable");
    jsonschema::draft7::new(&schema).expect("the schema compiles")
}

/// The pointers at which the schema rejects `instance`.
fn rejected(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator.iter_errors(instance).map(|e| e.instance_path().to_string()).collect()
}

fn tokens(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~")).collect()
}

fn field(kind: Kind, pointer: &str) -> Option<&'static Field> {
    let tokens = tokens(pointer);
    field_at(kind, &tokens.iter().map(String::as_str).collect::<Vec<_>>())
}

fn object_known(kind: Kind, pointer: &str) -> bool {
    let tokens = tokens(pointer);
    fields_at(kind, &tokens.iter().map(String::as_str).collect::<Vec<_>>()).is_some()
}

fn parent(pointer: &str) -> &str {
    pointer.rfind('/').map_or("", |at| &pointer[..at])
}

/// Whether `checked` holds a finding at `pointer` or inside it.
fn reported_at(checked: &Checked, pointer: &str) -> bool {
    checked
        .diagnostics
        .iter()
        .any(|d| d.pointer == pointer || d.pointer.starts_with(&format!("{pointer}/")))
}

/// The document as JSON, unless its syntax is broken (IN001–IN003, IN005):
/// then there is nothing for a schema to read.
fn as_json(text: &str, syntax: Syntax, checked: &Checked) -> Option<Value> {
    if checked
        .diagnostics
        .iter()
        .any(|d| matches!(d.code, "IN001" | "IN002" | "IN003" | "IN005" | "IN006"))
    {
        return None;
    }
    let json = opb_convert::convert(text, syntax, Syntax::Json, &Limits::default()).ok()?;
    serde_json::from_str(&json.text).ok()
}

#[test]
fn the_schema_rejects_only_what_a_rule_reports_and_each_unknown_field_and_type_a_rule_reports() {
    let (playbook, manifest) = (validator(Kind::Playbook), validator(Kind::PluginManifest));
    let mut problems = Vec::new();
    let mut read = 0;
    for (path, syntax) in documents() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let checked = check(&text, &Options { syntax: Some(syntax), ..Options::default() });
        let Some(kind) = checked.kind else { continue };
        let Some(instance) = as_json(&text, syntax, &checked) else { continue };
        read += 1;
        let name = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
        let at = rejected(if kind == Kind::Playbook { &playbook } else { &manifest }, &instance);
        for pointer in &at {
            if !reported_at(&checked, pointer) {
                problems.push(format!(
                    "{name}: the schema rejects {pointer:?}, where opb reports nothing"
                ));
            }
        }
        for d in &checked.diagnostics {
            let shown = match d.code {
                "IN007" if object_known(kind, parent(&d.pointer)) => {
                    at.iter().any(|p| p == parent(&d.pointer))
                }
                "IN004" if field(kind, &d.pointer).is_some_and(|f| f.ty != Ty::Any) => {
                    at.iter().any(|p| p == &d.pointer)
                }
                _ => true,
            };
            if !shown {
                problems.push(format!(
                    "{name}: opb reports {} at {:?}, which the schema accepts",
                    d.code, d.pointer
                ));
            }
        }
    }
    assert!(read > 150, "{read} documents read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every object a valid example holds where a field table reaches: an
/// unknown key there is IN007 for opb and an error for the schema, and a
/// value of the wrong type for a typed field is reported by both.
#[test]
fn every_table_the_examples_reach_is_closed_and_typed_in_both() {
    let mut probed = 0;
    let mut problems = Vec::new();
    for (file, kind) in [
        ("examples/failed-charge-recovery.json", Kind::Playbook),
        ("examples/acme-github.oz0-plugin.yaml", Kind::PluginManifest),
    ] {
        let text = std::fs::read_to_string(root().join(file)).expect("readable");
        let syntax = Syntax::from_path(file).expect("known extension");
        let checked = check(&text, &Options { syntax: Some(syntax), ..Options::default() });
        let instance = as_json(&text, syntax, &checked).expect("a sound document");
        let validator = validator(kind);
        assert!(
            rejected(&validator, &instance).is_empty(),
            "{file}: {:?}",
            rejected(&validator, &instance)
        );
        let mut places = Vec::new();
        walk(&instance, String::new(), &mut places);
        for pointer in places {
            let mut probes = Vec::new();
            if instance.pointer(&pointer).is_some_and(Value::is_object)
                && object_known(kind, &pointer)
            {
                let mut doc = instance.clone();
                doc.pointer_mut(&pointer)
                    .and_then(Value::as_object_mut)
                    .expect("object")
                    .insert("opbProbe".into(), json!(1));
                probes.push((doc, format!("{pointer}/opbProbe"), pointer.clone()));
            }
            if let Some(wrong) = field(kind, &pointer).and_then(|f| wrong_value(f.ty)) {
                let mut doc = instance.clone();
                *doc.pointer_mut(&pointer).expect("present") = wrong;
                probes.push((doc, pointer.clone(), pointer.clone()));
            }
            for (doc, opb_at, schema_at) in probes {
                probed += 1;
                let text = serde_json::to_string_pretty(&doc).expect("JSON");
                let checked = check(
                    &text,
                    &Options { syntax: Some(Syntax::Json), kind: Some(kind), ..Options::default() },
                );
                if !checked.diagnostics.iter().any(|d| d.pointer == opb_at) {
                    problems.push(format!("{file}: opb reports nothing at {opb_at}"));
                }
                if !rejected(&validator, &doc).contains(&schema_at) {
                    problems.push(format!("{file}: the schema accepts the probe at {opb_at}"));
                }
            }
        }
    }
    assert!(probed > 60, "{probed} probes");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn walk(value: &Value, pointer: String, out: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (key, child) in members {
                walk(
                    child,
                    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                walk(child, format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(pointer);
}

/// A value no field of type `ty` accepts.
fn wrong_value(ty: Ty) -> Option<Value> {
    match ty {
        Ty::Any => None,
        Ty::String | Ty::Array | Ty::StringArray | Ty::Object => Some(json!(true)),
        Ty::Bool | Ty::Number => Some(json!("opb-probe")),
    }
}

/// Whitespace-separated words, so a sentence wrapped over lines matches.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_description_is_a_sentence_of_the_seeds_or_documents_md() {
    let spec = root().join("spec");
    let mut sources =
        vec![std::fs::read_to_string(spec.join("DOCUMENTS.md")).expect("DOCUMENTS.md")];
    for entry in std::fs::read_dir(spec.join("seeds")).expect("seeds").flatten() {
        sources.push(std::fs::read_to_string(entry.path()).expect("a seed"));
    }
    let sources: Vec<String> = sources.iter().map(|s| words(s)).collect();
    let mut problems = Vec::new();
    let mut described = 0;
    for kind in [Kind::Playbook, Kind::PluginManifest] {
        each_field(schema::fields(kind), &mut |field| {
            if field.doc.is_empty() || field.name == "$schema" {
                return;
            }
            described += 1;
            if !sources.iter().any(|s| s.contains(&words(field.doc))) {
                problems.push(format!("`{}`: {:?} is in no seed", field.name, field.doc));
            }
        });
    }
    assert!(described > 50, "{described} fields described");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_closed_enumeration_says_what_each_value_means() {
    for kind in [Kind::Playbook, Kind::PluginManifest] {
        each_field(schema::fields(kind), &mut |field| {
            if let Some(values) = field.values {
                for value in values.values {
                    assert!(
                        (values.meaning)(value).is_some_and(|m| !m.is_empty()),
                        "`{}`: `{value}` has no meaning",
                        field.name
                    );
                }
            }
        });
    }
}

#[test]
fn fields_are_found_by_pointer_through_items_and_maps() {
    let risk = field_at(Kind::Playbook, &["tools", "3", "riskClass"]).expect("riskClass");
    assert_eq!(risk.values.map(|v| v.values), Some(opb_core::spec::RISK_CLASSES));
    assert_eq!(
        field_at(Kind::PluginManifest, &["tools", "0", "functions", "search", "usage", "units"])
            .map(|f| f.ty),
        Some(Ty::Number)
    );
    assert!(field_at(Kind::Playbook, &["steps", "0", "nope"]).is_none());
    assert!(fields_at(Kind::Playbook, &["steps", "0"])
        .is_some_and(|f| f.iter().any(|f| f.name == "allowedTools")));
    assert!(fields_at(Kind::Playbook, &["steps"]).is_none(), "a list holds items, not fields");
}

#[test]
fn a_schema_key_is_no_unknown_field() {
    for (text, kind) in [
        ("{\"$schema\": \"./openplaybook.schema.json\", \"openplaybook\": \"1.6\", \"steps\": []}", Kind::Playbook),
        ("$schema: ./oz0-plugin.schema.json\nname: acme\ntools: []\n", Kind::PluginManifest),
    ] {
        let checked = check(text, &Options { kind: Some(kind), ..Options::default() });
        assert!(!checked.diagnostics.iter().any(|d| d.code == "IN007"), "{:?}", checked.diagnostics);
    }
}

fn each_field(fields: &'static [Field], visit: &mut impl FnMut(&'static Field)) {
    for field in fields {
        visit(field);
        if !matches!(field.holds, Holds::Nothing | Holds::Scalars) {
            each_field(field.children(), visit);
        }
    }
}

/// Seed 003's "Set exactly one of `mcp` (your own code), `package` or `url`;
/// `package` may also set `mcp` … A flow tool sets `flow` instead, and none
/// of them": the schema rejects at the tool exactly the combinations PM201
/// reports, and a null field counts as unset for both.
#[test]
fn the_schema_holds_a_tool_to_exactly_one_way_of_running() {
    let validator = validator(Kind::PluginManifest);
    let cases = [
        (json!({"id": "a", "mcp": ["node", "s.js"]}), true),
        (json!({"id": "a", "package": "pypi:acme==1.0"}), true),
        (json!({"id": "a", "package": "pypi:acme==1.0", "mcp": ["acme"]}), true),
        (json!({"id": "a", "url": "https://acme.example/mcp"}), true),
        (json!({"id": "a", "url": "https://acme.example/mcp", "mcp": null}), true),
        (json!({"id": "a", "mcp": ["node", "s.js"], "url": "https://acme.example/mcp"}), false),
        (json!({"id": "a", "package": "npm:acme@1.0.0", "url": "https://acme.example/mcp"}), false),
        (json!({"id": "a", "flow": "triage", "mcp": ["node"]}), false),
        (json!({"id": "a"}), false),
        (json!({"id": "a", "url": null}), false),
    ];
    for (tool, accepted) in cases {
        let document = json!({"name": "acme", "tools": [tool]});
        let at = rejected(&validator, &document);
        let checked = check(
            &document.to_string(),
            &Options { kind: Some(Kind::PluginManifest), ..Options::default() },
        );
        let pm201 = checked.diagnostics.iter().any(|d| d.code == "PM201");
        assert_eq!(at.is_empty(), accepted, "{tool}: the schema rejects at {at:?}");
        assert_eq!(pm201, !accepted, "{tool}: {:?}", checked.diagnostics);
        if !accepted {
            assert_eq!(at, ["/tools/0"], "{tool}");
        }
    }
}
