//! What the HTML tests share: reading the examples and the markup.

use std::path::Path;

/// Dense playbooks, as the layout's benchmarks make them.
#[path = "../../../core/benches/dense.rs"]
pub mod dense;

/// The example document `name` (examples/).
pub fn example(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name))
        .unwrap()
}

/// The values of every ` name="…"` attribute of the markup.
pub fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    html.split(&format!(" {name}=\"")).skip(1).filter_map(|rest| rest.split('"').next()).collect()
}

/// Fails unless the markup holds none of `forbidden` (in any case), no
/// event handler (an ` on…=` attribute) and no `href` or `src`: nothing
/// that runs, and nothing that fetches.
pub fn assert_inert(name: &str, html: &str, forbidden: &[&str]) {
    let lower = html.to_ascii_lowercase();
    for forbidden in forbidden {
        assert!(!lower.contains(forbidden), "{name}: {forbidden}");
    }
    let handler = lower.match_indices(" on").any(|(at, _)| {
        let rest = &lower[at + 3..];
        let letters = rest.bytes().take_while(u8::is_ascii_lowercase).count();
        letters > 0 && rest.as_bytes().get(letters) == Some(&b'=')
    });
    assert!(!handler, "{name}: an event handler");
    assert!(
        attributes(html, "href").is_empty() && attributes(html, "src").is_empty(),
        "{name}: a reference"
    );
}
