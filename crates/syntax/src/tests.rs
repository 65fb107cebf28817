use super::*;
use crate::text::Span;

fn parse_ok(text: &str, syntax: Syntax) -> Node {
    let parsed = parse(text, syntax, &Limits::default());
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    parsed.root.expect("a tree")
}

fn kinds(parsed: &Parsed) -> Vec<ProblemKind> {
    parsed.problems.iter().map(|p| p.kind).collect()
}

#[test]
fn json_and_yaml_give_the_same_tree_shape() {
    let json = parse_ok(r#"{"a": [1, "x", true, null], "b": {"c": 2.5}}"#, Syntax::Json);
    let yaml = parse_ok("a: [1, x, true, null]\nb:\n  c: 2.5\n", Syntax::Yaml);
    let strip = |n: &Node| {
        format!(
            "{:?}",
            n.pointer("/a")
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i.type_name())
                .collect::<Vec<_>>()
        )
    };
    assert_eq!(strip(&json), strip(&yaml));
    assert_eq!(json.pointer("/b/c").unwrap().as_f64(), Some(2.5));
    assert_eq!(yaml.pointer("/b/c").unwrap().as_f64(), Some(2.5));
}

#[test]
fn every_key_and_value_has_its_span() {
    let text = "name: é\nsteps:\n  - id: \"héllo\"\n";
    let root = parse_ok(text, Syntax::Yaml);
    let id = root.pointer("/steps/0/id").unwrap();
    assert_eq!(&text[id.span.start..id.span.end], "\"héllo\"");
    let steps = root.as_object().unwrap().member("steps").unwrap();
    assert_eq!(&text[steps.key_span.start..steps.key_span.end], "steps");

    let text = r#"{"steps": [{"id": "héllo"}]}"#;
    let root = parse_ok(text, Syntax::Json);
    let id = root.pointer("/steps/0/id").unwrap();
    assert_eq!(&text[id.span.start..id.span.end], "\"héllo\"");
    let item = root.pointer("/steps/0").unwrap();
    assert_eq!(&text[item.span.start..item.span.end], r#"{"id": "héllo"}"#);
}

#[test]
fn block_collections_span_their_content() {
    let text = "steps:\n  - id: a\n    kind: agent\nstart: a\n";
    let root = parse_ok(text, Syntax::Yaml);
    let step = root.pointer("/steps/0").unwrap();
    assert_eq!(&text[step.span.start..step.span.end], "id: a\n    kind: agent");
    assert_eq!(step.head_span(), Span::new(step.span.start, step.span.start + 2));
}

#[test]
fn yaml_core_schema_types_plain_scalars_only() {
    let root = parse_ok(
        "a: 1\nb: '1'\nc: off\nd: ~\ne: 0x1F\nf: 1.5e3\ng: .inf\nh: True\ni: 1.2.3\nj: !!str 5\n",
        Syntax::Yaml,
    );
    assert_eq!(root.get("a").unwrap().as_f64(), Some(1.0));
    assert_eq!(root.get("b").unwrap().as_str(), Some("1"));
    assert_eq!(root.get("c").unwrap().as_str(), Some("off"));
    assert!(root.get("d").unwrap().is_null());
    assert_eq!(root.get("e").unwrap().as_f64(), Some(31.0));
    assert_eq!(root.get("f").unwrap().as_f64(), Some(1500.0));
    assert_eq!(root.get("g").unwrap().as_f64(), Some(f64::INFINITY));
    assert_eq!(root.get("h").unwrap().as_bool(), Some(true));
    assert_eq!(root.get("i").unwrap().as_str(), Some("1.2.3"));
    assert_eq!(root.get("j").unwrap().as_str(), Some("5"));
}

#[test]
fn duplicate_keys_are_reported_in_both_syntaxes() {
    for (text, syntax) in
        [(r#"{"a": 1, "b": 2, "a": 3}"#, Syntax::Json), ("a: 1\nb: 2\na: 3\n", Syntax::Yaml)]
    {
        let parsed = parse(text, syntax, &Limits::default());
        assert_eq!(kinds(&parsed), [ProblemKind::DuplicateKey], "{syntax:?}");
        let f = &parsed.problems[0];
        assert_eq!(f.pointer, "/a");
        assert_eq!(&text[f.span.start..f.span.end].trim_matches('"'), &"a");
        assert!(f.span.start >= 10, "the second key is underlined");
        assert_eq!(parsed.root.unwrap().get("a").unwrap().as_f64(), Some(1.0), "the first is read");
    }
}

#[test]
fn nested_duplicate_keys_point_into_the_structure() {
    let parsed = parse("steps:\n  - id: a\n    id: b\n", Syntax::Yaml, &Limits::default());
    assert_eq!(parsed.problems[0].pointer, "/steps/0/id");
}

#[test]
fn json_is_strict() {
    for text in [
        "{\"a\": 1,}",
        "{a: 1}",
        "{'a': 1}",
        "// c\n{}",
        "{\"a\": 0x1}",
        "{\"a\": +1}",
        "{\"a\": .5}",
        "{\"a\": NaN}",
        "{\"a\": 1 \"b\": 2}",
    ] {
        let parsed = parse(text, Syntax::Json, &Limits::default());
        assert_eq!(kinds(&parsed), [ProblemKind::Syntax], "{text}");
    }
}

#[test]
fn parse_errors_carry_the_parsers_position() {
    let text = "{\n  \"a\": 1\n  \"b\": 2\n}";
    let parsed = parse(text, Syntax::Json, &Limits::default());
    let f = &parsed.problems[0];
    assert_eq!(f.kind, ProblemKind::Syntax);
    assert!(f.message.contains("line 2, column 9"), "{}", f.message);
    assert_eq!(f.span.start, text.find("1\n").unwrap() + 1);

    let text = "a: [1, 2\nb: c\n";
    let parsed = parse(text, Syntax::Yaml, &Limits::default());
    assert_eq!(kinds(&parsed), [ProblemKind::Syntax]);
    assert!(parsed.problems[0].message.starts_with("Invalid YAML"));
}

#[test]
fn empty_text_is_a_parse_error() {
    for syntax in [Syntax::Json, Syntax::Yaml] {
        let parsed = parse("  \n", syntax, &Limits::default());
        assert_eq!(kinds(&parsed), [ProblemKind::Syntax]);
    }
}

#[test]
fn billion_laughs_stops_before_expanding() {
    let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    // How fast it answers is measured in `cargo bench -p opb-core --bench
    // analyze` (the `hostile` group), not asserted here.
    let parsed = parse(&text, Syntax::Yaml, &Limits::default());
    assert_eq!(kinds(&parsed), [ProblemKind::Limit]);
    assert!(parsed.problems[0].message.contains("billion laughs"));
    assert!(parsed.root.is_none());
}

#[test]
fn modest_aliases_are_expanded() {
    let root = parse_ok("base: &b {kind: agent}\nsteps:\n  - *b\n  - *b\n", Syntax::Yaml);
    assert_eq!(root.pointer("/steps/1/kind").unwrap().as_str(), Some("agent"));
}

#[test]
fn depth_limit_applies_to_both_syntaxes() {
    let limits = Limits::default();
    let deep_json =
        format!("{}{}", "[".repeat(limits.max_depth + 5), "]".repeat(limits.max_depth + 5));
    let deep_yaml =
        format!("{}{}", "[".repeat(limits.max_depth + 5), "]".repeat(limits.max_depth + 5));
    assert_eq!(kinds(&parse(&deep_json, Syntax::Json, &limits)), [ProblemKind::Limit]);
    assert_eq!(kinds(&parse(&deep_yaml, Syntax::Yaml, &limits)), [ProblemKind::Limit]);
    let very_deep = "[".repeat(100_000);
    assert_eq!(kinds(&parse(&very_deep, Syntax::Json, &limits)), [ProblemKind::Limit]);
    assert_eq!(kinds(&parse(&very_deep, Syntax::Yaml, &limits)), [ProblemKind::Limit]);
    let fine = format!("{}{}", "[".repeat(limits.max_depth - 1), "]".repeat(limits.max_depth - 1));
    assert!(parse(&fine, Syntax::Json, &limits).problems.is_empty());
}

#[test]
fn size_and_line_limits() {
    let limits = Limits { max_bytes: 100, max_line_bytes: 40, ..Limits::default() };
    let big = format!("a: {}\n", "x".repeat(200));
    let f = &parse(&big, Syntax::Yaml, &limits).problems;
    assert_eq!(f[0].kind, ProblemKind::Limit);
    assert!(f[0].message.contains("100 bytes"), "{}", f[0].message);
    let long_line = format!("a: {}\n", "x".repeat(50));
    let f = &parse(&long_line, Syntax::Yaml, &limits).problems;
    assert!(f[0].message.contains("line is 54 bytes"), "{}", f[0].message);
}

/// The windowed line-length check finds the first line a line-by-line
/// count finds, with its length.
#[test]
fn the_first_long_line_is_found_as_a_line_count_finds_it() {
    fn first_long_line(text: &str, max: usize) -> Option<(usize, usize)> {
        let mut start = 0;
        for end in text.match_indices('\n').map(|(at, _)| at + 1).chain([text.len()]) {
            if end - start > max {
                return Some((start, end - start));
            }
            start = end;
        }
        None
    }
    let texts = [
        "",
        "\n",
        "ab",
        "ab\n",
        "a\nbcd\nef\n",
        "abc\n\n\nabcdefg",
        "abcd\nabcd\nabcde",
        "\n\n\n\n",
        "abcdefgh\n",
    ];
    for text in texts {
        for max in 0..6 {
            let limits = Limits { max_line_bytes: max, ..Limits::default() };
            let found = limits::check_line_length(text, &limits);
            let expected = first_long_line(text, max);
            assert_eq!(
                found.as_ref().map(|f| f.span.start),
                expected.map(|(start, _)| start),
                "{text:?} {max}"
            );
            if let (Some(problem), Some((_, length))) = (found, expected) {
                assert!(
                    problem.message.starts_with(&format!("A line is {length} bytes long")),
                    "{text:?} {max}: {}",
                    problem.message
                );
            }
        }
    }
}

#[test]
fn a_second_yaml_document_is_reported() {
    let parsed = parse("a: 1\n---\nb: 2\n", Syntax::Yaml, &Limits::default());
    assert_eq!(kinds(&parsed), [ProblemKind::Syntax]);
    assert!(parsed.root.unwrap().get("a").is_some());
}

#[test]
fn syntax_sniffing() {
    assert_eq!(Syntax::sniff("  {\"a\": 1}"), Syntax::Json);
    assert_eq!(Syntax::sniff("\u{feff}[1]"), Syntax::Json);
    assert_eq!(Syntax::sniff("# c\na: 1"), Syntax::Yaml);
    assert_eq!(Syntax::from_path("x.YML"), Some(Syntax::Yaml));
}

#[test]
fn quoted_scalars_end_at_their_closing_quote() {
    let text = "a: \"x\"   # c\nb: 'it''s'  # d\nc: \"q\\\"\" # e\nd: \"é\"\n";
    let root = parse_ok(text, Syntax::Yaml);
    for (key, source) in [("a", "\"x\""), ("b", "'it''s'"), ("c", "\"q\\\"\""), ("d", "\"é\"")] {
        let span = root.get(key).unwrap().span;
        assert_eq!(&text[span.start..span.end], source, "{key}");
    }
}

#[test]
fn a_byte_order_mark_starts_a_yaml_text_as_it_starts_a_json_one() {
    for text in [
        "\u{feff}# comment\nopenplaybook: \"1.6\"\nid: x\n",
        "\u{feff}openplaybook: \"1.6\"\nid: x\n",
    ] {
        let root = parse_ok(text, Syntax::Yaml);
        let key =
            root.as_object().unwrap().member("openplaybook").expect("the key reads as written");
        assert_eq!(key.key, "openplaybook", "the mark is no part of the first key: {text:?}");
        assert_eq!(&text[key.key_span.start..key.key_span.end], "openplaybook");
        let id = root.get("id").unwrap().span;
        assert_eq!(&text[id.start..id.end], "x");
    }
    // An error on the first line is placed counting the mark as the
    // character it is, as every position in the text does.
    let parsed = parse("\u{feff}a: [1\n", Syntax::Yaml, &Limits::default());
    assert_eq!(kinds(&parsed), [ProblemKind::Syntax]);
    let at = parsed.problems[0].span.start;
    assert!(at >= 3 && "\u{feff}a: [1\n".is_char_boundary(at), "{at}");
}

#[test]
fn the_non_specific_tag_makes_a_scalar_a_string() {
    let root = parse_ok("a: ! 12\nb: 12\nc: !!str 12\n", Syntax::Yaml);
    assert_eq!(root.get("a").and_then(Node::as_str), Some("12"));
    assert!(root.get("b").and_then(Node::as_number).is_some());
    assert_eq!(root.get("c").and_then(Node::as_str), Some("12"));
}

#[test]
fn a_tab_after_a_keys_colon_separates_as_yaml_1_2_allows() {
    let text = "steps:\n  - id: review\n    kind:\tgate\n    next:\t\t[done]\nflow: {a:\tb}\n";
    let root = parse_ok(text, Syntax::Yaml);
    let kind = root.pointer("/steps/0/kind").unwrap();
    assert_eq!(kind.as_str(), Some("gate"));
    assert_eq!(kind.span, Span::new(text.find("gate").unwrap(), text.find("gate").unwrap() + 4));
    assert_eq!(root.pointer("/steps/0/next/0").and_then(Node::as_str), Some("done"));
    assert_eq!(root.pointer("/flow/a").and_then(Node::as_str), Some("b"));
    // A tab still cannot indent the compact collection an explicit key's
    // value begins (yaml-test-suite Y79Y), and no collection begins on the
    // line of an implicit key, whatever separates it.
    for (text, line, column) in [("? a\n:\t- b\n", 2, 3), ("a:\t- b\n", 1, 4), ("a:\tb: c\n", 1, 5)]
    {
        let parsed = parse(text, Syntax::Yaml, &Limits::default());
        assert_eq!(kinds(&parsed), [ProblemKind::Syntax], "{text:?}");
        assert!(
            parsed.problems[0].message.ends_with(&format!("(line {line}, column {column}).")),
            "{text:?}: {}",
            parsed.problems[0].message
        );
    }
}

/// The opening's span and the note's, as `(line, column)` of their starts.
fn unclosed(text: &str, syntax: Syntax) -> ((usize, usize), Option<(usize, usize)>) {
    let parsed = parse(text, syntax, &Limits::default());
    assert_eq!(kinds(&parsed), [ProblemKind::Syntax], "{text:?}");
    let index = crate::text::LineIndex::new(text);
    let at = |offset| {
        let p = index.position(offset);
        (p.line, p.column)
    };
    let problem = &parsed.problems[0];
    (at(problem.span.start), problem.related.as_ref().map(|note| at(note.span.start)))
}

#[test]
fn an_unclosed_bracket_or_quote_is_reported_where_it_opened() {
    // (text, syntax, the opening, where the parser stopped)
    let cases = [
        // The next line goes on at the bracket's own indentation.
        ("{\n  \"a\": [1, 2\n  \"b\": 3\n}\n", Syntax::Json, (2, 8), (2, 13)),
        ("name: x\ntimeout: [90m\nnext: y\n", Syntax::Yaml, (2, 10), (3, 5)),
        (
            "tools:\n  - id: t\n    timeout: [90m\n    limits: {a: 1}\n  - id: u\n",
            Syntax::Yaml,
            (3, 14),
            (4, 11),
        ),
        // A closing bracket of the other kind.
        ("{\"a\": [1, 2}", Syntax::Json, (1, 7), (1, 12)),
        ("a: [1, 2}\n", Syntax::Yaml, (1, 4), (1, 9)),
        // The text ends.
        ("{\"a\": [1, 2", Syntax::Json, (1, 7), (1, 12)),
        ("a: [1, {b: 2\n", Syntax::Yaml, (1, 8), (2, 1)),
        // A string: JSON's ends with its line, YAML's scanner says.
        ("{\n  \"a\": \"abc,\n  \"b\": 3\n}\n", Syntax::Json, (2, 8), (3, 4)),
        ("{\"a\": \"abc", Syntax::Json, (1, 7), (1, 11)),
        ("a: \"abc\nb: 1\n", Syntax::Yaml, (1, 4), (2, 1)),
        ("a:\n  b: 'abc\n  c: 1\n", Syntax::Yaml, (2, 6), (3, 3)),
        // A byte-order mark is a character of its line.
        ("\u{feff}a: [1, 2}\n", Syntax::Yaml, (1, 5), (1, 10)),
    ];
    for (text, syntax, opening, stopped) in cases {
        assert_eq!(unclosed(text, syntax), (opening, Some(stopped)), "{text:?}");
        let message = &parse(text, syntax, &Limits::default()).problems[0].message;
        assert!(
            message.contains(&format!("never closed (line {}, column {})", opening.0, opening.1)),
            "{message}"
        );
        assert!(
            message
                .contains(&format!("reading stopped at line {}, column {}", stopped.0, stopped.1)),
            "{message}"
        );
    }
}

#[test]
fn a_bracket_the_text_still_closes_keeps_the_parsers_position() {
    for (text, syntax, at) in [
        ("[1, 2 3]", Syntax::Json, (1, 6)),
        ("{\n  \"a\": [\n    1,\n    2 3\n  ]\n}", Syntax::Json, (4, 6)),
        ("tools: [\n  a,\n  \"b\" x,\n]\n", Syntax::Yaml, (3, 7)),
    ] {
        let (found, note) = unclosed(text, syntax);
        assert_eq!((found, note), (at, None), "{text:?}");
    }
}
