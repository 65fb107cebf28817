//! Small pieces of English shared by the renderers: the CLI's and the
//! static pages'.

/// `1 error`, `2 errors`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `a, b and c`; `none` for nothing.
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => "none".to_owned(),
        [one] => one.as_ref().to_owned(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

/// `2 errors and 1 warning point`: the diagnostics that point into a part
/// of a document; `None` when there are none.
pub fn problems(counts: opb_core::Counts) -> Option<String> {
    let parts: Vec<String> = [(counts.error, "error", "errors"), (counts.warning, "warning", "warnings"), (counts.info, "info", "infos")]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| plural(n, one, many))
        .collect();
    let total = counts.error + counts.warning + counts.info;
    (total > 0).then(|| format!("{} {}", list(&parts), if total == 1 { "points" } else { "point" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_english() {
        assert_eq!(list::<&str>(&[]), "none");
        assert_eq!(list(&["a"]), "a");
        assert_eq!(list(&["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn problems_name_only_what_there_is() {
        let counts = opb_core::Counts { error: 2, warning: 0, info: 1 };
        assert_eq!(problems(counts).as_deref(), Some("2 errors and 1 info point"));
        assert_eq!(problems(opb_core::Counts { error: 1, ..Default::default() }).as_deref(), Some("1 error points"));
        assert_eq!(problems(opb_core::Counts::default()), None);
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "file", "files"), "1 file");
        assert_eq!(plural(0, "file", "files"), "0 files");
    }
}
