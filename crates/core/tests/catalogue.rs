//! The registry matches the catalogue of `spec/RULES.md`: every code there is
//! registered with the same name and severity, and documented.

use std::collections::BTreeMap;

/// The rule rows of a catalogue file: code → (name, severity).
fn rows(file: &str) -> BTreeMap<String, (String, String)> {
    let text =
        std::fs::read_to_string(format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let code = cells.get(1)?;
            let is_code = code.len() >= 5
                && code.chars().take(2).all(|c| c.is_ascii_uppercase())
                && code.chars().last()?.is_ascii_digit();
            is_code.then(|| (code.to_string(), (cells[2].to_string(), cells[3].to_string())))
        })
        .collect()
}

fn catalogue() -> BTreeMap<String, (String, String)> {
    rows("spec/RULES.md")
}

/// Whether every reference in a rule's text is one its reader can follow:
/// each section it cites (`§`) is of a document of `spec/` (`DOCUMENTS.md
/// §2`) or of the YAML specification, and it names no issue by number.
fn followable(text: &str) -> bool {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let sections = text.match_indices('§').all(|(at, _)| {
        let cited = &text[text[..at].rfind('(').map_or(0, |open| open + 1)..at];
        cited.contains("YAML")
            || cited
                .split([' ', ','])
                .any(|word| word.ends_with(".md") && spec.join(word).is_file())
    });
    let issues = text
        .match_indices("issue ")
        .any(|(at, word)| text[at + word.len()..].starts_with(|c: char| c.is_ascii_digit()));
    sections && !issues
}

#[test]
fn a_reference_a_reader_cannot_follow_is_found() {
    assert!(followable("Both formats are data (DOCUMENTS.md §1, §2)."));
    assert!(followable("A plain scalar (YAML 1.2 §7.3.3) ends at a comment."));
    assert!(!followable("Never hang (NOTES §6)."));
    assert!(!followable("Kept small (NOTES.md §6)."), "a file the spec does not hold");
    assert!(!followable(&format!("The budget (issue {}) is bytes.", 21)));
}

#[test]
fn every_catalogue_rule_is_registered_as_written() {
    let mut catalogue = catalogue();
    catalogue.extend(rows("docs/rules-added.md"));
    assert!(catalogue.len() > 100, "the catalogue parsed: {}", catalogue.len());
    let mut missing = Vec::new();
    for (code, (name, severity)) in &catalogue {
        match opb_core::rule(code) {
            Some(rule) => {
                assert_eq!(rule.name, name, "{code}");
                assert_eq!(rule.severity.as_str(), severity, "{code}");
            }
            None => missing.push(code.as_str()),
        }
    }
    assert!(missing.is_empty(), "not registered: {missing:?}");
    let unlisted: Vec<_> =
        opb_core::rules().map(|r| r.code).filter(|c| !catalogue.contains_key(*c)).collect();
    assert!(
        unlisted.is_empty(),
        "registered but in neither spec/RULES.md nor docs/rules-added.md: {unlisted:?}"
    );
}

/// The repository carries copies of the shared spec, examples and advisory
/// database so a clean clone is complete; the copies must equal `../shared`.
#[test]
fn shared_copies_are_current() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = repo.join("../shared");
    // Without ../shared there is nothing to compare with: that is a
    // failure, unless OPB_WITHOUT_SHARED says it is known (cargo xtask
    // sets it in a clone outside the workspace, and says NOT CHECKED).
    if !shared.is_dir() {
        assert!(
            std::env::var_os("OPB_WITHOUT_SHARED").is_some(),
            "{} is absent: set OPB_WITHOUT_SHARED=1 to test without it",
            shared.display()
        );
        return;
    }
    let copies = [
        ("spec", "spec"),
        ("spec/seeds", "spec/seeds"),
        ("examples", "examples"),
        ("vendor/rustsec-advisory-db", "tests/data/rustsec-advisory-db"),
    ];
    for (dir, copied) in copies {
        let entries =
            std::fs::read_dir(shared.join(dir)).unwrap_or_else(|e| panic!("../shared/{dir}: {e}"));
        for entry in entries.flatten().filter(|e| e.path().is_file()) {
            let name = entry.file_name();
            let copy = std::fs::read(repo.join(copied).join(&name)).unwrap_or_default();
            assert!(
                copy == std::fs::read(entry.path()).unwrap(),
                "{copied}/{name:?} differs from ../shared/{dir}: run cargo xtask sync-shared"
            );
        }
    }
}

#[test]
fn the_project_adds_rules_with_new_codes() {
    let added = rows("docs/rules-added.md");
    assert!(
        added.keys().all(|code| !catalogue().contains_key(code)),
        "an added rule reuses a catalogue code"
    );
}

#[test]
fn every_registered_rule_is_documented_once() {
    let mut seen = std::collections::HashSet::new();
    for rule in opb_core::rules() {
        assert!(seen.insert(rule.code), "{} registered twice", rule.code);
        for (what, text) in [
            ("summary", rule.summary),
            ("source", rule.source),
            ("fix", rule.fix),
            ("example", rule.example),
        ] {
            assert!(text.trim().len() > 10, "{}: {what} is missing", rule.code);
            // `opb rules` prints it to people who cannot follow a reference
            // to the project's notes or tracker: the reason is in words.
            assert!(
                followable(text),
                "{}: its {what} cites a note a reader cannot follow: {text}",
                rule.code
            );
        }
        assert!(
            rule.source.contains("seed 000")
                || rule.source.contains("seed 003")
                || rule.source.contains("DOCUMENTS.md")
                || rule.source.contains("docs/limits.md")
                || rule.source.contains("YAML"),
            "{}: the source names where the rule comes from",
            rule.code
        );
    }
}
