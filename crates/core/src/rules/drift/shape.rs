//! DR009: the registry text holds a list of tool definitions, each an
//! object with a name, each name once.

use crate::diagnostics::{documented, At, Group, Report, Rule, Severity};
use foldhash::{HashMap, HashMapExt};
use opb_syntax::{Node, Ptr};

pub static DR009: Rule = Rule {
    code: "DR009",
    name: "registry-invalid",
    severity: Severity::Error,
    group: Group::PlaybookDrift,
    summary: documented!("The registry is not a list of tool definitions (nor an object with a `tools` list), or an entry is not an object with a `name`, or two entries share a name. Reported against the registry's text."),
    source: documented!("A registry holds tool definitions \"in the same shape as the embedded ones\": \"name string · required\" (seed 000, the embedded tool definitions); each name resolves to one definition (\"A name resolves against … the runtime's tool registry\", seed 000)."),
    fix: documented!("Write the registry as a list of tool definitions (`[{\"name\": \"charge.history\", …}, …]`) or as `{\"tools\": [...]}`, give every entry a `name`, and keep one entry per name."),
    example: documented!("# registry\ntools:\n  - name: charge.history\n    riskClass: read\n  - riskClass: money        # no name"),
};

/// A named entry: its name, its position in the list and where it starts.
type Entry = (String, usize, usize);

/// The list of definitions and its named entries, the first of each name;
/// `None` when the root holds no list (reported).
pub(crate) fn registry_entries(root: &Node, report: &mut Report) -> Option<(Ptr, Vec<Entry>)> {
    let (list, items) = match (root.as_array(), root.get("tools").and_then(Node::as_array)) {
        (Some(items), _) => (Ptr::root(), items),
        (None, Some(items)) => (Ptr::root().key("tools"), items),
        (None, None) => {
            let (ptr, at, what) = match root.get("tools") {
                Some(tools) => (
                    Ptr::root().key("tools"),
                    At::Value(tools),
                    format!("its `tools` is {}", tools.type_name()),
                ),
                None if root.as_object().is_some() => {
                    (Ptr::root(), At::Missing(root), "it is an object without `tools`".to_owned())
                }
                None => (Ptr::root(), At::Value(root), format!("it is {}", root.type_name())),
            };
            report.push(
                &DR009,
                &ptr,
                at,
                format!("A registry is a list of tool definitions, or an object whose `tools` is that list; {what}, so no tool can be compared."),
            );
            return None;
        }
    };
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut entries = Vec::new();
    for (position, item) in items.iter().enumerate() {
        let ptr = list.index(position);
        if item.as_object().is_none() {
            report.push(
                &DR009,
                &ptr,
                At::Value(item),
                format!(
                    "Registry entry {} is {}, not a tool definition (an object).",
                    position + 1,
                    item.type_name()
                ),
            );
            continue;
        }
        let Some(name_node) = item.get("name") else {
            report.push(
                &DR009,
                &ptr,
                At::Missing(item),
                format!(
                    "Registry entry {} has no `name`, so no embedded tool can be compared with it.",
                    position + 1
                ),
            );
            continue;
        };
        let Some(name) = name_node.as_str().filter(|n| !n.is_empty()) else {
            let what = if name_node.as_str().is_some() {
                "empty".to_owned()
            } else {
                format!("{}, not a string", name_node.type_name())
            };
            report.push(
                &DR009,
                &ptr.key("name"),
                At::Value(name_node),
                format!("Registry entry {}'s `name` is {what}.", position + 1),
            );
            continue;
        };
        match first.get(name) {
            Some(&earlier) => report.push(
                &DR009,
                &ptr.key("name"),
                At::Value(name_node),
                format!("`{name}` is defined again here; entry {} defines it first, and only that one is compared.", earlier + 1),
            ),
            None => {
                first.insert(name, position);
                entries.push((name.to_owned(), position, item.span.start));
            }
        }
    }
    Some((list, entries))
}
