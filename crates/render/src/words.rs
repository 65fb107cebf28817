//! Small pieces of English shared by the renderers: the CLI's, the
//! playground's and the static pages'. Lists and capitals are the core's
//! (`opb_core::prose`).

use opb_core::prose::and_list;

/// `1 error`, `2 errors`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `a, b and c` as the core's sentences say it
/// ([`opb_core::prose::and_list`]); `none` for nothing, where a field of
/// the account would otherwise stand empty.
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        opb_core::prose::and_list(items)
    }
}

/// `2 errors and 1 warning point`: the diagnostics that point into a part
/// of a document; `None` when there are none.
pub fn problems(counts: opb_core::Counts) -> Option<String> {
    let parts: Vec<String> = [
        (counts.error, "error", "errors"),
        (counts.warning, "warning", "warnings"),
        (counts.info, "info", "infos"),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| plural(n, one, many))
    .collect();
    let total = counts.error + counts.warning + counts.info;
    (total > 0)
        .then(|| format!("{} {}", and_list(&parts), if total == 1 { "points" } else { "point" }))
}

/// A diagnostic message split at its backtick code spans, as
/// `(is_code, text)` pieces. Messages are plain text that quotes names and
/// values in backticks; nothing else in them is markup. An unpaired backtick
/// stays literal.
pub fn code_spans(message: &str) -> Vec<(bool, String)> {
    let parts: Vec<&str> = message.split('`').collect();
    let paired = if parts.len() % 2 == 1 { parts.len() } else { parts.len() - 1 };
    let mut pieces: Vec<(bool, String)> = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        if i >= paired {
            let literal = format!("`{part}");
            match pieces.last_mut() {
                Some((false, text)) => text.push_str(&literal),
                _ => pieces.push((false, literal)),
            }
        } else if i % 2 == 1 {
            pieces.push((true, (*part).to_owned()));
        } else if !part.is_empty() {
            pieces.push((false, (*part).to_owned()));
        }
    }
    pieces
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
        assert_eq!(
            problems(opb_core::Counts { error: 1, ..Default::default() }).as_deref(),
            Some("1 error points")
        );
        assert_eq!(problems(opb_core::Counts::default()), None);
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "file", "files"), "1 file");
        assert_eq!(plural(0, "file", "files"), "0 files");
    }

    #[test]
    fn messages_split_at_code_spans() {
        let code = |s: &str| (true, s.to_owned());
        let text = |s: &str| (false, s.to_owned());
        assert_eq!(
            code_spans("The step `a` names `b`."),
            vec![text("The step "), code("a"), text(" names "), code("b"), text(".")]
        );
        assert_eq!(code_spans("`x`"), vec![code("x")]);
        assert_eq!(code_spans("no code"), vec![text("no code")]);
        assert_eq!(code_spans("one ` tick"), vec![text("one ` tick")]);
        assert_eq!(code_spans("`a` and ` b"), vec![code("a"), text(" and ` b")]);
        assert_eq!(code_spans("` b"), vec![text("` b")]);
    }
}
