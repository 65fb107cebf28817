//! Every input limit (the syntax layer's `crates/syntax/src/limits.rs`, and the step and tool counts) with
//! the default limits the CLI and the playground use: a document just over
//! the limit gets IN006 and nothing else, with a message that names the
//! limit and what was found; one at the limit does not (checked under a
//! small limit where a document at the default one takes seconds in a debug
//! build). Each test prints how
//! long the refusal took (run with `--nocapture`), but asserts bounds on the
//! work instead of on time: how much memory the check allocates, which is
//! what a tree built past a limit would show.
//!
//! Also: random bytes and truncations of every example never panic, and the
//! results keep the invariants of `support/invariants.rs`.

#[path = "support/invariants.rs"]
mod invariants;

use invariants::{assert_analysis, assert_checked};
use opb_core::{analyze, check, Checked, Kind, Limits, Options, Syntax};
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use std::time::Instant;

/// Counts the bytes live on the current thread, and their peak, so a test
/// can bound what one check allocates. Per thread, because tests run in
/// parallel.
struct CountingAllocator;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn record(delta: isize) {
    // `try_with`: the allocator also runs while a thread's locals are torn down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counting only reads sizes from the layouts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            record(layout.size() as isize);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        record(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            record(new_size as isize - layout.size() as isize);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const MIB: usize = 1024 * 1024;

/// What checking `text` found, how long it took and the most memory it held
/// at once beyond what was live before.
fn measured(name: &str, text: &str, options: &Options) -> (Checked, usize) {
    let before = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    let started = Instant::now();
    let checked = check(text, options);
    let elapsed = started.elapsed();
    let peak = usize::try_from(PEAK.with(Cell::get) - before).unwrap_or(0);
    println!("{name}: {} bytes checked in {elapsed:?}, at most {peak} bytes allocated", text.len());
    assert_checked(text, options, &checked);
    (checked, peak)
}

/// The one IN006 message of a check stopped by a limit.
fn only_limit(checked: &Checked) -> &str {
    let codes: Vec<_> = checked.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["IN006"], "{:#?}", checked.diagnostics);
    &checked.diagnostics[0].message
}

fn has_limit(checked: &Checked) -> bool {
    checked.diagnostics.iter().any(|d| d.code == "IN006")
}

fn yaml() -> Options {
    Options { syntax: Some(Syntax::Yaml), ..Options::default() }
}

fn json() -> Options {
    Options { syntax: Some(Syntax::Json), ..Options::default() }
}

#[test]
fn input_size() {
    let limit = Limits::default().max_bytes;
    let line = "# a comment line, well under the line-length limit\n";
    let text = format!("steps: []\n{}", line.repeat(limit / line.len() + 1));
    let (checked, peak) = measured("input over the size limit", &text, &yaml());
    let message = only_limit(&checked);
    assert!(message.contains(&format!("The input is {} bytes", text.len())), "{message}");
    assert!(message.contains(&format!("input-size limit is {limit} bytes (16 MiB)")), "{message}");
    // Refused before reading: no copy of the text and no tree, only the
    // line index that places the diagnostic (a word per line).
    assert!(peak < text.len() / 2, "{peak} bytes");

    let at_limit = &text[..limit];
    assert!(!has_limit(&check(at_limit, &yaml())));
}

#[test]
fn an_input_read_only_past_the_size_limit_is_refused_alike() {
    let limit = Limits::default().max_bytes;
    for (size, found) in [
        (Some(20_000_000), "The input is 20000000 bytes".to_owned()),
        (None, format!("The input is more than {limit} bytes")),
    ] {
        let analysis = opb_core::too_large(size, &yaml());
        let message = only_limit(&analysis.checked);
        assert!(message.starts_with(&found), "{message}");
        assert!(
            message.contains(&format!("input-size limit is {limit} bytes (16 MiB)")),
            "{message}"
        );
        assert!(analysis.explain.is_none());
    }
}

#[test]
fn line_length() {
    let limit = Limits::default().max_line_bytes;
    let text = format!("{{\"steps\": [], \"description\": \"{}\"}}", "x".repeat(limit));
    let (checked, peak) = measured("a line over the length limit", &text, &json());
    let message = only_limit(&checked);
    assert!(message.contains(&format!("A line is {} bytes long", text.len())), "{message}");
    assert!(message.contains(&format!("line-length limit is {limit} bytes (4 MiB)")), "{message}");
    assert!(peak < MIB, "{peak} bytes");

    let fits = format!("{{\"steps\": [], \"description\": \"{}\"}}", "x".repeat(limit - 40));
    assert!(!has_limit(&check(&fits, &json())));
}

/// `levels` nested arrays, written in the syntax given.
fn nested(levels: usize, syntax: Syntax) -> String {
    match syntax {
        Syntax::Json => {
            format!("{{\"steps\": {}{}}}", "[".repeat(levels - 1), "]".repeat(levels - 1))
        }
        Syntax::Yaml => {
            let mut text = String::from("steps:\n");
            for level in 1..levels {
                text.push_str(&"  ".repeat(level));
                text.push_str("-\n");
            }
            text
        }
    }
}

#[test]
fn nesting_depth() {
    let limit = Limits::default().max_depth;
    for syntax in [Syntax::Json, Syntax::Yaml] {
        let options = Options { syntax: Some(syntax), ..Options::default() };
        let text = nested(limit + 1, syntax);
        let (checked, peak) =
            measured(&format!("{syntax:?} nested one level past the limit"), &text, &options);
        let message = only_limit(&checked);
        assert!(message.contains(&format!("nests more than {limit} levels")), "{message}");
        assert!(message.contains(&format!("level {} would begin", limit + 1)), "{message}");
        assert!(message.contains(&format!("nesting-depth limit is {limit}")), "{message}");
        assert!(peak < MIB, "{peak} bytes");

        let at_limit = nested(limit, syntax);
        assert!(
            !has_limit(&check(&at_limit, &options)),
            "{syntax:?} at the limit: {:#?}",
            check(&at_limit, &options).diagnostics
        );
    }
}

#[test]
fn nesting_far_past_every_parser_limit_never_exhausts_the_stack() {
    // Deeper than the JSON parser's own limit (512) and than any recursion
    // a thread's stack holds.
    for (syntax, text) in [
        (Syntax::Json, "[".repeat(200_000)),
        (Syntax::Yaml, "[".repeat(200_000)),
        (Syntax::Yaml, "- ".repeat(100_000)),
        (Syntax::Yaml, "{a: ".repeat(100_000)),
    ] {
        let options = Options { syntax: Some(syntax), ..Options::default() };
        let (checked, peak) =
            measured(&format!("{syntax:?} nested 100 000 levels"), &text, &options);
        let message = only_limit(&checked);
        assert!(message.contains("nesting-depth limit is 128"), "{message}");
        assert!(peak < 64 * MIB, "{peak} bytes");
    }
}

#[test]
fn value_count() {
    let limit = Limits::default().max_nodes;
    // The root object, two arrays and `limit - 2` numbers: one over. (Not
    // in `steps`: that many would be over the step limit first.)
    let json_text = format!("{{\"steps\": [], \"numbers\": [{}0]}}", "0,".repeat(limit - 3));
    let yaml_text = format!("steps: []\nnumbers:\n{}", "- 0\n".repeat(limit - 2));
    for (syntax, text) in [(json(), json_text), (yaml(), yaml_text)] {
        let (checked, peak) =
            measured(&format!("{:?} values past the limit", syntax.syntax), &text, &syntax);
        let message = only_limit(&checked);
        assert!(message.contains(&format!("holds more than {limit} values")), "{message}");
        assert!(message.contains(&format!("stopped at value {}", limit + 1)), "{message}");
        assert!(message.contains(&format!("limit on values is {limit}")), "{message}");
        // The tree up to the limit, and no more: a few dozen bytes a value.
        assert!(peak < 64 * limit, "{peak} bytes for {limit} values");
    }

    // The edge, exactly, under a small limit (the same code, a thousandth
    // of the work).
    let small = Options { limits: Limits { max_nodes: 1000, ..Limits::default() }, ..json() };
    let numbers =
        |count: usize| format!("{{\"steps\": [], \"numbers\": [{}0]}}", "0,".repeat(count - 1));
    assert!(!has_limit(&check(&numbers(997), &small)));
    assert!(has_limit(&check(&numbers(998), &small)));
}

/// The classic "billion laughs": nine levels of ten aliases each, 10^9
/// strings once expanded.
fn billion_laughs() -> String {
    let mut text = String::from("a0: &a0 \"lol\"\n");
    for level in 1..=9 {
        let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
        text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
    }
    text.push_str("steps: *a9\n");
    text
}

#[test]
fn yaml_alias_expansion() {
    let limit = Limits::default().max_alias_nodes;
    let text = billion_laughs();
    let (checked, peak) = measured("a billion laughs", &text, &yaml());
    let message = only_limit(&checked);
    assert!(message.contains(&format!("would copy more than {limit} values")), "{message}");
    assert!(message.contains("so far, at this alias"), "{message}");
    assert!(message.contains("billion laughs"), "{message}");
    // The expanded tree is never built: 10^9 strings would take tens of
    // gigabytes; the copies made before the limit stopped them take a few.
    assert!(peak < 64 * MIB, "{peak} bytes");

    // Aliases are fine below the limit: each copy is counted, not refused.
    let few = "a: &a [x, y]\nsteps: [*a, *a, *a]\n";
    assert!(!has_limit(&check(few, &yaml())));
}

/// A playbook of `count` agent steps, in a chain.
fn playbook_with_steps(count: usize) -> String {
    let mut text = String::from("openplaybook: \"1.6\"\nsteps:\n");
    for i in 0..count {
        text.push_str(&format!("  - {{id: s{i}, kind: agent, allowedTools: []}}\n"));
    }
    text
}

/// A document whose `tools` list has `count` entries of `tool`.
fn with_tools(head: &str, tool: &str, count: usize) -> String {
    let mut text = String::from(head);
    text.push_str("tools:\n");
    for i in 0..count {
        text.push_str(&tool.replace("{i}", &i.to_string()));
    }
    text
}

#[test]
fn step_count() {
    let limit = Limits::default().max_steps;
    let text = playbook_with_steps(limit + 1);
    let (checked, _) = measured("steps past the limit", &text, &yaml());
    let message = only_limit(&checked);
    assert_eq!(checked.diagnostics[0].pointer, "/steps");
    assert!(
        message.contains(&format!("The playbook has {} steps; the limit is {limit}", limit + 1)),
        "{message}"
    );

    let small = Options { limits: Limits { max_steps: 50, ..Limits::default() }, ..yaml() };
    assert!(!has_limit(&check(&playbook_with_steps(50), &small)));
    assert!(has_limit(&check(&playbook_with_steps(51), &small)));
}

#[test]
fn tool_count() {
    let limit = Limits::default().max_tools;
    let cases = [
        (
            "playbook",
            Kind::Playbook,
            "openplaybook: \"1.6\"\nsteps: []\n",
            "  - {name: t{i}, source: primitive, riskClass: read}\n",
        ),
        ("manifest", Kind::PluginManifest, "name: many\n", "  - {id: t{i}, command: [run]}\n"),
    ];
    for (document, kind, head, tool) in cases {
        let options =
            Options { kind: Some(kind), syntax: Some(Syntax::Yaml), ..Options::default() };
        let text = with_tools(head, tool, limit + 1);
        let (checked, _) = measured(&format!("{document} tools past the limit"), &text, &options);
        let message = only_limit(&checked);
        assert_eq!(checked.diagnostics[0].pointer, "/tools");
        assert!(
            message
                .contains(&format!("The {document} has {} tools; the limit is {limit}", limit + 1)),
            "{message}"
        );

        let small = Options { limits: Limits { max_tools: 50, ..Limits::default() }, ..options };
        assert!(!has_limit(&check(&with_tools(head, tool, 50), &small)));
        assert!(has_limit(&check(&with_tools(head, tool, 51), &small)));
    }
}

fn examples() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["examples", "crates/core/tests/fixtures/examples"] {
        let entries = std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        for entry in entries.flatten() {
            let path = entry.path();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            files.push((path.display().to_string(), text));
        }
    }
    files.sort();
    assert!(files.len() >= 6, "the examples are there");
    files
}

fn holds_everywhere(text: &str) {
    for syntax in [None, Some(Syntax::Json), Some(Syntax::Yaml)] {
        let options = Options { syntax, ..Options::default() };
        assert_analysis(text, &options, &analyze(text, &options));
    }
}

#[test]
fn every_truncation_of_every_example_is_read_without_panic() {
    for (name, text) in examples() {
        let boundaries: Vec<usize> =
            (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        // Every 17th cut keeps the test fast and still lands inside every
        // kind of token of a few-kilobyte document many times over.
        for &cut in boundaries.iter().step_by(17).chain(boundaries.last()) {
            let truncated = &text[..cut];
            let outcome = std::panic::catch_unwind(|| holds_everywhere(truncated));
            assert!(outcome.is_ok(), "{name} cut at byte {cut}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_are_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        holds_everywhere(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_bytes_spliced_into_an_example_are_read_without_panic(
        which in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        bytes in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        let examples = examples();
        let (_, text) = &examples[which.index(examples.len())];
        let mut spliced = text.as_bytes().to_vec();
        let at = at.index(spliced.len() + 1);
        spliced.splice(at..at, bytes);
        holds_everywhere(&String::from_utf8_lossy(&spliced));
    }
}
