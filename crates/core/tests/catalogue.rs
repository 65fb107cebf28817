//! The registry matches the catalogue of `spec/RULES.md`: every code there is
//! registered with the same name and severity, and documented.

use opb_core::rules;
use std::collections::BTreeMap;

fn catalogue() -> BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/RULES.md")).unwrap();
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let code = cells.get(1)?;
            let is_code = code.len() >= 5 && code.chars().take(2).all(|c| c.is_ascii_uppercase()) && code.chars().last()?.is_ascii_digit();
            is_code.then(|| (code.to_string(), (cells[2].to_string(), cells[3].to_string())))
        })
        .collect()
}

#[test]
fn every_catalogue_rule_is_registered_as_written() {
    let catalogue = catalogue();
    assert!(catalogue.len() > 100, "the catalogue parsed: {}", catalogue.len());
    let mut missing = Vec::new();
    for (code, (name, severity)) in &catalogue {
        match rules::lookup(code) {
            Some(rule) => {
                assert_eq!(rule.name, name, "{code}");
                assert_eq!(rule.severity.as_str(), severity, "{code}");
            }
            None => missing.push(code.as_str()),
        }
    }
    assert!(missing.is_empty(), "not registered: {missing:?}");
}

#[test]
fn every_registered_rule_is_documented_once() {
    let mut seen = std::collections::HashSet::new();
    for rule in rules::all() {
        assert!(seen.insert(rule.code), "{} registered twice", rule.code);
        for (what, text) in [("summary", rule.summary), ("source", rule.source), ("fix", rule.fix), ("example", rule.example)] {
            assert!(text.trim().len() > 10, "{}: {what} is missing", rule.code);
        }
        assert!(
            rule.source.contains("seed 000") || rule.source.contains("seed 003") || rule.source.contains("DOCUMENTS.md") || rule.source.contains("GUIDE") || rule.source.contains("YAML"),
            "{}: the source names where the rule comes from",
            rule.code
        );
    }
}
