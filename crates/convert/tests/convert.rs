//! Conversions keep every value: round trips through the other syntax give
//! back the same tree, key order and numbers as written included.

use opb_convert::{convert, pretty, ConvertError};
use opb_syntax::{parse, Limits, Node, Syntax, Value};
use std::path::PathBuf;

/// A tree without spans: what "the same document" means.
#[derive(Debug, PartialEq)]
enum Plain {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Plain>),
    Object(Vec<(String, Plain)>),
}

fn plain(node: &Node) -> Plain {
    match &node.value {
        Value::Null => Plain::Null,
        Value::Bool(b) => Plain::Bool(*b),
        Value::Number(n) => Plain::Number(n.raw.clone()),
        Value::String(s) => Plain::String(s.to_string()),
        Value::Array(items) => Plain::Array(items.iter().map(plain).collect()),
        Value::Object(o) => {
            Plain::Object(o.members.iter().map(|m| (m.key.to_string(), plain(&m.value))).collect())
        }
    }
}

fn tree(text: &str, syntax: Syntax) -> Plain {
    let parsed = parse(text, syntax, &Limits::default());
    let root =
        parsed.root.unwrap_or_else(|| panic!("does not parse: {:?}\n{text}", parsed.problems));
    plain(&root)
}

fn to(text: &str, from: Syntax, to: Syntax) -> String {
    convert(text, from, to, &Limits::default()).unwrap_or_else(|e| panic!("{e}\n{text}")).text
}

fn examples() -> Vec<(PathBuf, String, Syntax)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut found: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let syntax = Syntax::from_path(path.to_str()?)?;
            let text = std::fs::read_to_string(&path).ok()?;
            Some((path, text, syntax))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(found.len() >= 4, "examples found: {found:?}");
    found
}

#[test]
fn every_example_survives_json_to_yaml_to_json() {
    for (path, text, syntax) in examples() {
        let json = to(&text, syntax, Syntax::Json);
        let yaml = to(&json, Syntax::Json, Syntax::Yaml);
        let back = to(&yaml, Syntax::Yaml, Syntax::Json);
        assert_eq!(
            tree(&back, Syntax::Json),
            tree(&json, Syntax::Json),
            "{}:\n{yaml}",
            path.display()
        );
        assert_eq!(back, json, "{}", path.display());
    }
}

#[test]
fn every_example_keeps_its_tree_in_the_other_syntax_and_when_pretty_printed() {
    for (path, text, syntax) in examples() {
        let other = match syntax {
            Syntax::Json => Syntax::Yaml,
            Syntax::Yaml => Syntax::Json,
        };
        let original = tree(&text, syntax);
        assert_eq!(tree(&to(&text, syntax, other), other), original, "{}", path.display());
        let pretty = pretty(&text, syntax, &Limits::default()).expect("pretty-prints").text;
        assert_eq!(tree(&pretty, syntax), original, "{}", path.display());
        assert_eq!(
            to(&pretty, syntax, syntax),
            pretty,
            "{}: pretty-printing is stable",
            path.display()
        );
    }
}

#[test]
fn numbers_stay_as_written_and_keys_in_order() {
    let json = r#"{"z": 0.50, "a": 1e3, "m": -0, "big": 123456789012345678901234567890, "list": [1.0, 2]}"#;
    let yaml = to(json, Syntax::Json, Syntax::Yaml);
    assert_eq!(
        yaml,
        "z: 0.50\na: 1e3\nm: -0\nbig: 123456789012345678901234567890\nlist:\n  - 1.0\n  - 2\n"
    );
    assert_eq!(tree(&yaml, Syntax::Yaml), tree(json, Syntax::Json));
}

#[test]
fn strings_that_look_like_other_things_stay_strings() {
    let json = r##"{
        "t": "true", "n": "null", "num": "1.5", "hex": "0x10", "empty": "", "colon": "a: b",
        "hash": "a #b", "dash": "- x", "space": " padded ", "quote": "it's \"q\"",
        "lines": "first\nsecond\n", "indented": "  lead\nx", "marker": "---\nx", "tab": "a\tb",
        "unicode": "héllo ✓ 😀", "ctrl": "bell\u0007", "keep": "a\n\n", "only": "\n\n",
        "key: with colon": 1, "": "empty key", "yes": "no", "~": "~"
    }"##;
    let yaml = to(json, Syntax::Json, Syntax::Yaml);
    assert_eq!(tree(&yaml, Syntax::Yaml), tree(json, Syntax::Json), "{yaml}");
    assert!(
        yaml.contains("lines: |\n  first\n  second\n"),
        "multi-line strings are literal blocks:\n{yaml}"
    );
}

#[test]
fn yaml_only_notations_convert_to_equal_json_values() {
    let yaml = "hex: 0x1F\nplus: +1\nhalf: .5\noctal: 0o17\nnothing: ~\nflag: True\n";
    let json = to(yaml, Syntax::Yaml, Syntax::Json);
    assert_eq!(json, "{\n  \"hex\": 31,\n  \"plus\": 1,\n  \"half\": 0.5,\n  \"octal\": 15,\n  \"nothing\": null,\n  \"flag\": true\n}\n");
}

#[test]
fn aliases_are_written_out_in_full() {
    let yaml = "base: &b {a: 1}\ncopy: *b\n";
    let json = to(yaml, Syntax::Yaml, Syntax::Json);
    assert_eq!(
        tree(&json, Syntax::Json),
        tree("{\"base\": {\"a\": 1}, \"copy\": {\"a\": 1}}", Syntax::Json)
    );
}

#[test]
fn what_the_target_cannot_hold_is_refused_not_dropped() {
    let limits = Limits::default();
    let duplicate = convert(r#"{"steps": {"a": 1, "a": 2}}"#, Syntax::Json, Syntax::Yaml, &limits);
    assert_eq!(
        duplicate,
        Err(ConvertError::DuplicateKey { pointer: "/steps".into(), key: "a".into() })
    );
    let message = duplicate.unwrap_err().to_string();
    assert!(message.contains("`a`") && message.contains("the object at `/steps`"), "{message}");
    let at_top = convert(r#"{"id": "a", "id": "b"}"#, Syntax::Json, Syntax::Yaml, &limits)
        .unwrap_err()
        .to_string();
    assert!(at_top.contains("twice in the top-level object"), "{at_top}");

    let infinite = convert("limit: .inf\n", Syntax::Yaml, Syntax::Json, &limits);
    assert_eq!(
        infinite,
        Err(ConvertError::NotRepresentable { pointer: "/limit".into(), raw: ".inf".into() })
    );

    // JSON keeps duplicate keys: pretty-printing must not drop one.
    let kept = pretty(r#"{"a": 1, "a": 2}"#, Syntax::Json, &limits).expect("pretty-prints").text;
    assert_eq!(kept, "{\n  \"a\": 1,\n  \"a\": 2\n}\n");
}

#[test]
fn unreadable_text_says_why() {
    let limits = Limits::default();
    for (text, syntax) in
        [("", Syntax::Yaml), ("{\"a\": ", Syntax::Json), ("a: [", Syntax::Yaml), ("", Syntax::Json)]
    {
        match convert(text, syntax, Syntax::Json, &limits) {
            Err(ConvertError::Unreadable { message }) => assert!(!message.is_empty()),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert!(matches!(
        convert(&deep, Syntax::Json, Syntax::Yaml, &limits),
        Err(ConvertError::Unreadable { .. })
    ));
}

#[test]
fn yaml_comments_are_counted_not_confused_with_text() {
    let yaml = "# heading\nname: a # trailing\nurl: \"http://x/#frag\"\ntag: a#b\nnote: |\n  # not a comment\n  text\nlist: [1, 2] # flow\n";
    let converted =
        convert(yaml, Syntax::Yaml, Syntax::Json, &Limits::default()).expect("converts");
    assert_eq!(converted.comments_dropped, 3, "{}", converted.text);
    let none = convert("{\"a\": \"# x\"}", Syntax::Json, Syntax::Yaml, &Limits::default())
        .expect("converts");
    assert_eq!(none.comments_dropped, 0);
}

/// Found by the core's property tests (JSON and YAML of the same data
/// agree): a key longer than YAML's 1024-character limit on implicit keys
/// was written as one, and the YAML did not read back.
#[test]
fn a_key_yaml_cannot_hold_is_refused() {
    let limits = Limits::default();
    let long = "k".repeat(1100);
    let text = format!("{{\"steps\": [{{\"{long}\": 1}}]}}");
    let refused = convert(&text, Syntax::Json, Syntax::Yaml, &limits);
    assert_eq!(refused, Err(ConvertError::KeyTooLong { pointer: "/steps/0".into(), length: 1100 }));
    let message = refused.unwrap_err().to_string();
    assert!(message.contains("1100 characters") && message.contains("1024"), "{message}");
    // Escapes count as written: 600 tabs are 1202 characters in quotes.
    let tabs = format!("{{\"{}\": 1}}", "\\t".repeat(600));
    assert!(matches!(
        convert(&tabs, Syntax::Json, Syntax::Yaml, &limits),
        Err(ConvertError::KeyTooLong { .. })
    ));
    // A long key within the limit is written and reads back.
    let fits = format!("{{\"{}\": 1}}", "k".repeat(1000));
    let yaml = convert(&fits, Syntax::Json, Syntax::Yaml, &limits).expect("converts").text;
    assert!(opb_syntax::parse(&yaml, Syntax::Yaml, &limits).root.is_some(), "{yaml}");
}
