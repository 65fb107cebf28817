//! How the interface words names, counts and sizes.

use opb_core::{Severity, Syntax};

/// A count with its severity, as the filters and the header say it.
pub fn plural(severity: Severity, count: usize) -> String {
    let word = match (severity, count) {
        (Severity::Error, 1) => "error",
        (Severity::Error, _) => "errors",
        (Severity::Warning, 1) => "warning",
        (Severity::Warning, _) => "warnings",
        (Severity::Info, _) => "info",
    };
    format!("{count} {word}")
}

pub use opb_render::glance::kind_label;

pub fn syntax_label(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Json => "JSON",
        Syntax::Yaml => "YAML",
    }
}

/// The syntax a conversion goes to.
pub fn other(syntax: Syntax) -> Syntax {
    match syntax {
        Syntax::Json => Syntax::Yaml,
        Syntax::Yaml => Syntax::Json,
    }
}

/// The document's name with the extension of `syntax`.
pub fn renamed(name: &str, syntax: Syntax) -> String {
    let stem = name
        .strip_suffix(".json")
        .or_else(|| name.strip_suffix(".yaml"))
        .or_else(|| name.strip_suffix(".yml"))
        .unwrap_or(name);
    match syntax {
        Syntax::Json => format!("{stem}.json"),
        Syntax::Yaml => format!("{stem}.yaml"),
    }
}

pub fn human_size(bytes: usize) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes < 1024 * 1024 {
        format!("{:.1} KB", bytes as f64 / 1024.0)
    } else {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_naturally() {
        assert_eq!(plural(Severity::Error, 1), "1 error");
        assert_eq!(plural(Severity::Warning, 0), "0 warnings");
        assert_eq!(plural(Severity::Info, 3), "3 info");
    }

    #[test]
    fn conversion_renames_the_document() {
        assert_eq!(renamed("refund-triage.broken.yaml", Syntax::Json), "refund-triage.broken.json");
        assert_eq!(renamed("a.yml", Syntax::Json), "a.json");
        assert_eq!(renamed("untitled", Syntax::Yaml), "untitled.yaml");
    }

    #[test]
    fn sizes_are_short() {
        assert_eq!(human_size(512), "512 B");
        assert_eq!(human_size(5 * 1024 * 1024), "5.0 MB");
    }
}
