//! Where the items of a document's lists sit in its text, so a viewer can
//! link what it shows (a step's box, a tool's row) to the lines it came
//! from, and tell which item a diagnostic's pointer is about.

use opb_syntax::text::Span;
use opb_syntax::{Node, Ptr, Value};

/// Items anchored in one list at most, and in the whole document: far above
/// the steps and tools limits, and a bound on what a hostile document of
/// huge lists can make the anchors hold.
const LIST_ITEMS: usize = 20_000;
const DOCUMENT_ITEMS: usize = 100_000;

/// The byte spans of the items of every list at the top of the document or
/// one object below it: `/steps/3`, `/tools/0`, `/requires/connections/1`,
/// a manifest's `/flows/0`. The explain views name these items by the same
/// pointers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Anchors {
    /// Each list's pointer and its items' spans, in document order.
    lists: Vec<(String, Vec<Span>)>,
}

impl Anchors {
    pub(crate) fn new(root: &Node) -> Anchors {
        let mut anchors = Anchors::default();
        let mut budget = DOCUMENT_ITEMS;
        let Value::Object(top) = &root.value else { return anchors };
        let root_ptr = Ptr::root();
        for member in top.unique_members() {
            let at = root_ptr.key(&member.key);
            match &member.value.value {
                Value::Array(items) => anchors.add(at, items, &mut budget),
                Value::Object(inner) => {
                    for nested in inner.unique_members() {
                        if let Value::Array(items) = &nested.value.value {
                            anchors.add(at.key(&nested.key), items, &mut budget);
                        }
                    }
                }
                _ => {}
            }
        }
        anchors
    }

    fn add(&mut self, list: Ptr, items: &[Node], budget: &mut usize) {
        let take = items.len().min(LIST_ITEMS).min(*budget);
        if take == 0 {
            return;
        }
        *budget -= take;
        self.lists
            .push((list.into_string(), items.iter().take(take).map(|item| item.span).collect()));
    }

    /// The list and position of the item `pointer` points at or into.
    fn locate<'p>(&self, pointer: &'p str) -> Option<(&'p str, &[Span], usize)> {
        self.lists.iter().find_map(|(list, spans)| {
            let rest = pointer.strip_prefix(list.as_str())?.strip_prefix('/')?;
            let token = rest.split('/').next().unwrap_or_default();
            let index: usize =
                token.parse().ok().filter(|_| token.bytes().all(|b| b.is_ascii_digit()))?;
            let item_end = list.len() + 1 + token.len();
            Some((pointer.get(..item_end)?, spans.as_slice(), index))
        })
    }

    /// The span of the item at `pointer` (`/steps/3`), or of the item it
    /// points into (`/steps/3/next`).
    pub fn span(&self, pointer: &str) -> Option<Span> {
        let (_, spans, index) = self.locate(pointer)?;
        spans.get(index).copied()
    }

    /// The pointer of the item `pointer` points at or into: `/steps/3` for
    /// `/steps/3/allowedTools/1`. None outside the anchored lists.
    pub fn item<'p>(&self, pointer: &'p str) -> Option<&'p str> {
        let (item, spans, index) = self.locate(pointer)?;
        spans.get(index).map(|_| item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opb_syntax::{parse, Limits, Syntax};

    fn anchors(text: &str, syntax: Syntax) -> Anchors {
        let parsed = parse(text, syntax, &Limits::default());
        Anchors::new(&parsed.root.expect("a document"))
    }

    #[test]
    fn items_of_top_level_and_nested_lists_are_anchored() {
        let text =
            "steps:\n  - id: a\n    kind: gate\n  - id: b\nrequires:\n  secrets:\n    - name: K\n";
        let anchors = anchors(text, Syntax::Yaml);
        let step = anchors.span("/steps/1").expect("the second step");
        assert!(text[step.start..step.end].starts_with("id: b"));
        let secret = anchors.span("/requires/secrets/0").expect("the secret");
        assert_eq!(&text[secret.start..secret.end], "name: K");
        assert_eq!(anchors.item("/steps/0/kind"), Some("/steps/0"));
        assert_eq!(anchors.item("/steps/1"), Some("/steps/1"));
        assert_eq!(anchors.span("/steps/0/kind"), anchors.span("/steps/0"));
    }

    #[test]
    fn pointers_outside_the_lists_find_nothing() {
        let anchors =
            anchors(r#"{"steps": [{"id": "a"}], "stepsx": [], "name": "n"}"#, Syntax::Json);
        for pointer in [
            "",
            "/name",
            "/steps",
            "/steps/1",
            "/steps/01x",
            "/steps/-",
            "/stepsx/0",
            "/steps/+0",
            "/nope/0",
        ] {
            assert_eq!(anchors.item(pointer), None, "{pointer}");
        }
        assert_eq!(anchors.item("/steps/0/id"), Some("/steps/0"));
    }

    #[test]
    fn keys_with_slashes_are_escaped_like_explain_pointers() {
        let anchors = anchors(r#"{"a/b": [1, 2]}"#, Syntax::Json);
        assert_eq!(anchors.item("/a~1b/1"), Some("/a~1b/1"));
    }
}
