//! Property tests on structured mutations of the examples: fields dropped,
//! duplicated, retyped and renamed, steps shuffled, hostile strings
//! (markup, control and bidirectional characters, emoji) and credentials
//! written in. Whatever the mutation:
//! - nothing panics, and every result keeps the invariants of
//!   `support/invariants.rs` (ranges inside the text and on character
//!   boundaries, pointers that resolve, a limit stops everything else);
//! - the same data written as JSON and as YAML (by `opb-convert`, as the
//!   playground's conversion writes it) gets the same diagnostics, compared
//!   as codes and pointers (positions differ);
//! - no diagnostic message shows more than the first four characters of a
//!   credential written anywhere in the document, and no pointer or explain
//!   view one the rules found (as a value, inside one, or as a key).
//!
//! The case counts keep this file to a few seconds in a debug build; raise
//! them with `PROPTEST_CASES=2000` for a longer search.

#[path = "support/invariants.rs"]
mod invariants;

use invariants::{assert_analysis, assert_checked};
use opb_core::{analyze, check, Checked, Limits, Options, Syntax};
use opb_syntax::{parse, Node, Value};
use proptest::prelude::*;
use proptest::sample::Index;
use std::path::Path;
use std::sync::OnceLock;

/// A document as data, in source order, with numbers as written.
#[derive(Debug, Clone, PartialEq)]
enum Doc {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Doc>),
    Object(Vec<(String, Doc)>),
}

impl Doc {
    fn from_node(node: &Node) -> Doc {
        match &node.value {
            Value::Null => Doc::Null,
            Value::Bool(b) => Doc::Bool(*b),
            Value::Number(n) => Doc::Number(n.raw.clone()),
            Value::String(s) => Doc::String(s.to_string()),
            Value::Array(items) => Doc::Array(items.iter().map(Doc::from_node).collect()),
            Value::Object(object) => Doc::Object(
                object
                    .members
                    .iter()
                    .map(|m| (m.key.to_string(), Doc::from_node(&m.value)))
                    .collect(),
            ),
        }
    }

    /// Pretty JSON, two spaces, keys in order (repeated keys kept).
    fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out, 0);
        out
    }

    fn write_json(&self, out: &mut String, indent: usize) {
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Doc::Null => out.push_str("null"),
            Doc::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Doc::Number(raw) => out.push_str(raw),
            Doc::String(s) => out.push_str(&quote(s)),
            Doc::Array(items) if items.is_empty() => out.push_str("[]"),
            Doc::Object(members) if members.is_empty() => out.push_str("{}"),
            Doc::Array(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    item.write_json(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Doc::Object(members) => {
                out.push_str("{\n");
                for (i, (key, value)) in members.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    out.push_str(&quote(key));
                    out.push_str(": ");
                    value.write_json(out, indent + 1);
                    out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }

    /// Every value's path, in document order (the root's is empty).
    fn paths(&self) -> Vec<Vec<usize>> {
        let mut paths = Vec::new();
        let mut stack = vec![(self, Vec::new())];
        while let Some((doc, path)) = stack.pop() {
            let children: Vec<&Doc> = match doc {
                Doc::Array(items) => items.iter().collect(),
                Doc::Object(members) => members.iter().map(|(_, v)| v).collect(),
                _ => Vec::new(),
            };
            for (i, child) in children.into_iter().enumerate().rev() {
                let mut child_path = path.clone();
                child_path.push(i);
                stack.push((child, child_path));
            }
            paths.push(path);
        }
        paths
    }

    fn at_mut(&mut self, path: &[usize]) -> Option<&mut Doc> {
        let Some((&first, rest)) = path.split_first() else { return Some(self) };
        let child = match self {
            Doc::Array(items) => items.get_mut(first)?,
            Doc::Object(members) => &mut members.get_mut(first)?.1,
            _ => return None,
        };
        child.at_mut(rest)
    }
}

/// One structured change to a document; `at` picks a value among all of
/// the document's, in order.
#[derive(Debug, Clone)]
enum Mutation {
    /// Removes the value (and its key) from its object or array.
    Drop { at: Index },
    /// Repeats the value right after itself, with the same key.
    Duplicate { at: Index },
    /// Replaces the value with one of another type.
    Retype { at: Index, to: Doc },
    /// Gives the member holding the value another key.
    Rename { at: Index, to: String },
    /// Shuffles the `steps` and `tools` lists.
    Shuffle { seed: u64 },
    /// Replaces a string value with `text`.
    Inject { at: Index, text: String },
}

impl Mutation {
    fn apply(&self, doc: &mut Doc) {
        match self {
            Mutation::Drop { at } => edit_parent(doc, *at, |items, i| {
                items.remove(i);
            }),
            Mutation::Duplicate { at } => edit_parent(doc, *at, |items, i| {
                let copy = items[i].clone();
                items.insert(i + 1, copy);
            }),
            Mutation::Retype { at, to } => {
                let paths = doc.paths();
                let path = &paths[at.index(paths.len())];
                if let Some(value) = doc.at_mut(path) {
                    *value = to.clone();
                }
            }
            Mutation::Rename { at, to } => {
                let paths = doc.paths();
                let path = &paths[at.index(paths.len())];
                let Some((&last, parent)) = path.split_last() else { return };
                if let Some(Doc::Object(members)) = doc.at_mut(parent) {
                    members[last].0 = to.clone();
                }
            }
            Mutation::Shuffle { seed } => {
                if let Doc::Object(members) = doc {
                    for (key, value) in members.iter_mut() {
                        if let (Doc::Array(items), "steps" | "tools") = (value, key.as_str()) {
                            shuffle(items, *seed);
                        }
                    }
                }
            }
            Mutation::Inject { at, text } => {
                let strings: Vec<Vec<usize>> = doc
                    .paths()
                    .into_iter()
                    .filter(|path| matches!(doc.clone().at_mut(path), Some(Doc::String(_))))
                    .collect();
                if strings.is_empty() {
                    return;
                }
                let path = &strings[at.index(strings.len())];
                if let Some(value) = doc.at_mut(path) {
                    *value = Doc::String(text.clone());
                }
            }
        }
    }
}

/// Calls `edit` with the list holding the value `at` picks (the members of
/// an object or the items of an array) and its index there.
fn edit_parent(doc: &mut Doc, at: Index, edit: impl FnOnce(&mut Vec<Slot>, usize)) {
    let paths = doc.paths();
    let path = &paths[at.index(paths.len())];
    let Some((&last, parent)) = path.split_last() else { return };
    match doc.at_mut(parent) {
        Some(Doc::Array(items)) => {
            let mut slots: Vec<Slot> = items.drain(..).map(|v| Slot(None, v)).collect();
            edit(&mut slots, last);
            *items = slots.into_iter().map(|s| s.1).collect();
        }
        Some(Doc::Object(members)) => {
            let mut slots: Vec<Slot> = members.drain(..).map(|(k, v)| Slot(Some(k), v)).collect();
            edit(&mut slots, last);
            *members = slots.into_iter().map(|s| (s.0.unwrap_or_default(), s.1)).collect();
        }
        _ => {}
    }
}

/// A member or an item, so one edit serves objects and arrays.
#[derive(Debug, Clone)]
struct Slot(Option<String>, Doc);

/// A deterministic Fisher–Yates shuffle (xorshift), so a failing case
/// replays exactly.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed | 1;
    for i in (1..items.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = usize::try_from(state % (i as u64 + 1)).unwrap_or(0);
        items.swap(i, j);
    }
}

/// The examples and their hand conversions, as data.
fn examples() -> &'static [(String, Doc)] {
    static EXAMPLES: OnceLock<Vec<(String, Doc)>> = OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut docs = Vec::new();
        for dir in ["examples", "crates/core/tests/fixtures/examples"] {
            for entry in
                std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}")).flatten()
            {
                let path = entry.path();
                let name = path.display().to_string();
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
                let syntax =
                    Syntax::from_path(&name).unwrap_or_else(|| panic!("{name}: no syntax"));
                // Read YAML through the converter, as the playground's
                // conversion does, so every document is plain JSON data.
                let json = opb_convert::convert(&text, syntax, Syntax::Json, &Limits::default())
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
                    .text;
                let root = parse(&json, Syntax::Json, &Limits::default())
                    .root
                    .unwrap_or_else(|| panic!("{name}: parses"));
                docs.push((name, Doc::from_node(&root)));
            }
        }
        docs.sort_by(|a, b| a.0.cmp(&b.0));
        assert!(docs.len() >= 6, "the examples are there");
        docs
    })
}

/// Strings that have broken renderers, terminals and parsers.
fn hostile_string() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<script>alert(1)</script>".to_owned()),
        Just("<img src=x onerror=alert(1)>".to_owned()),
        Just("](javascript:alert(1)) **bold** `code`".to_owned()),
        Just("\u{202e}gnp.exe\u{202c}".to_owned()),
        Just("\u{1b}[31mred\u{1b}[0m\u{7}".to_owned()),
        Just("nul\u{0}byte".to_owned()),
        Just("line\r\nbreak\rreturn\u{2028}separator".to_owned()),
        Just("🚀💥 ünïcödé 漢字 \u{feff}".to_owned()),
        Just("${SECRET} {{template}} %s %n".to_owned()),
        Just("x".repeat(5000)),
        Just(String::new()),
        Just("~1/~0 # &anchor *alias !!tag".to_owned()),
        proptest::collection::vec(any::<char>(), 0..24).prop_map(String::from_iter),
    ]
}

/// A key: a known field (so renames collide and shadow), or anything.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "id",
            "kind",
            "name",
            "steps",
            "tools",
            "requires",
            "allowedTools",
            "next",
            "source",
            "riskClass",
            "openplaybook",
            "command",
            "url",
            "headers",
            "flows",
            "skills",
            "secrets",
            "",
        ])
        .prop_map(str::to_owned),
        hostile_string(),
    ]
}

fn other_value() -> impl Strategy<Value = Doc> {
    prop_oneof![
        Just(Doc::Null),
        any::<bool>().prop_map(Doc::Bool),
        any::<i32>().prop_map(|n| Doc::Number(n.to_string())),
        Just(Doc::Number("1e400".to_owned())),
        Just(Doc::Number("-0.0".to_owned())),
        hostile_string().prop_map(Doc::String),
        Just(Doc::Array(Vec::new())),
        Just(Doc::Object(Vec::new())),
        hostile_string().prop_map(|s| Doc::Array(vec![Doc::String(s)])),
        (key(), hostile_string()).prop_map(|(k, s)| Doc::Object(vec![(k, Doc::String(s))])),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(|at| Mutation::Drop { at }),
        any::<Index>().prop_map(|at| Mutation::Duplicate { at }),
        (any::<Index>(), other_value()).prop_map(|(at, to)| Mutation::Retype { at, to }),
        (any::<Index>(), key()).prop_map(|(at, to)| Mutation::Rename { at, to }),
        any::<u64>().prop_map(|seed| Mutation::Shuffle { seed }),
        (any::<Index>(), hostile_string()).prop_map(|(at, text)| Mutation::Inject { at, text }),
    ]
}

/// An example with a few mutations applied.
fn mutated() -> impl Strategy<Value = (String, Doc)> {
    (any::<Index>(), proptest::collection::vec(mutation(), 1..5)).prop_map(|(which, mutations)| {
        let (name, doc) = &examples()[which.index(examples().len())];
        let mut doc = doc.clone();
        for mutation in &mutations {
            mutation.apply(&mut doc);
        }
        (name.clone(), doc)
    })
}

fn options(syntax: Syntax) -> Options {
    Options { syntax: Some(syntax), ..Options::default() }
}

/// The data as YAML, written by the playground's converter; `None` where
/// YAML cannot hold it (a repeated key).
fn as_yaml(json: &str) -> Option<String> {
    opb_convert::convert(json, Syntax::Json, Syntax::Yaml, &Limits::default()).ok().map(|c| c.text)
}

/// What two syntaxes of one document must share: codes and pointers.
fn codes_and_pointers(checked: &Checked) -> Vec<(&'static str, String)> {
    let mut found: Vec<_> =
        checked.diagnostics.iter().map(|d| (d.code, d.pointer.clone())).collect();
    found.sort();
    found
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn mutations_keep_the_invariants((name, doc) in mutated()) {
        let json = doc.to_json();
        let analysis = analyze(&json, &options(Syntax::Json));
        assert_analysis(&json, &options(Syntax::Json), &analysis);
        if let Some(yaml) = as_yaml(&json) {
            let analysis = analyze(&yaml, &options(Syntax::Yaml));
            assert_analysis(&yaml, &options(Syntax::Yaml), &analysis);
        }
        // Sniffed and detected, as a paste into the playground is read.
        let checked = check(&json, &Options::default());
        assert_checked(&json, &Options::default(), &checked);
        prop_assert!(!name.is_empty());
    }

    #[test]
    fn json_and_yaml_of_the_same_data_agree((name, doc) in mutated()) {
        let json = doc.to_json();
        let Some(yaml) = as_yaml(&json) else { return Ok(()) };
        let from_json = check(&json, &options(Syntax::Json));
        let from_yaml = check(&yaml, &options(Syntax::Yaml));
        prop_assert_eq!(
            codes_and_pointers(&from_json),
            codes_and_pointers(&from_yaml),
            "{} as JSON:\n{}\nand as YAML:\n{}", name, json, yaml
        );
        prop_assert_eq!(from_json.kind, from_yaml.kind);
    }
}

/// A credential of a shape SEC001 knows, with a random body.
fn credential() -> impl Strategy<Value = String> {
    let alphanumeric =
        |len: usize| proptest::collection::vec(prop::sample::select(ALPHANUMERIC.to_vec()), len);
    let text = |chars: Vec<char>| String::from_iter(chars);
    prop_oneof![
        alphanumeric(36).prop_map(move |b| format!("ghp_{}", text(b))),
        alphanumeric(28).prop_map(move |b| format!("sk_live_{}", text(b))),
        alphanumeric(30).prop_map(move |b| format!("xoxb-{}", text(b))),
        proptest::collection::vec(prop::sample::select(UPPER_DIGITS.to_vec()), 16)
            .prop_map(move |b| format!("AKIA{}", text(b))),
        (alphanumeric(20), alphanumeric(30), alphanumeric(24)).prop_map(move |(h, p, s)| format!(
            "eyJ{}.eyJ{}.{}",
            text(h),
            text(p),
            text(s)
        )),
        alphanumeric(40).prop_map(move |b| format!("Bearer {}", text(b))),
        alphanumeric(48).prop_map(move |b| format!(
            "-----BEGIN RSA PRIVATE KEY-----\nMII{}\n-----END RSA PRIVATE KEY-----",
            text(b)
        )),
        alphanumeric(40).prop_map(text),
    ]
}

const ALPHANUMERIC: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'm', 'n', 'p', 'q', 'r', 's', 't', 'u',
    'v', 'w', 'x', 'y', 'z', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P',
    'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', '2', '3', '4', '5', '6', '7', '8', '9',
];

const UPPER_DIGITS: &[char] = &[
    'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'Q', 'R', 'S', 'T', 'U',
    'V', 'W', 'X', 'Y', 'Z', '2', '3', '4', '5', '6', '7',
];

/// Where a credential goes: in place of a string, inside one, or as a key.
#[derive(Debug, Clone)]
enum Placement {
    Value,
    InText,
    Key,
}

fn seeded() -> impl Strategy<Value = (Doc, Vec<String>)> {
    let placements = proptest::collection::vec(
        (
            any::<Index>(),
            credential(),
            prop_oneof![Just(Placement::Value), Just(Placement::InText), Just(Placement::Key)],
        ),
        1..4,
    );
    (any::<Index>(), placements).prop_map(|(which, placements)| {
        let mut doc = examples()[which.index(examples().len())].1.clone();
        let mut credentials = Vec::new();
        for (at, credential, placement) in placements {
            let mutation = match placement {
                Placement::Value => Mutation::Inject { at, text: credential.clone() },
                Placement::InText => {
                    Mutation::Inject { at, text: format!("use the key {credential} for this step") }
                }
                Placement::Key => Mutation::Rename { at, to: credential.clone() },
            };
            mutation.apply(&mut doc);
            credentials.push(credential);
        }
        (doc, credentials)
    })
}

/// Whether SEC001 reports `credential` as the value of a field named like a
/// secret.
fn sec001_flags(credential: &str) -> bool {
    let probe = Doc::Object(vec![
        ("steps".to_owned(), Doc::Array(Vec::new())),
        ("token".to_owned(), Doc::String(credential.to_owned())),
    ]);
    check(&probe.to_json(), &options(Syntax::Json)).diagnostics.iter().any(|d| d.code == "SEC001")
}

/// The parts of a credential past its first four characters, as windows of
/// eight: none may appear in any message.
fn hidden_parts(credential: &str) -> Vec<String> {
    let chars: Vec<char> = credential.chars().collect();
    chars.get(4..).unwrap_or_default().windows(8).map(String::from_iter).collect()
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn no_message_shows_more_than_four_characters_of_a_credential((doc, credentials) in seeded()) {
        let json = doc.to_json();
        let texts = [Some((json.clone(), Syntax::Json)), as_yaml(&json).map(|yaml| (yaml, Syntax::Yaml))];
        for (text, syntax) in texts.into_iter().flatten() {
            let checked = check(&text, &options(syntax));
            for credential in &credentials {
                // Only what SEC001 takes for a credential: a random run of
                // 40 characters is one only when it is high-entropy enough.
                if !sec001_flags(credential) {
                    continue;
                }
                for d in &checked.diagnostics {
                    for part in hidden_parts(credential) {
                        prop_assert!(
                            !d.message.contains(&part),
                            "{} shows `{}` of `{}`: {}", d.code, part, credential, d.message
                        );
                    }
                }
            }
        }
    }
}

/// Whether SEC001 finds `credential` by its shape alone, wherever it is
/// (not only in a field named like a secret).
fn has_a_known_shape(credential: &str) -> bool {
    let probe = Doc::Object(vec![
        ("steps".to_owned(), Doc::Array(Vec::new())),
        ("notes".to_owned(), Doc::String(credential.to_owned())),
    ]);
    check(&probe.to_json(), &options(Syntax::Json)).diagnostics.iter().any(|d| d.code == "SEC001")
}

proptest! {
    #![proptest_config(config(64))]

    /// What the rules flagged is cut wherever it occurs: in every pointer
    /// (a credential used as a key is in the pointers below it) and in the
    /// explain view, as in messages.
    #[test]
    fn no_pointer_or_view_shows_a_credential_the_rules_found((doc, credentials) in seeded()) {
        let json = doc.to_json();
        let texts = [Some((json.clone(), Syntax::Json)), as_yaml(&json).map(|yaml| (yaml, Syntax::Yaml))];
        for (text, syntax) in texts.into_iter().flatten() {
            let analysis = analyze(&text, &options(syntax));
            let mut shown = serde_json::to_string(&analysis.explain).unwrap();
            for d in &analysis.checked.diagnostics {
                shown.push_str(&d.pointer);
                d.related.iter().for_each(|r| shown.push_str(&r.message));
            }
            for credential in credentials.iter().filter(|c| has_a_known_shape(c)) {
                for part in hidden_parts(credential) {
                    prop_assert!(!shown.contains(&part), "`{}` of `{}` is shown: {}", part, credential, shown);
                }
            }
        }
    }
}

/// Found by `no_message_shows_more_than_four_characters_of_a_credential`:
/// a private key written as a key was cut to its `BEGIN` line in messages,
/// and the key itself and its `END` line were shown.
#[test]
fn a_private_key_is_hidden_whole() {
    let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIaaaaaaaaaaaaaaaaaaaaaaaaaaabcxycKNgpBpb3CFzisQqR\n-----END RSA PRIVATE KEY-----";
    for text in [
        Doc::Object(vec![
            ("steps".to_owned(), Doc::Array(Vec::new())),
            (key.to_owned(), Doc::Null),
        ])
        .to_json(),
        // Cut before its end: everything after the header is hidden.
        Doc::Object(vec![
            ("steps".to_owned(), Doc::Array(Vec::new())),
            (key[..60].to_owned(), Doc::Null),
        ])
        .to_json(),
    ] {
        let checked = check(&text, &options(Syntax::Json));
        let unknown = checked
            .diagnostics
            .iter()
            .find(|d| d.code == "IN007")
            .expect("the key is an unknown field");
        assert!(unknown.message.contains("`----…`"), "{}", unknown.message);
        assert!(
            !unknown.message.contains("MIIa") && !unknown.message.contains("END"),
            "{}",
            unknown.message
        );
    }
}

/// Found by `no_message_shows_more_than_four_characters_of_a_credential`:
/// a message quoting two credentials was cut at the one found first by
/// shape (a Slack token) and showed the one before it (a bearer token) in
/// full.
#[test]
fn every_credential_in_a_message_is_hidden() {
    let manifest = "name: twice\ntools:\n  - id: \"Bearer 9afnNS3ZDiqCiY2URB8AuaDrWYKB77Gwk6y2zN2M\"\n    command: [run]\n    approval:\n      deadline: \"xoxb-1234567890-abcdefghijABCDEFGHIJ\"\n";
    let checked = check(manifest, &options(Syntax::Yaml));
    assert!(
        checked
            .diagnostics
            .iter()
            .any(|d| d.message.contains("`Bear…`") && d.message.contains("`xoxb…`")),
        "{:#?}",
        checked.diagnostics
    );
    for d in &checked.diagnostics {
        assert!(
            !d.message.contains("9afnNS3Z") && !d.message.contains("abcdefghij"),
            "{}",
            d.message
        );
    }
}

/// Found by `no_message_shows_more_than_four_characters_of_a_credential`:
/// an AWS access key id followed by `_` in a message (PM105 suggests the
/// plugin's name and `_` as a tool id prefix) was not recognised, and shown.
#[test]
fn an_aws_key_id_before_an_underscore_is_hidden() {
    let manifest = "name: AKIAZ7Q4M2XK9R3T6W1P\ntools:\n  - id: search\n    command: [run]\n";
    let checked = check(manifest, &options(Syntax::Yaml));
    assert!(checked.diagnostics.iter().any(|d| d.code == "PM105"), "{:#?}", checked.diagnostics);
    for d in &checked.diagnostics {
        assert!(!d.message.contains("Z7Q4M2XK"), "{}", d.message);
    }
}

/// Found by `no_message_shows_more_than_four_characters_of_a_credential`:
/// PM105 suggested the plugin's name with `_` for `-` as a tool id prefix,
/// a form of a credential name (a Slack token) that redaction cannot
/// recognise.
#[test]
fn a_credential_name_is_not_spelled_out_in_another_form() {
    let manifest =
        "name: xoxb-2048193756-9Hq3Lm7Zt2Vx8Kd4\ntools:\n  - id: search\n    command: [run]\n";
    let checked = check(manifest, &options(Syntax::Yaml));
    let pm105 = checked.diagnostics.iter().find(|d| d.code == "PM105").expect("PM105");
    assert!(pm105.message.contains("start it with the plugin's name and `_`"), "{}", pm105.message);
    for d in &checked.diagnostics {
        assert!(!d.message.contains("9Hq3Lm7Z"), "{}", d.message);
    }
}
